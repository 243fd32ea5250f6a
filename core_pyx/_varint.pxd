# C-level API of the varint kernel, for other kernels to cimport (encodings: _varint_py.py).
from libc.stdint cimport uint32_t, uint64_t

# Bytes the unsigned varint of `value` takes (1..5) / the unsigned varlong (1..10).
cdef Py_ssize_t rk_uvarint_size(uint32_t value) except -1 nogil
# Write the unsigned varint of `value` at p (room for 5 bytes); returns the bytes written.
cdef Py_ssize_t rk_write_uvarint(unsigned char *p, uint32_t value) except -1 nogil
# Write the unsigned varlong of `value` at p (room for 10 bytes); returns the bytes written.
cdef Py_ssize_t rk_write_uvarlong(unsigned char *p, uint64_t value) except -1 nogil
# Read an unsigned varint from p[pos[0]:end] into out[0] and advance pos[0]; MalformedVarintError if short/long.
cdef int rk_read_uvarint(const unsigned char *p, Py_ssize_t end, Py_ssize_t *pos, uint32_t *out) except -1
# The same for a varlong of up to 10 bytes (64 bits).
cdef int rk_read_uvarlong(const unsigned char *p, Py_ssize_t end, Py_ssize_t *pos, uint64_t *out) except -1
