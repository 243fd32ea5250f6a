"""Broker benchmarks: librdkafka and aiokafka load against Rockafka and the peer (Tansu, memory engine), run
side by side and interleaved, every figure verified by reading back what was sent. See ``cli`` for use
and docs/performance.md for the method."""

from __future__ import annotations


def main(argv: list[str]) -> int:
    """``python -m bench.suite ARGS``; imported late so that the payload checks load without the bench extra."""
    from bench.suite.cli import main as cli_main

    return cli_main(argv)


__all__ = ["main"]
