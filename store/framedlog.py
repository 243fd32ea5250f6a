"""The framing shared by the store's side logs, and how a damaged one is read back.

The consumer offsets log (``offsets.py``), the transaction log (``txnlog.py``) and the group metadata and
producer documents' logs (``groups.py``) are sequences of frames, big-endian::

    [body length n : u32][CRC-32C (Castagnoli) of the body : u32][body : n bytes]      n >= 1

The body's first byte is a kind; what follows is each log's business. A frame is *valid* when ``n`` lies
within the log's bounds, the whole body is inside the file, its first byte is one of the log's kinds, its
CRC-32C matches and the log's decoder accepts the body. Appends are whole frames, so a reader starts at
byte 0 and steps frame by frame.

Reading a damaged log (``scan``): past an invalid frame the reader searches forward, one byte at a time,
for the next position where a valid frame starts, and resumes there. A false start needs a plausible
length, a matching CRC-32C (one chance in 2^32) and a body the decoder accepts, so every intact frame
past the damage is found again. What lies between is a gap, and a gap is one of:

- **damage**: valid frames follow it, or it is a tail that is not what a crash leaves (a whole frame that
  fails its CRC, bytes that are no frame). The loader keeps its bytes in the quarantine (``quarantine.py``),
  logs one WARNING naming what the damaged frames held as far as they still read, replays the rest in
  order, and rewrites the log from what it kept, so the damage is not met again at the next load;
- **torn tail**: nothing valid follows and the bytes are what a crash in the middle of an append leaves:
  zeros, fewer bytes than a frame header, or the start of one frame whose declared length runs past the end
  of the file. The change it held was never acknowledged as durable (a kill -9 cannot tear a ``write``;
  under the sync flush policy a change is acknowledged after its fsync), so the loader cuts it and logs one
  INFO line, as a crash recovery, not a loss.

Frames set or remove absolute values, so replaying the kept frames in order gives the state as it was,
less the changes held by the damaged frames: each such change is lost (an older value of its key stays,
or a deleted one comes back), and the loss record says which keys the damaged bytes name.

Snapshots (``read_snapshot``): the offsets, group metadata and producer documents' logs are compacted into a
JSON snapshot kept with a ``.bak`` (``jsonfile.py``; the transaction log is rewritten as frames instead).
A snapshot that does not parse, or parses into the wrong shape, is damage too: quarantined, one WARNING, and
the ``.bak`` is read instead, then the log replayed over it. The ``.bak`` is the snapshot before the last
compaction, and the frames folded in between were dropped from the log by that compaction: those changes
are lost (the loss record says so). With no readable snapshot the log alone is replayed. A damaged byte that
leaves valid JSON of the right shape (a digit changed in a number) cannot be detected.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Generic, TypeVar

from rockafka.core_pyx.crc32c import crc32c

from .quarantine import Loss, Quarantine

log = logging.getLogger("rockafka.store")

HEADER: Final = struct.Struct(">II")
_NONZERO: Final = re.compile(rb"[^\x00]")
_COPY_LIMIT: Final = 1 << 16
_DECODE_ERRORS = (ValueError, IndexError, KeyError, TypeError, struct.error)

T = TypeVar("T")


def frame(body: bytes) -> bytes:
    """``body`` framed: its length, its CRC-32C, itself."""
    return HEADER.pack(len(body), crc32c(body)) + body


def append_frames(fd: int, data: bytes) -> None:
    """Append whole frames to a log opened ``O_APPEND``: all of ``data`` or nothing.

    A short write (the file system filled up part-way) is taken back by cutting the file to where it was,
    and raised as ``ENOSPC``, so the caller applies no change it did not store and no torn frame is left for
    the next load to find.
    """
    written = os.write(fd, data)
    if written != len(data):
        os.ftruncate(fd, os.lseek(fd, 0, os.SEEK_END) - written)
        raise OSError(errno.ENOSPC, f"a log append wrote {written} of {len(data)} bytes: the file system is full")


@dataclass(frozen=True, slots=True)
class Gap:
    """Bytes [start, end) of the log that hold no valid frame."""

    start: int
    end: int
    torn: bool  # a torn tail (what a crash mid-append leaves), not damage


@dataclass(frozen=True, slots=True)
class Scan(Generic[T]):
    """What one pass over a log found: every valid frame's decoded value in file order, and the gaps."""

    values: list[T]
    ends: list[int]  # the end position of each valid frame, aligned with ``values``
    gaps: list[Gap]
    size: int

    @property
    def damage(self) -> list[Gap]:
        return [gap for gap in self.gaps if not gap.torn]

    @property
    def valid_end(self) -> int:
        """Where the log's valid frames end when nothing but a torn tail follows them."""
        return self.ends[-1] if self.ends else 0


