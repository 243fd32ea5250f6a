"""The message store: CommitLog, ConsumeQueue, IndexFile and broker-held offsets, behind ``MessageStore``.

The public surface is re-exported here: the facade (whose services the broker calls: ``store.records``,
``store.topics``, ``store.offsets``... see ``message_store.py``), its config, its typed results and its one error
family. The modules behind it (one per file kind, each opening with its format) are the store's own; the
pipeline and the store tools read a directory through ``reader.py`` alone.
"""

from .config import FlushMode, StoreConfig, TopicSettings
from .errors import (
    CorruptStoreError,
    InvalidConfigError,
    InvalidPartitionsError,
    InvalidRecordsError,
    InvalidTopicError,
    KeylessRecordError,
    OffsetOutOfRangeError,
    RecordTooLargeError,
    StorageError,
    StorageFullError,
    StoreClosedError,
    StoreError,
    StoreLockedError,
    TopicAlreadyExistsError,
    UnknownTopicIdError,
    UnknownTopicOrPartitionError,
)
from .internaltopics import INTERNAL_TOPICS, java_string_hash, key_partition
from .message_store import MessageStore
from .results import (
    FLUSH_BUCKETS,
    AbortedTransaction,
    AppendResult,
    CommittedOffset,
    KeyedRecord,
    OffsetCommit,
    OpenTransaction,
    PartitionBounds,
    PartitionOffsets,
    ReadResult,
    RecoveryReport,
    RetentionReport,
    StoreFile,
    StoreStats,
    TimestampOffset,
    TopicInfo,
    TopicPartition,
)
from .writer import AppendListener

__all__ = [
    "FLUSH_BUCKETS",
    "INTERNAL_TOPICS",
    "AbortedTransaction",
    "AppendListener",
    "AppendResult",
    "CommittedOffset",
    "CorruptStoreError",
    "FlushMode",
    "InvalidConfigError",
    "InvalidPartitionsError",
    "InvalidRecordsError",
    "InvalidTopicError",
    "KeyedRecord",
    "KeylessRecordError",
    "MessageStore",
    "OffsetCommit",
    "OffsetOutOfRangeError",
    "OpenTransaction",
    "PartitionBounds",
    "PartitionOffsets",
    "ReadResult",
    "RecordTooLargeError",
    "RecoveryReport",
    "RetentionReport",
    "StorageError",
    "StorageFullError",
    "StoreClosedError",
    "StoreConfig",
    "StoreError",
    "StoreFile",
    "StoreLockedError",
    "StoreStats",
    "TimestampOffset",
    "TopicAlreadyExistsError",
    "TopicInfo",
    "TopicPartition",
    "TopicSettings",
    "UnknownTopicIdError",
    "UnknownTopicOrPartitionError",
    "java_string_hash",
    "key_partition",
]
