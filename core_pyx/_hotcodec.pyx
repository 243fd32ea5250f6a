# cython: language_level=3
"""Compiled hot-message kernel: Produce, Fetch, Metadata and ApiVersions responses out (Produce requests in:
``_hotrequest``).

Wire rules and error behaviour are specified in ``_hotcodec_py``; the values are ``_hotmessages``' tuples.
"""

cimport cython
from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_CheckBuffer, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.string cimport memcpy

from rockafka.core_pyx.errors import UnsupportedVersionError

# Out and the byte-order helpers come from _hotcodec.pxd, included automatically.

cdef extern from "Python.h":
    const char *PyUnicode_AsUTF8AndSize(object unicode, Py_ssize_t *size) except NULL

PRODUCE_VERSIONS = (3, 11)
FETCH_VERSIONS = (4, 17)
METADATA_VERSIONS = (0, 12)
API_VERSIONS_VERSIONS = (0, 4)

cdef enum:
    _INITIAL_CAPACITY = 256
    _NOGIL_MIN = 65536



cdef int _check_version(str api, int version, int low, int high) except -1:
    if not low <= version <= high:
        raise UnsupportedVersionError(api, version)
    return 0


# --- writing ---------------------------------------------------------------------------------------------------

@cython.final
cdef class Out:
    def __cinit__(self, bint flexible, object correlation_id=None, bint header_flexible=False):
        self.buf = <unsigned char *>PyMem_Malloc(_INITIAL_CAPACITY)
        if self.buf == NULL:
            raise MemoryError()
        self.capacity = _INITIAL_CAPACITY
        self.length = 0
        self.flexible = flexible
        self.framed = correlation_id is not None
        self.splices = []
        self.spliced = 0
        if self.framed:
            self.i32(0)
            self.i32(correlation_id)
            if header_flexible:
                self.i8(0)

    def __dealloc__(self):
        PyMem_Free(self.buf)

    cdef unsigned char *reserve(self, Py_ssize_t n) except NULL:
        cdef Py_ssize_t capacity = self.capacity
        cdef unsigned char *grown
        if self.length + n > capacity:
            while self.length + n > capacity:
                capacity *= 2
            grown = <unsigned char *>PyMem_Realloc(self.buf, capacity)
            if grown == NULL:
                raise MemoryError()
            self.buf = grown
            self.capacity = capacity
        cdef unsigned char *p = self.buf + self.length
        self.length += n
        return p

    cdef int i8(self, int8_t value) except -1:
        self.reserve(1)[0] = <unsigned char>value
        return 0

    cdef int i16(self, int16_t value) except -1:
        rk_store_be16(self.reserve(2), <uint16_t>value)
        return 0

    cdef int i32(self, int32_t value) except -1:
        rk_store_be32(self.reserve(4), <uint32_t>value)
        return 0

    cdef int i64(self, int64_t value) except -1:
        rk_store_be64(self.reserve(8), <uint64_t>value)
        return 0

    cdef int uvarint(self, uint32_t value) except -1:
        while value >= 0x80:
            self.reserve(1)[0] = <unsigned char>((value & 0x7F) | 0x80)
            value >>= 7
        self.reserve(1)[0] = <unsigned char>value
        return 0

    cdef int length_prefix(self, Py_ssize_t n, bint wide) except -1:
        if self.flexible:
            return self.uvarint(<uint32_t>(n + 1))
        if wide:
            return self.i32(<int32_t>n)
        return self.i16(<int16_t>n)

    cdef int raw(self, const unsigned char *data, Py_ssize_t n) except -1:
        if n:
            memcpy(self.reserve(n), data, n)
        return 0

    cdef int string(self, object value, bint nullable) except -1:
        cdef Py_ssize_t n
        cdef const char *data
        if value is None:
            if not nullable:
                raise ValueError("a non-nullable string field is None")
            return self.length_prefix(-1, False)
        data = PyUnicode_AsUTF8AndSize(value, &n)
        self.length_prefix(n, False)
        return self.raw(<const unsigned char *>data, n)

    cdef int uuid(self, object value) except -1:
        cdef bytes data = value.bytes
        if len(data) != 16:
            raise ValueError("a UUID field needs 16 bytes")
        return self.raw(<const unsigned char *>PyBytes_AS_STRING(data), 16)

    cdef int array(self, object items) except -1:
        return self.length_prefix(-1 if items is None else len(items), True)

    cdef int int32s(self, object items) except -1:
        self.array(items)
        for item in items:
            self.i32(item)
        return 0

    cdef int records(self, object records) except -1:
        cdef Py_buffer view
        cdef Py_ssize_t total = 0
        if records is None:
            return self.length_prefix(-1, True)
        cdef list found = []
        for chunk in ((records,) if PyObject_CheckBuffer(records) else records):
            PyObject_GetBuffer(chunk, &view, PyBUF_SIMPLE)
            if view.len:
                found.extend((chunk, view.len))
            total += view.len
            PyBuffer_Release(&view)
        self.length_prefix(total, True)
        for i in range(0, len(found), 2):  # all at one position: nothing is written between them
            self.splices.extend((self.length, found[i], found[i + 1]))
        self.spliced += total
        return 0

    cdef int no_tags(self) except -1:
        if self.flexible:
            self.reserve(1)[0] = 0
        return 0

    cdef int tagged(self, uint32_t tag, Out value) except -1:
        self.uvarint(tag)
        self.uvarint(<uint32_t>value.length)
        return self.raw(value.buf, value.length)

    cdef bytes finish(self):
        cdef bytes out = self._piece(0, self.length, 0, len(self.splices) // 3)
        if self.framed:
            rk_store_be32(<unsigned char *>PyBytes_AS_STRING(out), <uint32_t>(self.length + self.spliced - 4))
        return out

    cdef list finish_parts(self, Py_ssize_t min_splice):
        cdef list parts = []
        cdef Py_ssize_t count = len(self.splices) // 3, own_from = 0, first = 0, i, at
        cdef bytes piece
        for i in range(count + 1):
            if i < count and self.splices[3 * i + 2] < min_splice:
                continue
            at = self.length if i == count else self.splices[3 * i]
            piece = self._piece(own_from, at, first, i)
            if len(piece):
                parts.append(piece)
            if i < count:
                parts.append(self.splices[3 * i + 1])
            own_from, first = at, i + 1
        if self.framed:
            rk_store_be32(<unsigned char *>PyBytes_AS_STRING(parts[0]), <uint32_t>(self.length + self.spliced - 4))
        return parts

    cdef bytes _piece(self, Py_ssize_t own_from, Py_ssize_t own_to, Py_ssize_t first, Py_ssize_t stop):
        cdef Py_ssize_t total = own_to - own_from, taken = own_from, at, size, i
        cdef Py_buffer view
        for i in range(first, stop):
            total += <Py_ssize_t>self.splices[3 * i + 2]
        cdef bytes out = PyBytes_FromStringAndSize(NULL, total)
        cdef unsigned char *dst = <unsigned char *>PyBytes_AS_STRING(out)
        for i in range(first, stop):
            at = self.splices[3 * i]
            size = self.splices[3 * i + 2]
            memcpy(dst, self.buf + taken, at - taken)
            dst += at - taken
            taken = at
            PyObject_GetBuffer(self.splices[3 * i + 1], &view, PyBUF_SIMPLE)
            try:
                if view.len != size:
                    raise ValueError("a records buffer changed size while its response was encoded")
                if size >= _NOGIL_MIN:
                    with nogil:
                        memcpy(dst, view.buf, size)
                else:
                    memcpy(dst, view.buf, size)
            finally:
                PyBuffer_Release(&view)
            dst += size
        memcpy(dst, self.buf + taken, own_to - taken)
        return out


cdef inline tuple _fields(object value, Py_ssize_t n, str kind):
    if not isinstance(value, tuple) or len(<tuple>value) < n:
        raise TypeError(f"expected a {kind} tuple of {n} fields, got {type(value).__name__}")
    return <tuple>value


cdef Out _sub():
    return Out(True)


cdef int _node_endpoints(Out w, object endpoints) except -1:
    cdef Out sub = _sub()
    cdef tuple e
    sub.array(endpoints)
    for endpoint in endpoints:
        e = _fields(endpoint, 4, "NodeEndpoint")
        sub.i32(e[0])
        sub.string(e[1], False)
        sub.i32(e[2])
        sub.string(e[3], True)
        sub.no_tags()
    return w.tagged(0, sub)


cdef bint _pair_is_set(object pair) except -1:
    if pair is None:
        return False
    cdef tuple t = _fields(pair, 2, "pair")
    return t[0] != -1 or t[1] != -1


cdef Out _leader(object leader):
    cdef tuple t = _fields(leader, 2, "LeaderIdAndEpoch")
    cdef Out sub = _sub()
    sub.i32(t[0])
    sub.i32(t[1])
    sub.no_tags()
    return sub


# --- Produce response --------------------------------------------------------------------------------------------

cdef int _produce_partition(Out w, object partition, int version) except -1:
    cdef tuple p = _fields(partition, 8, "ProducePartitionResponse")
    cdef tuple e
    w.i32(p[0])
    w.i16(p[1])
    w.i64(p[2])
    w.i64(p[3])
    if version >= 5:
        w.i64(p[4])
    if version >= 8:
        w.array(p[5])
        for error in p[5]:
            e = _fields(error, 2, "RecordError")
            w.i32(e[0])
            w.string(e[1], True)
            w.no_tags()
        w.string(p[6], True)
    if version >= 10 and _pair_is_set(p[7]):
        w.uvarint(1)
        w.tagged(0, _leader(p[7]))
    else:
        w.no_tags()
    return 0


def encode_produce_response(int version, response, correlation_id=None):
    """Encode a Produce response (v3-11): the body, or with ``correlation_id`` the whole frame."""
    _check_version("Produce response", version, 3, 11)
    cdef tuple r = _fields(response, 3, "ProduceResponse"), t
    cdef Out w = Out(version >= 9, correlation_id, version >= 9)
    w.array(r[0])
    for topic in r[0]:
        t = _fields(topic, 2, "ProduceTopicResponse")
        w.string(t[0], False)
        w.array(t[1])
        for partition in t[1]:
            _produce_partition(w, partition, version)
        w.no_tags()
    w.i32(r[1])
    if version >= 10 and len(r[2]):
        w.uvarint(1)
        _node_endpoints(w, r[2])
    else:
        w.no_tags()
    return w.finish()


# --- Fetch response ----------------------------------------------------------------------------------------------

cdef int _fetch_partition_tags(Out w, tuple p) except -1:
    cdef tuple t
    cdef Out sub
    cdef bint diverging = _pair_is_set(p[5]), leader = _pair_is_set(p[6]), snapshot = _pair_is_set(p[7])
    w.uvarint(diverging + leader + snapshot)
    if diverging:
        t = _fields(p[5], 2, "EpochEndOffset")
        sub = _sub()
        sub.i32(t[0])
        sub.i64(t[1])
        sub.no_tags()
        w.tagged(0, sub)
    if leader:
        w.tagged(1, _leader(p[6]))
    if snapshot:
        t = _fields(p[7], 2, "SnapshotId")
        sub = _sub()
        sub.i64(t[0])
        sub.i32(t[1])
        sub.no_tags()
        w.tagged(2, sub)
    return 0


cdef int _fetch_partition(Out w, object partition, int version) except -1:
    cdef tuple p = _fields(partition, 11, "FetchPartitionResponse"), a
    w.i32(p[0])
    w.i16(p[1])
    w.i64(p[2])
    w.i64(p[3])
    if version >= 5:
        w.i64(p[4])
    aborted = p[8]
    w.array(aborted)
    if aborted is not None:
        for transaction in aborted:
            a = _fields(transaction, 2, "AbortedTransaction")
            w.i64(a[0])
            w.i64(a[1])
            w.no_tags()
    if version >= 11:
        w.i32(p[9])
    w.records(p[10])
    if version >= 12:
        _fetch_partition_tags(w, p)
    return 0


def encode_fetch_response(int version, response, correlation_id=None):
    """Encode a Fetch response (v4-17), each partition's record buffers copied once into the output."""
    return _fetch_out(version, response, correlation_id).finish()


def encode_fetch_response_parts(int version, response, correlation_id=None, Py_ssize_t min_zero_copy=0):
    """Encode a Fetch response as parts to write back to back: record buffers of ``min_zero_copy`` bytes or
    more are parts of their own, uncopied; the rest is copied into ``bytes`` parts between them."""
    return _fetch_out(version, response, correlation_id).finish_parts(min_zero_copy)


cdef Out _fetch_out(int version, object response, object correlation_id):
    _check_version("Fetch response", version, 4, 17)
    cdef tuple r = _fields(response, 5, "FetchResponse"), t
    cdef Out w = Out(version >= 12, correlation_id, version >= 12)
    w.i32(r[1])
    if version >= 7:
        w.i16(r[2])
        w.i32(r[3])
    w.array(r[0])
    for topic in r[0]:
        t = _fields(topic, 3, "FetchTopicResponse")
        if version >= 13:
            w.uuid(t[2])
        else:
            w.string(t[0], False)
        w.array(t[1])
        for partition in t[1]:
            _fetch_partition(w, partition, version)
        w.no_tags()
    if version >= 16 and len(r[4]):
        w.uvarint(1)
        _node_endpoints(w, r[4])
    else:
        w.no_tags()
    return w


# --- Metadata response -------------------------------------------------------------------------------------------

cdef int _metadata_topic(Out w, object topic, int version) except -1:
    cdef tuple t = _fields(topic, 6, "MetadataTopic"), p
    w.i16(t[0])
    w.string(t[1], version >= 12)
    if version >= 10:
        w.uuid(t[2])
    if version >= 1:
        w.i8(1 if t[3] else 0)
    w.array(t[4])
    for partition in t[4]:
        p = _fields(partition, 7, "MetadataPartition")
        w.i16(p[0])
        w.i32(p[1])
        w.i32(p[2])
        if version >= 7:
            w.i32(p[3])
        w.int32s(p[4])
        w.int32s(p[5])
        if version >= 5:
            w.int32s(p[6])
        w.no_tags()
    if version >= 8:
        w.i32(t[5])
    return w.no_tags()


def encode_metadata_response(int version, response, correlation_id=None):
    """Encode a Metadata response (v0-12)."""
    _check_version("Metadata response", version, 0, 12)
    cdef tuple r = _fields(response, 6, "MetadataResponse"), b
    cdef Out w = Out(version >= 9, correlation_id, version >= 9)
    if version >= 3:
        w.i32(r[2])
    w.array(r[0])
    for broker in r[0]:
        b = _fields(broker, 4, "MetadataBroker")
        w.i32(b[0])
        w.string(b[1], False)
        w.i32(b[2])
        if version >= 1:
            w.string(b[3], True)
        w.no_tags()
    if version >= 2:
        w.string(r[3], True)
    if version >= 1:
        w.i32(r[4])
    w.array(r[1])
    for topic in r[1]:
        _metadata_topic(w, topic, version)
    if 8 <= version <= 10:
        w.i32(r[5])
    w.no_tags()
    return w.finish()


# --- ApiVersions response ----------------------------------------------------------------------------------------

cdef Out _features(object features, str kind):
    cdef Out sub = _sub()
    cdef tuple f
    sub.array(features)
    for feature in features:
        f = _fields(feature, 3, kind)
        sub.string(f[0], False)
        sub.i16(f[1])
        sub.i16(f[2])
        sub.no_tags()
    return sub


cdef int _api_versions_tags(Out w, tuple r) except -1:
    cdef Out sub
    cdef bint supported = len(r[3]) > 0, epoch = r[4] != -1, finalized = len(r[5]) > 0, zk = bool(r[6])
    w.uvarint(supported + epoch + finalized + zk)
    if supported:
        w.tagged(0, _features(r[3], "SupportedFeature"))
    if epoch:
        sub = _sub()
        sub.i64(r[4])
        w.tagged(1, sub)
    if finalized:
        w.tagged(2, _features(r[5], "FinalizedFeature"))
    if zk:
        sub = _sub()
        sub.i8(1)
        w.tagged(3, sub)
    return 0


def encode_api_versions_response(int version, response, correlation_id=None):
    """Encode an ApiVersions response (v0-4); the frame's header is always v0. For UNSUPPORTED_VERSION, Kafka
    answers with the v0 body: pass ``version=0`` then."""
    _check_version("ApiVersions response", version, 0, 4)
    cdef tuple r = _fields(response, 7, "ApiVersionsResponse"), a
    cdef Out w = Out(version >= 3, correlation_id, False)
    w.i16(r[0])
    w.array(r[1])
    for api in r[1]:
        a = _fields(api, 3, "ApiVersion")
        w.i16(a[0])
        w.i16(a[1])
        w.i16(a[2])
        w.no_tags()
    if version >= 1:
        w.i32(r[2])
    if version >= 3:
        _api_versions_tags(w, r)
    return w.finish()
