"""Model test of compaction on a real store: a Hypothesis state machine appends keyed records, tombstones and
transactions (committed and aborted) to a compacted topic with tiny CommitLog segments, moves the clock, runs
cleaning passes and retention, restarts the store, and abandons passes after writing their file (what a crash
before the manifest leaves). After every step a full read (kafka-python decodes it) equals the model: a dict of
each key's latest value. Offsets never change, no key's latest value is missing, aborted records do not survive a
pass, and tombstones vanish only after ``delete.retention.ms``."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test
from kafka.record.default_records import DefaultRecordBatch, DefaultRecordBatchBuilder

from rockafka.core_pyx.offsetmap import footprint
from rockafka.core_pyx.recordbatch import validate_batches
from rockafka.store import MessageStore

from .helpers import small_config

KEYS = [b"a", b"b", b"c", b"d"]
PRODUCER = 9
RETENTION_MS = 50
CONFIGS = {"cleanup.policy": "compact", "min.cleanable.dirty.ratio": "0.01", "delete.retention.ms": str(RETENTION_MS)}


def batch_of(records: list[tuple[bytes, bytes | None]], timestamp: int, sequence: int, transactional: bool) -> bytes:
    builder = DefaultRecordBatchBuilder(
        magic=2, compression_type=0, is_transactional=transactional, producer_id=PRODUCER if transactional else -1,
        producer_epoch=0 if transactional else -1, base_sequence=sequence if transactional else -1,
        batch_size=1 << 20,
    )  # fmt: skip
    for delta, (key, value) in enumerate(records):
        builder.append(delta, timestamp=timestamp, key=key, value=value * 40 if value else value, headers=[])
    return bytes(builder.build())


class CompactedStoreMachine(RuleBasedStateMachine):
    base: Path
    runs = itertools.count()
    dedupe_buffer_bytes = 1 << 20

    def __init__(self) -> None:
        super().__init__()
        self.root = self.base / f"run{next(self.runs)}"
        self.clock = [1_000_000]
        self.config = small_config(
            self.root, commitlog_segment_bytes=4096, consume_queue_units_per_file=4,
            cleaner_dedupe_buffer_bytes=self.dedupe_buffer_bytes,
        )  # fmt: skip
        self.store = self._open()
        self.store.topics.create("t", 1, CONFIGS)
        self.written: dict[int, tuple[bytes, bytes | None]] = {}
        self.aborted: set[int] = set()
        self.open_txn: list[int] = []
        self.sequence = 0
        self.first_cleaned: dict[int, int] = {}  # tombstone offset -> clock of the first pass past it

    def _open(self) -> MessageStore:
        return MessageStore.open(self.config, clock=lambda: self.clock[0])

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.root, ignore_errors=True)

    @rule(
        records=st.lists(st.tuples(st.sampled_from(KEYS), st.sampled_from([b"x", b"y", None])), min_size=1, max_size=3),
        transactional=st.booleans(),
    )
    def produce(self, records: list[tuple[bytes, bytes | None]], transactional: bool) -> None:
        batch = batch_of(records, self.clock[0], self.sequence, transactional)
        result = self.store.records.append("t", 0, batch, validate_batches(batch))
        for delta, (key, value) in enumerate(records):
            self.written[result.base_offset + delta] = (key, value * 40 if value else value)
        if transactional:
            self.sequence += len(records)
            self.open_txn += range(result.base_offset, result.base_offset + len(records))

    @precondition(lambda self: bool(self.open_txn))
    @rule(commit=st.booleans())
    def end_transaction(self, commit: bool) -> None:
        self.store.records.write_transaction_marker(
            "t", 0, producer_id=PRODUCER, producer_epoch=0, coordinator_epoch=0, commit=commit
        )
        if not commit:
            self.aborted.update(self.open_txn)
        self.open_txn = []

    @rule(ms=st.integers(1, 40))
    def tick(self, ms: int) -> None:
        self.clock[0] += ms

    @rule()
    def clean(self) -> None:
        report = self.store.cleaner.clean("t", 0)
        if report is not None:
            for offset, (_, value) in self.written.items():
                if value is None and offset < report.end_offset:
                    self.first_cleaned.setdefault(offset, self.clock[0])

    @rule()
    def retention(self) -> None:
        self.store.retention.enforce()

    @rule()
    def restart(self) -> None:
        self.store.close()
        self.store = self._open()

    @rule()
    def abandon_a_pass(self) -> None:
        """A pass that wrote its generation but never published it (kill -9 before the manifest)."""
        cleaner = self.store.cleaner
        plan = cleaner._plan_now("t", 0)
        if plan is not None:
            cleaner._execute(plan)
        self.store.close()
        self.store = self._open()

    def _read(self) -> dict[int, tuple[bytes | None, bytes | None]]:
        bounds = self.store.records.partition_bounds("t", 0)
        assert bounds.log_start_offset == 0
        offset, found = 0, {}
        for _ in range(10_000):
            if offset >= bounds.high_watermark:
                break
            result = self.store.records.read("t", 0, offset, 1 << 20)
            assert result.batches, f"nothing at {offset} below the high watermark {bounds.high_watermark}"
            for view in result.batches:
                batch = DefaultRecordBatch(bytearray(view))
                assert batch.validate_crc()
                if not batch.is_control_batch:
                    found.update((r.offset, (r.key, r.value)) for r in batch)
            offset = result.next_offset
        return found

    def _latest(self) -> dict[bytes, int]:
        latest: dict[bytes, int] = {}
        for offset in sorted(self.written):
            if offset not in self.aborted and offset not in self.open_txn:
                latest[self.written[offset][0]] = offset
        return latest

    @invariant()
    def the_log_matches_the_model(self) -> None:
        read = self._read()
        for offset, record in read.items():
            assert record == self.written[offset], f"offset {offset} changed"
        compacted = self.store.cleaner._partitions.compacted.get(next(iter(self.store.cleaner._partitions.queues)))
        cleaned_to = compacted.end_offset if compacted is not None else 0
        assert not {offset for offset in read if offset < cleaned_to} & self.aborted, "aborted data survived"
        for key, offset in self._latest().items():
            if offset in read:
                continue
            first = self.first_cleaned.get(offset)
            assert self.written[offset][1] is None, f"the latest value of {key!r} (offset {offset}) is gone"
            assert first is not None and self.clock[0] >= first + RETENTION_MS, f"tombstone {offset} went early"
        final: dict[bytes, bytes | None] = {}
        for offset, (key, value) in sorted(read.items()):
            if offset not in self.aborted and offset not in self.open_txn and key is not None:
                final[key] = value
        expected = {key: self.written[offset][1] for key, offset in self._latest().items()}
        assert {k: v for k, v in final.items() if v is not None} == {k: v for k, v in expected.items() if v is not None}


class TightMapStoreMachine(CompactedStoreMachine):
    """An offset map (``log.cleaner.dedupe.buffer.size``) that a later batch of two or three 40-byte values
    overfills: such a pass stops before it, publishes the prefix, and the next goes on."""

    dedupe_buffer_bytes = footprint(0, 0) + 100


@pytest.mark.parametrize(("machine", "examples"), [(CompactedStoreMachine, 60), (TightMapStoreMachine, 30)])
def test_compacted_store_matches_the_model(tmp_path: Path, machine: type[CompactedStoreMachine], examples: int) -> None:
    machine.base = tmp_path
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=examples, stateful_step_count=30, deadline=None, database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )  # fmt: skip
