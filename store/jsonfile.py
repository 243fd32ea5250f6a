"""Small JSON documents replaced atomically, with the previous version kept as ``<name>.bak``.

Write: the new document goes to ``<name>.tmp`` and is fsynced; the current file is renamed to
``<name>.bak``; the temporary file is renamed to ``<name>``; the directory is fsynced. A crash at any
point leaves either the new document or the previous one readable. Read: ``<name>``, or ``<name>.bak``
when the first is missing or does not parse.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .errors import CorruptStoreError


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


def read_json(path: Path) -> Any | None:
    """The document at ``path`` (or its ``.bak``); None when neither exists."""
    candidates = [path, path.with_name(path.name + ".bak")]
    existing = [candidate for candidate in candidates if candidate.exists()]
    for candidate in existing:
        try:
            return json.loads(candidate.read_bytes())
        except ValueError:
            continue
    if existing:
        raise CorruptStoreError(f"{path} and its .bak are both unreadable")
    return None


def fsync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
