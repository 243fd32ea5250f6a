# C-level API of the frame splitter kernel (format and cost notes: _framing_py.py).

cdef class FrameSplitter:
    cdef bytearray _buf
    cdef Py_ssize_t _max_frame_size
    cdef object _failed

    # Split the frames whole in p[0:n] into `frames`; returns the bytes consumed (a partial frame stays).
    cdef Py_ssize_t _split(self, const unsigned char *p, Py_ssize_t n, list frames) except -1
    # Append p[0:n] to the pending buffer.
    cdef int _keep(self, const unsigned char *p, Py_ssize_t n) except -1
