"""``python -m bench.cluster [--mib 256] [--rounds 3] [--partitions 8] [--creations 120]``: what clustering costs.

In one run, on this machine, beside a single broker (issue 18, "How it is checked"):

- **data path**: confluent-kafka produces ``--mib`` MiB of 1 KiB records (acks=1, no compression) to a
  ``--partitions``-partition topic, then a consumer (assigned every partition, no group) reads them all back;
  once through one ``rockafka serve`` and once through a 2-group cluster (``rockafka.testing.Cluster``, the
  topic spread over both groups), alternating for ``--rounds`` rounds on fresh brokers. Throughput is MB/s of
  record values over wall time; broker CPU is user+system seconds of the broker processes from
  ``/proc/<pid>/stat`` over the phase, per GB of values; and the same less what the brokers use idle (their
  timers: each process's idle rate, measured over ``IDLE_S`` just before, times the phase's wall time), since
  the cluster runs two processes for the one broker's one. The target is the cluster's CPU per GB within 10% of
  the single broker's (the ratio is the figure; medians of the rounds). Every broker, the single one too, has an
  HTTP listener (the same request metering on both); its ``/metrics`` also give the Produce and Fetch requests
  answered per GB (the cluster's brokers each answer requests carrying their own partitions only).
- **etcd requests on the data path**: each cluster broker's ``rockafka_etcd_requests_total`` (``/metrics``,
  cluster/etcd_requests.py) is read before and after the produce and consume phases; every kind but the
  lease's keep-alive (a timer, every third of the TTL) must not move: the figure is their sum, target 0.
- **metadata propagation**: ``--creations`` topics are created one after the other by CreateTopics sent to
  the brokers in turn; from the moment the answer arrives, every broker is asked for the topic's Metadata
  (allow_auto_topic_creation false) until each lists it with a leader. The time until the last one does is
  that creation's propagation (an upper bound: brokers are asked in turn); p50/p99/max, target p99 <= 200 ms.

Prints each round and writes ``bench/results/cluster.md``. Every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from confluent_kafka import OFFSET_BEGINNING, Consumer, Producer, TopicPartition  # type: ignore[attr-defined]
from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]

from bench import write_table
from compat_tests.brokerproc import free_port
from compat_tests.test_cluster_etcd_requests import etcd_request_counts, metrics_text
from rockafka.cluster.etcd_requests import KEEPALIVE
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.create_topics import CreatableTopic, CreateTopicsRequest, CreateTopicsResponse
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse
from rockafka.testing import Broker, Cluster
from rockafka.wire_client import WireClient

RECORD_BYTES = 1024
IDLE_S = 5.0
WARM_UP_RECORDS = 1000
GROUPS = 2
WAIT_S = 120.0
VISIBLE_WAIT_S = 10.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True, slots=True)
class Phase:
    """One produce or consume phase: wall seconds, broker CPU seconds, and the CPU seconds the brokers would have
    used idle meanwhile (their idle rate, measured just before, times the wall time)."""

    wall_s: float
    cpu_s: float
    idle_cpu_s: float
    requests: int
    """Produce (or Fetch) requests the brokers answered meanwhile, from their ``/metrics``."""


def cpu_seconds(pids: Sequence[int]) -> float:
    """User plus system CPU seconds the processes have used (``/proc/<pid>/stat`` fields 14 and 15)."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICKS


def idle_rate(pids: Sequence[int]) -> float:
    """CPU seconds per second the brokers use doing nothing (timers, flushes, lease keep-alives), over IDLE_S."""
    cpu = cpu_seconds(pids)
    time.sleep(IDLE_S)
    return (cpu_seconds(pids) - cpu) / IDLE_S


def answered(http_addresses: Sequence[str], request: str) -> int:
    """How many ``request`` requests (every version) the brokers have answered, from their ``/metrics``."""
    prefix = f'kafka_network_requestmetrics_requests_total{{request="{request}"'
    return sum(
        int(float(line.rsplit(" ", 1)[1]))
        for address in http_addresses
        for line in metrics_text(address).splitlines()
        if line.startswith(prefix)
    )


