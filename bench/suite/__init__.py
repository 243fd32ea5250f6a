"""Broker benchmarks: librdkafka and aiokafka load against Rockafka and the peer (Tansu, memory engine), run
side by side and interleaved, every figure verified by reading back what was sent. See ``cli`` for use
and docs/performance.md for the method."""

from __future__ import annotations

from bench.suite.cli import main

__all__ = ["main"]
