# C-level API of the request-header kernel (layout: _reqheader_py.py).

cdef class RequestHeader:
    cdef readonly int api_key
    cdef readonly int api_version
    cdef readonly int correlation_id
    cdef readonly object client_id
    cdef readonly Py_ssize_t body_offset

    cdef tuple _values(self)

# The request header at the start of p[0:n]; MalformedHeaderError when it does not fit.
cdef RequestHeader rk_decode_request_header(const unsigned char *p, Py_ssize_t n, object flexible_from)
