"""Transactional batches for store tests, and a reference model of what the transaction tracker must hold.

The model is computed from the batches as read back from the store (``model_of_log``), independently of the
tracker: Kafka's rules (a producer's first transactional batch opens its transaction; a COMMIT/ABORT control
record ends it; an ABORT of an open transaction is an aborted range ending at the marker).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from kafka.record.default_records import DefaultRecordBatch, DefaultRecordBatchBuilder

from rockafka.core_pyx.recordbatch import validate_batches
from rockafka.store import AbortedTransaction, AppendResult, MessageStore, OpenTransaction


def txn_batch(
    producer_id: int, count: int = 1, *, epoch: int = 0, sequence: int = 0, transactional: bool = True
) -> bytes:
    """A RecordBatch v2 as kafka-python builds it, with the transactional bit set (or not)."""
    builder = DefaultRecordBatchBuilder(
        magic=2, compression_type=0, is_transactional=int(transactional), producer_id=producer_id,
        producer_epoch=epoch, base_sequence=sequence, batch_size=1 << 20,
    )  # fmt: skip
    for delta in range(count):
        builder.append(
            delta, timestamp=1_000 + delta, key=b"k%d" % delta, value=b"v-%d-%d" % (producer_id, delta), headers=[]
        )
    return bytes(builder.build())


def put(store: MessageStore, topic: str, partition: int, batch: bytes) -> AppendResult:
    return store.records.append(topic, partition, batch, validate_batches(batch))


@dataclass
class PartitionModel:
    open: dict[int, OpenTransaction] = field(default_factory=dict)
    aborted: list[tuple[int, int, int]] = field(default_factory=list)  # (producer id, first, last)
    next_offset: int = 0

    def lso(self, log_start: int = 0) -> int:
        if not self.open:
            return self.next_offset
        return max(min(t.first_offset for t in self.open.values()), log_start)

    def overlapping(self, start: int, end: int) -> set[AbortedTransaction]:
        return {AbortedTransaction(pid, first) for pid, first, last in self.aborted if last >= start and first < end}


def model_of_log(store: MessageStore, topic: str, partition: int) -> PartitionModel:
    """Read every stored batch of the partition and apply Kafka's transaction rules to them."""
    model = PartitionModel()
    read = store.records.read(
        topic, partition, store.records.partition_offsets(topic, partition).log_start_offset, 1 << 30
    )
    for view in read.batches:
        batch = DefaultRecordBatch(bytes(view))
        base, count = struct.unpack_from(">q", view)[0], struct.unpack_from(">i", view, 23)[0] + 1
        pid = batch.producer_id
        if batch.is_control_batch:
            (record,) = list(batch)
            commit = record.type == 1
            current = model.open.pop(pid, None)
            if current is not None and not commit:
                model.aborted.append((pid, current.first_offset, base))
        elif batch.is_transactional and pid not in model.open:
            model.open[pid] = OpenTransaction(pid, batch.producer_epoch, base)
        model.next_offset = base + count
    model.next_offset = read.high_watermark
    return model


def assert_tracker_matches(store: MessageStore, topic: str, partition: int, model: PartitionModel) -> None:
    log_start = store.records.partition_offsets(topic, partition).log_start_offset
    assert store.transactions.open(topic, partition) == tuple(sorted(model.open.values(), key=lambda t: t.first_offset))
    assert store.records.last_stable_offset(topic, partition) == model.lso(log_start)
    end = model.next_offset + 1
    for start in range(log_start, end):
        assert set(store.transactions.aborted(topic, partition, start, end)) == model.overlapping(start, end), start
