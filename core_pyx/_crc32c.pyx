# cython: language_level=3
"""Compiled CRC-32C (Castagnoli): the CPU's crc32 instruction where present, a table otherwise."""

from libc.stdint cimport uint32_t

# rk_crc32c comes from _crc32c.pxd, included automatically.


def crc32c(data, unsigned long crc=0):
    """CRC-32C of ``data`` (any contiguous buffer), continuing from ``crc`` (0 to start)."""
    cdef const unsigned char[::1] view = memoryview(data).cast("B")
    cdef size_t n = view.shape[0]
    cdef uint32_t result
    if n == 0:
        return crc
    with nogil:
        result = rk_crc32c(<uint32_t>crc, &view[0], n)
    return result
