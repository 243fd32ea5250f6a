from typing_extensions import Buffer

from ._indexrun_py import IndexHeader, IndexRun, IndexStop

__all__ = ["IndexHeader", "IndexRun", "IndexStop", "index_records"]

def index_records(
    segment: Buffer,
    position: int,
    end: int,
    segment_start: int,
    index: Buffer,
    slot_count: int,
    header: IndexHeader,
    indexed_through: int,
    budget: int,
) -> IndexRun: ...
