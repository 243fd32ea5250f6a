"""Cython kernels of Rockafka, each with a pure-Python twin.

Every kernel ``X`` is four files: ``_X.pxd`` (its C-level API, for other kernels to ``cimport``),
``_X.pyx`` (the compiled implementation), ``_X.pyi`` (the typed Python surface) and ``_X_py.py``
(the pure-Python twin, same names, same behaviour). Callers never import either twin directly: they
import the public module ``X`` (for example ``rockafka.core_pyx.recordbatch``), which binds its names
through :func:`kernel`, the one place where the choice is made.

``ROCKAFKA_NO_EXTENSIONS=1`` forces the pure twins. Without it, a compiled twin that fails to import
falls back to the pure one with one WARNING line (a much slower broker) and its name in :data:`FALLBACKS`,
which the broker's metrics export; the test suite asserts that the compiled twins loaded.

This package imports nothing else of the project.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
from types import ModuleType
from typing import Final

NO_EXTENSIONS: Final[bool] = os.environ.get("ROCKAFKA_NO_EXTENSIONS", "") == "1"
FALLBACKS: list[str] = []
"""Kernels whose compiled twin failed to import, so their pure twin runs (not those forced pure)."""


def kernel(name: str) -> ModuleType:
    """Return the compiled twin of kernel ``name`` (e.g. ``"_varint"``), or its pure twin."""
    if not NO_EXTENSIONS:
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ImportError as exc:
            FALLBACKS.append(name)
            logging.getLogger(__name__).warning(
                "kernel %s: the compiled twin did not import (%s); running the much slower pure-Python twin", name, exc
            )
    return importlib.import_module(f"{__name__}.{name}_py")


def twins(name: str) -> dict[str, ModuleType]:
    """Both twins of a kernel that can be imported here, keyed ``"compiled"`` and ``"pure"`` (for tests)."""
    found = {"pure": importlib.import_module(f"{__name__}.{name}_py")}
    with contextlib.suppress(ImportError):
        found["compiled"] = importlib.import_module(f"{__name__}.{name}")
    return found


def is_compiled(module: ModuleType) -> bool:
    """True when ``module`` is a compiled extension rather than a pure-Python twin."""
    return not module.__name__.endswith("_py")
