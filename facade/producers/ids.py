"""InitProducerId's rules: producer ids handed out from durable blocks, transactional ids and their epochs.

Producer ids come from blocks of ``BLOCK_SIZE`` ids. The document ``producer-id-block`` holds
``{"version": 1, "next_block_start": N}``; taking a new block saves N + ``BLOCK_SIZE`` (durably: the answer
carrying the first id of the block waits for the fsync) before any id of it is handed out. After a restart
allocation starts at the saved N, so an id is never handed out twice; the unused rest of the block in use
at the restart is skipped, as Kafka's producer id manager skips it.

Idempotent producers (transactional id null) get a new producer id with epoch 0 on every call, whatever
producer id and epoch a v3+ request carries: Kafka's coordinator does exactly this (the Java client bumps
an idempotent producer's epoch on its own). An empty transactional id is INVALID_REQUEST; a producer id
without an epoch or the reverse is INVALID_REQUEST.

Transactional ids keep ``TransactionalIdState`` (producer id, previous producer id, epoch, last epoch,
timeout, last update), inside the transaction coordinator's document of the id (see
``rockafka.facade.transactions.metadata``). The timeout must be in 1..``transaction.max.timeout.ms``
(INVALID_TRANSACTION_TIMEOUT). Then, as Kafka's ``TransactionCoordinator.prepareInitProducerIdTransit`` and
``TransactionMetadata.prepareIncrementProducerEpoch`` (for a transactional id in Empty, CompleteCommit or
CompleteAbort; the coordinator aborts an Ongoing transaction first):

=================================================================  ==============================================
request (expected = the v3+ producer id and epoch, if given)        outcome
=================================================================  ==============================================
unknown transactional id                                            new producer id, epoch 0
expected given, the id has an epoch, and expected producer id is    PRODUCER_FENCED
neither the current one nor (with an exhausted epoch) the previous
epoch exhausted (>= 32766) and expected absent or at that epoch     new producer id, epoch 0 (rotation)
expected absent                                                     epoch + 1, last epoch forgotten (fences all)
expected epoch is the current one                                   epoch + 1, last epoch = the current one
expected epoch is the last epoch                                    unchanged (a retry of a bump already made)
otherwise                                                           PRODUCER_FENCED
=================================================================  ==============================================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import Any, Final

from rockafka.facade.protocol.error_codes import ErrorCode

BLOCK_SIZE: Final = 1000
BLOCK_KEY: Final = "producer-id-block"
NO_PRODUCER_ID: Final = -1
NO_EPOCH: Final = -1
MAX_EPOCH: Final = 32767
DOCUMENT_VERSION: Final = 1


def epoch_exhausted(epoch: int) -> bool:
    return epoch >= MAX_EPOCH - 1


@dataclass(frozen=True, slots=True)
class ProducerIdAndEpoch:
    producer_id: int
    epoch: int


@dataclass(frozen=True, slots=True)
class InitRefused:
    error: ErrorCode
    message: str


@dataclass(frozen=True, slots=True)
class AllocatedId:
    producer_id: int
    #: Completed once the block this id came from is fsynced; None when that block was saved earlier.
    durable: Future[None] | None


class ProducerIdAllocator:
    """Hands out producer ids, saving each new block with ``save_block(next_block_start)`` before using it."""

    def __init__(self, next_block_start: int, save_block: Callable[[int], Future[None] | None]) -> None:
        self._next = self._end = next_block_start
        self._save_block = save_block
        self._pending: Future[None] | None = None

    @staticmethod
    def block_start(documents: Mapping[str, Mapping[str, Any]]) -> int:
        document = documents.get(BLOCK_KEY)
        return 0 if document is None else int(document["next_block_start"])

    def allocate(self) -> AllocatedId:
        if self._next == self._end:
            self._end = self._next + BLOCK_SIZE
            self._pending = self._save_block(self._end)
        if self._pending is not None and self._pending.done() and self._pending.exception() is None:
            self._pending = None
        producer_id = self._next
        self._next += 1
        return AllocatedId(producer_id, self._pending)


@dataclass(frozen=True, slots=True)
class TransactionalIdState:
    transactional_id: str
    producer_id: int
    previous_producer_id: int
    epoch: int
    last_epoch: int
    timeout_ms: int
    updated_ms: int

    def document(self) -> dict[str, Any]:
        return {
            "version": DOCUMENT_VERSION,
            "producer_id": self.producer_id,
            "previous_producer_id": self.previous_producer_id,
            "epoch": self.epoch,
            "last_epoch": self.last_epoch,
            "timeout_ms": self.timeout_ms,
            "updated_ms": self.updated_ms,
        }

    @classmethod
    def from_document(cls, transactional_id: str, document: Mapping[str, Any]) -> TransactionalIdState:
        return cls(
            transactional_id,
            int(document["producer_id"]),
            int(document["previous_producer_id"]),
            int(document["epoch"]),
            int(document["last_epoch"]),
            int(document["timeout_ms"]),
            int(document["updated_ms"]),
        )


def check_request(
    transactional_id: str | None, timeout_ms: int, producer_id: int, epoch: int, max_timeout_ms: int
) -> InitRefused | None:
    """Kafka's checks of an InitProducerId request before any state is looked at."""
    if (producer_id == NO_PRODUCER_ID) != (epoch == NO_EPOCH):
        return InitRefused(ErrorCode.INVALID_REQUEST, "a producer id and an epoch go together (both or neither)")
    if transactional_id is None:
        return None
    if transactional_id == "":
        return InitRefused(ErrorCode.INVALID_REQUEST, "the transactional id is empty")
    if not 0 < timeout_ms <= max_timeout_ms:
        return InitRefused(
            ErrorCode.INVALID_TRANSACTION_TIMEOUT,
            f"transaction timeout {timeout_ms} ms is outside 1..{max_timeout_ms} (transaction.max.timeout.ms)",
        )
    return None


