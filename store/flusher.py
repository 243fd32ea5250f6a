"""The flusher thread: fsyncs the CommitLog and the offsets log, completes group-commit waiters, checkpoints.

Policies:

- ``async``: a round runs every ``flush_interval_ms``; appends and offset commits do not wait.
- ``sync`` (group commit): an append or offset commit registers a request (a ``concurrent.futures.Future``
  and the log positions it needs) and wakes the thread. A round takes every pending request, reads the
  published positions (never below a request's, since requests are registered after publishing), fsyncs
  up to them, and completes all the requests at once; appends arriving meanwhile form the next group.

Every ``checkpoint_interval_ms`` (and on stop) a round also fsyncs the ConsumeQueue files written since
the last checkpoint and rewrites the checkpoint with the CommitLog offset read *before* those fsyncs, so
the checkpoint never claims a unit that is not on disk.

An ``OSError`` fails every pending and later request with ``StorageError``, is reported once through
``on_error`` (the facade takes the store offline), and ends the thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Protocol

from .checkpoint import Checkpoint, CheckpointState
from .commitlog import CommitLog
from .consumequeue import DirtyFiles
from .errors import StorageError


class SyncableLog(Protocol):
    """An append-only file the flusher keeps durable (the offsets log)."""

    @property
    def written(self) -> int: ...

    def sync_to(self, position: int) -> None: ...


@dataclass(frozen=True, slots=True)
class _Request:
    commitlog_offset: int
    offsets_position: int
    future: Future[None]


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
        self._cond = threading.Condition()
        self._requests: list[_Request] = []
        self._checkpoint_wanted = False
        self._stopping = False
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="rockafka-flusher", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def request(self, *, checkpoint: bool = False) -> Future[None]:
        """A future completed once everything published so far is fsynced (and checkpointed, if asked)."""
        future: Future[None] = Future()
        with self._cond:
            if self._failure is not None:
                future.set_exception(StorageError(f"the store stopped flushing: {self._failure}"))
                return future
            self._requests.append(_Request(self._commitlog.write_offset, self._offsets_log.written, future))
            self._checkpoint_wanted |= checkpoint
            self._cond.notify()
        return future

    def stop(self) -> None:
        """Run a last round with a checkpoint, then end the thread."""
        with self._cond:
            self._stopping = True
            self._cond.notify()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        next_checkpoint = time.monotonic() + self._checkpoint_interval
        while True:
            with self._cond:
                if not self._stopping and not (self._sync_mode and self._requests):
                    self._cond.wait(self._interval if not self._sync_mode else self._checkpoint_interval)
                requests, self._requests = self._requests, []
                stopping = self._stopping
                checkpoint_due = stopping or self._checkpoint_wanted or time.monotonic() >= next_checkpoint
                self._checkpoint_wanted = False
            try:
                self._round(requests, checkpoint_due)
            except BaseException as exc:  # OSError, or anything else: nothing may be acknowledged after it
                self._fail(requests, exc)
                return
            if checkpoint_due:
                next_checkpoint = time.monotonic() + self._checkpoint_interval
            if stopping:
                return

    def _round(self, requests: list[_Request], checkpoint_due: bool) -> None:
        published = self._commitlog.published_offset
        offsets_written = self._offsets_log.written
        self._commitlog.sync_to(published)
        self._offsets_log.sync_to(offsets_written)
        if checkpoint_due:
            for file in self._cq_files.take():
                file.sync()
            self._checkpoint.write(CheckpointState(published, self._index_offset(), time.time_ns() // 1_000_000))
        for request in requests:
            if request.commitlog_offset <= published and request.offsets_position <= offsets_written:
                request.future.set_result(None)
            else:  # registered before its bytes were published: the next round covers it
                with self._cond:
                    self._requests.append(request)

    def _fail(self, requests: list[_Request], exc: BaseException) -> None:
        with self._cond:
            self._failure = exc
            requests = requests + self._requests
            self._requests = []
        error = StorageError(f"flush failed: {exc}")
        error.__cause__ = exc
        for request in requests:
            request.future.set_exception(error)
        self._on_error(exc)
