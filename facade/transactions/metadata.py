"""One transactional id's transaction: Kafka's states, their transitions, the rules of each request, its document.

States (named as Kafka names them; DescribeTransactions and ListTransactions show these names), and the
states each may be entered from (Kafka's ``TransactionState.validPreviousStates``):

=====================  ==========================================  ==================================================
state                  entered from                                meaning
=====================  ==========================================  ==================================================
``Empty``              Empty, CompleteCommit, CompleteAbort        no transaction; InitProducerId leaves the id here
``Ongoing``            Ongoing, Empty, CompleteCommit,             partitions or a group were added
                       CompleteAbort
``PrepareCommit``      Ongoing                                     EndTxn(commit) accepted, markers not all written
``PrepareAbort``       Ongoing, PrepareEpochFence                  EndTxn(abort), timeout or fencing: markers pending
``CompleteCommit``     PrepareCommit                               COMMIT markers written, offsets visible
``CompleteAbort``      PrepareAbort                                ABORT markers written, pending offsets dropped
``Dead``               Empty, CompleteCommit, CompleteAbort        expired (``transactional.id.expiration.ms``)
``PrepareEpochFence``  Ongoing                                     the epoch is bumped to fence the producer; passed
                                                                   through on the way to PrepareAbort, never saved
=====================  ==========================================  ==================================================

Request rules (``check_producer`` first for AddPartitionsToTxn, AddOffsetsToTxn, EndTxn, TxnOffsetCommit): a
producer id other than the id's is INVALID_PRODUCER_ID_MAPPING, another epoch PRODUCER_FENCED. Then:

- AddPartitionsToTxn / AddOffsetsToTxn (``add``): PrepareCommit/PrepareAbort answer CONCURRENT_TRANSACTIONS; Ongoing
  with nothing new answers at once; otherwise the transaction becomes Ongoing (from Empty or Complete*: with only
  the new partitions and groups, and its start time is now).
- EndTxn (``prepare_end``): Ongoing goes to PrepareCommit/PrepareAbort; a retry (CompleteCommit + commit,
  CompleteAbort + abort) answers NONE; PrepareCommit + commit and PrepareAbort + abort answer
  CONCURRENT_TRANSACTIONS; anything else (Empty, or the other outcome) INVALID_TXN_STATE.
- Fencing (``fence``: a new InitProducerId, or the transaction timeout) of an Ongoing transaction: through
  PrepareEpochFence to PrepareAbort with the epoch + 1 (the last epoch forgotten), so the markers carry an epoch
  the old producer does not have.
- ``complete``: Prepare* to Complete*; partitions and pending offsets are cleared.

Document (the transactional id's record in ``__transaction_state``: ``store.transaction_state``), version 2;
version 1 documents (ids only, written before transactions existed) read as Empty::

    {"version": 2, "producer_id": int, "previous_producer_id": int, "epoch": int, "last_epoch": int,
     "timeout_ms": int, "updated_ms": int, "state": "<state name>", "start_ms": int (-1: none),
     "partitions": [[topic, partition], ...],
     "offsets": {"<group>": [[topic, partition, offset, leader epoch or null, metadata], ...], ...}}
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import OffsetCommit, TopicPartition

from ..producers.ids import MAX_EPOCH, TransactionalIdState

DOCUMENT_VERSION: Final = 2
NO_START: Final = -1


class TxnState(enum.Enum):
    EMPTY = "Empty"
    ONGOING = "Ongoing"
    PREPARE_COMMIT = "PrepareCommit"
    PREPARE_ABORT = "PrepareAbort"
    COMPLETE_COMMIT = "CompleteCommit"
    COMPLETE_ABORT = "CompleteAbort"
    DEAD = "Dead"
    PREPARE_EPOCH_FENCE = "PrepareEpochFence"

    @property
    def preparing(self) -> bool:
        return self in (TxnState.PREPARE_COMMIT, TxnState.PREPARE_ABORT)

    @property
    def settled(self) -> bool:
        """No transaction in progress: InitProducerId may bump the epoch, the id may expire."""
        return self in (TxnState.EMPTY, TxnState.COMPLETE_COMMIT, TxnState.COMPLETE_ABORT)


_S = TxnState
VALID_PREVIOUS: Final[Mapping[TxnState, frozenset[TxnState]]] = {
    _S.EMPTY: frozenset({_S.EMPTY, _S.COMPLETE_COMMIT, _S.COMPLETE_ABORT}),
    _S.ONGOING: frozenset({_S.ONGOING, _S.EMPTY, _S.COMPLETE_COMMIT, _S.COMPLETE_ABORT}),
    _S.PREPARE_COMMIT: frozenset({_S.ONGOING}),
    _S.PREPARE_ABORT: frozenset({_S.ONGOING, _S.PREPARE_EPOCH_FENCE}),
    _S.COMPLETE_COMMIT: frozenset({_S.PREPARE_COMMIT}),
    _S.COMPLETE_ABORT: frozenset({_S.PREPARE_ABORT}),
    _S.DEAD: frozenset({_S.EMPTY, _S.COMPLETE_COMMIT, _S.COMPLETE_ABORT}),
    _S.PREPARE_EPOCH_FENCE: frozenset({_S.ONGOING}),
}

PendingOffsets = Mapping[str, Mapping[TopicPartition, OffsetCommit]]


class IllegalTransitionError(Exception):
    """A transition Kafka's state machine does not have (a bug in the coordinator, never a client's doing)."""


@dataclass(frozen=True, slots=True)
class TransactionMetadata:
    """A transactional id: its producer id and epochs (``ids``) and its current transaction."""

    ids: TransactionalIdState
    state: TxnState = TxnState.EMPTY
    start_ms: int = NO_START
    partitions: frozenset[TopicPartition] = frozenset()
    #: Groups added with AddOffsetsToTxn, each with the offsets TxnOffsetCommit left pending (visible on commit).
    offsets: PendingOffsets = field(default_factory=dict)

    @property
    def transactional_id(self) -> str:
        return self.ids.transactional_id

    @property
    def producer_id(self) -> int:
        return self.ids.producer_id

    @property
    def epoch(self) -> int:
        return self.ids.epoch

    def to(self, state: TxnState, now_ms: int, **changes: Any) -> TransactionMetadata:
        """This transaction in ``state`` (with ``changes``), if Kafka's state machine allows it."""
        if self.state not in VALID_PREVIOUS[state]:
            raise IllegalTransitionError(
                f"transactional id {self.transactional_id!r}: {self.state.value} -> {state.value}"
            )
        ids = changes.pop("ids", self.ids)
        return replace(self, ids=replace(ids, updated_ms=now_ms), state=state, **changes)

    # --- the document ---

    def document(self) -> dict[str, Any]:
        offsets = {
            group: [[c.topic, c.partition, c.offset, c.leader_epoch, c.metadata] for c in commits.values()]
            for group, commits in self.offsets.items()
        }
        return self.ids.document() | {
            "version": DOCUMENT_VERSION,
            "state": self.state.value,
            "start_ms": self.start_ms,
            "partitions": sorted([tp.topic, tp.partition] for tp in self.partitions),
            "offsets": offsets,
        }

    @classmethod
    def from_document(cls, transactional_id: str, document: Mapping[str, Any]) -> TransactionMetadata:
        """The metadata a document describes; ValueError/KeyError/TypeError for one this broker cannot read."""
        version = document.get("version")
        if version not in (1, DOCUMENT_VERSION):
            raise ValueError(f"transaction document version {version!r}")
        ids = TransactionalIdState.from_document(transactional_id, document)
        if version == 1:
            return cls(ids)
        offsets = {
            str(group): {
                TopicPartition(str(t), int(p)): OffsetCommit(
                    str(t), int(p), int(o), None if e is None else int(e), str(m)
                )
                for t, p, o, e, m in commits
            }
            for group, commits in document["offsets"].items()
        }
        return cls(
            ids,
            TxnState(document["state"]),
            int(document["start_ms"]),
            frozenset(TopicPartition(str(t), int(p)) for t, p in document["partitions"]),
            offsets,
        )


