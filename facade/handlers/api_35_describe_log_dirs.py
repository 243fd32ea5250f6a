"""DescribeLogDirs v0-4: the broker's log directories and the partitions each holds.

Rockafka has one log directory: the data directory, named by its absolute path, error NONE. It lists
each requested partition (every partition when the topic list is null) with its size in bytes (the
batches from the log start offset to the end), ``offset_lag`` 0 (the only replica is the leader: its log
end is the high watermark) and ``is_future_key`` false (no log-dir move is ever in progress). As in
Kafka, requested partitions that do not exist are left out, and so are topics left without partitions.
v4's ``total_bytes``/``usable_bytes`` are the volume's size and the bytes an unprivileged process may
use (``os.statvfs``); a directory that cannot be read answers KAFKA_STORAGE_ERROR with no topics.

Version notes: v1 is v0 (throttling only); v2+ flexible; v3 adds the top-level ``error_code``; v4 adds
``total_bytes`` and ``usable_bytes``.
Not implemented: ACL checks (CLUSTER DESCRIBE); ``__consumer_offsets`` is not listed (the group
coordinator keeps offsets outside the partition logs).
"""

from __future__ import annotations

import os

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.describe_log_dirs import (
    DescribeLogDirsPartition,
    DescribeLogDirsRequest,
    DescribeLogDirsResponse,
    DescribeLogDirsResult,
    DescribeLogDirsTopic,
)
from rockafka.store import StoreError, TopicInfo

from .context import RequestContext
from .registry import register
from .replicas import log_dir_path


def _error(request: DescribeLogDirsRequest, code: ErrorCode) -> DescribeLogDirsResponse:
    return DescribeLogDirsResponse(error_code=code)


@register(35, 0, 4, _error)
def handle(ctx: RequestContext, request: DescribeLogDirsRequest) -> DescribeLogDirsResponse:
    path = log_dir_path(ctx)
    try:
        volume = os.statvfs(path)
    except OSError:
        result = DescribeLogDirsResult(error_code=ErrorCode.KAFKA_STORAGE_ERROR, log_dir=path)
        return DescribeLogDirsResponse(throttle_time_ms=0, error_code=ErrorCode.NONE, results=[result])
    wanted = None if request.topics is None else {(t.topic, p) for t in request.topics for p in t.partitions}
    topics = [described for info in ctx.broker.store.topics.list() if (described := _topic(ctx, info, wanted))]
    result = DescribeLogDirsResult(
        error_code=ErrorCode.NONE,
        log_dir=path,
        topics=topics,
        total_bytes=volume.f_blocks * volume.f_frsize,
        usable_bytes=volume.f_bavail * volume.f_frsize,
    )
    return DescribeLogDirsResponse(throttle_time_ms=0, error_code=ErrorCode.NONE, results=[result])


def _topic(ctx: RequestContext, info: TopicInfo, wanted: set[tuple[str, int]] | None) -> DescribeLogDirsTopic | None:
    """The topic's described partitions (those ``wanted``, all when None), or None if there are none."""
    partitions = []
    for index in range(info.partitions):
        if wanted is not None and (info.name, index) not in wanted:
            continue
        try:
            size = ctx.broker.store.records.partition_offsets(info.name, index).size_bytes
        except StoreError:
            continue  # deleted meanwhile
        partitions.append(
            DescribeLogDirsPartition(partition_index=index, partition_size=size, offset_lag=0, is_future_key=False)
        )
    return DescribeLogDirsTopic(name=info.name, partitions=partitions) if partitions else None
