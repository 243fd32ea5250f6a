# C-level API of the CRC-32C kernel, for other kernels to cimport.
from libc.stdint cimport uint32_t

cdef extern from "crc32c_impl.h":
    uint32_t rk_crc32c(uint32_t crc, const unsigned char *p, size_t n) nogil
