"""Offset-map kernel: log compaction's key -> latest offset map, bounded in bytes (Kafka's
``log.cleaner.dedupe.buffer.size``), and the records of a batch a cleaning pass keeps. Spec:
:mod:`rockafka.core_pyx._offsetmap_py`; the store's cleaner (``store/compaction.py``) is its one caller."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel
from ._offsetmap_py import MIN_SLOTS, SLOT_BYTES, Selection, footprint, slots

if TYPE_CHECKING:
    from ._offsetmap_py import OffsetMap
else:
    OffsetMap = kernel("_offsetmap").OffsetMap

__all__ = ["MIN_SLOTS", "SLOT_BYTES", "OffsetMap", "Selection", "footprint", "slots"]
