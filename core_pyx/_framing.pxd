# C-level API of the frame splitter kernel (format and cost notes: _framing_py.py).

cdef class FrameSplitter:
    cdef bytearray _prefix      # the first bytes of a size prefix that arrived split (0-3 bytes)
    cdef bytes _frame           # the payload being filled, allocated at its full size; None between frames
    cdef Py_ssize_t _filled     # bytes of _frame received so far
    cdef Py_ssize_t _max_frame_size
    cdef object _failed

    # Check a frame size read from a prefix; raises (and breaks the splitter) when it is refused.
    cdef int _check_size(self, Py_ssize_t size) except -1
    # Split the frames whole in p[0:n] into `frames`; returns the bytes consumed (a partial frame stays).
    cdef Py_ssize_t _split(self, const unsigned char *p, Py_ssize_t n, list frames) except -1
    # Take the start of a frame left over by _split (or a lone partial prefix); returns n.
    cdef Py_ssize_t _begin_partial(self, const unsigned char *p, Py_ssize_t n) except -1
    # Complete a split size prefix from p[0:n] (an empty frame goes to `frames`); returns the bytes used.
    cdef Py_ssize_t _fill_prefix(self, const unsigned char *p, Py_ssize_t n, list frames) except -1
    # Copy p[0:n] into the frame being filled (appending it to `frames` when complete); returns the bytes used.
    cdef Py_ssize_t _fill_frame(self, const unsigned char *p, Py_ssize_t n, list frames) except -1
