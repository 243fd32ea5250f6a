"""``python -m bench`` / ``make bench``: with no arguments, run every benchmark module of this package in
turn (``bench.codec``, ``bench.store``, the broker suite ``bench.suite``, ...). With arguments, run only the
broker suite with them (``python -m bench --list``, ``python -m bench -s produce-1KiB-acks1-none --reps 1``;
see ``python -m bench.suite --help``). ``python -m bench.X`` runs module X alone."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bench


def main(argv: list[str]) -> int:
    if argv:
        from bench.suite import main as suite_main

        return suite_main(argv)
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