def measured(pids: Sequence[int], http: Sequence[str], request: str, work: Callable[[], None], idle: float) -> Phase:
    requests = answered(http, request)
    cpu, started = cpu_seconds(pids), time.monotonic()
    work()
    wall, cpu = time.monotonic() - started, cpu_seconds(pids) - cpu
    return Phase(wall, cpu, idle * wall, answered(http, request) - requests)


def produce(bootstrap: str, topic: str, count: int) -> None:
    producer = Producer(
        {"bootstrap.servers": bootstrap, "acks": "1", "linger.ms": 5, "queue.buffering.max.messages": 500_000}
    )
    value = os.urandom(RECORD_BYTES)
    failed: list[str] = []

    def delivered(error: object, _message: object) -> None:
        if error is not None:
            failed.append(str(error))

    for _ in range(count):
        while True:
            try:
                producer.produce(topic, value, on_delivery=delivered)
                break
            except BufferError:
                producer.poll(0.05)
    if producer.flush(WAIT_S) or failed:
        raise RuntimeError(f"produce to {topic} failed: {failed[:3] or 'flush timed out'}")


def consume(bootstrap: str, topic: str, partitions: int, count: int) -> None:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "bench-cluster", "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(partitions)])
    read, deadline = 0, time.monotonic() + WAIT_S
    try:
        while read < count and time.monotonic() < deadline:
            for message in consumer.consume(10_000, 1.0):
                if message.error() is None:
                    read += 1
    finally:
        consumer.close()
    if read < count:
        raise RuntimeError(f"read {read} of {count} records of {topic} within {WAIT_S}s")


def new_topic(bootstrap: str, topic: str, partitions: int) -> None:
    """Create ``topic`` and wait until every broker of ``bootstrap`` lists it."""
    admin = AdminClient({"bootstrap.servers": bootstrap})  # kept referenced until the result is in
    admin.create_topics([NewTopic(topic, partitions, 1)])[topic].result(timeout=WAIT_S)
    wait_visible(bootstrap.split(","), topic)


def warm_up(bootstrap: str) -> None:
    """Produce and consume a few records of a topic of their own first: the consumer's FindCoordinator creates
    ``__consumer_offsets`` (in a cluster: in etcd) once, before anything is measured or counted."""
    new_topic(bootstrap, "bench-warm-up", 1)
    produce(bootstrap, "bench-warm-up", WARM_UP_RECORDS)
    consume(bootstrap, "bench-warm-up", 1, WARM_UP_RECORDS)


def data_path(
    bootstrap: str, pids: Sequence[int], http: Sequence[str], topic: str, partitions: int, count: int
) -> tuple[Phase, Phase]:
    idle = idle_rate(pids)
    return (
        measured(pids, http, "Produce", lambda: produce(bootstrap, topic, count), idle),
        measured(pids, http, "Fetch", lambda: consume(bootstrap, topic, partitions, count), idle),
    )


def visible(client: WireClient, topic: str) -> bool:
    request = MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False)
    found = client.request(request, 12, MetadataResponse).topics
    return bool(found) and found[0].error_code == ErrorCode.NONE and all(p.leader_id >= 0 for p in found[0].partitions)


def wait_visible(addresses: Sequence[str], topic: str) -> None:
    clients = [WireClient(address) for address in addresses]
    try:
        seconds_until_visible(clients, topic)
    finally:
        for client in clients:
            client.close()


def seconds_until_visible(clients: Sequence[WireClient], topic: str) -> float:
    """Ask each broker in turn until every one lists ``topic`` with leaders; the seconds that took."""
    started = time.monotonic()
    waiting = list(clients)
    while waiting:
        waiting = [client for client in waiting if not visible(client, topic)]
        if waiting and time.monotonic() - started > VISIBLE_WAIT_S:
            raise RuntimeError(f"{topic} not visible on every broker within {VISIBLE_WAIT_S}s")
    return time.monotonic() - started


