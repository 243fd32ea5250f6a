# The store's binary layouts as C compile-time constants, for the kernels that cimport them (no Python
# lookup on the hot paths). Each value is defined for Python once, beside its layout's spec: the CommitLog
# record in _logrecord_py.py, the IndexFile in _indexhash_py.py, the RecordBatch v2 in _recordbatch_py.py.
# tests/test_formats_defined_once.py checks that this file agrees with them and that no other file
# restates a value.

cdef enum:
    # CommitLog record (_logrecord_py.py: HEADER_SIZE, RECORD_MAGIC, BLANK_MAGIC, BLANK_SIZE)
    LOG_HEADER_SIZE = 64
    LOG_RECORD_MAGIC = 0x524B4331
    LOG_BLANK_MAGIC = 0x524B4342
    LOG_BLANK_SIZE = 8
    # IndexFile (_indexhash_py.py: HEADER_SIZE, SLOT_SIZE, ENTRY_SIZE, MAX_TIME_DIFF)
    INDEX_HEADER_SIZE = 40
    INDEX_SLOT_SIZE = 4
    INDEX_ENTRY_SIZE = 20
    INDEX_MAX_TIME_DIFF = 0x7FFFFFFF
    # RecordBatch v2 (_recordbatch_py.py: RECORD_BATCH_OVERHEAD and the *_OFFSET field offsets)
    BATCH_HEADER_SIZE = 61
    BATCH_MAGIC_AT = 16
    BATCH_CRC_AT = 17
    BATCH_ATTRIBUTES_AT = 21
    BATCH_MAX_TIMESTAMP_AT = 35
    BATCH_RECORD_COUNT_AT = 57
