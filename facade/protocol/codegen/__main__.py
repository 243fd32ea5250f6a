"""``python -m rockafka.facade.protocol.codegen --specs DIR --out DIR [--hot-out DIR]``: regenerate the protocol
messages (and the hot-message codec)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import SPEC_COMMIT, SpecError, generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rockafka.facade.protocol.codegen", description=__doc__)
    parser.add_argument("--specs", type=Path, required=True, help="folder of Kafka's *.json message specs")
    parser.add_argument("--out", type=Path, required=True, help="folder to write the generated modules to")
    parser.add_argument("--hot-out", type=Path, help="folder to write the hot-message codec to (core_pyx)")
    parser.add_argument("--newer-specs", type=Path, help="folder of specs from later Kafka commits, replacing those")
    parser.add_argument("--commit", default=SPEC_COMMIT, help="apache/kafka commit the specs come from")
    args = parser.parse_args(argv)
    try:
        changed = generate(args.specs, args.out, args.commit, args.hot_out, args.newer_specs)
    except (SpecError, OSError) as exc:
        print(f"codegen: {exc}", file=sys.stderr)
        return 1
    places = f"{args.out}" + (f" and {args.hot_out}" if args.hot_out is not None else "")
    print(f"codegen: {len(changed)} file(s) written or removed in {places}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
