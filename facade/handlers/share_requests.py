"""What ShareFetch and ShareAcknowledge have in common: finding the member's group and share session, applying
acknowledgements, closing a session, and waiting for what they changed to be durable.

A request names its group and member (INVALID_REQUEST when either is empty; UNKNOWN_MEMBER_ID when the group
does not exist, or when a request opening a session comes from a member not in it) and its share session epoch
(``facade/group/share/sessions.py``). Acknowledgements
are applied per partition (``facade/group/share/delivery.py``): READ on the topic is needed
(TOPIC_AUTHORIZATION_FAILED), an unknown topic id is UNKNOWN_TOPIC_ID, records the member does not hold
INVALID_RECORD_STATE. Closing a session (epoch -1) releases what the member holds in its partitions.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rockafka.facade.group.share import (
    CLOSE_EPOCH,
    OPEN_EPOCH,
    AcknowledgementBatch,
    PartitionKey,
    ShareDelivery,
    ShareGroup,
    ShareSession,
    ShareSessionError,
)
from rockafka.facade.group.share.coordinator import Durable
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import StoreError, UnknownTopicIdError

from ..replication import UnconfirmedWrite, write_error
from .context import ApiError, RequestContext

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Acknowledgements:
    """One partition's acknowledgement batches, as a request carries them."""

    key: PartitionKey
    batches: tuple[AcknowledgementBatch, ...]


@dataclass(frozen=True, slots=True)
class ShareRequest:
    """The member's group and session a ShareFetch or ShareAcknowledge acts on."""

    group: ShareGroup
    member_id: str
    session: ShareSession
    delivery: ShareDelivery


def open_request(ctx: RequestContext, group_id: str | None, member_id: str | None, epoch: int) -> ShareRequest:
    """The group and session of a request (``ApiError`` with the top-level error otherwise)."""
    if not group_id or not member_id:
        raise ApiError(ErrorCode.INVALID_REQUEST, "GroupId and MemberId must be set.")
    ctx.check(AclOperation.READ, ResourceType.GROUP, group_id)
    delivery = ctx.broker.groups.share_delivery
    group = delivery.group(group_id, member_id, opening=epoch == OPEN_EPOCH)
    if group is None:
        raise ApiError(ErrorCode.UNKNOWN_MEMBER_ID, f"Member {member_id} is not in share group {group_id}.")
    try:
        session = ctx.broker.groups.share.sessions.session(group_id, member_id, epoch)
    except ShareSessionError as exc:
        raise ApiError(exc.code, str(exc)) from None
    return ShareRequest(group, member_id, session, delivery)


def topic_name(ctx: RequestContext, topic_id: uuid.UUID) -> str | ErrorCode:
    """The topic's name, or the partition error for it (unknown id, or no READ)."""
    try:
        name = ctx.broker.store.topics.name_of(topic_id)
    except UnknownTopicIdError:
        return ErrorCode.UNKNOWN_TOPIC_ID
    if not ctx.authorize(AclOperation.READ, ResourceType.TOPIC, name):
        return ErrorCode.TOPIC_AUTHORIZATION_FAILED
    return name


def acknowledgements(key: PartitionKey, batches: Iterable[object]) -> Acknowledgements:
    """A partition's wire acknowledgement batches (ShareFetch's or ShareAcknowledge's)."""
    return Acknowledgements(
        key,
        tuple(
            AcknowledgementBatch(b.first_offset, b.last_offset, tuple(b.acknowledge_types))  # type: ignore[attr-defined]
            for b in batches
        ),
    )


def acknowledge(
    ctx: RequestContext, request: ShareRequest, items: Sequence[Acknowledgements]
) -> tuple[dict[PartitionKey, ErrorCode], bool]:
    """Apply each partition's acknowledgements: its error, and whether a window changed (to be saved)."""
    errors: dict[PartitionKey, ErrorCode] = {}
    changed = False
    for item in items:
        name = topic_name(ctx, item.key[0])
        if isinstance(name, ErrorCode):
            errors[item.key] = name
            continue
        errors[item.key], moved = request.delivery.acknowledge(request.group, request.member_id, item.key, item.batches)
        changed |= moved
    return errors, changed


def close_if_asked(ctx: RequestContext, request: ShareRequest, epoch: int) -> bool:
    """Close the session at epoch -1, releasing what the member holds in its partitions; True if it released."""
    if epoch != CLOSE_EPOCH:
        return False
    ctx.broker.groups.share.sessions.close(request.group.group_id, request.member_id)
    return request.delivery.release_session(request.group, request.member_id, list(request.session.partitions))


@dataclass(frozen=True, slots=True)
class Saving:
    """A group's document written to the store (``durable``: completed once fsynced, under sync flush), or the
    error the acknowledgements get when the store failed."""

    error: ErrorCode = ErrorCode.NONE
    durable: Durable = None

    async def outcome(self) -> ErrorCode:
        """NONE once durable, else the error."""
        if self.durable is None or self.error is not ErrorCode.NONE:
            return self.error
        try:
            await asyncio.wrap_future(self.durable)
        except (StoreError, UnconfirmedWrite) as exc:
            log.error("a share group was not made durable: %s", exc)
            return write_error(exc, ErrorCode.KAFKA_STORAGE_ERROR)
        return ErrorCode.NONE


def save(request: ShareRequest, changed: bool) -> Saving:
    """Write the group's document now if its windows changed (before a fetch parks: a departed client's
    acknowledgements are kept even though its request is cancelled)."""
    if not changed:
        return Saving()
    try:
        return Saving(durable=request.delivery.save(request.group))
    except StoreError as exc:
        log.error("share group %s was not saved: %s", request.group.group_id, exc)
        return Saving(ErrorCode.KAFKA_STORAGE_ERROR)