def propagation(addresses: Sequence[str], creations: int) -> tuple[list[float], list[float]]:
    """Per creation: seconds CreateTopics took to answer, and seconds from the answer until every broker lists it."""
    clients = [WireClient(address, timeout_s=WAIT_S) for address in addresses]
    answers, spreads = [], []
    try:
        for index in range(creations):
            topic = f"propagation-{index}"
            request = CreateTopicsRequest(
                topics=[CreatableTopic(name=topic, num_partitions=1, replication_factor=1)], timeout_ms=30_000
            )
            sent = time.monotonic()
            created = clients[index % len(clients)].request(request, 5, CreateTopicsResponse).topics[0]
            answers.append(time.monotonic() - sent)
            if created.error_code != ErrorCode.NONE:
                raise RuntimeError(f"CreateTopics {topic}: {ErrorCode(created.error_code).name}")
            spreads.append(seconds_until_visible(clients, topic))
    finally:
        for client in clients:
            client.close()
    return answers, spreads


def etcd_requests(http_addresses: Sequence[str]) -> dict[str, int]:
    """``rockafka_etcd_requests_total`` by kind, summed over the brokers' ``/metrics``."""
    counts: dict[str, int] = {}
    for address in http_addresses:
        for kind, count in etcd_request_counts(address).items():
            counts[kind] = counts.get(kind, 0) + count
    return counts


