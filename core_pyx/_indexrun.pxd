# C-level API of the index-run kernel (behaviour: _indexrun_py.py).
from libc.stdint cimport int64_t, uint32_t


# One walk over a segment's records into an IndexFile: inputs, the header fields it updates, scratch space.
cdef struct IndexWalk:
    const unsigned char *segment
    Py_ssize_t segment_length
    Py_ssize_t position            # file-relative; where the walk stopped, afterwards
    Py_ssize_t end
    int64_t segment_start
    unsigned char *index
    Py_ssize_t slot_count
    Py_ssize_t entry_count
    int64_t indexed_through
    Py_ssize_t budget
    int64_t begin_timestamp
    int64_t end_timestamp
    int64_t begin_physical_offset
    int64_t end_physical_offset
    Py_ssize_t hash_slot_count
    Py_ssize_t index_count
    uint32_t *hashes               # scratch: a batch's distinct hashes (malloc'd, grown as needed; free it)
    uint32_t *seen                 # scratch: open-addressing set of those hashes
    Py_ssize_t capacity            # hashes that fit in `hashes`; `seen` holds twice as many


# Walk from walk.position until a stop (an IndexStop value), the GIL not needed; -1 when scratch memory
# could not be had (walk.position is then the record it stopped on, nothing of it indexed).
cdef int rk_index_walk(IndexWalk *walk) noexcept nogil