# --- the rules of each request ---


@dataclass(frozen=True, slots=True)
class ProduceRefused:
    """A transactional batch the coordinator refuses (Produce answers ``error`` for the partition)."""

    error: ErrorCode
    message: str


def batch_refusal(
    metadata: TransactionMetadata | None, preparing: bool, transactional_id: str | None, topic: str, partition: int,
    producer_id: int, producer_epoch: int,
) -> ProduceRefused | None:  # fmt: skip
    """Why a transactional batch of ``transactional_id`` (its transaction ``metadata``; ``preparing``: its end is
    being made durable) may not be appended to ``topic``-``partition``, or None: only within the producer's Ongoing
    transaction, to a partition added to it (Kafka's produce-side verification)."""
    if metadata is None or metadata.producer_id != producer_id:
        return ProduceRefused(
            ErrorCode.INVALID_PRODUCER_ID_MAPPING,
            f"producer {producer_id} is not transactional id {transactional_id!r}'s",
        )
    if producer_epoch != metadata.epoch:
        return ProduceRefused(
            ErrorCode.INVALID_PRODUCER_EPOCH,
            f"epoch {producer_epoch} is not {transactional_id!r}'s epoch {metadata.epoch}: fenced",
        )
    if metadata.state.preparing or preparing:
        return ProduceRefused(ErrorCode.NOT_ENOUGH_REPLICAS, f"{transactional_id!r} is completing a transaction")
    if metadata.state is not TxnState.ONGOING or TopicPartition(topic, partition) not in metadata.partitions:
        return ProduceRefused(
            ErrorCode.INVALID_TXN_STATE, f"{topic}-{partition} was not added to {transactional_id!r}'s transaction"
        )
    return None


