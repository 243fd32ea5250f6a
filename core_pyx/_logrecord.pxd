# C-level API of the CommitLog record kernel (record layout: _logrecord_py.py; its constants: _layouts.pxd).
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t


# Fill the 64-byte record header and the 61-byte patched batch header for `batch` (at least 61 bytes of
# a whole batch of `batch_length` bytes); returns the batch's stored attributes.
cdef int rk_encode_record(unsigned char *header, unsigned char *head, const unsigned char *batch,
                          Py_ssize_t batch_length, const unsigned char *topic_id, int32_t partition,
                          int64_t base_offset, int32_t leader_epoch, int32_t record_count,
                          int64_t store_timestamp, int64_t log_append_time,
                          int64_t physical_offset) noexcept nogil
