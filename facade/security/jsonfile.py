"""Small JSON state files of the security layer (SCRAM credentials, ACLs): durable writes, cheap reloads.

A write goes to ``<name>.tmp`` (mode 0600), is fsynced, renamed over ``<name>`` and the directory is
fsynced, so a crash leaves the old or the new file, never a torn one. A reader notices a change made by
another process (the ``rockafka users``/``acls`` commands run offline) by the file's (mtime_ns, size, inode).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .errors import SecurityStoreError

Signature = tuple[int, int, int] | None


def signature(path: Path) -> Signature:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SecurityStoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


def read_json(path: Path) -> Any:
    """The document in ``path``, or None when there is no file."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SecurityStoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return json.loads(data)  # bytes: not UTF-8 is a ValueError here too, not a traceback
    except ValueError as exc:
        raise SecurityStoreError(f"{path} is not valid JSON: {exc}") from None


def write_json(path: Path, document: Any) -> None:
    """Replace ``path`` with ``document`` atomically and durably (readable by the owner only)."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            json.dump(document, out, indent=1, sort_keys=True)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except OSError as exc:
        raise SecurityStoreError(f"cannot write {path}: {exc.strerror or exc}") from None
