"""The CommitLog: one append-only log holding the RecordBatches of every topic-partition.

Files: ``commitlog/<20-digit offset of the file's first byte>``, each exactly ``segment_bytes`` long
(1 GiB by default), created full-size and mapped whole. A global *physical offset* names a byte of the
log; the file holding it is the one whose name is the largest start at or below it. A record never spans
two files: when a record (plus the 8 bytes a BLANK needs) does not fit in what is left of a file, a
BLANK record closes the file and the record goes to the next one. So at every record boundary at least
8 bytes remain, and a record is at most ``segment_bytes - 8`` bytes long.

Record layout, all integers big-endian, ``HEADER_SIZE`` = 64 bytes of header, then the batch:

======  ====  ================  ==========================================================================
offset  size  field             notes
======  ====  ================  ==========================================================================
0       4     total_size        header + batch bytes
4       4     magic             ``RECORD_MAGIC`` 0x524B4331 ("RKC1", format version 1)
8       4     header_crc        CRC-32C of bytes 0-7 continued over bytes 12-63
12      16    topic_id          the topic's UUID (names are in ``config/topics.json``)
28      4     partition
32      8     base_offset       the Kafka offset of the batch's first record; equal to batch bytes 0-7
40      8     physical_offset   the global offset of this record's byte 0
48      8     store_timestamp   broker clock at append, ms since the epoch
56      4     record_count      lastOffsetDelta + 1: the offsets the batch occupies
60      2     flags             the batch's attributes (bits 0-2 codec, 3 LogAppendTime, 4 transactional,
                                5 control), after a LogAppendTime rewrite
62      2     reserved          0
64      n     batch             one Kafka RecordBatch v2, unchanged but for its base offset and
                                partitionLeaderEpoch (bytes 0-7 and 12-15, not covered by the batch
                                CRC; the epoch is the store's, ``epochfile.py``) and, for LogAppendTime topics, its
                                attributes and maxTimestamp (the batch CRC-32C is then recomputed)
======  ====  ================  ==========================================================================

BLANK record (closes a file): ``[total_size = bytes to the end of the file : 4][BLANK_MAGIC 0x524B4342 : 4]``.
Unwritten space reads as zero: ``total_size == 0 and magic == 0`` is the end of the data.

Checksums: the header CRC covers every header field; the batch's own CRC-32C covers its bytes 21 to the
end. A record is valid when its header CRC matches, ``physical_offset`` equals where it sits, the batch
length agrees with ``total_size``, the batch's base offset and last offset delta agree with the header,
and (where verified) the batch CRC-32C matches.

The record codec is the ``core_pyx.logrecord`` kernel (``write_record``: header and patched batch header
encoded in C, written with one ``pwritev``; ``scan_records``/``verify_crcs``: the checks above). The kernel
defines the layout's constants once (``HEADER``, ``HEADER_SIZE``, ``RECORD_MAGIC``, ``BLANK_MAGIC``,
``BLANK_SIZE`` in ``core_pyx/_logrecord_py.py``; the compiled kernels cimport the same values from
``core_pyx/_layouts.pxd``), and this module imports them; ``tests/test_formats_defined_once.py`` fails on a
second definition.

Recovery (``store/recovery.py``) parses records from the checkpoint on, verifying batch CRCs. Past an
invalid record it looks for the next valid one (``next_valid``: the record magic, then every check above,
the batch CRC-32C included, at each place the magic occurs) and goes on from there, the bytes in between
quarantined; only when no valid record follows is the invalid record the end of the log, where the rest of
that file is zeroed and every later file is deleted. ``load`` notes segments found shorter than
``segment_bytes`` (``short_segments``) before they are extended with zeros, so recovery knows the zeros
there are lost data, not unwritten space.

Threads: the broker loop thread appends and publishes (``published_offset``: every record below it is
complete and its ConsumeQueue unit written). The index thread reads published records through
``segment_at``/``parse_at``/``batch_slice``, which take the file lock that segment deletion also takes. The flusher
thread calls ``sync_to``, ``start_writeback`` and ``release_cache``.

Page cache: what the flusher has fsynced more than ``StoreConfig.commitlog_cache_bytes`` behind the sync point
is released (``release_cache``: unmapped from the process and dropped from the page cache, clean as it is), so
the CommitLog keeps a bounded window of the newest data in memory, as RocketMQ bounds its hot data. Reads
of older records map their pages from the disk again. The reason is the cost of fresh memory: a page cache
that only grows takes a never-used page from the kernel for every 4 KiB written, several times the cost of
the copy itself on a virtual machine whose host backs guest memory lazily (``docs/performance.md``),
while released pages are soon reused for the next writes.
"""

