"""Index-run kernel: a run of CommitLog records indexed into one IndexFile at once, the GIL released (for the
store's index thread; behaviour in the pure twin's docstring, :mod:`rockafka.core_pyx._indexrun_py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel
from ._indexrun_py import IndexHeader, IndexRun, IndexStop

if TYPE_CHECKING:
    from ._indexrun_py import index_records
else:
    index_records = kernel("_indexrun").index_records

__all__ = ["IndexHeader", "IndexRun", "IndexStop", "index_records"]
