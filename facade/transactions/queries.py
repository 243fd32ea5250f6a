"""What DescribeTransactions and ListTransactions read of the coordinator's transactional ids (pure functions over
them), and where a group's offsets live in a transaction (its ``__consumer_offsets`` partition)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Final

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import TopicPartition, key_partition

from ..group import OFFSETS_TOPIC
from .metadata import TransactionMetadata, TxnState

STATE_NAMES: Final = frozenset(state.value for state in TxnState)


@dataclass(frozen=True, slots=True)
class TransactionDescription:
    """DescribeTransactions' answer for one id (fields other than ``error`` mean nothing unless it is NONE)."""

    transactional_id: str
    error: ErrorCode
    state: str = ""
    timeout_ms: int = 0
    start_ms: int = -1
    producer_id: int = -1
    epoch: int = -1
    partitions: tuple[TopicPartition, ...] = ()


@dataclass(frozen=True, slots=True)
class TransactionListing:
    transactional_id: str
    producer_id: int
    state: str


def offsets_partition(group_id: str, partitions: int) -> int:
    """The ``__consumer_offsets`` partition of a group (the one FindCoordinator and the store use)."""
    return key_partition(group_id, partitions)


def describe(
    txns: Mapping[str, TransactionMetadata], transactional_id: str, offsets_partitions: int
) -> TransactionDescription:
    """DescribeTransactions for one id (a group's offsets show as its ``__consumer_offsets`` partition)."""
    if not transactional_id:
        return TransactionDescription(transactional_id, ErrorCode.INVALID_REQUEST)
    metadata = txns.get(transactional_id)
    if metadata is None or metadata.state is TxnState.DEAD:
        return TransactionDescription(transactional_id, ErrorCode.TRANSACTIONAL_ID_NOT_FOUND)
    groups = {TopicPartition(OFFSETS_TOPIC, offsets_partition(g, offsets_partitions)) for g in metadata.offsets}
    partitions = tuple(sorted(metadata.partitions | groups, key=lambda tp: (tp.topic, tp.partition)))
    return TransactionDescription(
        transactional_id, ErrorCode.NONE, metadata.state.value, metadata.ids.timeout_ms, metadata.start_ms,
        metadata.producer_id, metadata.epoch, partitions,
    )  # fmt: skip


def list_transactions(
    txns: Mapping[str, TransactionMetadata], states: Collection[str], producer_ids: Collection[int],
    min_duration_ms: int, now_ms: int,
) -> tuple[list[str], list[TransactionListing]]:  # fmt: skip
    """ListTransactions: the state filters this broker does not know, and the ids matching every filter."""
    unknown = [state for state in states if state not in STATE_NAMES]
    listings = [
        TransactionListing(name, metadata.producer_id, metadata.state.value)
        for name, metadata in sorted(txns.items())
        if (not states or metadata.state.value in states)
        and (not producer_ids or metadata.producer_id in producer_ids)
        and (min_duration_ms < 0 or (metadata.start_ms >= 0 and now_ms - metadata.start_ms >= min_duration_ms))
    ]
    return unknown, listings
