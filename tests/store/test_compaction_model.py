"""Model test of compaction's rules (``store/compaction.py``) against a dict of each key's latest value.

A Hypothesis state machine produces plain, idempotent and transactional batches (built by kafka-python's own
batch builder), commits and aborts transactions, moves the clock and runs cleaning passes over the cleanable
range, as the cleaner does. After every step: offsets never change, every key's latest value is readable, an
aborted record never survives a pass, tombstones vanish only after ``delete.retention.ms``, and each producer's
last batch keeps its identity (producer state survives).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from kafka.record.default_records import DefaultRecordBatch, DefaultRecordBatchBuilder

from rockafka.core_pyx.offsetmap import footprint
from rockafka.core_pyx.recordbatch import DELETE_HORIZON_BIT, read_batch_header
from rockafka.core_pyx.records import read_records
from rockafka.store.compaction import CompactionRules, SourceBatch, UnitSummary, clean, cleanable_end, encode_batch
from rockafka.store.control import marker_batch

KEYS = [b"a", b"b", b"c", b"d"]
PRODUCERS = [7, 8]  # idempotent and transactional producer ids


def kafka_python_batch(
    base_offset: int, records: list[tuple[bytes | None, bytes | None]], timestamp: int, producer: int,
    sequence: int, transactional: bool,
) -> bytes:  # fmt: skip
    builder = DefaultRecordBatchBuilder(
        magic=2, compression_type=0, is_transactional=transactional, producer_id=producer,
        producer_epoch=0 if producer >= 0 else -1, base_sequence=sequence, batch_size=1 << 20,
    )  # fmt: skip
    for delta, (key, value) in enumerate(records):
        builder.append(delta, timestamp=timestamp + delta, key=key, value=value, headers=[])
    batch = bytearray(builder.build())
    struct.pack_into(">q", batch, 0, base_offset)  # the base offset is not covered by the CRC
    return bytes(batch)


def with_base_offset(batch: bytes, base_offset: int) -> bytes:
    patched = bytearray(batch)
    struct.pack_into(">q", patched, 0, base_offset)
    return bytes(patched)


@dataclass
class Written:
    """A record as produced: what a read at its offset must return, if it is there at all."""

    key: bytes | None
    value: bytes | None
    producer: int
    transactional: bool


@dataclass
class Model:
    records: dict[int, Written] = field(default_factory=dict)
    aborted: set[int] = field(default_factory=set)  # offsets of aborted records
    aborted_ranges: set[tuple[int, int, int]] = field(default_factory=set)  # producer, first, marker offset
    open_txn: dict[int, list[int]] = field(default_factory=dict)  # producer -> offsets of its open transaction
    first_cleaned: dict[int, int] = field(default_factory=dict)  # tombstone offset -> time of its first pass
    last_batch: dict[int, tuple[int, int, int]] = field(default_factory=dict)  # pid -> base, lastDelta, baseSeq
    cleaned_to: int = 0

    def latest(self) -> dict[bytes, int]:
        """Each key's latest committed (or non-transactional) record: what a full read must end on."""
        found: dict[bytes, int] = {}
        open_offsets = {offset for offsets in self.open_txn.values() for offset in offsets}
        for offset in sorted(self.records):
            written = self.records[offset]
            if written.key is not None and offset not in self.aborted and offset not in open_offsets:
                found[written.key] = offset
        return found


class CompactionMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.log: list[bytes] = []
        self.next_offset = 0
        self.now = 1_000_000
        self.model = Model()
        self.sequences = dict.fromkeys(PRODUCERS, 0)
        self.rules = CompactionRules()
        self.dedupe_buffer_bytes = 1 << 20

    @initialize(retention=st.integers(0, 100), lag=st.integers(0, 50), room=st.sampled_from([None, 12, 40]))
    def choose_rules(self, retention: int, lag: int, room: int | None) -> None:
        self.rules = CompactionRules(delete_retention_ms=retention, min_compaction_lag_ms=lag)
        if room is not None:  # an offset map that a second batch (of one or of a few records) overfills
            self.dedupe_buffer_bytes = footprint(0, 0) + room

    @rule(
        records=st.lists(
            st.tuples(st.sampled_from([*KEYS, None]), st.sampled_from([b"x", b"yy", None])), min_size=1, max_size=4
        ),
        producer=st.sampled_from([-1, *PRODUCERS]),
    )
    def produce(self, records: list[tuple[bytes | None, bytes | None]], producer: int) -> None:
        transactional = producer == PRODUCERS[1]
        sequence = self.sequences.get(producer, -1)
        batch = kafka_python_batch(self.next_offset, records, self.now, producer, sequence, transactional)
        self.log.append(batch)
        if producer >= 0:
            self.sequences[producer] += len(records)
            self.model.last_batch[producer] = (self.next_offset, len(records) - 1, sequence)
        for delta, (key, value) in enumerate(records):
            self.model.records[self.next_offset + delta] = Written(key, value, producer, transactional)
        if transactional:
            self.model.open_txn.setdefault(producer, []).extend(
                range(self.next_offset, self.next_offset + len(records))
            )
        self.next_offset += len(records)

    @precondition(lambda self: bool(self.model.open_txn.get(PRODUCERS[1])))
    @rule(commit=st.booleans())
    def end_transaction(self, commit: bool) -> None:
        producer = PRODUCERS[1]
        offsets = self.model.open_txn.pop(producer)
        if not commit:
            self.model.aborted.update(offsets)
            self.model.aborted_ranges.add((producer, offsets[0], self.next_offset))  # the marker's offset
        marker = marker_batch(
            producer_id=producer, producer_epoch=0, coordinator_epoch=0, commit=commit, timestamp=self.now
        )
        self.log.append(with_base_offset(marker, self.next_offset))
        self.model.last_batch[producer] = (self.next_offset, 0, -1)
        self.next_offset += 1

    @rule(ms=st.integers(1, 60))
    def tick(self, ms: int) -> None:
        self.now += ms

    @rule()
    def clean_pass(self) -> None:
        open_starts = [offsets[0] for offsets in self.model.open_txn.values() if offsets]
        last_stable = min(open_starts, default=self.next_offset)
        units = [self._unit(batch) for batch in self.log]
        end = cleanable_end(units, last_stable=last_stable, now_ms=self.now, rules=self.rules)
        inside = [batch for batch, unit in zip(self.log, units, strict=True) if unit.base_offset < end]
        result = clean(
            [SourceBatch.of(b) for b in inside], rules=self.rules, now_ms=self.now,
            aborted_ranges=frozenset(self.model.aborted_ranges), dirty_from=self.model.cleaned_to,
            dedupe_buffer_bytes=self.dedupe_buffer_bytes,
        )  # fmt: skip
        if result.stopped_at is not None:
            assert self.model.cleaned_to < result.stopped_at < end
            end = result.stopped_at
            inside = [batch for batch in inside if read_batch_header(batch).base_offset < end]
        self.log = [bytes(b) for b in result.batches] + self.log[len(inside) :]
        for offset, written in self.model.records.items():
            if offset < end and written.value is None:
                self.model.first_cleaned.setdefault(offset, self.now)
        self.model.cleaned_to = max(self.model.cleaned_to, end)

    @staticmethod
    def _unit(batch: bytes) -> UnitSummary:
        header = read_batch_header(batch)
        return UnitSummary(header.base_offset, header.next_offset, header.size, header.max_timestamp)

    def _read(self) -> dict[int, tuple[bytes | None, bytes | None]]:
        found: dict[int, tuple[bytes | None, bytes | None]] = {}
        previous_end = 0
        for batch in self.log:
            header = read_batch_header(batch)
            assert header.base_offset >= previous_end, "batches out of offset order"
            previous_end = header.next_offset
            if header.is_control:
                continue
            parsed = DefaultRecordBatch(bytearray(batch))  # kafka-python's reader, not ours
            assert parsed.validate_crc()
            for record in parsed:
                assert header.base_offset <= record.offset <= header.last_offset
                found[record.offset] = (record.key, record.value)
        return found

    @invariant()
    def offsets_never_change(self) -> None:
        for offset, (key, value) in self._read().items():
            written = self.model.records[offset]
            assert (key, value) == (written.key, written.value), f"offset {offset} changed"

    @invariant()
    def latest_value_of_every_key_is_readable(self) -> None:
        read = self._read()
        for key, offset in self.model.latest().items():
            if offset in read:
                continue
            tombstone = self.model.records[offset].value is None
            first = self.model.first_cleaned.get(offset)
            assert tombstone and first is not None and self.now >= first + self.rules.delete_retention_ms, (
                f"the latest record of {key!r} (offset {offset}) is gone"
            )
            assert not any(k == key and o < offset for o, (k, _) in read.items()), (
                f"an older value of the deleted key {key!r} came back"
            )

    @invariant()
    def a_full_read_ends_on_each_key_latest_value(self) -> None:
        final: dict[bytes, bytes | None] = {}
        for offset, (key, value) in sorted(self._read().items()):
            if offset in self.model.aborted or key is None:
                continue
            if any(offset in offsets for offsets in self.model.open_txn.values()):
                continue
            final[key] = value
        expected = {key: self.model.records[offset].value for key, offset in self.model.latest().items()}
        for key, value in expected.items():
            if key in final:
                assert final[key] == value
            else:
                assert value is None, f"{key!r} lost its value"
        assert set(final) <= set(expected)

    @invariant()
    def aborted_records_do_not_survive_a_pass(self) -> None:
        for offset in self._read():
            if offset < self.model.cleaned_to:
                assert offset not in self.model.aborted, f"aborted offset {offset} survived a pass"

    @invariant()
    def each_producers_last_batch_keeps_its_identity(self) -> None:
        last: dict[int, tuple[int, int, int]] = {}
        for batch in self.log:
            header = read_batch_header(batch)
            if header.producer_id >= 0:
                last[header.producer_id] = (header.base_offset, header.last_offset_delta, header.base_sequence)
        assert last == self.model.last_batch


