"""Which broker coordinates a group or a transactional id, for FindCoordinator and the coordinators' handlers.

Kafka places coordinators on the partitions of its internal topics: a group on ``__consumer_offsets``,
a transactional id on ``__transaction_state``, each key hashed onto one partition (``topology.coordinator``).
A request for a key this broker does not coordinate is NOT_COORDINATOR: the client asks FindCoordinator
again. Requests about one key fail as a whole (``check_*``); requests about several answer per key
(``group_error``, ``transaction_error``: DescribeGroups, DeleteGroups, AddPartitionsToTxn v4+), and ListGroups
lists only the groups this broker coordinates (``coordinates_group``), as Kafka's brokers do (admin clients ask
every broker and merge). On a single broker this broker coordinates everything and the checks pass at once.
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode

from ..internal_topics import OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC
from ..topology import BrokerAddress
from .context import ApiError, RequestContext


def coordinator_of(ctx: RequestContext, internal_topic: str, key: str, own: BrokerAddress) -> BrokerAddress | None:
    """The broker coordinating ``key`` on ``internal_topic`` (None: not known yet; the client retries)."""
    partitions = ctx.broker.config.int("offsets.topic.num.partitions")
    return ctx.broker.topology.coordinator(internal_topic, partitions, key, own)


def coordinates_group(ctx: RequestContext, group_id: str) -> bool:
    """Whether this broker coordinates ``group_id`` (always, on a single broker)."""
    return _coordinates(ctx, OFFSETS_TOPIC, group_id)


def group_error(ctx: RequestContext, group_id: str) -> ErrorCode:
    """NONE if this broker coordinates ``group_id``, else NOT_COORDINATOR (a per-group answer)."""
    return ErrorCode.NONE if coordinates_group(ctx, group_id) else ErrorCode.NOT_COORDINATOR


def transaction_error(ctx: RequestContext, transactional_id: str) -> ErrorCode:
    """NONE if this broker coordinates ``transactional_id``, else NOT_COORDINATOR (a per-transaction answer)."""
    coordinates = _coordinates(ctx, TRANSACTION_STATE_TOPIC, transactional_id)
    return ErrorCode.NONE if coordinates else ErrorCode.NOT_COORDINATOR


def check_group_coordinator(ctx: RequestContext, group_id: str) -> None:
    _check(ctx, OFFSETS_TOPIC, group_id, "group")


def check_transaction_coordinator(ctx: RequestContext, transactional_id: str) -> None:
    _check(ctx, TRANSACTION_STATE_TOPIC, transactional_id, "transactional id")


def _coordinates(ctx: RequestContext, internal_topic: str, key: str) -> bool:
    node = ctx.broker.node_id
    found = coordinator_of(ctx, internal_topic, key, BrokerAddress(node, "", 0))
    return found is not None and found.node_id == node


def _check(ctx: RequestContext, internal_topic: str, key: str, what: str) -> None:
    if not _coordinates(ctx, internal_topic, key):
        node = ctx.broker.node_id
        raise ApiError(ErrorCode.NOT_COORDINATOR, f"broker {node} is not the coordinator of {what} {key!r}")
