"""Fetch v4-17: whole stored batches per partition, long-polling until ``min_bytes`` or ``max_wait_ms``.

Version notes: v4+ has isolation_level (read_committed reads up to the last stable offset, which
equals the high watermark until transactions exist) and aborted transactions (null for
read_uncommitted, a list for read_committed). v5+ reports the log start offset. v7+ fetch sessions
are answered sessionless (session id 0), which every client accepts; a request naming an existing
session id gets FETCH_SESSION_ID_NOT_FOUND. v13+ addresses topics by id (UNKNOWN_TOPIC_ID when
unknown). A fetch offset in the middle of a batch returns the whole batch; the first batch is
returned even when larger than max_bytes or partition_max_bytes (KIP-74); later partitions stay
within max_bytes. Offsets outside [log start, high watermark] get OFFSET_OUT_OF_RANGE with both
bounds filled in. A fetch parked for more data wakes on the first append to any of its partitions.
Not implemented: preferred read replicas (always -1), diverging epochs, quotas.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable
from dataclasses import dataclass

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.fetch import (
    FetchableTopicResponse,
    FetchRequest,
    FetchResponse,
    PartitionData,
)
from rockafka.store import OffsetOutOfRangeError, StoreError, UnknownTopicIdError

from ..errors import store_error_code
from .context import RequestContext
from .registry import register

READ_COMMITTED = 1


@dataclass(slots=True)
class _Target:
    """One partition of the request, resolved to a topic name (None when its topic id is unknown)."""

    topic_index: int
    name: str | None
    partition: int
    fetch_offset: int
    max_bytes: int


def _error(request: FetchRequest, code: ErrorCode) -> FetchResponse:
    return FetchResponse(error_code=code)


@register(1, 4, 17, _error)
def handle(ctx: RequestContext, request: FetchRequest) -> FetchResponse | Awaitable[FetchResponse]:
    if request.session_id != 0:
        return FetchResponse(error_code=ErrorCode.FETCH_SESSION_ID_NOT_FOUND, session_id=0)
    targets = _resolve(ctx, request)
    response, size, failed = _read(ctx, request, targets)
    if size >= request.min_bytes or request.max_wait_ms <= 0 or failed or not targets:
        return response
    return _long_poll(ctx, request, targets)


async def _long_poll(ctx: RequestContext, request: FetchRequest, targets: list[_Target]) -> FetchResponse:
    deadline = time.monotonic() + request.max_wait_ms / 1000
    keys = [(t.name, t.partition) for t in targets if t.name is not None]
    while True:
        remaining = deadline - time.monotonic()
        woken = remaining > 0 and await ctx.broker.waiters.wait_for_append(keys, remaining)
        response, size, failed = _read(ctx, request, targets)
        if not woken or size >= request.min_bytes or failed:
            return response


def _resolve(ctx: RequestContext, request: FetchRequest) -> list[_Target]:
    by_id = ctx.api_version >= 13
    targets: list[_Target] = []
    for index, topic in enumerate(request.topics):
        name: str | None = topic.topic
        if by_id:
            try:
                name = ctx.broker.store.topic_name(topic.topic_id)
            except UnknownTopicIdError:
                name = None
        for part in topic.partitions:
            targets.append(_Target(index, name, part.partition, part.fetch_offset, part.partition_max_bytes))
    return targets


def _read(ctx: RequestContext, request: FetchRequest, targets: list[_Target]) -> tuple[FetchResponse, int, bool]:
    """Read every target once: the response, its records' size, and whether a partition failed."""
    store = ctx.broker.store
    committed = request.isolation_level == READ_COMMITTED
    budget = request.max_bytes
    total = 0
    failed = False
    topics: dict[int, FetchableTopicResponse] = {}
    for target in targets:
        source = request.topics[target.topic_index]
        topic = topics.get(target.topic_index)
        if topic is None:
            topic = topics[target.topic_index] = FetchableTopicResponse(
                topic=source.topic, topic_id=source.topic_id if ctx.api_version >= 13 else uuid.UUID(int=0)
            )
        part = PartitionData(
            partition_index=target.partition, aborted_transactions=[] if committed else None, records=b""
        )
        topic.partitions.append(part)
        if target.name is None:
            part.error_code, failed = ErrorCode.UNKNOWN_TOPIC_ID, True
            continue
        try:
            offsets = store.partition_offsets(target.name, target.partition)
            part.high_watermark = part.last_stable_offset = offsets.high_watermark
            part.log_start_offset = offsets.log_start_offset
            if total > 0 and budget <= 0:
                continue
            limit = min(target.max_bytes, budget) if total > 0 else target.max_bytes
            result = store.read(target.name, target.partition, target.fetch_offset, max(limit, 0))
        except OffsetOutOfRangeError as exc:
            part.error_code, failed = ErrorCode.OFFSET_OUT_OF_RANGE, True
            part.high_watermark = part.last_stable_offset = exc.high_watermark
            part.log_start_offset = exc.log_start_offset
            continue
        except StoreError as exc:
            part.error_code, failed = store_error_code(exc), True
            continue
        if result.size_bytes and (total == 0 or result.size_bytes <= budget):
            part.records = b"".join(result.batches)
            total += result.size_bytes
            budget -= result.size_bytes
    return FetchResponse(error_code=ErrorCode.NONE, session_id=0, responses=list(topics.values())), total, failed
