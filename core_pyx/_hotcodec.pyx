# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 FetchResponse.json, MetadataResponse.json, ProduceRequest.json, ProduceResponse.json - DO NOT EDIT; make gen-protocol
# cython: language_level=3
"""Compiled hot-message kernel, generated: the readers and writers of the hot messages' structs.

Wire rules and errors: ``_wire_py``; the values: ``_hotmessages``; the twin: ``_hotcodec_py``.
"""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer

from rockafka.core_pyx._wire cimport (
    rk_array, rk_check_version, rk_fields, rk_i8, rk_i16, rk_i32, rk_i64, rk_records, rk_skip_tags,
    rk_string,
)
from rockafka.core_pyx._hotmessages import (
    AbortedTransaction,
    BatchIndexAndErrorMessage,
    EpochEndOffset,
    FetchResponse,
    FetchableTopicResponse,
    LeaderIdAndEpoch,
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
    NodeEndpoint,
    PartitionData,
    PartitionProduceData,
    PartitionProduceResponse,
    ProduceRequest,
    ProduceResponse,
    SnapshotId,
    TopicProduceData,
    TopicProduceResponse,
)
from rockafka.core_pyx.errors import MalformedMessageError

# Cursor, Out and the declarations of the functions below come from _hotcodec.pxd, included automatically.

cdef object _tuple_new = tuple.__new__
cdef object _AbortedTransaction = AbortedTransaction
cdef object _BatchIndexAndErrorMessage = BatchIndexAndErrorMessage
cdef object _EpochEndOffset = EpochEndOffset
cdef object _FetchResponse = FetchResponse
cdef object _FetchableTopicResponse = FetchableTopicResponse
cdef object _LeaderIdAndEpoch = LeaderIdAndEpoch
cdef object _MetadataResponse = MetadataResponse
cdef object _MetadataResponseBroker = MetadataResponseBroker
cdef object _MetadataResponsePartition = MetadataResponsePartition
cdef object _MetadataResponseTopic = MetadataResponseTopic
cdef object _NodeEndpoint = NodeEndpoint
cdef object _PartitionData = PartitionData
cdef object _PartitionProduceData = PartitionProduceData
cdef object _PartitionProduceResponse = PartitionProduceResponse
cdef object _ProduceRequest = ProduceRequest
cdef object _ProduceResponse = ProduceResponse
cdef object _SnapshotId = SnapshotId
cdef object _TopicProduceData = TopicProduceData
cdef object _TopicProduceResponse = TopicProduceResponse
_DEFAULT_EpochEndOffset = EpochEndOffset()
_DEFAULT_LeaderIdAndEpoch = LeaderIdAndEpoch()
_DEFAULT_SnapshotId = SnapshotId()


cdef object _r_produce_request_produce_request(Cursor *r, object view, int version):
    cdef Py_ssize_t count
    if version >= 3:
        f0 = rk_string(r, version >= 3)
    else:
        f0 = None
    f1 = rk_i16(r)
    f2 = rk_i32(r)
    count = rk_array(r, False)
    f3 = None if count < 0 else [_r_produce_request_topic_produce_data(r, view, version) for _ in range(count)]
    rk_skip_tags(r)
    return _tuple_new(_ProduceRequest, (f0, f1, f2, f3))


cdef object _r_produce_request_topic_produce_data(Cursor *r, object view, int version):
    cdef Py_ssize_t count
    f0 = rk_string(r, False)
    count = rk_array(r, False)
    f1 = None if count < 0 else [_r_produce_request_partition_produce_data(r, view, version) for _ in range(count)]
    rk_skip_tags(r)
    return _tuple_new(_TopicProduceData, (f0, f1))


cdef object _r_produce_request_partition_produce_data(Cursor *r, object view, int version):
    cdef Py_ssize_t count
    f0 = rk_i32(r)
    f1 = rk_records(r, view, True)
    rk_skip_tags(r)
    return _tuple_new(_PartitionProduceData, (f0, f1))


cdef int _w_produce_response_produce_response(Out w, object value, int version) except -1:
    cdef Out sub
    cdef bint tag0
    cdef tuple v = rk_fields(value, 3, "ProduceResponse")
    w.array(v[0])
    for item0 in v[0]:
        _w_produce_response_topic_produce_response(w, item0, version)
    if version >= 1:
        w.i32(v[1])
    if version >= 9:
        tag0 = (version >= 10) and v[2] is not None and len(v[2]) != 0
        w.uvarint(tag0)
        if tag0:
            sub = Out(True)
            sub.array(v[2])
            for item1 in v[2]:
                _w_produce_response_node_endpoint(sub, item1, version)
            w.tagged(0, sub)
    return 0


cdef int _w_produce_response_topic_produce_response(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 2, "TopicProduceResponse")
    w.string(v[0], False)
    w.array(v[1])
    for item0 in v[1]:
        _w_produce_response_partition_produce_response(w, item0, version)
    if version >= 9:
        w.uvarint(0)
    return 0


