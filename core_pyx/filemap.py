"""File-mapping kernel: shared mappings of store files that hold no file descriptor (spec: ``_filemap_py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel

if TYPE_CHECKING:
    from ._filemap_py import FileMap, start_writeback
else:
    FileMap = kernel("_filemap").FileMap
    start_writeback = kernel("_filemap").start_writeback

__all__ = ["FileMap", "start_writeback"]
