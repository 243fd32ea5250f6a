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

Load: every valid frame, in order; the file is cut at the first frame that is short, fails its CRC or has an
unknown kind (a torn tail). ``applied_below`` is the largest of ``physical + 1`` over the frames and of the
``COVERS`` values: recovery re-dispatches the CommitLog tail and the tracker learns from records at or past it
only. Frames of records that recovery cut off the CommitLog (``physical`` at or past its new end) are dropped
and the file is rewritten without them.

Compaction (once the file passes ``compact_bytes`` and twice its size after the last compaction, so a large
state does not compact at every frame; and when frames were dropped): the state is written as
frames to ``transactions.log.tmp`` (an END per aborted range and per producer's last coordinator epoch, a
BEGIN per open transaction, then ``COVERS``), fsynced and renamed over the log, and the directory fsynced.

Threads: the broker loop thread writes and reads; the flusher thread calls ``sync_to``.
"""

from __future__ import annotations

import os
import struct
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rockafka.core_pyx.crc32c import crc32c

from .jsonfile import fsync_directory

BEGIN: Final = 1
END: Final = 2
COVERS: Final = 3
_FRAME = struct.Struct(">II")
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
    return _FRAME.pack(len(body), crc32c(body)) + body


def _decode(body: bytes) -> Begin | End | Covers:
    kind = body[0]
    if kind == BEGIN:
        return Begin(*_BEGIN.unpack(body)[1:])
    if kind == END:
        fields = _END.unpack(body)[1:]
        return End(fields[0], fields[1], fields[2], fields[3], bool(fields[4]), *fields[5:])
    return Covers(_COVERS.unpack(body)[1])


def _frames(data: bytes) -> Iterator[tuple[Begin | End | Covers, int]]:
    """(frame, end position) of each valid frame, stopping at the first short, corrupt or unknown one."""
    pos = 0
    while pos + _FRAME.size <= len(data):
        length, crc = _FRAME.unpack_from(data, pos)
        end = pos + _FRAME.size + length
        body = data[pos + _FRAME.size : end]
        if end > len(data) or length == 0 or _SIZES.get(body[0]) != length or crc32c(body) != crc:
            return
        yield _decode(body), end
        pos = end


def parse(data: bytes) -> tuple[list[Event], int, int]:
    """The events of the valid frames of ``data`` in order, ``applied_below`` and the length of the valid frames
    (what :meth:`TransactionLog.load` keeps; also for read-only readers of the file, which cut nothing)."""
    events: list[Event] = []
    applied_below = valid = 0
    for frame, end in _frames(data):
        if isinstance(frame, Covers):
            applied_below = max(applied_below, frame.applied_below)
        else:
            events.append(frame)
            applied_below = max(applied_below, frame.physical + 1)
        valid = end
    return events, applied_below, valid


class TransactionLog:
    """The file: load its events, append frames, rewrite it compacted. Knows nothing of what events mean."""

    def __init__(self, directory: Path, compact_bytes: int) -> None:
        self.path = directory / "transactions.log"
        self.compact_bytes = compact_bytes
        self._fd = -1
        self._fd_lock = threading.Lock()  # the flusher's fsync never meets a descriptor being replaced
        self.size = 0
        self.written = 0
        self._synced = 0
        self._compact_at = compact_bytes

    @property
    def wants_compaction(self) -> bool:
        return self.size >= self._compact_at

    def load(self) -> tuple[list[Event], int]:
        """The events of the valid frames in file order, and ``applied_below``; cuts a torn tail. Repeatable."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self._fd < 0:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        data = os.pread(self._fd, os.fstat(self._fd).st_size, 0)
        events, applied_below, valid = parse(data)
        if valid < len(data):
            os.ftruncate(self._fd, valid)
            os.fsync(self._fd)
        self.size = valid
        return events, applied_below

    def append(self, event: Event) -> None:
        data = encode(event)
        os.write(self._fd, data)
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
