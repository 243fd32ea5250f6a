# C-level API of the RecordBatch v2 kernel, for other kernels to cimport (layout: _recordbatch_py.py).
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint16_t, uint32_t, uint64_t

cdef extern from "rk_byteorder.h":
    uint16_t rk_load_be16(const unsigned char *p) nogil
    uint32_t rk_load_be32(const unsigned char *p) nogil
    uint64_t rk_load_be64(const unsigned char *p) nogil
    void rk_store_be16(unsigned char *p, uint16_t v) nogil
    void rk_store_be32(unsigned char *p, uint32_t v) nogil
    void rk_store_be64(unsigned char *p, uint64_t v) nogil


cdef class BatchHeader:
    cdef readonly Py_ssize_t position
    cdef readonly int64_t base_offset
    cdef readonly int32_t batch_length
    cdef readonly int32_t partition_leader_epoch
    cdef readonly int8_t magic
    cdef readonly uint32_t crc
    cdef readonly int16_t attributes
    cdef readonly int32_t last_offset_delta
    cdef readonly int64_t base_timestamp
    cdef readonly int64_t max_timestamp
    cdef readonly int64_t producer_id
    cdef readonly int16_t producer_epoch
    cdef readonly int32_t base_sequence
    cdef readonly int32_t record_count

    cdef tuple _values(self)


# The header of the batch at data[pos:], whose buffer holds `length` bytes; magic and header fit are checked.
cdef BatchHeader rk_read_header(const unsigned char *data, Py_ssize_t length, Py_ssize_t pos)
# rk_read_header plus extent, CRC-32C, codec and count checks (the GIL is released for a large CRC).
cdef BatchHeader rk_validate(const unsigned char *data, Py_ssize_t length, Py_ssize_t pos)
# CRC-32C of bytes 21 .. end of a batch that is known to fit (n = its total size).
cdef uint32_t rk_batch_crc(const unsigned char *batch, Py_ssize_t n) noexcept
