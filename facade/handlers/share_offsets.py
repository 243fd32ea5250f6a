"""What the share-group offset admin APIs (DescribeShareGroupOffsets, AlterShareGroupOffsets,
DeleteShareGroupOffsets) have in common: finding the share group a request names, and its topics by name.

``changeable_group`` raises ``ApiError`` with the answer to a whole Alter or Delete request: an empty group id
(INVALID_GROUP_ID), its coordinator
elsewhere (NOT_COORDINATOR) or not started (COORDINATOR_NOT_AVAILABLE), no share group of that id
(GROUP_ID_NOT_FOUND), a group with members (NON_EMPTY_GROUP). ``saved`` makes a change and waits until it is
durable under the sync flush policy (False when the store cannot save it: KAFKA_STORAGE_ERROR).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable

from rockafka.facade.group.share import ShareGroup
from rockafka.facade.group.share.coordinator import Durable
from rockafka.facade.group.share.offsets import ShareOffsetsError, empty_share_group
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import StoreError, TopicInfo, UnknownTopicIdError, UnknownTopicOrPartitionError

from ..replication import UnconfirmedWrite
from .context import ApiError, RequestContext
from .coordination import check_group_coordinator

log = logging.getLogger(__name__)

#: The topic id answered for a topic that does not exist (or may not be described).
NO_TOPIC_ID = uuid.UUID(int=0)


def changeable_group(ctx: RequestContext, group_id: str) -> ShareGroup:
    if not group_id:
        raise ApiError(ErrorCode.INVALID_GROUP_ID, "GroupId can't be empty.")
    check_group_coordinator(ctx, group_id)
    share = ctx.broker.groups.share
    if not share.active:
        raise ApiError(ErrorCode.COORDINATOR_NOT_AVAILABLE)
    try:
        return empty_share_group(share, group_id)
    except ShareOffsetsError as exc:
        raise ApiError(exc.error_code, exc.message) from None


def topic_named(ctx: RequestContext, name: str) -> TopicInfo | None:
    """The topic of that name, or None when there is none (the internal topics have no share groups)."""
    try:
        return ctx.broker.store.topics.describe(name)
    except UnknownTopicOrPartitionError:
        return None


def topic_with_id(ctx: RequestContext, topic_id: uuid.UUID) -> TopicInfo | None:
    """The topic of that id, or None when it was deleted."""
    try:
        return topic_named(ctx, ctx.broker.store.topics.name_of(topic_id))
    except UnknownTopicIdError:
        return None


async def saved(group_id: str, change: Callable[[], Durable]) -> bool:
    """Make ``change`` and wait until it is durable; False (logged) when the store could not save it."""
    try:
        durable = change()
        if durable is not None:
            await asyncio.wrap_future(durable)
    except (StoreError, UnconfirmedWrite) as exc:
        log.error("share group %s: changed offsets were not made durable: %s", group_id, exc)
        return False
    return True
