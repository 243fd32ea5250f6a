# C-level API of the IndexFile kernel (layouts: _indexhash_py.py).
from libc.stdint cimport int64_t, uint32_t


# Append one entry per hash into a mapped IndexFile of `length` bytes; returns the new index count
# and stores the new count of slots in use in *hash_slot_count. Bounds are checked.
cdef Py_ssize_t rk_put_entries(unsigned char *index, Py_ssize_t length, Py_ssize_t slot_count,
                               Py_ssize_t index_count, Py_ssize_t *hash_slot_count, int64_t begin_timestamp,
                               int64_t physical_offset, int64_t store_timestamp,
                               const uint32_t *hashes, Py_ssize_t n) except -1
