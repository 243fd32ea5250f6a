"""IndexFile kernel: the distinct key hashes of a batch's records, and IndexFile entry writes (for the store)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel
from ._indexhash_py import ENTRY, ENTRY_SIZE, HEADER, HEADER_SIZE, MAX_TIME_DIFF, SLOT_SIZE

if TYPE_CHECKING:
    from ._indexhash_py import key_hashes, put_entries
else:
    _impl = kernel("_indexhash")
    key_hashes = _impl.key_hashes
    put_entries = _impl.put_entries

__all__ = ["ENTRY", "ENTRY_SIZE", "HEADER", "HEADER_SIZE", "MAX_TIME_DIFF", "SLOT_SIZE", "key_hashes", "put_entries"]