def check_producer(metadata: TransactionMetadata, producer_id: int, epoch: int) -> ErrorCode | None:
    if producer_id != metadata.producer_id:
        return ErrorCode.INVALID_PRODUCER_ID_MAPPING
    if epoch != metadata.epoch:
        return ErrorCode.PRODUCER_FENCED
    return None


def add(
    metadata: TransactionMetadata, partitions: Iterable[TopicPartition], groups: Iterable[str], now_ms: int
) -> TransactionMetadata | ErrorCode:
    """AddPartitionsToTxn/AddOffsetsToTxn: the transaction with them added, or the answer (NONE: nothing new)."""
    state = metadata.state
    if state.preparing or state in (TxnState.DEAD, TxnState.PREPARE_EPOCH_FENCE):
        return ErrorCode.CONCURRENT_TRANSACTIONS
    new_partitions, new_groups = frozenset(partitions), [g for g in groups if g not in metadata.offsets]
    if state is TxnState.ONGOING:
        if new_partitions <= metadata.partitions and not new_groups:
            return ErrorCode.NONE
        offsets = dict(metadata.offsets) | {group: {} for group in new_groups}
        return metadata.to(TxnState.ONGOING, now_ms, partitions=metadata.partitions | new_partitions, offsets=offsets)
    return metadata.to(
        TxnState.ONGOING, now_ms, start_ms=now_ms, partitions=new_partitions, offsets={g: {} for g in new_groups}
    )


def prepare_end(metadata: TransactionMetadata, commit: bool, now_ms: int) -> TransactionMetadata | ErrorCode:
    """EndTxn from the producer: the transaction in PrepareCommit/PrepareAbort, or the answer."""
    state = metadata.state
    if state is TxnState.ONGOING:
        return metadata.to(TxnState.PREPARE_COMMIT if commit else TxnState.PREPARE_ABORT, now_ms)
    if state is (TxnState.COMPLETE_COMMIT if commit else TxnState.COMPLETE_ABORT):
        return ErrorCode.NONE
    if state is (TxnState.PREPARE_COMMIT if commit else TxnState.PREPARE_ABORT):
        return ErrorCode.CONCURRENT_TRANSACTIONS
    if state in (TxnState.DEAD, TxnState.PREPARE_EPOCH_FENCE):
        return ErrorCode.CONCURRENT_TRANSACTIONS
    return ErrorCode.INVALID_TXN_STATE


def fence(metadata: TransactionMetadata, now_ms: int) -> TransactionMetadata:
    """An Ongoing transaction aborted by the broker: PrepareAbort under a bumped epoch (through PrepareEpochFence)."""
    epoch = metadata.epoch + 1 if metadata.epoch < MAX_EPOCH else metadata.epoch
    fenced = metadata.to(TxnState.PREPARE_EPOCH_FENCE, now_ms, ids=replace(metadata.ids, epoch=epoch, last_epoch=-1))
    return fenced.to(TxnState.PREPARE_ABORT, now_ms)


def complete(metadata: TransactionMetadata, now_ms: int) -> TransactionMetadata:
    """The markers are written: Complete*, with no partitions and no pending offsets left."""
    state = TxnState.COMPLETE_COMMIT if metadata.state is TxnState.PREPARE_COMMIT else TxnState.COMPLETE_ABORT
    return metadata.to(state, now_ms, partitions=frozenset(), offsets={})
