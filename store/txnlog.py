"""The transaction log ``config/transactions.log``: one store-wide file of the transaction events of every partition.

Frames, big-endian, appended with ``O_APPEND``::

    [body length n : u32][CRC-32C of the body : u32][body : n bytes]

    body = kind : u8, then by kind
      1 BEGIN   topic_id 16, partition i32, producer_id i64, producer_epoch i16, first_offset i64, physical i64
                a transaction opened: the producer's first transactional batch on the partition since its last
                marker, at Kafka offset ``first_offset``
      2 END     topic_id 16, partition i32, producer_id i64, producer_epoch i16, commit u8, coordinator_epoch i32,
                first_offset i64 (-1: no transaction was open), marker_offset i64, physical i64
                a marker: the producer's transaction ends; an abort with a first offset is an aborted range
                [first_offset, marker_offset]
      3 COVERS  applied_below i64
                the frames before it describe every CommitLog record below this physical offset

``physical`` is the CommitLog offset of the record (batch or marker) the frame was learnt from. The frames of
the running broker follow the CommitLog order; the store writes a frame on the appending thread, right after
the record's ConsumeQueue unit, before the record is published. A frame is one ``write`` (the page cache keeps
it across a kill -9); the flusher fsyncs the file before it writes a checkpoint, so every frame of a record
below the checkpoint is on disk.

The frame format and how a damaged log is read are ``framedlog.py``'s: a frame is valid when its CRC-32C
matches and its body has its kind's exact size.

Load: every valid frame, in order. A torn tail is cut (INFO). Damage (a bad frame that valid frames follow,
or a bad tail that is not a torn append) is kept in the quarantine with one WARNING naming the partitions and
producers the damaged frames held, as far as they still read, and the CommitLog range they described (between
the ``physical`` of the valid frames around them): a lost END may leave a transaction open (the last stable
offset held back) or an aborted range unknown (read_committed consumers then see aborted records); a lost
BEGIN leaves a transaction unknown. Since every event is learnt from a CommitLog record, the tracker
(``transactions.py``) then keeps the frames before the damage and learns the rest again from the CommitLog,
from the ``physical`` where they end, when those frames are the whole state below that point (the damage
lies past the last rewrite's COVERS frame, or the file was never rewritten) and the CommitLog still holds
that range: the loss is then repaired. Otherwise it keeps every valid frame past the damage. Either way it
rewrites the file, so the damage is not met again.

``applied_below`` is the largest of ``physical + 1`` over the frames and of the ``COVERS`` values: recovery
re-dispatches the CommitLog tail and the tracker learns from records at or past it only. Frames of records
that recovery cut off the CommitLog (``physical`` at or past its new end) are dropped and the file is
rewritten without them.

Compaction (once the file passes ``compact_bytes`` and twice its size after the last compaction, so a large
state does not compact at every frame; and when frames were dropped): the state is written as
frames to ``transactions.log.tmp`` (an END per aborted range and per producer's last coordinator epoch, a
BEGIN per open transaction, then ``COVERS``), fsynced and renamed over the log, and the directory fsynced.

Threads: the broker loop thread writes and reads; the flusher thread calls ``sync_to``.
"""

from __future__ import annotations

import itertools
import os
import struct
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from . import framedlog
from .framedlog import FrameRules, Gap, Scan, account, append_frames, scan
from .jsonfile import fsync_directory
from .quarantine import Quarantine

BEGIN: Final = 1
END: Final = 2
COVERS: Final = 3
_BEGIN = struct.Struct(">B16siqhqq")
_END = struct.Struct(">B16siqhBiqqq")
_COVERS = struct.Struct(">Bq")
_SIZES: Final = {BEGIN: _BEGIN.size, END: _END.size, COVERS: _COVERS.size}


@dataclass(frozen=True, slots=True)
class Begin:
    topic_id: bytes
    partition: int
    producer_id: int
    producer_epoch: int
    first_offset: int
    physical: int


@dataclass(frozen=True, slots=True)
class End:
    topic_id: bytes
    partition: int
    producer_id: int
    producer_epoch: int
    commit: bool
    coordinator_epoch: int
    #: -1 when the producer had no open transaction on the partition.
    first_offset: int
    marker_offset: int
    physical: int


