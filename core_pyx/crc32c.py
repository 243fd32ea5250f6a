"""CRC-32C (Castagnoli), the checksum of Kafka RecordBatch v2 and of Rockafka's store headers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel

if TYPE_CHECKING:
    from ._crc32c_py import crc32c
else:
    crc32c = kernel("_crc32c").crc32c

__all__ = ["crc32c"]