@dataclass(frozen=True, slots=True)
class FrameRules(Generic[T]):
    """One log's idea of a valid frame: body length bounds, the kinds a body may start with, and a decoder that
    raises on a bad body (the checks run cheapest first: the search past damage tries every byte)."""

    min_body: int
    max_body: int
    kinds: frozenset[int]
    decode: Callable[[bytes], T]

    def read(self, data: bytes, pos: int) -> tuple[T, int] | None:
        """The decoded frame at ``pos`` and its end, or None when no valid frame starts there."""
        if pos + HEADER.size >= len(data):
            return None
        length, crc = HEADER.unpack_from(data, pos)
        start, end = pos + HEADER.size, pos + HEADER.size + length
        if not self.min_body <= length <= self.max_body or end > len(data) or data[start] not in self.kinds:
            return None
        if length > _COPY_LIMIT and crc32c(memoryview(data)[start:end]) != crc:
            return None  # no copy of a long false body met in the search past damage
        body = data[start:end]
        if length <= _COPY_LIMIT and crc32c(body) != crc:
            return None
        try:
            return self.decode(body), end
        except _DECODE_ERRORS:
            return None

    def is_torn(self, data: bytes, start: int) -> bool:
        """Whether ``data[start:]`` is what a crash mid-append leaves (see the module docstring)."""
        tail = data[start:]
        if len(tail) < HEADER.size or not tail.strip(b"\0"):
            return True
        length: int = HEADER.unpack_from(tail)[0]
        return self.min_body <= length <= self.max_body and HEADER.size + length > len(tail)


def scan(data: bytes, rules: FrameRules[T]) -> Scan[T]:
    """Every valid frame of ``data`` (resuming past damage) and the gaps between them."""
    values: list[T] = []
    ends: list[int] = []
    gaps: list[Gap] = []
    pos = 0
    while pos < len(data):
        found = rules.read(data, pos)
        if found is not None:
            values.append(found[0])
            ends.append(found[1])
            pos = found[1]
            continue
        resume = _next_valid(data, pos + 1, rules)
        if resume is None:
            gaps.append(Gap(pos, len(data), rules.is_torn(data, pos)))
            break
        gaps.append(Gap(pos, resume, False))
        pos = resume
    return Scan(values, ends, gaps, len(data))


def _next_valid(data: bytes, start: int, rules: FrameRules[T]) -> int | None:
    pos, last = start, len(data) - HEADER.size
    while pos < last:
        if data[pos : pos + 4] == b"\0\0\0\0":  # a zero length is no frame: skip to 3 bytes before a non-zero byte
            found = _NONZERO.search(data, pos + 4)
            if found is None:
                return None
            pos = found.start() - 3
            continue
        if rules.read(data, pos) is not None:
            return pos
        pos += 1
    return None


def bodies_in(data: bytes, gap: Gap, rules: FrameRules[T]) -> Iterator[T]:
    """What the frames inside a gap still say when read without their CRC (best effort, for the loss
    record): from the gap's start, follow each declared length while it stays inside the gap."""
    pos = gap.start
    while pos + HEADER.size < gap.end:
        length: int = HEADER.unpack_from(data, pos)[0]
        end = pos + HEADER.size + length
        if not rules.min_body <= length <= rules.max_body or end > gap.end:
            return
        try:
            yield rules.decode(data[pos + HEADER.size : end])
        except _DECODE_ERRORS:
            return
        pos = end


def account(
    data: bytes,
    result: Scan[T],
    rules: FrameRules[T],
    *,
    quarantine: Quarantine,
    source: str,
    path: Path,
    named: Callable[[Gap, list[T]], str],
) -> None:
    """Log each gap of ``result``: a torn tail at INFO; damage kept in the quarantine, one WARNING each,
    its reason naming what the damaged frames held (``named`` of their best-effort reading)."""
    for gap in result.gaps:
        if gap.torn:
            log.info(
                "%s: cut a torn tail of %d bytes at %d (a crash in the middle of an append)",
                path,
                gap.end - gap.start,
                gap.start,
            )
            continue
        where = "at the end of the log" if gap.end == result.size else "valid frames follow"
        held = named(gap, list(bodies_in(data, gap, rules)))
        reason = f"frames that fail their CRC-32C or do not decode ({where}); the changes they held are lost: {held}"
        quarantine.keep(
            Loss(source=source, file=path.name, start=gap.start, end=gap.end, reason=reason), data[gap.start : gap.end]
        )


def read_snapshot(
    path: Path, quarantine: Quarantine, source: str, check: Callable[[Any], object]
) -> tuple[Any | None, bool]:
    """The log's snapshot document (``path``, else its ``.bak``, see ``jsonfile.py``; None when neither exists or
    neither is usable) and whether a copy was damaged. A copy that does not parse or that ``check`` refuses
    (raising ValueError, KeyError, TypeError or AttributeError) goes to the quarantine, one WARNING, and is
    removed once kept there, so the caller's next compaction writes a good one and the damage is not met
    again."""
    damaged = False
    for candidate in (path, path.with_name(path.name + ".bak")):
        try:
            data = candidate.read_bytes()
        except FileNotFoundError:
            continue
        try:
            document = json.loads(data)
            check(document)
            return document, damaged
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            damaged = True
            fallback = "the .bak, if readable, is used instead" if candidate == path else "no snapshot is left"
            reason = (
                f"the snapshot does not read ({type(exc).__name__}: {exc}); {fallback}: changes folded into it "
                "by the last compaction are lost"
            )
            loss = quarantine.keep(
                Loss(source=source, file=candidate.name, start=0, end=len(data), reason=reason), data
            )
            if loss.kept is not None:
                candidate.unlink(missing_ok=True)
    return None, damaged
