"""The data-path checks every client's tests run, written once against the :class:`~.driver.Driver` API."""

from __future__ import annotations

import time
from dataclasses import replace

from kafka.admin import KafkaAdminClient, NewTopic

from .driver import EARLIEST, LATEST, Acks, Driver, at_offset, at_time
from .records import Rec, assert_records, sample_records, unique_topic

#: The same headers on every record, for clients that cannot vary them per record (kcat).
FIXED_HEADERS = (("trace", b"abc"), ("trace", b"def"), ("clé-ü", b"x"))
ONE_MIB = 1 << 20


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def create_topic(bootstrap: str, name: str, partitions: int = 1, configs: dict[str, str] | None = None) -> None:
    """Create a topic with kafka-python's admin client (``kafka-topics --create`` for these tests)."""
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics(
            [NewTopic(name, num_partitions=partitions, replication_factor=1, topic_configs=configs or {})]
        )
    finally:
        admin.close()


def records_for(driver: Driver, count: int, *, seed: int, base_timestamp: int | None = None) -> list[Rec]:
    """Sample records in the shape ``driver`` can send."""
    stamp = base_timestamp if driver.stamps_records else None
    records = sample_records(
        count, seed=seed, base_timestamp=stamp, printable=driver.printable_only, nulls=driver.sends_nulls
    )
    if driver.printable_only:
        records = [replace(r, headers=FIXED_HEADERS) for r in records]
    return records


def check_roundtrip(
    driver: Driver, bootstrap: str, *, acks: Acks, codec: str, reader: Driver | None = None, count: int = 7
) -> None:
    """Produce with ``acks`` and ``codec``, read back from the earliest offset: every byte and offset.
    ``reader`` (another client) reads the same records too."""
    topic = unique_topic(f"{driver.name}-{codec}-acks{acks}")
    records = records_for(driver, count, seed=hash((driver.name, codec, acks)) & 0xFFFF, base_timestamp=now_ms())
    before = now_ms()
    offsets = driver.produce(bootstrap, topic, records, acks=acks, codec=codec)
    after = now_ms()
    assert offsets == ([] if acks == 0 else list(range(count)))
    got = driver.consume(bootstrap, topic, 0, EARLIEST, count)
    assert_records(records, got, first_offset=0, stamped_between=(before, after))
    if reader is not None:
        again = reader.consume(bootstrap, topic, 0, EARLIEST, count)
        assert_records(records, again, first_offset=0, stamped_between=(before, after))


def check_start_positions(driver: Driver, bootstrap: str) -> None:
    """Earliest, an offset inside a batch, a timestamp (exact and between records), latest, and the
    client's own offsets-for-times lookups, including past the last record (KIP-79)."""
    topic = unique_topic(f"{driver.name}-positions")
    base = now_ms() - 60_000
    first = records_for(driver, 6, seed=1, base_timestamp=base)
    before = now_ms()
    assert driver.produce(bootstrap, topic, first, acks=1) == list(range(6))
    after = now_ms()

    got = driver.consume(bootstrap, topic, 0, EARLIEST, 6)
    assert_records(first, got, first_offset=0, stamped_between=(before, after))
    stamps = [r.timestamp for r in got]
    assert all(isinstance(t, int) for t in stamps)

    assert_records(
        first[4:], driver.consume(bootstrap, topic, 0, at_offset(4), 2), first_offset=4, stamped_between=(before, after)
    )

    if driver.stamps_records:
        assert_records(first[2:], driver.consume(bootstrap, topic, 0, at_time(base + 20), 4), first_offset=2)
        assert_records(first[3:], driver.consume(bootstrap, topic, 0, at_time(base + 25), 3), first_offset=3)
        assert driver.offset_for_time(bootstrap, topic, 0, base + 41) == 5
    assert driver.offset_for_time(bootstrap, topic, 0, stamps[0]) == 0  # type: ignore[arg-type]
    past_end = driver.offset_for_time(bootstrap, topic, 0, max(stamps) + 1)  # type: ignore[type-var]
    # KIP-79: no record at or after the time is "none"; some clients report that as the end offset.
    assert past_end == (6 if driver.no_offset_is_end else None)

    second = records_for(driver, 3, seed=2, base_timestamp=now_ms())
    before = now_ms()

    def produce_more() -> None:
        assert driver.produce(bootstrap, topic, second, acks=-1) == [6, 7, 8]

    got = driver.consume(bootstrap, topic, 0, LATEST, 3, then=produce_more)
    assert_records(second, got, first_offset=6, stamped_between=(before, now_ms()))


def check_large_messages(
    driver: Driver, bootstrap: str, *, producer: dict[str, object], topic: str | None = None, count: int = 2
) -> None:
    """``count`` records with 1 MiB values, each sent on its own (one batch each), read back whole."""
    topic = topic or unique_topic(f"{driver.name}-large")
    records = []
    for index in range(count):
        if driver.printable_only:
            value = bytes([65 + index]) * ONE_MIB
        else:
            value = (bytes(range(index, 256)) + bytes(range(index))) * (ONE_MIB // 256)
        records.append(Rec(f"big-{index}".encode(), value, FIXED_HEADERS, None))
    before = now_ms()
    for index, record in enumerate(records):
        assert driver.produce(bootstrap, topic, [record], acks=1, settings=producer) == [index]
    got = driver.consume(bootstrap, topic, 0, EARLIEST, count)
    assert_records(records, got, first_offset=0, stamped_between=(before, now_ms()))
