"""Small JSON documents replaced atomically, with the previous version kept as ``<name>.bak``.

Write: the new document goes to ``<name>.tmp`` and is fsynced; the current file is renamed to
``<name>.bak``; the temporary file is renamed to ``<name>``; the directory is fsynced. A crash at any
point leaves either the new document or the previous one readable. Read: ``<name>``, or ``<name>.bak``
when the first is missing or does not parse. A reader may pass the document's parser: a document of the
wrong shape (a list where an object belongs, a missing key, a value of the wrong type) then counts as
unreadable too, so the ``.bak`` is tried, and when neither serves the error names the file and what is
wrong with it (never "too many values to unpack" from deep inside a loader).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar, overload

from .errors import CorruptStoreError

T = TypeVar("T")

#: What a parser raises on a document of the wrong shape.
SHAPE_ERRORS: Final = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def write_json(path: Path, document: Any) -> None:
    data = json.dumps(document, indent=1, sort_keys=True).encode()
    temporary = path.with_name(path.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    if path.exists():
        os.replace(path, path.with_name(path.name + ".bak"))
    os.replace(temporary, path)
    fsync_directory(path.parent)


@overload
def read_json(path: Path) -> Any | None: ...
@overload
def read_json(path: Path, parse: Callable[[Any], T]) -> T | None: ...
def read_json(path: Path, parse: Callable[[Any], Any] | None = None) -> Any | None:
    """The document at ``path`` (or its ``.bak``), passed through ``parse`` when given; None when neither
    file exists. :class:`CorruptStoreError` names the file and the reason when neither can be read."""
    candidates = [path, path.with_name(path.name + ".bak")]
    existing = [candidate for candidate in candidates if candidate.exists()]
    reasons: list[str] = []
    for candidate in existing:
        try:
            document = json.loads(candidate.read_bytes())
            return document if parse is None else parse(document)
        except CorruptStoreError as exc:
            reasons.append(str(exc))
        except SHAPE_ERRORS as exc:
            reasons.append(_reason(exc))
        except OSError as exc:
            reasons.append(exc.strerror or str(exc))
    if not existing:
        return None
    which = f"{path} and its .bak are both unreadable" if len(existing) == 2 else f"{existing[0]} is unreadable"
    raise CorruptStoreError(f"{which} ({reasons[0]})")


def _reason(exc: BaseException) -> str:
    """A shape error said in words: a missing key is "no 'topics'", the rest by their message."""
    if isinstance(exc, KeyError):
        return f"no {exc.args[0]!r} where one was expected"
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 (byte 0x{exc.object[exc.start]:02x} at {exc.start})"
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
    return f"not the expected shape ({exc})"


def fsync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
