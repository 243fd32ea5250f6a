"""ShareFetch v1: a share group member fetches records acquired for it, acknowledging earlier ones on the way.

Version notes: v1 is the first stable version (Kafka 4.1) and the one librdkafka's share consumer sends; v2's
acquire modes and lock renewal (KIP-1206, KIP-1222) are not implemented. The request's share session epoch
opens (0), continues (1, 2, ...) or closes (-1) the member's share session (``facade/group/share/sessions.py``;
acknowledgements at epoch 0 are INVALID_REQUEST); its partitions join the session, its forgotten ones leave it,
and every partition of the session is fetched. Acknowledgements are applied first (per partition
``AcknowledgeErrorCode``: INVALID_RECORD_STATE for records the member does not hold). A closing request
fetches nothing and releases what the member still holds.

Each partition answers whole stored batches and ``AcquiredRecords``: the offsets acquired for this member, with
their delivery counts (``facade/group/share/delivery.py``); the client delivers only those. Whole batches are
acquired until ``MaxRecords`` are reached over the request (the last batch may go past them, as Kafka aligns
acquisitions with batches); the bytes read are bounded by ``MaxBytes`` (the first batch always goes). With nothing
acquired, the fetch parks until an append to one of its partitions or the next lock expiry, and tries again, until
it acquires records or ``MaxWaitMs`` passes. ``AcquisitionLockTimeoutMs`` is the group's lock duration. Records of
aborted transactions are delivered (read_uncommitted); ``MinBytes`` and ``BatchSize`` are not used.

In a cluster, a partition this broker does not lead answers NOT_LEADER_OR_FOLLOWER (the share state lives with
the broker that serves the fetches, which must also coordinate the group: see docs/groups.md).

Authorization: READ on the group (GROUP_AUTHORIZATION_FAILED for the request) and on each topic
(TOPIC_AUTHORIZATION_FAILED for its partitions).
"""

from __future__ import annotations

import time
import uuid

from rockafka.facade.group.share import CLOSE_EPOCH, OPEN_EPOCH, Acquisition, PartitionKey
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.share_fetch import (
    AcquiredRecords,
    LeaderIdAndEpoch,
    PartitionData,
    ShareFetchableTopicResponse,
    ShareFetchRequest,
    ShareFetchResponse,
)
from rockafka.store import StoreError

from ..errors import store_error_code
from .context import ApiError, RequestContext
from .registry import register
from .share_requests import (
    ShareRequest,
    acknowledge,
    acknowledgements,
    close_if_asked,
    open_request,
    save,
    topic_name,
)


def _error(request: ShareFetchRequest, code: ErrorCode) -> ShareFetchResponse:
    return ShareFetchResponse(error_code=code)


@register(78, 1, 1, _error, parks=True)
async def handle(ctx: RequestContext, request: ShareFetchRequest) -> ShareFetchResponse:
    epoch = request.share_session_epoch
    acks = [
        acknowledgements((topic.topic_id, p.partition_index), p.acknowledgement_batches)
        for topic in request.topics
        for p in topic.partitions
        if p.acknowledgement_batches
    ]
    if acks and epoch == OPEN_EPOCH:
        raise ApiError(ErrorCode.INVALID_REQUEST, "Acknowledgements cannot open a share session.")
    share = open_request(ctx, request.group_id, request.member_id, epoch)
    ack_errors, changed = acknowledge(ctx, share, acks)
    closed = close_if_asked(ctx, share, epoch)
    acknowledged = save(share, changed or closed)
    answers: dict[PartitionKey, PartitionData] = {}
    if epoch != CLOSE_EPOCH:
        added = [(topic.topic_id, p.partition_index) for topic in request.topics for p in topic.partitions]
        forgotten = [(t.topic_id, index) for t in request.forgotten_topics_data for index in t.partitions]
        ctx.broker.groups.share.sessions.update(share.session, added, forgotten)
        if await _fetch(ctx, request, share, answers):
            await save(share, True).outcome()  # expired locks: their delivery counts kept
    failed = await acknowledged.outcome()
    for key, error in ack_errors.items():
        answer = answers.setdefault(key, _partition(ctx, key[1]))
        answer.acknowledge_error_code = failed if error is ErrorCode.NONE else error
    return ShareFetchResponse(
        acquisition_lock_timeout_ms=share.delivery.lock_duration_ms(share.group.group_id),
        responses=_topics(answers),
    )


