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
    # CommitLog record header fields (_logrecord_py.py: *_AT)
    LOG_MAGIC_AT = 4
    LOG_HEADER_CRC_AT = 8
    LOG_TOPIC_ID_AT = 12
    LOG_PARTITION_AT = 28
    LOG_BASE_OFFSET_AT = 32
    LOG_PHYSICAL_OFFSET_AT = 40
    LOG_STORE_TIMESTAMP_AT = 48
    LOG_RECORD_COUNT_AT = 56
    LOG_FLAGS_AT = 60
    LOG_RESERVED_AT = 62
    # IndexFile (_indexhash_py.py: HEADER_SIZE, SLOT_SIZE, ENTRY_SIZE, MAX_TIME_DIFF and the header's *_AT)
    INDEX_HEADER_SIZE = 40
    INDEX_SLOT_SIZE = 4
    INDEX_ENTRY_SIZE = 20
    INDEX_MAX_TIME_DIFF = 0x7FFFFFFF
    INDEX_BEGIN_TIMESTAMP_AT = 0
    INDEX_END_TIMESTAMP_AT = 8
    INDEX_BEGIN_PHYSICAL_AT = 16
    INDEX_END_PHYSICAL_AT = 24
    INDEX_HASH_SLOT_COUNT_AT = 32
    INDEX_COUNT_AT = 36
    # RecordBatch v2 (_recordbatch_py.py: RECORD_BATCH_OVERHEAD, LOG_OVERHEAD and the *_OFFSET field offsets)
    BATCH_HEADER_SIZE = 61
    BATCH_LOG_OVERHEAD = 12
    BATCH_LENGTH_AT = 8
    BATCH_PARTITION_LEADER_EPOCH_AT = 12
    BATCH_MAGIC_AT = 16
    BATCH_CRC_AT = 17
    BATCH_ATTRIBUTES_AT = 21
    BATCH_LAST_OFFSET_DELTA_AT = 23
    BATCH_BASE_TIMESTAMP_AT = 27
    BATCH_MAX_TIMESTAMP_AT = 35
    BATCH_PRODUCER_ID_AT = 43
    BATCH_PRODUCER_EPOCH_AT = 51
    BATCH_BASE_SEQUENCE_AT = 53
    BATCH_RECORD_COUNT_AT = 57
    # RecordBatch v2 attributes (_recordbatch_py.py: the *_MASK and *_BIT values, MAX_CODEC)
    BATCH_COMPRESSION_MASK = 0x07
    BATCH_TIMESTAMP_TYPE_BIT = 0x08
    BATCH_TRANSACTIONAL_BIT = 0x10
    BATCH_CONTROL_BIT = 0x20
    BATCH_MAX_CODEC = 4
