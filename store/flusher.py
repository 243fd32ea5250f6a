"""The flusher thread: fsyncs the CommitLog and the offset logs, completes group-commit waiters, checkpoints.

Policies:

- ``async``: a round runs every ``flush_interval_ms``; appends and offset commits do not wait. Between rounds,
  every ``WRITE_BEHIND_S`` the flusher starts the disk writing what was published since (write-behind,
  ``CommitLog.start_writeback``: no waiting, no durability promise), so dirty pages do not pile up for the
  round and its ``fdatasync`` finds little left to write: the disk works while appends go on.
- ``sync`` (group commit): an append or offset commit asks for durability (``request``) and gets a
  ``concurrent.futures.Future``. Every request made between two rounds shares one future (the group):
  a round takes the group, reads the published positions (never below the group's, since requests are
  made after publishing), fsyncs up to them and completes the group's future once. Requests arriving
  meanwhile form the next group, so one fsync covers as many appends as arrive while the previous runs.

Every ``checkpoint_interval_ms`` (and on stop, and when asked) a round also fsyncs the ConsumeQueue files
written since the last checkpoint and rewrites the checkpoint with the CommitLog offset read *before*
those fsyncs, so the checkpoint never claims a unit that is not on disk.

Each round's fsyncs are timed into ``times`` (a histogram, exported as the store's flush latency).

After each round, the CommitLog's page cache is released up to ``cache_bytes`` behind what is fsynced (after
the group's future is completed: waiters never wait for it); ``None`` keeps it all.

An ``OSError`` (or anything else) fails the pending and every later future with ``StorageError``, is
reported once through ``on_error`` (``StoreHealth.report``: the loop thread takes the store offline on its next
call), and ends the thread.
"""

from __future__ import annotations

import threading
import time
from bisect import bisect_left
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Protocol

from .checkpoint import Checkpoint, CheckpointState
from .commitlog import CommitLog
from .consumequeue import DirtyFiles
from .errors import StorageError
from .results import FLUSH_BUCKETS

WRITE_BEHIND_S = 0.02
"""Under ``async``, how often the flusher starts writing back what was published since its last look."""
WRITE_BEHIND_MIN_BYTES = 1 << 20
"""... when at least this much is new."""


class FlushTimes:
    """How long each round's fsyncs of the CommitLog and the offset logs took, as histogram buckets: written by
    the flusher thread once per round (never per append), read by monitoring (``MessageStore.stats``)."""

    __slots__ = ("buckets", "seconds")

    def __init__(self) -> None:
        self.seconds = 0.0
        self.buckets = [0] * (len(FLUSH_BUCKETS) + 1)

    def observe(self, seconds: float) -> None:
        self.seconds += seconds
        self.buckets[bisect_left(FLUSH_BUCKETS, seconds)] += 1


class SyncableLog(Protocol):
    """An append-only file the flusher keeps durable (the offsets log)."""

    @property
    def written(self) -> int: ...

    def sync_to(self, position: int) -> None: ...


class DurableFuture(Future[None]):
    """Completed (result None) by the flusher once the bytes are fsynced. It refuses cancellation: one future
    is shared by every request of a group, and ``asyncio.wrap_future`` would otherwise pass a cancelled
    awaiter's cancellation on to all of them."""

    def cancel(self) -> bool:
        return False


@dataclass(slots=True)
class _Group:
    """The requests made since the last round: the positions they need, and their one future."""

    commitlog_offset: int = 0
    offsets_position: int = 0
    future: DurableFuture = field(default_factory=DurableFuture)


