"""The message-conversion meter as ``/metrics`` exports it: Kafka's produce and fetch conversion counters, and
bytes and seconds per direction, read back through prometheus-client's own parser."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import Metric
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.registry import Collector

from rockafka.facade.legacy import ConversionMeter
from rockafka.facade.ops.exposition import _conversion_metrics


class _Meter(Collector):
    def __init__(self, meter: ConversionMeter) -> None:
        self._meter = meter

    def collect(self) -> Iterator[Metric]:
        return _conversion_metrics(self._meter)


def test_the_meter_is_exported_with_kafkas_names_and_per_direction() -> None:
    meter = ConversionMeter(
        up_messages=7, up_bytes=700, up_ns=2_500_000_000, down_messages=11, down_bytes=1100, down_ns=500_000_000
    )
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Meter(meter))
    found = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(generate_latest(registry).decode())
        for sample in family.samples
    }
    assert found[("kafka_server_brokertopicmetrics_produce_message_conversions_total", ())] == 7
    assert found[("kafka_server_brokertopicmetrics_fetch_message_conversions_total", ())] == 11
    assert found[("rockafka_message_conversion_bytes_total", (("direction", "up"),))] == 700
    assert found[("rockafka_message_conversion_bytes_total", (("direction", "down"),))] == 1100
    assert found[("rockafka_message_conversion_seconds_total", (("direction", "up"),))] == 2.5
    assert found[("rockafka_message_conversion_seconds_total", (("direction", "down"),))] == 0.5
