"""``/metrics``: the broker's counters and state in Prometheus' text format, through ``prometheus-client``.

A scrape has two steps. :func:`take_snapshot` reads what the broker knows on the event loop, in slices of
``SLICE_PARTITIONS`` partitions with a yield to the loop between them, so requests are served meanwhile: the
counters of ``metrics.py`` (copied), the connections, the store's :meth:`~rockafka.store.MessageStore.stats`,
the topics, and the consumer lag of every committed partition (high watermark minus committed offset, from
the ConsumeQueue's end: no records are read). Then :func:`render` turns the snapshot into text in a worker
thread, through a ``CollectorRegistry`` of its own (never the process-wide default: several brokers may run
in one process). A scrape costs O(topics + committed partitions + connections).

The names follow Kafka's JMX metrics in the form Prometheus' JMX exporter gives them, where Kafka has one;
``docs/operations.md`` has the table with each Kafka counterpart. Rockafka's own (the store) start ``rockafka_``.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from rockafka.cluster.etcd_requests import etcd_requests
from rockafka.core_pyx import FALLBACKS
from rockafka.store import FLUSH_BUCKETS, MessageStore, StoreError, StoreStats

from ..legacy import CONVERSIONS, ConversionMeter
from ..protocol.error_codes import ErrorCode
from ..protocol.messages import API_SPECS
from ..server import ConnectionInfo
from .metrics import LATENCY_BUCKETS, BrokerMetrics

#: Partitions read between two yields to the event loop while taking a snapshot.
SLICE_PARTITIONS = 100


@dataclass(frozen=True, slots=True)
class Lag:
    group: str
    topic: str
    partition: int
    committed: int
    lag: int


@dataclass(slots=True)
class Snapshot:
    """Everything one scrape exports, copied on the event loop."""

    topics: dict[str, tuple[int, int, int, int, int]] = field(default_factory=dict)
    """Per topic: messages in, bytes in, bytes out, produce requests, fetch requests."""
    requests: dict[tuple[int, int], tuple[int, float, list[int]]] = field(default_factory=dict)
    errors: dict[tuple[int, int], int] = field(default_factory=dict)
    connections: dict[tuple[str, str], int] = field(default_factory=dict)
    lags: list[Lag] = field(default_factory=list)
    partition_count: int = 0
    stats: StoreStats | None = None
    page_cache_bytes: int = 0
    ready: bool = False
    conversions: ConversionMeter = field(default_factory=ConversionMeter)
    """Message-format conversion so far (old clients' Produce v0-2 and Fetch v0-3), copied from the process's meter."""
    etcd_requests: dict[str, int] = field(default_factory=dict)
    """Requests this process sent to etcd, by kind (none for a single broker)."""


async def take_snapshot(
    metrics: BrokerMetrics, store: MessageStore, connections: Iterable[ConnectionInfo], *, ready: bool
) -> Snapshot:
    window = store.config.commitlog_cache_bytes
    snapshot = Snapshot(ready=ready, page_cache_bytes=-1 if window is None else window)
    for name, c in metrics.topics.items():
        snapshot.topics[name] = (c.messages_in, c.bytes_in, c.bytes_out, c.produce_requests, c.fetch_requests)
    for key, times in metrics.requests.items():
        snapshot.requests[(key >> 16, key & 0xFFFF)] = (times.count, times.seconds, list(times.buckets))
    snapshot.errors = dict(metrics.errors)
    snapshot.conversions = dataclasses.replace(CONVERSIONS)
    snapshot.etcd_requests = etcd_requests()
    for connection in connections:
        where = (connection.listener_name, connection.security_protocol)
        snapshot.connections[where] = snapshot.connections.get(where, 0) + 1
    snapshot.stats = store.stats()
    if snapshot.stats.offline_reason is None and not snapshot.stats.closed:
        try:
            snapshot.partition_count = sum(topic.partitions for topic in store.topics.list())
            await _read_lags(store, snapshot.lags)
        except StoreError:
            pass  # went offline meanwhile: exported as such by the store's gauges
    return snapshot


async def _read_lags(store: MessageStore, lags: list[Lag]) -> None:
    read = 0
    for group in store.offsets.groups():
        for where, committed in store.offsets.fetch(group).items():
            try:
                end = store.records.partition_bounds(where.topic, where.partition).high_watermark
            except StoreError:
                continue  # a deleted topic's offsets, kept until they expire
            lags.append(Lag(group, where.topic, where.partition, committed.offset, max(0, end - committed.offset)))
            read += 1
            if read % SLICE_PARTITIONS == 0:
                await asyncio.sleep(0)


def render(snapshot: Snapshot) -> bytes:
    """The snapshot in Prometheus' text format (run in a worker thread: it touches no broker state)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_SnapshotCollector(snapshot))
    return generate_latest(registry)


class _SnapshotCollector(Collector):
    def __init__(self, snapshot: Snapshot) -> None:
        self._snapshot = snapshot

    def collect(self) -> Iterator[Metric]:
        yield from _topic_metrics(self._snapshot)
        yield from _request_metrics(self._snapshot)
        yield from _group_metrics(self._snapshot)
        yield from _store_metrics(self._snapshot)
        yield from _conversion_metrics(self._snapshot.conversions)
        yield _etcd_metric(self._snapshot.etcd_requests)


_TOPIC_COUNTERS = (
    ("kafka_server_brokertopicmetrics_messages_in", "Messages appended (Kafka: MessagesInPerSec)"),
    ("kafka_server_brokertopicmetrics_bytes_in", "Bytes of record batches appended (Kafka: BytesInPerSec)"),
    ("kafka_server_brokertopicmetrics_bytes_out", "Bytes of record batches fetched (Kafka: BytesOutPerSec)"),
    ("kafka_server_brokertopicmetrics_total_produce_requests", "Produce requests, per partition appended to"),
    ("kafka_server_brokertopicmetrics_total_fetch_requests", "Fetch requests naming the topic"),
)


def _topic_metrics(snapshot: Snapshot) -> Iterator[Metric]:
    for index, (name, doc) in enumerate(_TOPIC_COUNTERS):
        family = CounterMetricFamily(name, doc, labels=["topic"])
        for topic, values in snapshot.topics.items():
            family.add_metric([topic], values[index])
        yield family


def _api_name(api_key: int) -> str:
    spec = API_SPECS.get(api_key)
    return spec.name if spec is not None else str(api_key)


def _error_name(code: int) -> str:
    try:
        return ErrorCode(code).name
    except ValueError:
        return str(code)


def _request_metrics(snapshot: Snapshot) -> Iterator[Metric]:
    requests = CounterMetricFamily(
        "kafka_network_requestmetrics_requests",
        "Requests answered (Kafka: RequestsPerSec)",
        labels=["request", "version"],
    )
    times = HistogramMetricFamily(
        "kafka_network_requestmetrics_total_time_seconds",
        "Time from a request's arrival to its answer being ready (Kafka: TotalTimeMs)",
        labels=["request", "version"],
    )
    for (api_key, version), (count, seconds, buckets) in sorted(snapshot.requests.items()):
        labels = [_api_name(api_key), str(version)]
        requests.add_metric(labels, count)
        times.add_metric(labels, _cumulative(LATENCY_BUCKETS, buckets), seconds)
    errors = CounterMetricFamily(
        "kafka_network_requestmetrics_errors",
        "Errors answered: a request's as a whole, each partition's of Produce and Fetch (Kafka: ErrorsPerSec)",
        labels=["request", "error"],
    )
    for (api_key, code), count in sorted(snapshot.errors.items()):
        errors.add_metric([_api_name(api_key), _error_name(code)], count)
    connections = GaugeMetricFamily(
        "kafka_server_socket_server_metrics_connection_count",
        "Open client connections (Kafka: connection-count)",
        labels=["listener", "security_protocol"],
    )
    for (listener, protocol), count in sorted(snapshot.connections.items()):
        connections.add_metric([listener, protocol], count)
    yield from (requests, times, errors, connections)


def _group_metrics(snapshot: Snapshot) -> Iterator[Metric]:
    lag = GaugeMetricFamily(
        "kafka_consumergroup_lag",
        "High watermark minus the group's committed offset",
        labels=["group", "topic", "partition"],
    )
    committed = GaugeMetricFamily(
        "kafka_consumergroup_current_offset", "The group's committed offset", labels=["group", "topic", "partition"]
    )
    for entry in snapshot.lags:
        labels = [entry.group, entry.topic, str(entry.partition)]
        lag.add_metric(labels, entry.lag)
        committed.add_metric(labels, entry.committed)
    yield from (lag, committed)


def _cumulative(bounds: Iterable[float], buckets: Iterable[int]) -> list[tuple[str, float]]:
    """Per-bucket counts (the +Inf bucket last) as Prometheus' cumulative (upper bound, count) pairs."""
    cumulative, total = [], 0
    for bound, in_bucket in zip((*map(str, bounds), "+Inf"), buckets, strict=True):
        total += in_bucket
        cumulative.append((bound, float(total)))
    return cumulative


def _gauge(name: str, doc: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, doc, value=value)


def _store_metrics(snapshot: Snapshot) -> Iterator[Metric]:
    stats = snapshot.stats
    assert stats is not None  # every snapshot reads the store's
    offline = stats.offline_reason is not None or stats.closed
    yield _gauge("kafka_server_replicamanager_partitioncount", "Partitions on this broker", snapshot.partition_count)
    yield _gauge(
        "kafka_controller_kafkacontroller_offlinepartitionscount",
        "Partitions that cannot be served (all of them while the store is offline)",
        snapshot.partition_count if offline else 0,
    )
    yield _gauge(
        "rockafka_store_commitlog_bytes", "CommitLog bytes from its first offset to its end", stats.commitlog_bytes
    )
    yield _gauge("rockafka_store_commitlog_segments", "CommitLog segment files", stats.commitlog_segments)
    yield _gauge(
        "rockafka_store_page_cache_window_bytes",
        "Newest CommitLog bytes kept in the page cache (rockafka.commitlog.cache.bytes; -1: all)",
        snapshot.page_cache_bytes,
    )
    yield _gauge(
        "rockafka_store_index_lag_bytes", "CommitLog bytes not indexed yet by the index thread", stats.index_lag_bytes
    )
    yield _gauge(
        "rockafka_store_index_failed", "1 when the index thread stopped on an error", stats.index_failure is not None
    )
    yield _gauge("rockafka_store_offline", "1 when an I/O error took the store offline", offline)
    yield _gauge("rockafka_store_open_seconds", "Time the store took to open, recovery included", stats.open_seconds)
    if stats.flush_buckets:  # an open store's flusher: its rounds so far
        flushes = HistogramMetricFamily(
            "kafka_log_logflushstats_log_flush_time_seconds",
            "Time each flush round took to fsync the CommitLog and the offset logs (Kafka: LogFlushRateAndTimeMs)",
        )
        flushes.add_metric([], _cumulative(FLUSH_BUCKETS, stats.flush_buckets), stats.flush_seconds)
        yield flushes
    yield _gauge("rockafka_ready", "1 when /readyz answers ready", snapshot.ready)
    fallbacks = GaugeMetricFamily(
        "rockafka_kernel_pure_fallback",
        "1 for a kernel running its pure-Python twin after a failed import",
        labels=["kernel"],
    )
    for name in FALLBACKS:
        fallbacks.add_metric([name], 1)
    yield fallbacks


def _conversion_metrics(meter: ConversionMeter) -> Iterator[Metric]:
    """What converting between message formats v0/v1 and RecordBatch v2 has cost (every broker of the process)."""
    yield CounterMetricFamily(
        "kafka_server_brokertopicmetrics_produce_message_conversions",
        "Messages of Produce v0-2 converted to RecordBatch v2 (Kafka: ProduceMessageConversionsPerSec; per process)",
        value=meter.up_messages,
    )
    yield CounterMetricFamily(
        "kafka_server_brokertopicmetrics_fetch_message_conversions",
        "Messages down-converted for Fetch v0-3 (Kafka: FetchMessageConversionsPerSec; per process)",
        value=meter.down_messages,
    )
    converted_bytes = CounterMetricFamily(
        "rockafka_message_conversion_bytes",
        "Bytes written by message-format conversion (per process)",
        labels=["direction"],
    )
    converted_bytes.add_metric(["up"], meter.up_bytes)
    converted_bytes.add_metric(["down"], meter.down_bytes)
    yield converted_bytes
    seconds = CounterMetricFamily(
        "rockafka_message_conversion_seconds",
        "Time spent converting message formats (per process)",
        labels=["direction"],
    )
    seconds.add_metric(["up"], meter.up_ns / 1e9)
    seconds.add_metric(["down"], meter.down_ns / 1e9)
    yield seconds


def _etcd_metric(requests: dict[str, int]) -> Metric:
    family = CounterMetricFamily(
        "rockafka_etcd_requests",
        "Requests sent to etcd by this process, by kind (cluster/etcd_requests.py)",
        labels=["kind"],
    )
    for kind, count in sorted(requests.items()):
        family.add_metric([kind], count)
    return family
