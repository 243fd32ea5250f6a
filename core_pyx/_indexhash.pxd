# C-level API of the IndexFile kernel (layouts: _indexhash_py.py).
from libc.stdint cimport int64_t, uint32_t


# Append one entry per hash into a mapped IndexFile of `length` bytes; returns the new index count
# and stores the new count of slots in use in *hash_slot_count. Bounds are checked.
cdef Py_ssize_t rk_put_entries(unsigned char *index, Py_ssize_t length, Py_ssize_t slot_count,
                               Py_ssize_t index_count, Py_ssize_t *hash_slot_count, int64_t begin_timestamp,
                               int64_t physical_offset, int64_t store_timestamp,
                               const uint32_t *hashes, Py_ssize_t n) except -1
# rk_put_entries without its bounds check and without the GIL, for a caller that checked the n entries fit
# (index_count >= 1, slot_count > 0, HEADER_SIZE + slot_count * 4 + (index_count + n) * 20 <= the file's length).
# Each entry is written before the slot that points to it, with a release fence between them.
cdef Py_ssize_t rk_write_entries(unsigned char *index, Py_ssize_t slot_count, Py_ssize_t index_count,
                                 Py_ssize_t *hash_slot_count, int64_t begin_timestamp, int64_t physical_offset,
                                 int64_t store_timestamp, const uint32_t *hashes, Py_ssize_t n) noexcept nogil