def init_transactional(
    current: TransactionalIdState | None,
    transactional_id: str,
    expected: ProducerIdAndEpoch | None,
    timeout_ms: int,
    now_ms: int,
    new_producer_id: Callable[[], int],
) -> TransactionalIdState | InitRefused:
    """The transactional id's state after InitProducerId, or why the producer is refused (see the table)."""
    if current is None:
        return TransactionalIdState(
            transactional_id, new_producer_id(), NO_PRODUCER_ID, 0, NO_EPOCH, timeout_ms, now_ms
        )
    if expected is not None and not known_producer(current, expected):
        return InitRefused(
            ErrorCode.PRODUCER_FENCED,
            f"producer id {expected.producer_id} is not {transactional_id!r}'s ({current.producer_id})",
        )
    renewed = replace(current, timeout_ms=timeout_ms, updated_ms=now_ms)
    if epoch_exhausted(current.epoch) and (expected is None or expected.epoch == current.epoch):
        last = current.epoch if expected is not None else NO_EPOCH
        return replace(renewed, producer_id=new_producer_id(), previous_producer_id=current.producer_id, epoch=0,
                       last_epoch=last)  # fmt: skip
    if expected is None:
        return replace(renewed, epoch=current.epoch + 1, last_epoch=NO_EPOCH)
    if expected.epoch == current.epoch:
        return replace(renewed, epoch=current.epoch + 1, last_epoch=current.epoch)
    if expected.epoch == current.last_epoch:
        return renewed
    return InitRefused(
        ErrorCode.PRODUCER_FENCED,
        f"epoch {expected.epoch} of {transactional_id!r} is neither the current {current.epoch} nor the last "
        f"{current.last_epoch}: a newer producer has the id",
    )


def known_producer(current: TransactionalIdState, expected: ProducerIdAndEpoch) -> bool:
    """The v3+ producer id given with InitProducerId may take the id over (else PRODUCER_FENCED)."""
    return (
        current.epoch == NO_EPOCH
        or expected.producer_id == current.producer_id
        or (expected.producer_id == current.previous_producer_id and epoch_exhausted(expected.epoch))
    )
