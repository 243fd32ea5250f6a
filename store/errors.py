"""The one error family of the store. Every exception the store's services raise is a ``StoreError``.

``OSError`` is wrapped exactly once, at the services' boundary (``health.guarded``), into ``StorageError``; after
that the store is offline and every later call raises ``StorageError`` again (the broker answers
KAFKA_STORAGE_ERROR). A full file system is the exception: ENOSPC or EDQUOT (or less free space than the reserve)
is a ``StorageFullError``, which refuses appends until space returns and leaves everything else working
(``space.py``). The other classes are user-level failures that leave the store healthy; the broker maps each onto
one Kafka error code (named in the class docstrings).
"""

from __future__ import annotations


class StoreError(Exception):
    """Base of every error the store raises."""


class StorageError(StoreError):
    """An I/O failure (the ``OSError`` is ``__cause__``); the store is offline afterwards. KAFKA_STORAGE_ERROR."""


class StorageFullError(StorageError):
    """The file system is full, or has less free space than the reserve: appends are refused until space returns;
    the store stays online for everything else. KAFKA_STORAGE_ERROR."""


class StoreClosedError(StoreError):
    """The store was closed."""


class StoreLockedError(StoreError):
    """Another process holds the store's lock file."""


class CorruptStoreError(StoreError):
    """A metadata file and its ``.bak`` are both unreadable, or the store was written by an unknown format version."""


class InvalidConfigError(StoreError):
    """A store setting or a topic config value is invalid. INVALID_CONFIG."""


class UnknownTopicOrPartitionError(StoreError):
    """No such topic, or no such partition in it. UNKNOWN_TOPIC_OR_PARTITION."""


class UnknownTopicIdError(StoreError):
    """No topic has this id. UNKNOWN_TOPIC_ID."""


class TopicAlreadyExistsError(StoreError):
    """A topic with this name (or id) exists. TOPIC_ALREADY_EXISTS."""


class InvalidTopicError(StoreError):
    """The topic name is not a legal Kafka topic name. INVALID_TOPIC_EXCEPTION."""


class InvalidPartitionsError(StoreError):
    """A partition count that is not positive, or that does not grow the topic. INVALID_PARTITIONS."""


class InvalidRecordsError(StoreError):
    """The batch headers handed to ``append`` do not describe the records buffer. CORRUPT_MESSAGE."""


class KeylessRecordError(InvalidRecordsError):
    """A record without a key produced to a compacted topic (Kafka's "Compacted topic cannot accept message
    without key"). INVALID_RECORD (CORRUPT_MESSAGE where a client predates it)."""


class RecordTooLargeError(StoreError):
    """A batch is larger than the topic's ``max.message.bytes`` or than a CommitLog segment. MESSAGE_TOO_LARGE."""


class ReplicaOnlyError(StoreError):
    """This store copies its group leader's CommitLog (``store.replica.follow``): it takes no appends of its own.
    NOT_LEADER_OR_FOLLOWER."""


class OffsetOutOfRangeError(StoreError):
    """An offset below the log start offset or above the high watermark. OFFSET_OUT_OF_RANGE."""

    def __init__(self, offset: int, log_start_offset: int, high_watermark: int) -> None:
        super().__init__(f"offset {offset} is outside [{log_start_offset}, {high_watermark}]")
        self.offset = offset
        self.log_start_offset = log_start_offset
        self.high_watermark = high_watermark
