"""AlterReplicaLogDirs v0-2: move partitions' replicas to another log directory; Rockafka has only one.

Each partition answers alone, checked in Kafka's order: a topic name too long for a future-log directory
name (``T-P.<32 hex>-future`` over 255 characters) → INVALID_TOPIC_EXCEPTION; a path other than the
log directory's absolute path → LOG_DIR_NOT_FOUND; an unknown topic or partition →
UNKNOWN_TOPIC_OR_PARTITION; the current directory → NONE (nothing moves). A partition named more than
once is answered once, for the last directory that names it (Kafka reads the request into a map);
results are grouped by topic in the order topics first appear.

Version notes: v1 is v0 (throttling only); v2+ flexible.
Not implemented: ACL checks (CLUSTER ALTER); moves between directories (there is one).
"""

from __future__ import annotations

from typing import Final

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.alter_replica_log_dirs import (
    AlterReplicaLogDirPartitionResult,
    AlterReplicaLogDirsRequest,
    AlterReplicaLogDirsResponse,
    AlterReplicaLogDirTopicResult,
)

from .context import RequestContext
from .registry import register
from .replicas import log_dir_path, partition_exists

#: A future log's directory name is "<topic>-<partition>.<uuid hex>-future"; file names stop at 255.
MAX_DIR_NAME: Final = 255
_FUTURE_SUFFIX_LENGTH: Final = 1 + 32 + len("-future")


def _destinations(request: AlterReplicaLogDirsRequest) -> dict[tuple[str, int], str]:
    """Each partition's destination directory (the last one naming it), in first-named order."""
    return {
        (topic.name, partition): directory.path
        for directory in request.dirs
        for topic in directory.topics
        for partition in topic.partitions
    }


def _results(answers: dict[tuple[str, int], ErrorCode]) -> AlterReplicaLogDirsResponse:
    by_topic: dict[str, list[AlterReplicaLogDirPartitionResult]] = {}
    for (topic, partition), code in answers.items():
        by_topic.setdefault(topic, []).append(
            AlterReplicaLogDirPartitionResult(partition_index=partition, error_code=code)
        )
    results = [AlterReplicaLogDirTopicResult(topic_name=name, partitions=parts) for name, parts in by_topic.items()]
    return AlterReplicaLogDirsResponse(throttle_time_ms=0, results=results)


def _error(request: AlterReplicaLogDirsRequest, code: ErrorCode) -> AlterReplicaLogDirsResponse:
    return _results(dict.fromkeys(_destinations(request), code))


@register(34, 0, 2, _error)
def handle(ctx: RequestContext, request: AlterReplicaLogDirsRequest) -> AlterReplicaLogDirsResponse:
    current = log_dir_path(ctx)
    answers = {
        (topic, partition): _move(ctx, topic, partition, path, current)
        for (topic, partition), path in _destinations(request).items()
    }
    return _results(answers)


def _move(ctx: RequestContext, topic: str, partition: int, path: str, current: str) -> ErrorCode:
    if len(f"{topic}-{partition}") + _FUTURE_SUFFIX_LENGTH > MAX_DIR_NAME:
        return ErrorCode.INVALID_TOPIC_EXCEPTION
    if path != current:
        return ErrorCode.LOG_DIR_NOT_FOUND
    if not partition_exists(ctx, topic, partition):
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    return ErrorCode.NONE
