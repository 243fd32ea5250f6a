"""ShareAcknowledge v1: a share group member acknowledges records it holds, without fetching.

Version notes: v1 is the first stable version (Kafka 4.1) and the one librdkafka's share consumer sends (v2's
lock renewal, KIP-1222, is not implemented). The share session must exist: epoch 0 is
INVALID_SHARE_SESSION_EPOCH (a session is opened by ShareFetch), a positive epoch continues it, -1 closes it
after applying the acknowledgements and releases what the member still holds. Each partition answers its
error: INVALID_RECORD_STATE for records the member does not hold (the batches before it applied),
UNKNOWN_TOPIC_ID, TOPIC_AUTHORIZATION_FAILED, KAFKA_STORAGE_ERROR when the store could not save them. The
answer waits until the acknowledgements are durable under the sync flush policy.

Authorization: READ on the group (GROUP_AUTHORIZATION_FAILED for the request) and on each topic.
"""

from __future__ import annotations

import uuid

from rockafka.facade.group.share import OPEN_EPOCH
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.share_acknowledge import (
    LeaderIdAndEpoch,
    PartitionData,
    ShareAcknowledgeRequest,
    ShareAcknowledgeResponse,
    ShareAcknowledgeTopicResponse,
)

from .context import ApiError, RequestContext
from .registry import register
from .share_requests import acknowledge, acknowledgements, close_if_asked, open_request, save


def _error(request: ShareAcknowledgeRequest, code: ErrorCode) -> ShareAcknowledgeResponse:
    return ShareAcknowledgeResponse(error_code=code)


@register(79, 1, 1, _error)
async def handle(ctx: RequestContext, request: ShareAcknowledgeRequest) -> ShareAcknowledgeResponse:
    epoch = request.share_session_epoch
    if epoch == OPEN_EPOCH:
        raise ApiError(ErrorCode.INVALID_SHARE_SESSION_EPOCH, "ShareAcknowledge cannot open a share session.")
    share = open_request(ctx, request.group_id, request.member_id, epoch)
    acks = [
        acknowledgements((topic.topic_id, p.partition_index), p.acknowledgement_batches)
        for topic in request.topics
        for p in topic.partitions
    ]
    errors, changed = acknowledge(ctx, share, acks)
    if close_if_asked(ctx, share, epoch):
        changed = True
    else:
        ctx.broker.groups.share.sessions.update(share.session, (), ())
    failed = await save(share, changed).outcome()
    leader = LeaderIdAndEpoch(leader_id=ctx.broker.node_id, leader_epoch=ctx.broker.store.epochs.current)
    by_topic: dict[uuid.UUID, list[PartitionData]] = {}
    for (topic_id, index), error in errors.items():
        code = failed if error is ErrorCode.NONE else error
        by_topic.setdefault(topic_id, []).append(
            PartitionData(partition_index=index, error_code=code, current_leader=leader)
        )
    return ShareAcknowledgeResponse(
        responses=[ShareAcknowledgeTopicResponse(topic_id=t, partitions=parts) for t, parts in by_topic.items()]
    )
