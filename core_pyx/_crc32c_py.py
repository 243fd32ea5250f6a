"""Pure-Python twin of the CRC-32C (Castagnoli) kernel, over the ``crc32c`` package (hardware where the CPU has it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from crc32c import crc32c as _crc32c

if TYPE_CHECKING:
    from typing_extensions import Buffer


def crc32c(data: Buffer, crc: int = 0) -> int:
    """CRC-32C of ``data``, continuing from ``crc`` (0 to start)."""
    return int(_crc32c(data, crc))
