"""Run every benchmark module of this package in turn (``python -m bench`` / ``make bench``)."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bench


def main(argv: list[str]) -> int:
    status = 0
    for info in sorted(pkgutil.iter_modules(bench.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"bench.{info.name}")
        run = getattr(module, "main", None)
        if run is None:
            continue
        print(f"== bench.{info.name}", flush=True)
        status |= int(run(argv) or 0)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
