# C-level API of the records kernel (record layout: _records_py.py).
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t


# A bounds-checked read position over borrowed bytes (no copy); `end` is one past the last readable byte.
cdef struct RecordCursor:
    const unsigned char *data
    Py_ssize_t pos
    Py_ssize_t end


# The raw (still zigzag) value of a varint of at most `max_bytes` bytes, without the GIL: 0, or
# VARINT_PAST_END / VARINT_TOO_LONG (the cursor is then left where the reading stopped).
cdef enum:
    VARINT_PAST_END = -1
    VARINT_TOO_LONG = -2
cdef int rk_read_raw_varint(RecordCursor *cur, uint64_t *out, int max_bytes) noexcept nogil
# Zigzag varint (at most 5 bytes, wraps like Java's int) and varlong (at most 10 bytes).
cdef int rk_read_varint(RecordCursor *cur, int32_t *out) except -1
cdef int rk_read_varlong(RecordCursor *cur, int64_t *out) except -1
# The `count` records of an uncompressed payload, as a list of Record tuples.
cdef list rk_decode_records(const unsigned char *data, Py_ssize_t length, Py_ssize_t count,
                            int64_t base_offset, int64_t base_timestamp, object log_append_time)