@dataclass(frozen=True, slots=True)
class Covers:
    applied_below: int


Event = Begin | End


def encode(frame: Begin | End | Covers) -> bytes:
    if isinstance(frame, Begin):
        body = _BEGIN.pack(
            BEGIN, frame.topic_id, frame.partition, frame.producer_id, frame.producer_epoch, frame.first_offset,
            frame.physical,
        )  # fmt: skip
    elif isinstance(frame, End):
        body = _END.pack(
            END, frame.topic_id, frame.partition, frame.producer_id, frame.producer_epoch, frame.commit,
            frame.coordinator_epoch, frame.first_offset, frame.marker_offset, frame.physical,
        )  # fmt: skip
    else:
        body = _COVERS.pack(COVERS, frame.applied_below)
    return framedlog.frame(body)


def _decode(body: bytes) -> Begin | End | Covers:
    kind = body[0]
    if _SIZES.get(kind) != len(body):
        raise ValueError(f"a frame of kind {kind} and {len(body)} bytes")
    if kind == BEGIN:
        return Begin(*_BEGIN.unpack(body)[1:])
    if kind == END:
        fields = _END.unpack(body)[1:]
        return End(fields[0], fields[1], fields[2], fields[3], bool(fields[4]), *fields[5:])
    return Covers(_COVERS.unpack(body)[1])


RULES: Final = FrameRules(min(_SIZES.values()), max(_SIZES.values()), frozenset(_SIZES), _decode)


def parse(data: bytes) -> tuple[list[Event], int, int]:
    """The events of the valid frames of ``data`` in order (past damage too), ``applied_below`` and where the
    valid frames end when only a torn tail follows them (also for read-only readers of the file, which cut
    nothing)."""
    result = scan(data, RULES)
    return (*_fold(result.values), result.valid_end)


def _fold(values: Iterable[Begin | End | Covers]) -> tuple[list[Event], int]:
    """The events among ``values`` and the ``applied_below`` they give."""
    events: list[Event] = []
    applied_below = 0
    for value in values:
        if isinstance(value, Covers):
            applied_below = max(applied_below, value.applied_below)
        else:
            events.append(value)
            applied_below = max(applied_below, value.physical + 1)
    return events, applied_below


def _describe(gap: Gap, frames: list[Begin | End | Covers], result: Scan[Begin | End | Covers]) -> str:
    named = []
    for f in frames:
        if isinstance(f, Begin):
            named.append(f"BEGIN {f.topic_id.hex()}-{f.partition} producer {f.producer_id} at offset {f.first_offset}")
        elif isinstance(f, End):
            outcome = "COMMIT" if f.commit else "ABORT"
            named.append(f"{outcome} {f.topic_id.hex()}-{f.partition} producer {f.producer_id} at {f.marker_offset}")
    consequence = (
        "a transaction may stay open (the last stable offset held back) or an aborted range be unknown "
        "(read_committed consumers then see its records), unless they are learnt again from the CommitLog "
        "(an INFO line follows when they are)"
    )
    held = f"they read (unchecked) as {', '.join(named)}" if named else "nothing in them still reads"
    return f"{held}; they described {_window(gap, result)}; {consequence}"


@dataclass(frozen=True, slots=True)
class Loaded:
    """What ``TransactionLog.load`` read. After damage (``damaged``), the caller rebuilds the state and rewrites
    the file: from ``prefix``, the events before the first damage, and the CommitLog from
    ``prefix_applied_below`` on when it still holds those records (the events are all derived from it), else
    from ``events``, every valid frame."""

    events: list[Event]
    applied_below: int
    damaged: bool = False
    prefix: list[Event] = field(default_factory=list)
    prefix_applied_below: int = 0
    #: Whether ``prefix`` is the whole state of the records below ``prefix_applied_below`` (see ``_complete``).
    prefix_complete: bool = False