@pytest.mark.parametrize("seed", [0])
def test_compaction_keeps_kafka_guarantees(seed: int) -> None:
    del seed
    run_state_machine_as_test(
        CompactionMachine,
        settings=settings(max_examples=150, stateful_step_count=40, deadline=None, database=None,
                          suppress_health_check=list(HealthCheck)),
    )  # fmt: skip


def test_a_rewritten_batch_is_read_by_kafka_python_with_its_gaps_and_horizon() -> None:
    """The independent decoder sees the kept records at their offsets and the horizon bit (KIP-534)."""
    source = kafka_python_batch(10, [(b"a", b"1"), (b"a", b"2"), (b"b", None)], 5_000, -1, -1, False)
    header = read_batch_header(source)
    kept = [r for r in read_records(source) if r.offset != 10]
    rebuilt = encode_batch(header, kept, delete_horizon=9_000)
    batch = DefaultRecordBatch(bytearray(rebuilt))
    assert batch.validate_crc()
    assert [(r.offset, r.key, r.value, r.timestamp) for r in batch] == [
        (11, b"a", b"2", 5_001),
        (12, b"b", None, 5_002),
    ]
    assert rebuilt[22] & DELETE_HORIZON_BIT and batch.base_offset == 10 and batch.last_offset_delta == 2


def test_a_thousand_updates_of_one_key_leave_its_latest_and_the_producer_batch() -> None:
    sources = [
        SourceBatch.of(kafka_python_batch(offset, [(b"k", str(offset).encode())], 1_000 + offset, -1, -1, False))
        for offset in range(1_000)
    ]
    result = clean(sources, rules=CompactionRules(), now_ms=10_000)
    assert (result.records_in, result.records_kept) == (1_000, 1)
    assert [bytes(b) for b in result.batches] == [bytes(sources[-1].data)]  # kept whole: copied byte for byte


def test_an_aborted_transaction_split_by_two_passes_is_dropped_by_both() -> None:
    """The first pass ends inside an aborted transaction and drops its first batch (Hypothesis found this): the
    second pass still knows the rest for aborted, by the transaction's range, not by its first batch."""
    batches = [kafka_python_batch(offset, [(b"a", b"x")], 1_000, PRODUCERS[1], offset, True) for offset in range(3)]
    ranges = frozenset({(PRODUCERS[1], 0, 3)})  # the ABORT marker at offset 3
    first = clean(
        [SourceBatch.of(b) for b in batches[:2]], rules=CompactionRules(), now_ms=2_000, aborted_ranges=ranges
    )
    kept = [bytes(b) for b in first.batches] + batches[2:]  # an empty batch keeps the producer's state
    second = clean(
        [SourceBatch.of(b) for b in kept], rules=CompactionRules(), now_ms=2_000, aborted_ranges=ranges, dirty_from=2
    )
    assert second.records_kept == 0 and [read_batch_header(b).record_count for b in second.batches] == [0]