def moved(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {kind: after.get(kind, 0) - before.get(kind, 0) for kind in sorted(after.keys() | before.keys())}


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def single_round(args: argparse.Namespace, count: int) -> tuple[Phase, Phase]:
    http = f"127.0.0.1:{free_port()}"  # as the cluster's brokers: the same request metering on both
    with Broker(subprocess=True, settings={"rockafka.http.listener": http}) as broker:
        pid = broker._runner._process.pid  # type: ignore[union-attr]
        metrics_text(http)
        warm_up(broker.bootstrap)
        new_topic(broker.bootstrap, "bench-single", args.partitions)
        return data_path(broker.bootstrap, [pid], [http], "bench-single", args.partitions, count)


def cluster_round(args: argparse.Namespace, count: int, figures: dict[str, object]) -> tuple[Phase, Phase]:
    http = [f"127.0.0.1:{free_port()}" for _ in range(GROUPS)]
    cluster = Cluster(groups=GROUPS, lease_ttl_ms=6000)
    for address, broker in zip(http, cluster.brokers.values(), strict=True):
        broker.settings["rockafka.http.listener"] = address
    with cluster:
        pids = [broker._runner._process.pid for broker in cluster.brokers.values()]  # type: ignore[union-attr]
        warm_up(cluster.bootstrap)
        new_topic(cluster.bootstrap, "bench-cluster", args.partitions)
        for address in http:
            metrics_text(address)  # the HTTP listener opens just after the broker joins
        before = etcd_requests(http)
        phases = data_path(cluster.bootstrap, pids, http, "bench-cluster", args.partitions, count)
        counts = moved(before, etcd_requests(http))
        figures.setdefault("etcd", []).append(counts)  # type: ignore[union-attr]
        if "propagation" not in figures:
            figures["propagation"] = propagation(cluster.bootstrap.split(","), args.creations)
        return phases


def per_gb(phase: Phase, count: int) -> float:
    return phase.cpu_s / (count * RECORD_BYTES / 1e9)


def mb_s(phase: Phase, count: int) -> float:
    return count * RECORD_BYTES / 1e6 / phase.wall_s


def busy_per_gb(phase: Phase, count: int) -> float:
    return (phase.cpu_s - phase.idle_cpu_s) / (count * RECORD_BYTES / 1e9)


def requests_per_gb(phase: Phase, count: int) -> float:
    return phase.requests / (count * RECORD_BYTES / 1e9)


#: The columns of the data path rows: how each is computed from one phase (produce, then consume).
FIGURES: Final = (
    (mb_s, mb_s),
    (per_gb, per_gb),
    (busy_per_gb, busy_per_gb),
    (requests_per_gb, requests_per_gb),
)


def data_rows(rounds: list[tuple[str, Phase, Phase]], count: int) -> list[list[str]]:
    """Per configuration the medians of every figure, then the cluster's over the single broker's."""
    medians: list[list[float]] = []
    for what in ("single broker", f"{GROUPS}-group cluster"):
        mine = [(p, c) for name, p, c in rounds if name == what]
        medians.append(
            [statistics.median(figure(phase, count) for phase in (p if i == 0 else c for p, c in mine))
             for pair in FIGURES for i, figure in enumerate(pair)]
        )  # fmt: skip
    names = ("single broker", f"{GROUPS}-group cluster")
    rows = [[what, *(f"{value:.2f}" for value in values)] for what, values in zip(names, medians, strict=True)]
    rows.append(["cluster / single", *(f"{c / s:.2f}" for s, c in zip(*medians, strict=True))])
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cluster", description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=256, help="MiB of 1 KiB records per phase")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--creations", type=int, default=120)
    args = parser.parse_args(argv)
    count = args.mib * 1024 * 1024 // RECORD_BYTES
    rounds: list[tuple[str, Phase, Phase]] = []
    figures: dict[str, object] = {}
    for number in range(1, args.rounds + 1):
        rounds.append(("single broker", *single_round(args, count)))
        rounds.append((f"{GROUPS}-group cluster", *cluster_round(args, count, figures)))
        for name, produced, consumed in rounds[-2:]:
            print(f"round {number} {name}: produce {mb_s(produced, count):.1f} MB/s {per_gb(produced, count):.1f} "
                  f"CPU s/GB; consume {mb_s(consumed, count):.1f} MB/s {per_gb(consumed, count):.1f} CPU s/GB",
                  flush=True)  # fmt: skip
    answers, spreads = figures["propagation"]  # type: ignore[misc]
    etcd: list[dict[str, int]] = figures["etcd"]  # type: ignore[assignment]
    data_path_requests = sum(n for counts in etcd for kind, n in counts.items() if kind != KEEPALIVE)
    keepalives = sum(counts.get(KEEPALIVE, 0) for counts in etcd)
    kinds = {kind: n for counts in etcd for kind, n in counts.items() if kind != KEEPALIVE and n}
    rows = data_rows(rounds, count)
    rows += [
        ["metadata propagation, ms (p50 / p99 / max)",
         f"{1000 * percentile(spreads, 0.5):.1f} / {1000 * percentile(spreads, 0.99):.1f} / {1000 * max(spreads):.1f}",
         f"CreateTopics answered in {1000 * percentile(answers, 0.5):.1f} / {1000 * percentile(answers, 0.99):.1f} ms",
         f"{len(spreads)} creations"],
        ["etcd requests during produce and consume", f"{data_path_requests} {kinds or ''}".strip(),
         f"lease keep-alives meanwhile: {keepalives}", f"{args.rounds} rounds, {GROUPS} brokers"],
    ]  # fmt: skip
    header = [
        "",
        "produce MB/s",
        "consume MB/s",
        "produce broker CPU s/GB",
        "consume broker CPU s/GB",
        "produce, less idle",
        "consume, less idle",
        "Produce requests/GB",
        "Fetch requests/GB",
    ]
    rows = [row + [""] * (len(header) - len(row)) for row in rows]
    note = (
        f"Medians of {args.rounds} rounds of {args.mib} MiB of 1 KiB records, {args.partitions} partitions, "
        f"confluent-kafka acks=1, on this machine ({os.cpu_count()} cores, shared), "
        f"`python -m bench.cluster {' '.join(argv)}`. Targets: cluster CPU/GB within 10% of the single broker's; "
        "propagation p99 <= 200 ms; etcd requests on the data path 0 (lease keep-alives are a timer)."
    )
    write_table("cluster", "A 2-group cluster beside one broker", note, header, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