def _complete(before: list[Begin | End | Covers], *, covered: bool) -> bool:
    """Whether the frames before the damage describe every record below their ``applied_below``: they hold the
    last rewrite's COVERS frame (the frames after it follow the CommitLog), or the file was never rewritten
    (no COVERS anywhere) and they follow the CommitLog order. A rewritten state cut before its COVERS is not
    complete: a transaction it closed has no BEGIN there, so learning its marker again would lose the range."""
    if any(isinstance(value, Covers) for value in before):
        return True
    physicals = [value.physical for value in before if not isinstance(value, Covers)]
    return not covered and all(a < b for a, b in itertools.pairwise(physicals))


def _window(gap: Gap, result: Scan[Begin | End | Covers]) -> str:
    """The CommitLog physical offsets that the frames lost in ``gap`` described, as far as known."""
    physicals = [
        (v.physical, end) for v, end in zip(result.values, result.ends, strict=True) if not isinstance(v, Covers)
    ]
    before = [physical for physical, end in physicals if end <= gap.start]
    after = [physical for physical, end in physicals if end > gap.start]
    low = before[-1] + 1 if before else 0
    return f"CommitLog records from physical offset {low}" + (f" to {after[0]}" if after else " on")


class TransactionLog:
    """The file: load its events, append frames, rewrite it compacted. Knows nothing of what events mean."""

    def __init__(self, directory: Path, compact_bytes: int, quarantine: Quarantine | None = None) -> None:
        self.path = directory / "transactions.log"
        self.compact_bytes = compact_bytes
        #: Where damage found on load is kept: the store's ``quarantine/`` beside ``config/`` by default.
        self._quarantine = quarantine or Quarantine(directory.parent / "quarantine")
        self._fd = -1
        self._fd_lock = threading.Lock()  # the flusher's fsync never meets a descriptor being replaced
        self.size = 0
        self.written = 0
        self._synced = 0
        self._compact_at = compact_bytes

    @property
    def wants_compaction(self) -> bool:
        return self.size >= self._compact_at

    def load(self) -> Loaded:
        """The events of the valid frames in file order and ``applied_below``; cuts a torn tail, keeps damage in
        the quarantine (the caller rewrites the file, see ``Loaded``). Repeatable."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self._fd < 0:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        data = os.pread(self._fd, os.fstat(self._fd).st_size, 0)
        result = scan(data, RULES)
        events, applied_below = _fold(result.values)
        valid = result.valid_end
        account(
            data, result, RULES, quarantine=self._quarantine, source="transactions", path=self.path,
            named=lambda gap, frames: _describe(gap, frames, result),
        )  # fmt: skip
        if not result.damage:
            if valid < len(data):
                os.ftruncate(self._fd, valid)
                os.fsync(self._fd)
            self.size = valid
            return Loaded(events, applied_below)
        first = result.damage[0].start
        before = [value for value, end in zip(result.values, result.ends, strict=True) if end <= first]
        prefix, prefix_applied_below = _fold(before)
        complete = _complete(before, covered=any(isinstance(value, Covers) for value in result.values))
        return Loaded(events, applied_below, True, prefix, prefix_applied_below, complete)

    def append(self, event: Event) -> None:
        data = encode(event)
        append_frames(self._fd, data)
        self.size += len(data)
        self.written += len(data)

    def rewrite(self, events: Iterable[Event], applied_below: int) -> None:
        """Replace the file by ``events`` and a ``COVERS`` frame (atomic rename)."""
        data = b"".join(encode(event) for event in events) + encode(Covers(applied_below))
        temporary = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, self.path)
        fsync_directory(self.path.parent)
        with self._fd_lock:
            old, self._fd = self._fd, os.open(self.path, os.O_RDWR | os.O_APPEND)
            if old >= 0:
                os.close(old)
        self.size = len(data)
        self.written += len(data)
        self._compact_at = max(self.compact_bytes, 2 * self.size)

    # --- flusher thread ---

    def sync_to(self, position: int) -> None:
        with self._fd_lock:
            if position > self._synced and self._fd >= 0:
                os.fdatasync(self._fd)
                self._synced = position

    def close(self) -> None:
        with self._fd_lock:
            if self._fd >= 0:
                os.fsync(self._fd)
                os.close(self._fd)
                self._fd = -1
