# cython: language_level=3
"""Compiled records kernel: the records inside an uncompressed RecordBatch v2 payload (layout: ``_records_py``)."""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.unicode cimport PyUnicode_DecodeUTF8

from rockafka.core_pyx._records_py import Record
from rockafka.core_pyx.errors import CorruptBatchError

# RecordCursor and the rk_* declarations come from _records.pxd, included automatically.

cdef object _tuple_new = tuple.__new__
cdef object _Record = Record


cdef int rk_read_raw_varint(RecordCursor *cur, uint64_t *out, int max_bytes) noexcept nogil:
    cdef uint64_t result = 0
    cdef unsigned char byte
    cdef int shift = 0
    while shift < 7 * max_bytes:
        if cur.pos >= cur.end:
            return VARINT_PAST_END
        byte = cur.data[cur.pos]
        cur.pos += 1
        result |= (<uint64_t>(byte & 0x7F)) << shift
        if not byte & 0x80:
            out[0] = result
            return 0
        shift += 7
    return VARINT_TOO_LONG


cdef int _read_raw(RecordCursor *cur, uint64_t *out, int max_bytes) except -1:
    cdef int failure = rk_read_raw_varint(cur, out, max_bytes)
    if failure == VARINT_PAST_END:
        raise CorruptBatchError(f"record varint runs past its end at byte {cur.pos}")
    if failure == VARINT_TOO_LONG:
        raise CorruptBatchError(f"record varint longer than {max_bytes} bytes at byte {cur.pos}")
    return 0


cdef int rk_read_varint(RecordCursor *cur, int32_t *out) except -1:
    cdef uint64_t raw
    cdef uint32_t value
    if cur.pos < cur.end and cur.data[cur.pos] < 0x80:  # one-byte fast path
        value = cur.data[cur.pos]
        cur.pos += 1
    else:
        _read_raw(cur, &raw, 5)
        value = <uint32_t>raw
    out[0] = <int32_t>((value >> 1) ^ (-(value & 1)))
    return 0


cdef int rk_read_varlong(RecordCursor *cur, int64_t *out) except -1:
    cdef uint64_t raw
    _read_raw(cur, &raw, 10)
    out[0] = <int64_t>((raw >> 1) ^ (-(raw & 1)))
    return 0


cdef object _take(RecordCursor *cur, Py_ssize_t length):
    if length > cur.end - cur.pos:
        raise CorruptBatchError(f"record field of {length} bytes overruns its record at byte {cur.pos}")
    cdef object out = PyBytes_FromStringAndSize(<const char *>cur.data + cur.pos, length)
    cur.pos += length
    return out


cdef object _nullable(RecordCursor *cur):
    cdef int32_t length
    rk_read_varint(cur, &length)
    if length < -1:
        raise CorruptBatchError(f"record field length {length} is negative")
    if length == -1:
        return None
    return _take(cur, length)


cdef tuple _headers(RecordCursor *cur):
    cdef int32_t count, key_length, _i
    rk_read_varint(cur, &count)
    if count < 0:
        raise CorruptBatchError(f"record has a negative header count {count}")
    if count == 0:
        return ()
    cdef list headers = []
    for _i in range(count):
        rk_read_varint(cur, &key_length)
        if key_length < 0:
            raise CorruptBatchError(f"record header key length {key_length} is negative")
        if key_length > cur.end - cur.pos:
            raise CorruptBatchError(f"record field of {key_length} bytes overruns its record at byte {cur.pos}")
        key = PyUnicode_DecodeUTF8(<const char *>cur.data + cur.pos, key_length, "replace")
        cur.pos += key_length
        headers.append((key, _nullable(cur)))
    return tuple(headers)


cdef object _record(RecordCursor *cur, int64_t base_offset, int64_t base_timestamp, object log_append_time):
    cdef int32_t length, offset_delta
    cdef int64_t timestamp_delta
    rk_read_varint(cur, &length)
    if length < 0 or length > cur.end - cur.pos:
        raise CorruptBatchError(f"record length {length} overruns the payload at byte {cur.pos}")
    cdef RecordCursor body
    body.data = cur.data
    body.pos = cur.pos
    body.end = cur.pos + length
    cur.pos += length
    if body.pos >= body.end:
        raise CorruptBatchError(f"record field of 1 bytes overruns its record at byte {body.pos}")
    body.pos += 1  # attributes: unused
    rk_read_varlong(&body, &timestamp_delta)
    rk_read_varint(&body, &offset_delta)
    key = _nullable(&body)
    value = _nullable(&body)
    headers = _headers(&body)
    if body.pos != body.end:
        raise CorruptBatchError(
            f"record declares {length} bytes but its fields use {length - (body.end - body.pos)}"
        )
    # Python-int sums: garbage deltas must not wrap around (the pure twin never does).
    timestamp = (<object>base_timestamp) + timestamp_delta if log_append_time is None else log_append_time
    return _tuple_new(_Record, ((<object>base_offset) + offset_delta, timestamp, key, value, headers))


