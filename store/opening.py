"""Opening a store directory: every file service opened in order, recovery run over them (``recovery.py``).

``open_files`` opens the topic table, the CommitLog, the partitions' ConsumeQueues, the IndexFiles, the
transaction state, the epoch file and the producer state's side log, and recovers (first cutting the store back,
when asked to or when a cut was left unfinished: ``truncation.py``); it starts no
thread. ``OpenFiles`` is what it leaves for ``MessageStore`` to build its services on, and ``close`` (also
after a failed open, for what was opened so far) closes them in ``CLOSE_ORDER``.

Threads: the opening thread only (the caller of ``MessageStore.open``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from .checkpoint import Checkpoint, CheckpointState, mark_running
from .commitlog import CommitLog
from .compactedlog import load_compacted_logs
from .config import StoreConfig
from .consumequeue import DirtyFiles
from .epochfile import FILE_NAME as EPOCH_FILE_NAME
from .epochfile import EpochFile
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
from .truncation import FILE_NAME as TRUNCATION_FILE_NAME
from .truncation import check_cut_point, clear_intent, read_intent, write_intent
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
    epochs: EpochFile = field(init=False)
    checkpoint: Checkpoint = field(init=False)
    dirty: DirtyFiles = field(default_factory=DirtyFiles)
    producer_log: GroupMetadataLog = field(init=False)
    report: RecoveryReport = field(init=False)

    def close(self) -> None:
        for name in CLOSE_ORDER:
            service = self.opened.get(name)
            if service is not None:
                service.close()


def open_files(layout: StoreLayout, config: StoreConfig, files: OpenFiles, truncate_to: int | None = None) -> None:
    """Open and recover into ``files`` (each service is in ``files.opened`` as soon as it is open); with
    ``truncate_to``, or an unfinished cut's intent, cut the store back to that CommitLog offset (``truncation.py``)."""
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
    intent_path = layout.config / TRUNCATION_FILE_NAME
    if truncate_to is not None:
        check_cut_point(commitlog, truncate_to)
        write_intent(intent_path, truncate_to)
    cut_at = read_intent(intent_path)
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
        compacted_ends={key: log.end_offset for key, log in partitions.compacted.items()}, cut_at=cut_at,
    )  # fmt: skip
    bounds = {key: (partitions.log_start(key, queue), queue.next_offset) for key, queue in partitions.queues.items()}
    tracker.recovered(files.report.end_offset, bounds)
    files.epochs = _recover_epochs(layout, commitlog, files.report.end_offset)
    if cut_at is not None:
        _finish_cut(files, intent_path)
    _open_producer_log(layout, config, files)


def _recover_epochs(layout: StoreLayout, commitlog: CommitLog, end: int) -> EpochFile:
    """The epoch file cut to the recovered end; with no epoch left (a new store, or one from before epochs),
    epoch 0 begins at the CommitLog's first offset (``epochfile.py``)."""
    epochs = EpochFile(layout.config / EPOCH_FILE_NAME)
    epochs.load()
    epochs.cut_after(end)
    if not epochs.entries:
        epochs.begin(0, commitlog.min_offset)
    return epochs


def _finish_cut(files: OpenFiles, intent_path: Path) -> None:
    """The cut is made: make it durable, then forget the intent (``truncation.py``)."""
    end = files.report.end_offset
    indexed = 0 if files.index is None else min(files.index.durable_offset, end)
    files.commitlog.sync_segment_at(end)
    files.checkpoint.write(CheckpointState(end, indexed, int(time.time() * 1000)))
    clear_intent(intent_path)


def _open_producer_log(layout: StoreLayout, config: StoreConfig, files: OpenFiles) -> None:
    directory, compact_bytes = layout.config, config.offsets_compact_bytes
    producer_log = GroupMetadataLog(directory, compact_bytes, name="producerState")
    files.opened["producer_state"] = files.producer_log = producer_log
    producer_log.load()
