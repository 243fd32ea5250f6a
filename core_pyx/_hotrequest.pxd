# C-level API of the Produce request kernel (wire rules: _hotrequest_py.py; values: _hotmessages.py).
from libc.stdint cimport int16_t, int32_t, int64_t, uint16_t, uint32_t

cdef extern from "rk_byteorder.h":
    uint16_t rk_load_be16(const unsigned char *p) nogil
    uint32_t rk_load_be32(const unsigned char *p) nogil


# A bounds-checked read cursor over a borrowed request body.
cdef struct BodyCursor:
    const unsigned char *data
    Py_ssize_t pos
    Py_ssize_t end
    bint flexible