cdef int _w_produce_response_partition_produce_response(Out w, object value, int version) except -1:
    cdef Out sub
    cdef bint tag0
    cdef tuple v = rk_fields(value, 8, "PartitionProduceResponse")
    w.i32(v[0])
    w.i16(v[1])
    w.i64(v[2])
    if version >= 2:
        w.i64(v[3])
    if version >= 5:
        w.i64(v[4])
    if version >= 8:
        w.array(v[5])
        for item0 in v[5]:
            _w_produce_response_batch_index_and_error_message(w, item0, version)
    if version >= 8:
        w.string(v[6], True)
    if version >= 9:
        tag0 = (version >= 10) and v[7] is not None and v[7] != _DEFAULT_LeaderIdAndEpoch
        w.uvarint(tag0)
        if tag0:
            sub = Out(True)
            _w_produce_response_leader_id_and_epoch(sub, v[7], version)
            w.tagged(0, sub)
    return 0


cdef int _w_produce_response_batch_index_and_error_message(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 2, "BatchIndexAndErrorMessage")
    w.i32(v[0])
    w.string(v[1], True)
    if version >= 9:
        w.uvarint(0)
    return 0


cdef int _w_produce_response_leader_id_and_epoch(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 2, "LeaderIdAndEpoch")
    w.i32(v[0])
    w.i32(v[1])
    w.uvarint(0)
    return 0


cdef int _w_produce_response_node_endpoint(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 4, "NodeEndpoint")
    w.i32(v[0])
    w.string(v[1], False)
    w.i32(v[2])
    w.string(v[3], True)
    w.uvarint(0)
    return 0


cdef int _w_fetch_response_fetch_response(Out w, object value, int version) except -1:
    cdef Out sub
    cdef bint tag0
    cdef tuple v = rk_fields(value, 5, "FetchResponse")
    if version >= 1:
        w.i32(v[0])
    if version >= 7:
        w.i16(v[1])
    if version >= 7:
        w.i32(v[2])
    w.array(v[3])
    for item0 in v[3]:
        _w_fetch_response_fetchable_topic_response(w, item0, version)
    if version >= 12:
        tag0 = (version >= 16) and v[4] is not None and len(v[4]) != 0
        w.uvarint(tag0)
        if tag0:
            sub = Out(True)
            sub.array(v[4])
            for item1 in v[4]:
                _w_fetch_response_node_endpoint(sub, item1, version)
            w.tagged(0, sub)
    return 0


cdef int _w_fetch_response_fetchable_topic_response(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 3, "FetchableTopicResponse")
    if version <= 12:
        w.string(v[0], False)
    if version >= 13:
        w.uuid(v[1])
    w.array(v[2])
    for item0 in v[2]:
        _w_fetch_response_partition_data(w, item0, version)
    if version >= 12:
        w.uvarint(0)
    return 0


cdef int _w_fetch_response_partition_data(Out w, object value, int version) except -1:
    cdef Out sub
    cdef bint tag0, tag1, tag2
    cdef tuple v = rk_fields(value, 11, "PartitionData")
    w.i32(v[0])
    w.i16(v[1])
    w.i64(v[2])
    if version >= 4:
        w.i64(v[3])
    if version >= 5:
        w.i64(v[4])
    if version >= 4:
        w.array(v[8])
        if v[8] is not None:
            for item0 in v[8]:
                _w_fetch_response_aborted_transaction(w, item0, version)
    if version >= 11:
        w.i32(v[9])
    w.records(v[10])
    if version >= 12:
        tag0 = v[5] is not None and v[5] != _DEFAULT_EpochEndOffset
        tag1 = v[6] is not None and v[6] != _DEFAULT_LeaderIdAndEpoch
        tag2 = v[7] is not None and v[7] != _DEFAULT_SnapshotId
        w.uvarint(tag0 + tag1 + tag2)
        if tag0:
            sub = Out(True)
            _w_fetch_response_epoch_end_offset(sub, v[5], version)
            w.tagged(0, sub)
        if tag1:
            sub = Out(True)
            _w_fetch_response_leader_id_and_epoch(sub, v[6], version)
            w.tagged(1, sub)
        if tag2:
            sub = Out(True)
            _w_fetch_response_snapshot_id(sub, v[7], version)
            w.tagged(2, sub)
    return 0


cdef int _w_fetch_response_epoch_end_offset(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 2, "EpochEndOffset")
    w.i32(v[0])
    w.i64(v[1])
    w.uvarint(0)
    return 0


cdef int _w_fetch_response_leader_id_and_epoch(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 2, "LeaderIdAndEpoch")
    w.i32(v[0])
    w.i32(v[1])
    w.uvarint(0)
    return 0