from __future__ import annotations

import os
import struct
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from rockafka.core_pyx.crc32c import crc32c
from rockafka.core_pyx.logrecord import (
    BLANK_MAGIC,
    BLANK_SIZE,
    CORRUPT,
    END_OF_DATA,
    HEADER,
    HEADER_SIZE,
    RECORD_MAGIC,
    SEGMENT_END,
    scan_records,
    verify_crcs,
    write_record,
)

from .errors import RecordTooLargeError
from .mappedfile import MappedFile, MappedFileQueue, Preallocator, name_to_offset

_PREFIX = struct.Struct(">iI")
# total_size, magic, topic_id, partition, base, physical, record_count; the batch's base, length and magic
_CHECKED = struct.Struct(">iI4x16siqq8xi4xqi4xb")
_MAGIC_BYTES = struct.pack(">I", RECORD_MAGIC)
_SEARCH_CHUNK = 1 << 20  # bytes copied at a time when looking for the next record past damage
_RELEASE_STEP = 16 << 20  # release the page cache in steps of at least this ...
_RELEASE_CHUNK = 64 << 20  # ... and at most this under the lock at a time
_new_tuple = tuple.__new__


class StoredBatch(NamedTuple):
    """One valid CommitLog record: where it is and what the queue builder needs to index it (a named tuple:
    recovery makes one per record, straight from the scan kernel's tuples)."""

    physical_offset: int
    size: int
    topic_id: bytes
    partition: int
    base_offset: int
    record_count: int
    store_timestamp: int
    attributes: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int

    @property
    def end(self) -> int:
        return self.physical_offset + self.size

    @property
    def batch_size(self) -> int:
        return self.size - HEADER_SIZE


@dataclass(frozen=True, slots=True)
class SegmentEnd:
    """A BLANK record: the data continues at the next file."""

    next_offset: int


@dataclass(frozen=True, slots=True)
class EndOfData:
    offset: int


@dataclass(frozen=True, slots=True)
class CorruptRecord:
    offset: int
    reason: str


ParseOutcome = StoredBatch | SegmentEnd | EndOfData | CorruptRecord
PartitionKey = tuple[bytes, int]


@dataclass(frozen=True, slots=True)
class RecordHeader:
    """The header of a record whose batch may be damaged: who the record belonged to."""

    topic_id: bytes
    partition: int
    base_offset: int
    record_count: int


@dataclass(slots=True)
class Damage:
    """Bytes [start, end) of the log that hold no valid record although records were written there (a record
    that fails its checks, zeros, a missing segment), and what is known of the records lost in them."""

    start: int
    end: int
    reason: str
    #: The first damaged record's header, when that header is intact.
    header: RecordHeader | None
    #: Partitions seen to skip offsets across the range: key -> (first, last) offset lost.
    lost: dict[PartitionKey, tuple[int, int]] = field(default_factory=dict)


class LogWalk:
    """Valid records from ``start`` to ``limit``, in chunks, and the damaged ranges between them, in log order.

    Past a record that fails its checks, or zeros that lie below ``expected_end`` (bytes known written: the
    checkpoint) or ``hint_end`` (bytes probably written: ConsumeQueue units) or before a later segment with
    data, the walk looks for the next valid record (``CommitLog.next_valid``) and yields the bytes in between
    as a ``Damage``. When none follows, the log ends there: a ``Damage`` up to ``expected_end`` if the bytes
    were known written, else a torn tail (``torn`` says why), which is what a crash leaves. ``end`` is where
    the valid log ends, once the walk is done.
    """

    def __init__(
        self, commitlog: CommitLog, start: int, *, limit: int, verify_from: int, expected_end: int, hint_end: int
    ) -> None:
        self._log = commitlog
        self.start = self.end = start
        self._limit = limit
        self._verify_from = verify_from
        self._expected_end = expected_end
        self._hint_end = max(hint_end, expected_end)
        self._data_limit = min(commitlog.data_limit(), limit)
        self.torn: str | None = None
        self.chunk = 4096

    def __iter__(self) -> Iterator[list[StoredBatch] | Damage]:
        offset = self.start
        while offset < self._limit:
            records, outcome = self._log.parse_many(offset, verify_from=self._verify_from, limit=self.chunk)
            if records and records[-1].end > self._limit:  # the walk ends at a cut (a record boundary)
                records = [record for record in records if record.end <= self._limit]
                if not records:
                    break
                outcome = None
            if records:
                offset = records[-1].end
                yield records
            if outcome is None:
                continue
            if isinstance(outcome, SegmentEnd):
                offset = outcome.next_offset
                continue
            if isinstance(outcome, EndOfData):
                if offset >= self._hint_end and self._data_limit <= self._log.segment_end(offset):
                    break
                reason = "zeros where records were"
            else:
                reason = outcome.reason
            damage, resume = self._damage_at(offset, reason)
            if damage is not None:
                yield damage
            if resume is None:
                break
            offset = resume
        self.end = offset

    def _damage_at(self, offset: int, reason: str) -> tuple[Damage | None, int | None]:
        """The damage at ``offset`` and where valid records start again (None: the log ends at ``offset``)."""
        if not self._log.holds(offset):
            reason = "the segment file holding it is missing"
        resume = self._log.next_valid(offset, self._data_limit)
        header = self._log.header_at(offset)
        if resume is not None:
            return Damage(offset, resume, reason, header), resume
        if offset < self._expected_end:
            return Damage(offset, self._expected_end, reason, header), None
        if reason != "zeros where records were":
            self.torn = f"offset {offset}: {reason}"
        return None, None


