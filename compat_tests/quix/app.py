"""A quixstreams application with a stateful exactly-once step, run by ``compat_tests/test_quixstreams.py`` in
the quixstreams venv (``make quix-venv``) as a subprocess.

It sums each key's ``n`` in its state store (whose changelog topic quixstreams creates compacted) and writes
``{"total": ...}`` per input message to the output topic; it stops after ``--expect`` outputs and prints them as
JSON lines ``{"key": ..., "total": ...}`` on stdout. It imports nothing of Rockafka.
"""

from __future__ import annotations

import argparse
import json
import sys

from quixstreams import Application
from quixstreams.state import State


def add(value: dict[str, int], state: State) -> dict[str, int]:
    total = state.get("total", 0) + value["n"]
    state.set("total", total)
    return {"total": total}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    for name in ("--bootstrap", "--input", "--output", "--group", "--state-dir"):
        parser.add_argument(name, required=True)
    parser.add_argument("--expect", type=int, required=True)
    parser.add_argument("--commit-every", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args(argv)
    app = Application(
        broker_address=args.bootstrap,
        consumer_group=args.group,
        state_dir=args.state_dir,
        processing_guarantee="exactly-once",
        auto_offset_reset="earliest",
        commit_every=args.commit_every,
    )
    source = app.topic(args.input, key_deserializer="str", value_deserializer="json")
    sink = app.topic(args.output, key_serializer="str", value_serializer="json")
    frame = app.dataframe(source).apply(add, stateful=True).to_topic(sink)
    outputs = app.run(frame, count=args.expect, timeout=args.timeout, metadata=True)
    for output in outputs:
        print(json.dumps({"key": output["_key"], "total": output["total"]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