async def _fetch(
    ctx: RequestContext, request: ShareFetchRequest, share: ShareRequest, answers: dict[PartitionKey, PartitionData]
) -> bool:
    """Acquire records from the session's partitions into ``answers``, parking while there are none; True if a
    window changed in a way to save."""
    keys = list(share.session.partitions)
    if request.max_records <= 0 or not keys:
        return False
    names = {key: topic_name(ctx, key[0]) for key in keys}
    led = ctx.broker.topology.readable  # None on a single broker: it leads every partition
    if led is not None:
        for key, name in names.items():
            if isinstance(name, str) and key[1] not in led.get(name, ()):
                names[key] = ErrorCode.NOT_LEADER_OR_FOLLOWER
    readable = [(key, name) for key, name in names.items() if isinstance(name, str)]
    for key, name in names.items():
        if isinstance(name, ErrorCode):
            answers[key] = _partition(ctx, key[1], error=name)
    deadline = time.monotonic() + max(request.max_wait_ms, 0) / 1000
    changed = False
    while True:
        acquired, moved = _acquire(ctx, request, share, readable, answers)
        changed |= moved
        remaining = deadline - time.monotonic()
        if acquired or remaining <= 0 or not readable:
            return changed
        timers = ctx.broker.groups.share.timers
        lock_due = share.delivery.next_deadline(share.group, [key for key, _ in readable]) - timers.time()
        waits = [(name, key[1]) for key, name in readable]
        await ctx.broker.waiters.wait_for_append(waits, max(min(remaining, lock_due), 0.0))
        if share.group.members.get(share.member_id) is None:
            return changed


def _acquire(
    ctx: RequestContext,
    request: ShareFetchRequest,
    share: ShareRequest,
    readable: list[tuple[PartitionKey, str]],
    answers: dict[PartitionKey, PartitionData],
) -> tuple[bool, bool]:
    """One pass over the partitions: whether records were acquired, and whether a window changed to save."""
    records_left, bytes_left = request.max_records, request.max_bytes
    acquired = changed = False
    for key, name in readable:
        if records_left <= 0:
            break
        try:
            got, moved = share.delivery.acquire(
                share.group, share.member_id, key, name, max_records=records_left, max_bytes=bytes_left
            )
        except StoreError as exc:
            answers[key] = _partition(ctx, key[1], error=store_error_code(exc))
            continue
        changed |= moved
        if got.acquired:
            answers[key] = _with_records(ctx, key, got)
            acquired = True
            records_left -= sum(r.last_offset - r.first_offset + 1 for r in got.acquired)
            bytes_left -= sum(len(b) for b in got.batches)
    return acquired, changed


def _with_records(ctx: RequestContext, key: PartitionKey, got: Acquisition) -> PartitionData:
    answer = _partition(ctx, key[1])
    answer.records = b"".join(got.batches)
    answer.acquired_records = [
        AcquiredRecords(first_offset=r.first_offset, last_offset=r.last_offset, delivery_count=r.delivery_count)
        for r in got.acquired
    ]
    return answer


def _partition(ctx: RequestContext, index: int, *, error: ErrorCode = ErrorCode.NONE) -> PartitionData:
    leader = LeaderIdAndEpoch(leader_id=ctx.broker.node_id, leader_epoch=ctx.broker.store.epochs.current)
    return PartitionData(partition_index=index, error_code=error, current_leader=leader, records=b"")


def _topics(answers: dict[PartitionKey, PartitionData]) -> list[ShareFetchableTopicResponse]:
    by_topic: dict[uuid.UUID, list[PartitionData]] = {}
    for (topic_id, _), answer in answers.items():
        by_topic.setdefault(topic_id, []).append(answer)
    return [ShareFetchableTopicResponse(topic_id=topic_id, partitions=parts) for topic_id, parts in by_topic.items()]
