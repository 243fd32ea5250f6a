"""Every scenario of the suite, by name: what it measures, its unit, and which way is better.

Names follow the peer's anchors (shared/reference/perf_anchors.md) so figures compare line by line.
``machine`` scenarios (baselines) run once per repetition, without a broker; the ``baseline-rtt-ceiling``
ones are listed after the round trips they bound so that they run beside them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from bench.suite.baselines import loopback_scenario, seqwrite_scenario
from bench.suite.ceiling import ceiling_scenario
from bench.suite.consume import consume_scenario
from bench.suite.context import Context, Measurement
from bench.suite.groups import rebalance_scenario
from bench.suite.latency import e2e_scenario, rtt_scenario
from bench.suite.produce import ProduceSpec, produce_scenario
from bench.suite.scale import idle_connections_scenario, metadata_scenario


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    unit: str
    higher_is_better: bool
    run: Callable[[Context], Measurement]
    summary: str
    machine: bool = False


def _produce(size: int, acks: str, compression: str, partitions: int) -> Scenario:
    size_name = "100B" if size == 100 else "1KiB"
    acks_name = "acks1" if acks == "1" else "acksall"
    name = f"produce-{size_name}-{acks_name}-{compression}" + ("" if partitions == 8 else f"-p{partitions}")
    spec = ProduceSpec(size, acks, compression, partitions)
    summary = f"librdkafka producer, {size} B values, acks={acks}, {compression}, {partitions} partitions"
    return Scenario(name, "msg/s", True, partial(produce_scenario, spec=spec), summary)


def _all() -> list[Scenario]:
    out = [Scenario("baseline-seqwrite", "MB/s", True, seqwrite_scenario, "256 MiB, 1 MiB writes, fdatasync", True)]
    out.append(Scenario("baseline-loopback", "MB/s", True, loopback_scenario, "loopback TCP, 1 MiB sendall", True))
    out += [_produce(s, a, c, 8) for s in (100, 1024) for a in ("1", "all") for c in ("none", "lz4")]
    out += [_produce(100, "1", "none", 64), _produce(1024, "all", "none", 64)]
    for size, messages in ((100, 1_000_000), (1024, 250_000)):
        label = "100B" if size == 100 else "1KiB"
        for group in (True, False):
            how = "group (subscribe)" if group else "assign"
            out.append(
                Scenario(
                    f"consume-{label}" + ("" if group else "-assign"),
                    "msg/s",
                    True,
                    partial(consume_scenario, value_size=size, partitions=8, messages=messages, group=group),
                    f"librdkafka consumer, {how}, {messages:,} x {size} B from earliest, 8 partitions",
                )
            )
    out.append(
        Scenario(
            "e2e-100B-2k",
            "p99 ms",
            False,
            partial(e2e_scenario, rate=2000, partitions=8),
            "2,000 msg/s, acks=all, linger 0, 8 partitions: end-to-end latency",
        )
    )
    out.append(
        Scenario(
            "e2e-100B-2k-fw10",
            "p99 ms",
            False,
            partial(e2e_scenario, rate=2000, partitions=8, fetch_wait_ms=10),
            "as e2e-100B-2k with fetch.wait.max.ms=10",
        )
    )
    for acks, label in ((1, "acks1"), ("all", "acksall")):
        out.append(
            Scenario(
                f"rtt-aiokafka-{label}",
                "req/s",
                True,
                partial(rtt_scenario, acks=acks),
                f"aiokafka send_and_wait, one 100 B message at a time, acks={acks}",
            )
        )
    for client_loop in ("asyncio", "uvloop"):
        suffix = "" if client_loop == "asyncio" else f"-{client_loop}"
        if suffix:
            out.append(
                Scenario(
                    f"rtt-aiokafka-acks1{suffix}",
                    "req/s",
                    True,
                    partial(rtt_scenario, acks=1, client_loop=client_loop),
                    "as rtt-aiokafka-acks1 with the client on uvloop",
                )
            )
        out.append(
            Scenario(
                f"baseline-rtt-ceiling{suffix}",
                "req/s",
                True,
                partial(ceiling_scenario, client_loop=client_loop),
                f"as rtt-aiokafka-acks1{suffix} against a responder that only answers: the client's ceiling",
                True,
            )
        )
    out.append(
        Scenario(
            "rebalance-8p",
            "s",
            False,
            partial(rebalance_scenario, partitions=8),
            "B joins A's group of 8 partitions: until the split is done",
        )
    )
    out.append(
        Scenario(
            "metadata-10k",
            "req/s",
            True,
            partial(metadata_scenario, partitions=10_000),
            "Metadata of one 10,000-partition topic, back to back",
        )
    )
    out.append(_produce(1024, "1", "none", 1000))
    idle_spec = ProduceSpec(1024, "1", "none", 8)
    out.append(
        Scenario(
            "produce-1KiB-acks1-none-idle1000",
            "msg/s",
            True,
            partial(idle_connections_scenario, connections=1000, spec=idle_spec),
            "as produce-1KiB-acks1-none, with 1,000 idle connections open",
        )
    )
    return out


SCENARIOS: dict[str, Scenario] = {s.name: s for s in _all()}
