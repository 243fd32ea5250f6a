"""Cutting the CommitLog back to a physical offset (a follower whose log diverged from its new leader's), and the
intent file (``config/truncate.json``) that makes the cut crash-safe.

``MessageStore.open(config, truncate_to=X)`` cuts every file of the store back to CommitLog offset *X*, the
handshake's answer (``divergence.py``): the CommitLog, each partition's ConsumeQueue, the IndexFiles, the
transaction index, the epoch file, and (through the broker's rebuild from the log, which ignores a producer
snapshot that covers offsets past a partition's end) the producers' idempotence state. The cut is recovery's own
(``recovery.py``: a torn tail is cut the same way), run as if the CommitLog ended at *X*: no record at or past
*X* is dispatched again, units and index entries that point there are dropped, later segments are deleted and
the rest of *X*'s segment is zeroed. The store then serves and appends from *X*.

*X* must be where a record starts, a BLANK, or the end of the data, and at or above the CommitLog's first offset
(checked before anything changes; else ``InvalidTruncationError``). A cut past the end changes nothing.

Crash safety: the intent ``{"version": 1, "offset": X}`` is written first (atomic rename with a ``.bak``,
``jsonfile.py``). Every open that finds it makes the cut again (the cut is idempotent), then writes a checkpoint
at *X* (so the zeros past *X* never read as lost records), fsyncs the segment that holds *X*, and only then
deletes the intent. A kill at any point leaves either the store as it was (the intent not yet written) or an
intent that the next open carries out: the store before the cut, or after it, never between.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, Final

from .commitlog import CommitLog, CorruptRecord
from .errors import StoreError
from .jsonfile import read_json, write_json

FORMAT_VERSION: Final = 1
FILE_NAME: Final = "truncate.json"


class InvalidTruncationError(StoreError):
    """A cut below the CommitLog's first offset, or inside a record."""


def _parse(document: Any) -> int:
    if not isinstance(document, dict) or document.get("version") != FORMAT_VERSION:
        raise ValueError(f"not a version {FORMAT_VERSION} truncation document")
    offset = document["offset"]
    if type(offset) is not int or offset < 0:
        raise TypeError(f"offset {offset!r} is not a non-negative integer")
    return offset


def read_intent(path: Path) -> int | None:
    """The offset of a cut not finished yet, or None."""
    return read_json(path, _parse)


def write_intent(path: Path, offset: int) -> None:
    write_json(path, {"version": FORMAT_VERSION, "offset": offset})


def clear_intent(path: Path) -> None:
    for name in (path.name, path.name + ".bak"):
        with contextlib.suppress(FileNotFoundError):
            path.with_name(name).unlink()


def check_cut_point(commitlog: CommitLog, offset: int) -> None:
    """Raise ``InvalidTruncationError`` unless ``offset`` is a place the loaded ``commitlog`` can be cut at."""
    if offset < commitlog.min_offset:
        raise InvalidTruncationError(f"offset {offset} is below the CommitLog's first offset {commitlog.min_offset}")
    if not commitlog.holds(offset):
        return  # past the last segment: nothing to cut
    outcome = commitlog.parse_at(offset, verify_batch=False)
    if isinstance(outcome, CorruptRecord):
        raise InvalidTruncationError(f"offset {offset} is not where a record starts ({outcome.reason})")
