"""Opening a store directory: every file service opened in order, recovery run over them (``recovery.py``).

``open_files`` opens the topic table, the CommitLog, the partitions' ConsumeQueues, the IndexFiles, the
transaction state and the producer state's side log, and recovers; it starts no
thread. ``OpenFiles`` is what it leaves for ``MessageStore`` to build its services on, and ``close`` (also
after a failed open, for what was opened so far) closes them in ``CLOSE_ORDER``.

Threads: the opening thread only (the caller of ``MessageStore.open``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .checkpoint import Checkpoint, mark_running
from .commitlog import CommitLog
from .compactedlog import load_compacted_logs
from .config import StoreConfig
from .consumequeue import DirtyFiles
from .groups import GroupMetadataLog
from .indexservice import IndexService
from .layout import StoreLayout
from .partitions import Partitions
from .quarantine import Quarantine
from .queuebuilder import QueueBuilder
from .recovery import recover
from .results import RecoveryReport
from .space import room_to_open
from .topics import LogStartOffsets, TopicTable
from .transactions import TransactionTracker
from .txnlog import TransactionLog

CLOSE_ORDER = ("producer_state", "transactions", "index", "commitlog", "checkpoint", "queues")


class _Closeable(Protocol):
    def close(self) -> None: ...


@dataclass(slots=True)
class OpenFiles:
    """The store's file services, open and recovered; ``opened`` holds each by name, for ``close``."""

    opened: dict[str, _Closeable] = field(default_factory=dict)
    table: TopicTable = field(init=False)
    partitions: Partitions = field(init=False)
    commitlog: CommitLog = field(init=False)
    index: IndexService | None = None
    tracker: TransactionTracker = field(init=False)
    builder: QueueBuilder = field(init=False)
    checkpoint: Checkpoint = field(init=False)
    dirty: DirtyFiles = field(default_factory=DirtyFiles)
    producer_log: GroupMetadataLog = field(init=False)
    report: RecoveryReport = field(init=False)

    def close(self) -> None:
        for name in CLOSE_ORDER:
            service = self.opened.get(name)
            if service is not None:
                service.close()


def open_files(layout: StoreLayout, config: StoreConfig, files: OpenFiles) -> None:
    """Open and recover into ``files`` (each service is in ``files.opened`` as soon as it is open)."""
    geometry = layout.geometry(config)
    table = files.table = TopicTable(layout.config / "topics.json", config.topic_defaults)
    table.load()
    room_to_open(layout.root, config.free_space_reserve_bytes, sum(t.partitions for t in table.all()))
    crashed = mark_running(layout.root)
    log_starts = LogStartOffsets(layout.config / "logStartOffsets.json")
    log_starts.load()
    commitlog = files.opened["commitlog"] = files.commitlog = CommitLog(
        layout.commitlog, geometry.commitlog_segment_bytes, preallocate=config.preallocate,
        keep_free=config.free_space_reserve_bytes,
    )  # fmt: skip
    commitlog.load()
    units = geometry.consume_queue_units_per_file
    partitions = files.opened["queues"] = files.partitions = Partitions(layout, units, files.dirty, table, log_starts)
    partitions.load()
    partitions.compacted.update(load_compacted_logs(layout.compacted_logs, partitions.queues))
    if config.index_enabled:
        slots, entries = geometry.index_slot_count, geometry.index_entry_count
        files.opened["index"] = files.index = IndexService(layout.index, slots, entries, commitlog)
    txn_log = TransactionLog(layout.config, config.offsets_compact_bytes)
    tracker = files.opened["transactions"] = files.tracker = TransactionTracker(txn_log, commitlog)
    tracker.load()
    quarantine = Quarantine(layout.quarantine)
    files.builder = QueueBuilder(
        partitions.queues, tracker, commitlog=commitlog, quarantine=quarantine,
        topic_name=lambda topic_id: topic.name if (topic := table.by_id(topic_id)) else topic_id.hex(),
    )  # fmt: skip
    checkpoint = files.opened["checkpoint"] = files.checkpoint = Checkpoint(layout.checkpoint)
    files.report = recover(
        commitlog=commitlog, queues=partitions.queues, builder=files.builder, checkpoint=checkpoint.read(),
        log_starts=log_starts, index=files.index, topics=table, clean=not crashed, quarantine=quarantine,
        compacted_ends={key: log.end_offset for key, log in partitions.compacted.items()},
    )  # fmt: skip
    bounds = {key: (partitions.log_start(key, queue), queue.next_offset) for key, queue in partitions.queues.items()}
    tracker.recovered(files.report.end_offset, bounds)
    _open_producer_log(layout, config, files)


def _open_producer_log(layout: StoreLayout, config: StoreConfig, files: OpenFiles) -> None:
    directory, compact_bytes = layout.config, config.offsets_compact_bytes
    producer_log = GroupMetadataLog(directory, compact_bytes, name="producerState")
    files.opened["producer_state"] = files.producer_log = producer_log
    producer_log.load()
