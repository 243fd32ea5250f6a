"""Build script: maps the source folders into the ``rockafka`` namespace and builds the Cython kernels.

The top-level folders (``facade/``, ``store/``, ``core_pyx/``, ``pipeline/``, ``cluster/``) install as
``rockafka.facade``, ``rockafka.store``, ``rockafka.core_pyx``, ``rockafka.pipeline`` and ``rockafka.cluster`` through
``package_dir``; editable and regular installs both go through this mapping.

Environment:
    ROCKAFKA_DEBUG_BUILD=1   annotate HTML, line tracing and debug asserts (``make debug``)
    ROCKAFKA_NO_EXTENSIONS=1 build nothing compiled (the pure-Python twins are used)
    ROCKAFKA_REQUIRE_EXTENSIONS=1 a kernel that does not compile fails the build (``make compile``: a
                             developer's C error must not leave an old or no extension behind)

Where no C compiler works, the install goes on without the kernels, printing one warning: the pure-Python twins
run instead (a much slower broker, which says so in a WARNING line at start; ``rockafka.core_pyx.FALLBACKS``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent.resolve()
SOURCE_FOLDERS = {
    "rockafka": "rockafka",
    "rockafka.facade": "facade",
    "rockafka.store": "store",
    "rockafka.core_pyx": "core_pyx",
    "rockafka.pipeline": "pipeline",
    "rockafka.cluster": "cluster",
}


def _package_dir() -> tuple[list[str], dict[str, str]]:
    packages: list[str] = []
    mapping: dict[str, str] = {}
    for name, folder in SOURCE_FOLDERS.items():
        packages.append(name)
        mapping[name] = folder
        for sub in find_packages(where=str(HERE / folder)):
            packages.append(f"{name}.{sub}")
            mapping[f"{name}.{sub}"] = f"{folder}/{sub.replace('.', '/')}"
    return packages, mapping


def _cython_include_tree() -> str:
    """A tree where ``rockafka/core_pyx`` names the ``core_pyx/`` folder, so kernels can
    ``from rockafka.core_pyx._x cimport ...`` each other although the folder is not under ``rockafka/``."""
    root = HERE / "build" / "cython_include"
    package = root / "rockafka"
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.pxd").touch()
    link = package / "core_pyx"
    if not link.is_symlink():
        link.symlink_to(HERE / "core_pyx", target_is_directory=True)
    return str(root)


def _extensions() -> list[Extension]:
    if os.environ.get("ROCKAFKA_NO_EXTENSIONS") == "1":
        return []
    from Cython.Build import cythonize

    debug = os.environ.get("ROCKAFKA_DEBUG_BUILD") == "1"
    macros = [("CYTHON_TRACE", "1"), ("CYTHON_TRACE_NOGIL", "1"), ("ROCKAFKA_DEBUG", "1")] if debug else []
    cflags = ["-O2", "-msse4.2"] if os.uname().machine in ("x86_64", "AMD64") else ["-O2"]
    extensions = [
        Extension(
            f"rockafka.core_pyx.{pyx.stem}",
            [f"core_pyx/{pyx.name}"],
            include_dirs=["core_pyx"],
            define_macros=macros,
            extra_compile_args=cflags,
        )
        for pyx in sorted((HERE / "core_pyx").glob("*.pyx"))
    ]
    directives = {"language_level": "3", "boundscheck": debug, "wraparound": False, "cdivision": True}
    if debug:
        directives["linetrace"] = True
    return cythonize(
        extensions,
        compiler_directives=directives,
        annotate=debug,
        include_path=[_cython_include_tree(), "core_pyx"],
        quiet=True,
    )


class OptionalBuildExt(build_ext):
    """Builds the kernels; where that fails (no compiler, no Python headers), installs without them, warning once."""

    def run(self) -> None:
        if os.environ.get("ROCKAFKA_REQUIRE_EXTENSIONS") == "1":
            super().run()
            return
        try:
            super().run()
        except Exception as exc:  # setuptools raises its own or distutils' errors, depending on its version
            _warn_pure(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            if os.environ.get("ROCKAFKA_REQUIRE_EXTENSIONS") == "1":
                raise
            _warn_pure(exc)
            raise _SkipRemaining from exc


class _SkipRemaining(Exception):
    """One kernel did not compile: the others are not tried (the twins are all or nothing at import anyway)."""


def _warn_pure(exc: BaseException) -> None:
    if isinstance(exc, _SkipRemaining):
        return
    print(
        f"WARNING: rockafka's Cython kernels could not be compiled ({exc}); installing without them: the "
        "pure-Python twins run instead, much slower. Install a C compiler and the Python headers, then reinstall.",
        file=sys.stderr,
    )


packages, package_dir = _package_dir()
setup(
    packages=packages,
    package_dir=package_dir,
    package_data={
        "rockafka.core_pyx": ["*.pxd", "*.pyi", "*.h", "py.typed"],
        "rockafka": ["py.typed"],
        "rockafka.facade.console": ["static/*"],
    },
    ext_modules=_extensions(),
    cmdclass={"build_ext": OptionalBuildExt},
)
