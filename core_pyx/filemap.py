"""File-mapping kernel: shared mappings of store files that hold no file descriptor (spec: ``_filemap_py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel

if TYPE_CHECKING:
    from ._filemap_py import FileMap
else:
    FileMap = kernel("_filemap").FileMap

__all__ = ["FileMap"]
