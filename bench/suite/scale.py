"""Scale scenarios.

- ``metadata``: one topic of 10,000 partitions (its creation time reported as ``create_s``), then
  Metadata requests for it, back to back, for the run's seconds: requests per second. Every answer must
  list every partition with a leader and no error.
- ``produce across many partitions`` and ``idle connections`` reuse the produce scenario: the first
  with 1,000 partitions, the second with 1,000 extra client connections open and idle (each has had an
  ApiVersions answered, and each must still answer one after the run).
"""

from __future__ import annotations

import socket
import time

from bench.suite.context import Context, Measurement
from bench.suite.payload import VerificationError
from bench.suite.produce import ProduceSpec, produce_scenario
from bench.suite.wire import api_versions, connect

MAX_METADATA_REQUESTS = 10_000


def metadata_scenario(ctx: Context, partitions: int) -> Measurement:
    started = time.perf_counter()
    topic = ctx.topic(partitions, timeout_s=300.0)
    create_s = time.perf_counter() - started
    admin = ctx.admin()
    latencies: list[float] = []
    meter = ctx.meter()
    meter.start()
    deadline = time.perf_counter() + ctx.seconds
    while time.perf_counter() < deadline and len(latencies) < MAX_METADATA_REQUESTS:
        sent = time.perf_counter()
        answer = admin.list_topics(topic, timeout=60).topics[topic]
        latencies.append(time.perf_counter() - sent)
        if answer.error is not None or len(answer.partitions) != partitions:
            raise VerificationError(f"metadata listed {len(answer.partitions)} partitions, error {answer.error}")
        if any(p.leader < 0 or p.error is not None for p in answer.partitions.values()):
            raise VerificationError("metadata has a partition without a leader or with an error")
    usage = meter.stop()
    latencies.sort()
    metrics = {"create_s": create_s, "p50_ms": latencies[len(latencies) // 2] * 1e3, "requests": len(latencies)}
    return Measurement(len(latencies) / usage.wall_s, metrics, usage)


def idle_connections_scenario(ctx: Context, connections: int, spec: ProduceSpec) -> Measurement:
    idle: list[socket.socket] = []
    try:
        for _ in range(connections):
            sock = connect(ctx.bootstrap)
            idle.append(sock)
            api_versions(sock)
        measured = produce_scenario(ctx, spec)
        for sock in idle:
            api_versions(sock)
    except OSError as error:
        raise VerificationError(f"idle connection {len(idle)} of {connections}: {error}") from None
    finally:
        for sock in idle:
            sock.close()
    return measured