class FlushService:
    def __init__(
        self,
        *,
        sync_mode: bool,
        interval_ms: int,
        checkpoint_interval_ms: int,
        commitlog: CommitLog,
        consume_queue_files: DirtyFiles,
        offsets_log: SyncableLog,
        checkpoint: Checkpoint,
        index_offset: Callable[[], int],
        on_error: Callable[[BaseException], None],
        cache_bytes: int | None = None,
    ) -> None:
        self._sync_mode = sync_mode
        self._interval = interval_ms / 1000
        self._checkpoint_interval = checkpoint_interval_ms / 1000
        self._commitlog = commitlog
        self._cq_files = consume_queue_files
        self._offsets_log = offsets_log
        self._checkpoint = checkpoint
        self._index_offset = index_offset
        self._on_error = on_error
        self._cache_bytes = cache_bytes
        self._cond = threading.Condition()
        self._group: _Group | None = None
        self._checkpoint_wanted = False
        self._stopping = False
        #: async: the write-behind steps stopped (nothing was appended) until the next round or ``appended``
        self._idle = False
        self._failure: BaseException | None = None
        self.times = FlushTimes()
        self._thread = threading.Thread(target=self._run, name="rockafka-flusher", daemon=True)

    @property
    def writing_behind(self) -> bool:
        """async: write-behind steps run (every ``WRITE_BEHIND_S``) until one finds nothing new to write."""
        return not self._idle

    def start(self) -> None:
        self._thread.start()

    def request(self, *, checkpoint: bool = False) -> Future[None]:
        """A future completed once everything published so far is fsynced (and checkpointed, if asked)."""
        with self._cond:
            if self._failure is not None:
                failed = DurableFuture()
                failed.set_exception(StorageError(f"the store stopped flushing: {self._failure}"))
                return failed
            group = self._group
            if group is None:
                group = self._group = _Group()
                self._cond.notify()
            group.commitlog_offset = self._commitlog.write_offset
            group.offsets_position = self._offsets_log.written
            self._checkpoint_wanted |= checkpoint
            return group.future

    def after_write(self) -> Future[None] | None:
        """After an append or a side-log change: under ``sync``, a future completed once it is fsynced; under
        ``async``, None (and the write-behind steps are woken)."""
        if self._sync_mode:
            return self.request()
        self.appended()
        return None

    def appended(self) -> None:
        """After each append under ``async``: wakes the write-behind steps if they had stopped for want of
        appends (else a burst after a pause would go its first round without them)."""
        if self._idle:
            with self._cond:
                self._idle = False
                self._cond.notify()

    def stop(self) -> None:
        """Run a last round with a checkpoint, then end the thread."""
        with self._cond:
            self._stopping = True
            self._cond.notify()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        now = time.monotonic()
        next_checkpoint, next_round = now + self._checkpoint_interval, now + self._interval
        while True:
            with self._cond:
                if not self._stopping and self._group is None:
                    self._cond.wait(self._pause(next_round))
                group, self._group = self._group, None
                stopping = self._stopping
                now = time.monotonic()
                checkpoint_due = stopping or self._checkpoint_wanted or now >= next_checkpoint
                self._checkpoint_wanted = False
            round_due = self._sync_mode or group is not None or checkpoint_due or now >= next_round
            try:
                if round_due:
                    self._round(group, checkpoint_due)
                elif not self._commitlog.start_writeback(WRITE_BEHIND_MIN_BYTES):
                    self._stop_writing_behind()
            except BaseException as exc:  # OSError, or anything else: nothing may be acknowledged after it
                self._fail(group, exc)
                return
            if round_due:
                next_round, self._idle = time.monotonic() + self._interval, False
            if checkpoint_due:
                next_checkpoint = time.monotonic() + self._checkpoint_interval
            if stopping:
                return

    def _stop_writing_behind(self) -> None:
        """Nothing was published since the last write-behind step: no more steps until ``appended`` or the
        round. An append between that check and the flag is seen by the second look (the appender publishes,
        then reads the flag; this thread sets the flag, then reads what is published)."""
        self._idle = True
        if self._commitlog.unwritten_bytes:
            self._idle = False

    def _pause(self, next_round: float) -> float:
        """How long to wait for a request: until the next checkpoint under ``sync``; under ``async``, until the
        next round, or the next write-behind step while appends go on."""
        if self._sync_mode:
            return self._checkpoint_interval
        until_round = max(0.0, next_round - time.monotonic())
        return until_round if self._idle else min(WRITE_BEHIND_S, until_round)

    def _round(self, group: _Group | None, checkpoint_due: bool) -> None:
        published = self._commitlog.published_offset
        offsets_written = self._offsets_log.written
        if group is not None:  # requests come after publishing: the group never needs more than this
            published = max(published, group.commitlog_offset)
            offsets_written = max(offsets_written, group.offsets_position)
        started = time.perf_counter()
        self._commitlog.sync_to(published)
        self._offsets_log.sync_to(offsets_written)
        self.times.observe(time.perf_counter() - started)
        if checkpoint_due:
            for file in self._cq_files.take():
                file.sync()
            self._checkpoint.write(CheckpointState(published, self._index_offset(), time.time_ns() // 1_000_000))
        if group is not None:
            group.future.set_result(None)
        if self._cache_bytes is not None:
            self._commitlog.release_cache(self._cache_bytes)

    def _fail(self, group: _Group | None, exc: BaseException) -> None:
        with self._cond:
            self._failure = exc
            pending, self._group = self._group, None
        error = StorageError(f"flush failed: {exc}")
        error.__cause__ = exc
        for failed in (group, pending):
            if failed is not None:
                failed.future.set_exception(error)
        self._on_error(exc)
