"""OffsetCommit v0-9: store a group's offsets, durable once answered (under the sync flush policy; on a replicated
leader, held by every in-sync member, else COORDINATOR_NOT_AVAILABLE or NOT_COORDINATOR: ``facade/group/offsets.py``).

Version notes: v0 carries no generation or member (a simple commit: accepted for groups without
members); v1+ carry them, checked against the group (``facade/group/offsets.py``); v1's per-partition
commit timestamp and v2-4's retention time are read and not used (the broker's clock and
``offsets.retention.minutes`` apply, as for every later version); v6+ carry the leader epoch, kept and
returned by OffsetFetch; v7+ carry ``group.instance.id``; v8 is the first flexible version; v9 answers
GROUP_ID_NOT_FOUND instead of ILLEGAL_GENERATION for a group that does not exist, and its generation is a
member epoch for a KIP-848 consumer group: a member must commit at its current epoch (STALE_MEMBER_EPOCH),
with v9+ (UNSUPPORTED_VERSION below). A null metadata string is stored as "".

Authorization: READ on the group (GROUP_AUTHORIZATION_FAILED for the whole request), READ on each topic
(TOPIC_AUTHORIZATION_FAILED for its partitions, which are not committed).
"""

from __future__ import annotations

from collections.abc import Callable

from rockafka.facade.group import CommitRequest
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.offset_commit import (
    OffsetCommitRequest,
    OffsetCommitResponse,
    OffsetCommitResponsePartition,
    OffsetCommitResponseTopic,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import OffsetCommit, TopicPartition

from .context import RequestContext
from .coordination import check_group_coordinator
from .registry import register


def _error(request: OffsetCommitRequest, code: ErrorCode) -> OffsetCommitResponse:
    return _response(request, lambda key: code)


@register(8, 0, 9, _error)
async def handle(ctx: RequestContext, request: OffsetCommitRequest) -> OffsetCommitResponse:
    ctx.check(AclOperation.READ, ResourceType.GROUP, request.group_id)
    check_group_coordinator(ctx, request.group_id)
    denied = {t.name for t in request.topics if not ctx.authorize(AclOperation.READ, ResourceType.TOPIC, t.name)}
    version = ctx.api_version
    commit = CommitRequest(
        group_id=request.group_id,
        generation_id=request.generation_id_or_member_epoch if version >= 1 else -1,
        member_id=request.member_id if version >= 1 else "",
        group_instance_id=request.group_instance_id,
        group_not_found_error=version >= 9,
    )
    offsets = [
        OffsetCommit(
            topic.name,
            partition.partition_index,
            partition.committed_offset,
            partition.committed_leader_epoch if partition.committed_leader_epoch >= 0 else None,
            partition.committed_metadata or "",
        )
        for topic in request.topics
        if topic.name not in denied
        for partition in topic.partitions
    ]
    errors = dict(await ctx.broker.groups.offsets.commit(commit, offsets)) if offsets or not denied else {}
    errors.update(
        (TopicPartition(t.name, p.partition_index), ErrorCode.TOPIC_AUTHORIZATION_FAILED)
        for t in request.topics
        if t.name in denied
        for p in t.partitions
    )
    return _response(request, lambda key: errors.get(key, ErrorCode.UNKNOWN_SERVER_ERROR))


def _response(request: OffsetCommitRequest, error_of: Callable[[TopicPartition], ErrorCode]) -> OffsetCommitResponse:
    return OffsetCommitResponse(
        topics=[
            OffsetCommitResponseTopic(
                name=topic.name,
                partitions=[
                    OffsetCommitResponsePartition(
                        partition_index=p.partition_index,
                        error_code=error_of(TopicPartition(topic.name, p.partition_index)),
                    )
                    for p in topic.partitions
                ],
            )
            for topic in request.topics
        ]
    )