cdef int _w_fetch_response_snapshot_id(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 2, "SnapshotId")
    w.i64(v[0])
    w.i32(v[1])
    w.uvarint(0)
    return 0


cdef int _w_fetch_response_aborted_transaction(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 2, "AbortedTransaction")
    w.i64(v[0])
    w.i64(v[1])
    if version >= 12:
        w.uvarint(0)
    return 0


cdef int _w_fetch_response_node_endpoint(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 4, "NodeEndpoint")
    w.i32(v[0])
    w.string(v[1], False)
    w.i32(v[2])
    w.string(v[3], True)
    w.uvarint(0)
    return 0


cdef int _w_metadata_response_metadata_response(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 6, "MetadataResponse")
    if version >= 3:
        w.i32(v[0])
    w.array(v[1])
    for item0 in v[1]:
        _w_metadata_response_metadata_response_broker(w, item0, version)
    if version >= 2:
        w.string(v[2], True)
    if version >= 1:
        w.i32(v[3])
    w.array(v[4])
    for item1 in v[4]:
        _w_metadata_response_metadata_response_topic(w, item1, version)
    if version >= 8 and version <= 10:
        w.i32(v[5])
    if version >= 9:
        w.uvarint(0)
    return 0


cdef int _w_metadata_response_metadata_response_broker(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 4, "MetadataResponseBroker")
    w.i32(v[0])
    w.string(v[1], False)
    w.i32(v[2])
    if version >= 1:
        w.string(v[3], True)
    if version >= 9:
        w.uvarint(0)
    return 0


cdef int _w_metadata_response_metadata_response_topic(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 6, "MetadataResponseTopic")
    w.i16(v[0])
    w.string(v[1], version >= 12)
    if version >= 10:
        w.uuid(v[2])
    if version >= 1:
        w.i8(1 if v[3] else 0)
    w.array(v[4])
    for item0 in v[4]:
        _w_metadata_response_metadata_response_partition(w, item0, version)
    if version >= 8:
        w.i32(v[5])
    if version >= 9:
        w.uvarint(0)
    return 0


cdef int _w_metadata_response_metadata_response_partition(Out w, object value, int version) except -1:
    cdef tuple v = rk_fields(value, 7, "MetadataResponsePartition")
    w.i16(v[0])
    w.i32(v[1])
    w.i32(v[2])
    if version >= 7:
        w.i32(v[3])
    w.array(v[4])
    for item0 in v[4]:
        w.i32(item0)
    w.array(v[5])
    for item1 in v[5]:
        w.i32(item1)
    if version >= 5:
        w.array(v[6])
        for item2 in v[6]:
            w.i32(item2)
    if version >= 9:
        w.uvarint(0)
    return 0


def decode_produce_request(body, int version):
    """Decode a ProduceRequest body (v0-11); records are zero-copy views of ``body``."""
    rk_check_version("ProduceRequest", version, 0, 11)
    view = memoryview(body)
    if view.ndim != 1 or view.format != "B":
        view = view.cast("B")
    cdef Py_buffer buf
    cdef Cursor r
    PyObject_GetBuffer(view, &buf, PyBUF_SIMPLE)
    try:
        r.data = <const unsigned char *>buf.buf
        r.pos = 0
        r.end = buf.len
        r.flexible = version >= 9
        value = _r_produce_request_produce_request(&r, view, version)
        if r.pos != r.end:
            raise MalformedMessageError(f"ProduceRequest has {r.end - r.pos} trailing bytes")
    finally:
        PyBuffer_Release(&buf)
    return value


def encode_produce_response(int version, response, correlation_id=None):
    """Encode a ProduceResponse (v0-11): the body, or with ``correlation_id`` the whole frame."""
    rk_check_version("ProduceResponse", version, 0, 11)
    cdef Out w = Out(version >= 9, correlation_id, version >= 9)
    _w_produce_response_produce_response(w, response, version)
    return w.finish()


def encode_fetch_response_parts(int version, response, correlation_id=None, Py_ssize_t min_zero_copy=0):
    """Encode a FetchResponse (v0-17) as parts to write back to back: the body, or with ``correlation_id`` the whole frame; record buffers of ``min_zero_copy`` bytes or more are parts of their own, uncopied, the rest is copied into ``bytes`` parts between them."""
    rk_check_version("FetchResponse", version, 0, 17)
    cdef Out w = Out(version >= 12, correlation_id, version >= 12)
    _w_fetch_response_fetch_response(w, response, version)
    return w.finish_parts(min_zero_copy)


def encode_metadata_response(int version, response, correlation_id=None):
    """Encode a MetadataResponse (v0-12): the body, or with ``correlation_id`` the whole frame."""
    rk_check_version("MetadataResponse", version, 0, 12)
    cdef Out w = Out(version >= 9, correlation_id, version >= 9)
    _w_metadata_response_metadata_response(w, response, version)
    return w.finish()
