"""Producer state of one partition, its snapshot document, and its rebuild from stored batch headers.

Snapshot document ``partition:<topic>:<partition>`` (in the store's producer documents), version 1::

    {"version": 1, "topic_id": "<uuid hex>", "offset": N,
     "producers": [[producer id, epoch, last timestamp,
                    [[first sequence, last sequence, base offset, last offset], ...  oldest first, at most 5]],
                   ...]}

It describes every batch below offset N (the partition's high watermark when it was taken, so a batch
boundary). Rebuild after a restart or a kill -9: take the snapshot when its topic id is the topic's and N
is not past the high watermark (else start empty from the log start offset), then replay every stored
batch from max(N, log start) to the high watermark through ``replay`` — producer id, epoch, base sequence
and record count are in every batch header. Replay does not check: what is stored was accepted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from rockafka.core_pyx.recordbatch import BatchHeader

from .sequence import BATCHES_KEPT, BatchMetadata, IncomingBatch, ProducerEntry, Verdict, check, end_transaction, record

DOCUMENT_VERSION: Final = 1


def snapshot_key(topic: str, partition: int) -> str:
    return f"partition:{topic}:{partition}"


def incoming(header: BatchHeader) -> IncomingBatch:
    return IncomingBatch(
        header.producer_id,
        header.producer_epoch,
        header.base_sequence,
        header.last_offset_delta + 1,
        header.max_timestamp,
    )


@dataclass(slots=True)
class PartitionProducers:
    """Producer id -> entry for one partition of the topic with id ``topic_id`` (hex)."""

    topic_id: str
    entries: dict[int, ProducerEntry] = field(default_factory=dict)
    #: Changed since the last snapshot document.
    dirty: bool = False
    #: Producer id -> the offset below which ``ProducerService`` searched the log for its uncounted batches (after
    #: an out-of-order refusal).
    searched: dict[int, int] = field(default_factory=dict)

    def check(self, batch: IncomingBatch) -> Verdict:
        return check(self.entries.get(batch.producer_id), batch)

    def record(self, batch: IncomingBatch, base_offset: int) -> None:
        """``batch`` (accepted by ``check``) was written at ``base_offset``."""
        self.entries[batch.producer_id] = record(self.entries.get(batch.producer_id), batch, base_offset)
        self.dirty = True

    def end_transaction(self, producer_id: int, epoch: int, timestamp: int) -> bool:
        """A transaction marker of ``producer_id`` at ``epoch`` was written (``sequence.end_transaction``); False
        when its epoch is below the producer's (the entry is left as it was)."""
        entry = end_transaction(self.entries.get(producer_id), epoch, timestamp)
        if entry is None:
            return False
        self.entries[producer_id] = entry
        self.dirty = True
        return True

    def replay(self, header: BatchHeader) -> None:
        """A stored batch, in log order: a transaction marker moves its producer's epoch; batches without a producer
        id and stale epochs pass."""
        if header.producer_id < 0:
            return
        if header.is_control:
            self.end_transaction(header.producer_id, header.producer_epoch, header.max_timestamp)
            return
        entry = self.entries.get(header.producer_id)
        if entry is not None and header.producer_epoch < entry.epoch:
            return
        self.record(incoming(header), header.base_offset)

    def expire(self, now_ms: int, expiration_ms: int) -> int:
        """Forget producers whose last batch timestamp is ``expiration_ms`` or more before ``now_ms``."""
        expired = [pid for pid, entry in self.entries.items() if now_ms - entry.last_timestamp >= expiration_ms]
        for producer_id in expired:
            del self.entries[producer_id]
        self.dirty = self.dirty or bool(expired)
        return len(expired)

    def document(self, offset: int) -> dict[str, Any]:
        producers = [
            [pid, entry.epoch, entry.last_timestamp, [[b.first_sequence, b.last_sequence, b.base_offset, b.last_offset]
                                                      for b in entry.batches]]
            for pid, entry in self.entries.items()
        ]  # fmt: skip
        return {"version": DOCUMENT_VERSION, "topic_id": self.topic_id, "offset": offset, "producers": producers}

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> tuple[PartitionProducers, int]:
        """The table and the offset it covers up to; ValueError for a document this broker cannot read."""
        if document.get("version") != DOCUMENT_VERSION:
            raise ValueError(f"producer snapshot version {document.get('version')!r}")
        table = cls(str(document["topic_id"]))
        for pid, epoch, last_timestamp, batches in document["producers"]:
            entry = ProducerEntry(int(epoch), int(last_timestamp))
            for first, last, base, last_offset in batches[-BATCHES_KEPT:]:
                entry.batches.append(BatchMetadata(int(first), int(last), int(base), int(last_offset)))
            table.entries[int(pid)] = entry  # with no batch: a marker's epoch, which fences older ones
        return table, int(document["offset"])