cdef list rk_decode_records(const unsigned char *data, Py_ssize_t length, Py_ssize_t count,
                            int64_t base_offset, int64_t base_timestamp, object log_append_time):
    cdef RecordCursor cur
    cur.data = data
    cur.pos = 0
    cur.end = length
    cdef list records = []
    cdef Py_ssize_t i
    for i in range(count):
        if cur.pos >= cur.end:
            raise CorruptBatchError(f"batch payload ends after {i} of its {count} records")
        records.append(_record(&cur, base_offset, base_timestamp, log_append_time))
    if cur.pos != cur.end:
        raise CorruptBatchError(f"{cur.end - cur.pos} bytes follow the {count} records of the batch payload")
    return records


def decode_records(payload, Py_ssize_t count, int64_t base_offset, int64_t base_timestamp, log_append_time=None):
    """The ``count`` records of an uncompressed batch payload (the bytes after the 61-byte header)."""
    cdef Py_buffer view
    PyObject_GetBuffer(payload, &view, PyBUF_SIMPLE)
    try:
        return rk_decode_records(<const unsigned char *>view.buf, view.len, count, base_offset, base_timestamp,
                                 log_append_time)
    finally:
        PyBuffer_Release(&view)


def walk_records(payload):
    """``(count, least timestampDelta, greatest timestampDelta)`` of an uncompressed payload ((0, 0, 0) when
    empty), walking only the records' lengths and deltas."""
    cdef Py_buffer view
    cdef int64_t least = 0
    cdef int64_t greatest = 0
    cdef Py_ssize_t count
    PyObject_GetBuffer(payload, &view, PyBUF_SIMPLE)
    try:
        count = _walk_records(<const unsigned char *>view.buf, view.len, &least, &greatest)
    finally:
        PyBuffer_Release(&view)
    return (count, least, greatest)


cdef Py_ssize_t _walk_records(
    const unsigned char *data, Py_ssize_t length, int64_t *least, int64_t *greatest
) except -1:
    cdef RecordCursor cur
    cdef RecordCursor record
    cdef int32_t size
    cdef int32_t offset_delta
    cdef int64_t timestamp_delta
    cdef Py_ssize_t count = 0
    cur.data = data
    cur.pos = 0
    cur.end = length
    while cur.pos < cur.end:
        rk_read_varint(&cur, &size)
        if size < 1 or size > cur.end - cur.pos:
            raise CorruptBatchError(f"record {count} claims {size} bytes, {cur.end - cur.pos} remain")
        record.data = data
        record.pos = cur.pos + 1  # past the attributes byte
        record.end = cur.pos + size
        rk_read_varlong(&record, &timestamp_delta)
        rk_read_varint(&record, &offset_delta)
        if offset_delta != count:
            raise CorruptBatchError(f"record {count} has offset delta {offset_delta}")
        _skip_fields(&record, count)
        if count == 0 or timestamp_delta < least[0]:
            least[0] = timestamp_delta
        if count == 0 or timestamp_delta > greatest[0]:
            greatest[0] = timestamp_delta
        count += 1
        cur.pos += size
    return count


cdef int _skip_bytes(RecordCursor *record, bint nullable) except -1:
    cdef int32_t length
    rk_read_varint(record, &length)
    if length < (-1 if nullable else 0) or length > record.end - record.pos:
        raise CorruptBatchError(f"record field of {length} bytes does not fit its record at byte {record.pos}")
    if length > 0:
        record.pos += length
    return 0


cdef int _skip_fields(RecordCursor *record, Py_ssize_t index) except -1:
    """Key, value and headers of one record, checked for size only; the record must end exactly after them."""
    cdef int32_t headers
    _skip_bytes(record, True)
    _skip_bytes(record, True)
    rk_read_varint(record, &headers)
    if headers < 0:
        raise CorruptBatchError(f"record {index} has {headers} headers")
    for _ in range(headers):
        _skip_bytes(record, False)
        _skip_bytes(record, True)
    if record.pos != record.end:
        raise CorruptBatchError(f"record {index} has {record.end - record.pos} bytes after its fields")
    return 0
