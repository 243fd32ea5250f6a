"""The one translation of store errors into Kafka error codes, used by every handler, and the one place a store
error that reaches the dispatcher is logged."""

from __future__ import annotations

import logging

from rockafka.store import (
    InvalidConfigError,
    InvalidPartitionsError,
    InvalidRecordsError,
    InvalidTopicError,
    KeylessRecordError,
    OffsetOutOfRangeError,
    RecordTooLargeError,
    ReplicaOnlyError,
    StorageError,
    StoreClosedError,
    StoreError,
    TopicAlreadyExistsError,
    UnknownTopicIdError,
    UnknownTopicOrPartitionError,
)

from .protocol.error_codes import ErrorCode

_STORE_ERROR_CODES: dict[type[StoreError], ErrorCode] = {
    UnknownTopicOrPartitionError: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    UnknownTopicIdError: ErrorCode.UNKNOWN_TOPIC_ID,
    TopicAlreadyExistsError: ErrorCode.TOPIC_ALREADY_EXISTS,
    InvalidTopicError: ErrorCode.INVALID_TOPIC_EXCEPTION,
    InvalidPartitionsError: ErrorCode.INVALID_PARTITIONS,
    InvalidConfigError: ErrorCode.INVALID_CONFIG,
    InvalidRecordsError: ErrorCode.CORRUPT_MESSAGE,
    KeylessRecordError: ErrorCode.INVALID_RECORD,
    RecordTooLargeError: ErrorCode.MESSAGE_TOO_LARGE,
    ReplicaOnlyError: ErrorCode.NOT_LEADER_OR_FOLLOWER,
    OffsetOutOfRangeError: ErrorCode.OFFSET_OUT_OF_RANGE,
    StorageError: ErrorCode.KAFKA_STORAGE_ERROR,
    StoreClosedError: ErrorCode.KAFKA_STORAGE_ERROR,
}


def store_error_code(exc: StoreError) -> ErrorCode:
    """The Kafka error code a client expects for this store error."""
    for kind in type(exc).__mro__:
        code = _STORE_ERROR_CODES.get(kind)
        if code is not None:
            return code
    return ErrorCode.UNKNOWN_SERVER_ERROR


class StoreErrorLog:
    """Logs a store error a request met as one WARNING line, once per distinct message: a full or offline store
    refuses every request alike, and one line per request (or a traceback each) would drown the log."""

    def __init__(self, logger: logging.Logger) -> None:
        self._log = logger
        self._last = ""

    def note(self, api_key: int, exc: StoreError) -> None:
        self.refused(f"API {api_key}", exc)

    def refused(self, what: str, exc: StoreError) -> None:
        """``what`` (a request, a background pass) met ``exc``: one WARNING unless it repeats the last one."""
        message = f"{what}: the store refused: {type(exc).__name__}: {exc}"
        if message != self._last:
            self._last = message
            self._log.warning("%s (repeats of this are not logged)", message)