class CommitLog:
    """The mapped segment files and the write position; knows the record format, nothing of topics."""

    def __init__(self, directory: Path, segment_bytes: int, *, preallocate: bool, keep_free: int = 0) -> None:
        """``preallocate``: segments are created with their blocks allocated, leaving ``keep_free`` bytes free
        (else creating one fails with ENOSPC); otherwise they are sparse."""
        self.segment_bytes = segment_bytes
        self._preallocator = Preallocator(keep_free) if preallocate else None
        self._files = MappedFileQueue(directory, segment_bytes, preallocator=self._preallocator, keep_fd=True)
        self._lock = threading.Lock()
        self.write_offset = 0
        self.published_offset = 0
        self._synced_offset = 0
        self._released_offset = 0
        self._writeback_offset = 0
        self._tail: MappedFile | None = None  # the file the write offset is in (re-found after any change)
        #: Segments found shorter than ``segment_bytes`` on load: start -> bytes found (the rest is lost data).
        self.short_segments: dict[int, int] = {}
        #: Records below this had their batch CRC-32C checked by no one yet (recovery trusts what the checkpoint
        #: covers); ``checked_batch_view`` checks them as they are first read, a segment's prefix at a time.
        self.unverified_below = 0
        self._verified_to: dict[int, int] = {}  # segment start -> end of its prefix whose CRCs were checked

    def load(self, *, readonly: bool = False) -> None:
        directory = self._files.directory
        if not readonly and directory.is_dir():
            for entry in os.scandir(directory):
                start = name_to_offset(entry.name)
                if start is not None and entry.is_file() and 0 < entry.stat().st_size < self.segment_bytes:
                    self.short_segments[start] = entry.stat().st_size
        self._files.load(readonly=readonly)
        first = self._files.first
        self.write_offset = self.published_offset = self._synced_offset = first.start if first else 0
        self._released_offset = self._writeback_offset = self.write_offset
        self._tail = None

    @property
    def min_offset(self) -> int:
        first = self._files.first
        return first.start if first else self.write_offset

    @property
    def synced_offset(self) -> int:
        """Everything below this offset is fsynced."""
        return self._synced_offset

    @property
    def max_record_size(self) -> int:
        return self.segment_bytes - BLANK_SIZE

    def segments(self) -> list[MappedFile]:
        return list(self._files.files)

    def set_end(self, end: int) -> None:
        """After recovery: cut everything from ``end`` and continue writing there."""
        with self._lock:
            self._files.truncate_from(end)
        self.write_offset = self.published_offset = self._synced_offset = end
        self._released_offset = min(self._released_offset, end)
        self._writeback_offset = min(self._writeback_offset, end)
        self._tail = None

    def sync_segment_at(self, offset: int) -> None:
        """fsync the segment holding ``offset`` (after a cut: its zeroed tail reaches the disk)."""
        with self._lock:
            file = self._files.find(offset)
            if file is not None:
                file.sync()

    def delete_segment(self, segment: MappedFile) -> None:
        """Delete a whole segment (retention); never the one being written."""
        with self._lock:
            self._files.remove(segment)

    # --- append (loop thread) ---

    def append(
        self,
        batch: memoryview | bytes,
        *,
        topic_id: bytes,
        partition: int,
        base_offset: int,
        leader_epoch: int,
        record_count: int,
        store_timestamp: int,
        log_append_time: int | None,
    ) -> StoredBatch:
        """Write one batch behind a header at the write position, its base offset and partitionLeaderEpoch (and,
        for LogAppendTime, its maxTimestamp and CRC) patched on the way (``core_pyx.logwrite``: one ``pwritev`` of
        [header, patched batch header, the rest of the batch as given], the GIL released; the caller's buffer is
        left as it was)."""
        total = HEADER_SIZE + len(batch)
        if total > self.segment_bytes - BLANK_SIZE:
            raise RecordTooLargeError(f"a {len(batch)}-byte batch does not fit a {self.segment_bytes}-byte segment")
        file = self._tail
        if file is None or file.closed or not file.start <= self.write_offset <= file.end - total - BLANK_SIZE:
            file = self._tail = self._room_for(total)
        pos = self.write_offset - file.start
        physical = self.write_offset
        _, attributes, max_timestamp, producer_id, producer_epoch = write_record(
            file.fd, pos, batch, topic_id, partition, base_offset, leader_epoch, record_count, store_timestamp,
            -1 if log_append_time is None else log_append_time, physical,
        )  # fmt: skip
        self.write_offset = physical + total
        return _new_tuple(StoredBatch, (
            physical, total, topic_id, partition, base_offset, record_count, store_timestamp, attributes,
            max_timestamp, producer_id, producer_epoch,
        ))  # fmt: skip

    def landing(self, total: int) -> int:
        """Where a record of ``total`` bytes appended now starts: the write position, or the next segment's start
        when it does not fit in what is left of this one (with the 8 bytes a BLANK needs)."""
        file = self._files.find(self.write_offset)
        if file is not None and self.write_offset + total + BLANK_SIZE > file.end:
            return file.end
        return self.write_offset

    def append_copy(self, record: memoryview) -> None:
        """Write a record copied byte for byte from another CommitLog of the same segment size (a leader's) at the
        write position, closing the segment first when it does not fit (``landing`` says where it goes; the
        caller checks that it is where the record claims to be)."""
        total = len(record)
        file = self._tail
        if file is None or file.closed or not file.start <= self.write_offset <= file.end - total - BLANK_SIZE:
            file = self._tail = self._room_for(total)
        file.write(self.write_offset - file.start, total, record)
        self.write_offset += total

    def append_blank(self) -> None:
        """Close the segment being written with a BLANK at the write position and continue at the next segment's
        start (a leader's BLANK, copied: the follower's log then ends where the leader's stream goes on)."""
        file = self._files.find(self.write_offset) or self._files.create(self.write_offset)
        self._tail = None
        self._room_for(file.end - self.write_offset)

    def _room_for(self, total: int) -> MappedFile:
        """The file where ``total`` bytes go at the write offset, closing the current file with a BLANK if needed."""
        file = self._files.find(self.write_offset) or self._files.create(self.write_offset)
        remaining = file.end - self.write_offset
        if total + BLANK_SIZE > remaining:
            file.write(self.write_offset - file.start, BLANK_SIZE, _PREFIX.pack(remaining, BLANK_MAGIC))
            self.write_offset = file.end
            file = self._files.find(self.write_offset) or self._files.create(self.write_offset)
        return file

    def publish(self) -> None:
        """Make every appended record visible to the other threads (call after its dispatch)."""
        self.published_offset = self.write_offset

    # --- reads ---

    def batch_view(self, physical_offset: int, size: int) -> memoryview | None:
        """The stored batch of the record at ``physical_offset`` as a slice of the mapping (loop thread)."""
        file = self._files.find(physical_offset)
        if file is None:
            return None
        pos = physical_offset - file.start
        return file.view[pos + HEADER_SIZE : pos + size]

    def checked_batch_view(
        self, physical_offset: int, size: int, topic_id: bytes, partition: int, base_offset: int, record_count: int
    ) -> memoryview | None:
        """``batch_view``, or None unless the record header there says it is this record: the magic, the size,
        the topic, the partition, the base offset, the record count and the physical offset all agree, and so do
        the batch's own base offset, length and magic, which its CRC-32C does not cover (one ``unpack`` per
        batch: a ConsumeQueue unit that points at garbage or at zeros is never served)."""
        file = self._files.find(physical_offset)
        if file is None:
            return None
        pos = physical_offset - file.start
        if size < _CHECKED.size or pos + size > file.size:
            return None
        total, magic, topic, number, base, physical, count, batch_base, length, batch_magic = _CHECKED.unpack_from(
            file.view, pos
        )
        if (
            total != size or magic != RECORD_MAGIC or physical != physical_offset or base != base_offset
            or count != record_count or number != partition or topic != topic_id or batch_base != base
            or length != size - HEADER_SIZE - 12 or batch_magic != 2
        ):  # fmt: skip
            return None
        if physical_offset < self.unverified_below:
            verified = self._verified_to.get(file.start, file.start)
            if physical_offset + size > verified and not self._verify_first_read(file, pos, size, verified):
                return None
        return file.view[pos + HEADER_SIZE : pos + size]

    def _verify_first_read(self, file: MappedFile, pos: int, size: int, verified: int) -> bool:
        """Check the batch CRC-32Cs of the segment from where its checked prefix ends through the record at ``pos``
        (the kernel, the GIL released); whether that record's is right. Past a bad record the prefix stops
        growing, and each later record is checked alone when read."""
        start = verified - file.start
        if start <= pos:
            bad = verify_crcs(file.view, start, pos + size)
            self._verified_to[file.start] = file.start + (pos + size if bad < 0 else bad)
            if bad < 0 or bad == pos:
                return bad < 0
        return verify_crcs(file.view, pos, pos + size) < 0

    def batch_slice(self, physical_offset: int, size: int) -> memoryview | None:
        """Like ``batch_view``, safe from any thread: taken under the lock that segment deletion takes, and a
        slice keeps its mapping alive even if the segment is deleted while it is held."""
        with self._lock:
            return self.batch_view(physical_offset, size)

    def segment_at(self, offset: int) -> tuple[memoryview, int] | None:
        """The whole segment holding ``offset`` as a slice of its mapping, and the segment's start offset (any
        thread: taken under the lock that segment deletion takes, and the slice keeps the mapping alive even if
        the segment is deleted while it is held); None when no segment holds ``offset``."""
        with self._lock:
            file = self._files.find(offset)
            return None if file is None else (file.view[:], file.start)

    def parse_at(self, offset: int, *, verify_batch: bool) -> ParseOutcome:
        """Parse the record at ``offset`` (any thread); checks everything but the batch CRC unless asked."""
        records, outcome = self.parse_many(offset, verify_from=offset if verify_batch else 1 << 62, limit=1)
        if records:
            return records[0]
        assert outcome is not None
        return outcome

    def parse_many(
        self, offset: int, *, verify_from: int, limit: int
    ) -> tuple[list[StoredBatch], SegmentEnd | EndOfData | CorruptRecord | None]:
        """Parse up to ``limit`` records of one segment from ``offset`` (any thread), verifying the batch CRCs of
        those at or past ``verify_from``; returns them and what follows them (None when the limit stopped the
        parse: go on from the last record's end)."""
        with self._lock:
            file = self._files.find(offset)
            if file is None:
                return [], EndOfData(offset)
            start = file.start
            parsed, position, stop, reason = scan_records(file.view, offset - start, start, verify_from, limit)
        records = [_new_tuple(StoredBatch, fields) for fields in parsed]
        at = file.start + position
        if stop == SEGMENT_END:
            return records, SegmentEnd(file.end)
        if stop == CORRUPT:
            return records, CorruptRecord(at, reason)
        return records, EndOfData(at) if stop == END_OF_DATA else None

    def holds(self, offset: int) -> bool:
        return self._files.find(offset) is not None

    def segment_end(self, offset: int) -> int:
        """The end of the segment holding ``offset`` (``offset`` itself when none does)."""
        file = self._files.find(offset)
        return offset if file is None else file.end

    def header_at(self, offset: int) -> RecordHeader | None:
        """The header of the record at ``offset`` when the header alone is intact (its CRC and position check)."""
        with self._lock:
            file = self._files.find(offset)
            if file is None or offset - file.start + HEADER_SIZE > file.size:
                return None
            pos = offset - file.start
            header = bytes(file.view[pos : pos + HEADER_SIZE])
        _, magic, header_crc, topic_id, partition, base, physical, _, count, _, _ = HEADER.unpack(header)
        if magic != RECORD_MAGIC or physical != offset or crc32c(header[12:], crc32c(header[:8])) != header_crc:
            return None
        return RecordHeader(topic_id, partition, base, count)

    def copy_range(self, start: int, end: int) -> bytes:
        """The bytes of [start, end) that some segment holds (a missing segment's part is left out)."""
        parts = []
        with self._lock:
            for file in self._files.files:
                if file.end > start and file.start < end:
                    parts.append(
                        bytes(file.view[max(start, file.start) - file.start : min(end, file.end) - file.start])
                    )
        return b"".join(parts)

    def data_limit(self) -> int:
        """Where the written part of the log surely ends: the end of the last segment whose first bytes are not
        zero (a later, empty segment is one made ahead of need). Past this, there is nothing to look for."""
        with self._lock:
            for file in reversed(self._files.files):
                if _PREFIX.unpack_from(file.view, 0) != (0, 0):
                    return file.end
            first = self._files.first
            return first.start if first else self.write_offset

    def next_valid(self, offset: int, limit: int) -> int | None:
        """The first place past ``offset`` and below ``limit`` where a valid record starts (every check, the batch
        CRC-32C included), looked for at each occurrence of the record magic; also the start of a later segment
        whose first record is valid. None when there is none: ``offset`` is then the end of the log."""
        for file in self.segments():
            if file.end <= offset or file.start >= limit:
                continue
            position = max(offset + 1 - file.start, 0)
            if position == 0 and self._valid_at(file, 0):
                return file.start
            found = self._search(file, position, min(limit - file.start, file.size))
            if found is not None:
                return file.start + found
        return None

    def _search(self, file: MappedFile, position: int, end: int) -> int | None:
        """The first file-relative position in [position, end) holding a valid record, by the magic at +4."""
        chunk_at = position
        while chunk_at < end:
            stop = min(chunk_at + _SEARCH_CHUNK + 7, end + 4)
            with self._lock:
                if file.closed:
                    return None
                chunk = bytes(file.view[chunk_at:stop])
            hit = chunk.find(_MAGIC_BYTES)
            while hit >= 0:
                candidate = chunk_at + hit - 4
                if candidate >= position and candidate < end and self._valid_at(file, candidate):
                    return candidate
                hit = chunk.find(_MAGIC_BYTES, hit + 1)
            chunk_at += _SEARCH_CHUNK
        return None

    def _valid_at(self, file: MappedFile, position: int) -> bool:
        with self._lock:
            if file.closed:
                return False
            parsed = scan_records(file.view, position, file.start, 0, 1)[0]
        return bool(parsed)

    def verify_range(self, start: int, end: int) -> int | None:
        """Check the batch CRC-32Cs of the already parsed records in [start, end) of one segment (any thread;
        the kernel releases the GIL): the offset of the first that fails, or None."""
        with self._lock:
            file = self._files.find(start)
            view = None if file is None else file.view[:]
        if file is None or view is None:
            return None
        bad = verify_crcs(view, start - file.start, end - file.start)
        return None if bad < 0 else file.start + bad

    # --- flush (flusher thread) ---

    def sync_to(self, end: int) -> None:
        if end > self._synced_offset:
            self._files.sync_range(self._synced_offset, end)
            self._synced_offset = end
            self._writeback_offset = max(self._writeback_offset, end)

    @property
    def unwritten_bytes(self) -> int:
        """Bytes published since the last write-behind step or sync started their writing."""
        return self.published_offset - self._writeback_offset

    def start_writeback(self, min_bytes: int) -> bool:
        """Start the disk writing what was published since the last call or sync, when that is at least
        ``min_bytes``, without waiting for it (flusher thread; under the lock that segment deletion takes).
        False when nothing at all was published since."""
        end = self.published_offset
        if end - self._writeback_offset < min_bytes:
            return end > self._writeback_offset
        with self._lock:
            self._files.start_writeback(self._writeback_offset, end)
        self._writeback_offset = end
        return True

    def release_cache(self, keep_bytes: int) -> None:
        """Release the page cache of what was fsynced more than ``keep_bytes`` before the sync point (flusher
        thread; a chunk at a time under the lock that segment deletion takes, so no mapping goes meanwhile)."""
        end = self._synced_offset - keep_bytes
        while end - self._released_offset >= _RELEASE_STEP:
            step_end = min(end, self._released_offset + _RELEASE_CHUNK)
            with self._lock:
                self._files.release_cache(self._released_offset, step_end)
            self._released_offset = step_end

    def close(self) -> None:
        if self._preallocator is not None:
            self._preallocator.close()
        with self._lock:
            self._files.close()
