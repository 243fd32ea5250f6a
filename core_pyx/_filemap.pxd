# C-level API of the file-mapping kernel (behaviour: _filemap_py.py).


cdef class FileMap:
    cdef char *_address
    cdef Py_ssize_t _size
    cdef Py_ssize_t _exports
    cdef bint _writable
    cdef bint _closed

    cdef int _unmap(self) except -1
