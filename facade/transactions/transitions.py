"""Saving a transactional id's change: Kafka's pending state and coordinator epoch, for ``TransactionCoordinator``.

A change to a transactional id (InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit, EndTxn, a
fence or a timeout's abort) is a transition to a new ``TransactionMetadata``. Its document is saved to
``__transaction_state`` (``save``), and it becomes the id's state in memory only once the save is confirmed: fsynced
and, on a replicated leader, held by the in-sync members. Kafka's TransactionStateManager does the same: the
transition is the metadata's ``pendingState`` until the append completes, and only then enters its cache.

While a transition is in flight the id is pending (``PendingTransitions``): every request that would change it
answers CONCURRENT_TRANSACTIONS (Kafka's ``pendingTransitionInProgress``), so nothing is answered from a change
not yet confirmed. A save that fails (COORDINATOR_NOT_AVAILABLE when the in-sync members did not confirm it in time,
NOT_COORDINATOR when this broker stopped leading) leaves memory as it was, as Kafka resets the pending state. The
record may still reach the followers: a later coordinator then loads it (a PrepareCommit it completes, partitions
added, a bumped epoch), and the client's retry meets that state as it would in Kafka (EndTxn with the same result:
CONCURRENT_TRANSACTIONS, then NONE; AddPartitionsToTxn: NONE; InitProducerId: the next epoch).

When the leadership of a ``__transaction_state`` partition leaves this broker (or comes to it), the partition's
generation moves on (Kafka's coordinator epoch). A transition saved under an earlier generation changes nothing in
memory when its save ends: it answers NOT_COORDINATOR if the save succeeded (its own error otherwise), so a
partition led here again is loaded from the store, never mixed with what a save of the old generation left behind.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import MessageStore, StoreError

from ..replication import ConfirmWrite, write_error
from .metadata import TransactionMetadata

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Transition:
    """A change being saved: the state it leads to, and the generation of its id's partition when it began."""

    target: TransactionMetadata
    generation: int


class PendingTransitions:
    """The transactional ids with a transition in flight (at most one each), and each ``__transaction_state``
    partition's generation."""

    def __init__(self, partition_of: Callable[[str], int]) -> None:
        self._partition_of = partition_of
        self._pending: dict[str, Transition] = {}
        self._generations: dict[int, int] = {}

    def __contains__(self, transactional_id: object) -> bool:
        return transactional_id in self._pending

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self._pending)

    def preparing(self, transactional_id: str | None) -> bool:
        """Whether ``transactional_id``'s transition in flight ends its transaction (PrepareCommit/PrepareAbort)."""
        transition = None if transactional_id is None else self._pending.get(transactional_id)
        return transition is not None and transition.target.state.preparing

    def begin(self, target: TransactionMetadata) -> Transition:
        """``target``'s id is pending until ``end``; the caller checked it was not."""
        name = target.transactional_id
        assert name not in self._pending, f"transactional id {name!r} already has a transition in flight"
        transition = Transition(target, self._generations.get(self._partition_of(name), 0))
        self._pending[name] = transition
        return transition

    def end(self, transition: Transition) -> bool:
        """The save of ``transition`` ended: its id is no longer pending. True if its partition is still in the
        generation it began in (memory may take the outcome), False if its leadership moved meanwhile."""
        name = transition.target.transactional_id
        if self._pending.get(name) is transition:
            del self._pending[name]
        return self._generations.get(self._partition_of(name), 0) == transition.generation

    def moved(self, partition: int) -> None:
        """The leadership of ``__transaction_state``-``partition`` left this broker or came to it."""
        self._generations[partition] = self._generations.get(partition, 0) + 1


async def save(
    store: MessageStore, confirm_write: ConfirmWrite, metadata: TransactionMetadata, *also: Future[None] | None
) -> ErrorCode:
    """Save ``metadata``'s document and wait for it (and ``also``) to be fsynced, and on a replicated leader held by
    every in-sync member (Kafka appends ``__transaction_state`` with acks=all): NONE, else what Kafka's
    TransactionStateManager answers (COORDINATOR_NOT_AVAILABLE, or NOT_COORDINATOR once this broker no longer
    leads)."""
    try:
        saved = confirm_write(
            store.transaction_state.save(metadata.transactional_id, metadata.document(), durable=True)
        )
    except StoreError as exc:
        log.error("transactional id %r not saved: %s", metadata.transactional_id, exc)
        return ErrorCode.COORDINATOR_NOT_AVAILABLE
    for future in (saved, *also):
        error = await durable(future)
        if error is not ErrorCode.NONE:
            return error
    return ErrorCode.NONE


async def durable(future: Future[None] | None) -> ErrorCode:
    """NONE once ``future`` is done, else the coordinator's error for the write."""
    if future is None:
        return ErrorCode.NONE
    try:
        await asyncio.wrap_future(future)
    except Exception as exc:
        log.error("a transaction state save was not made durable: %s", exc)
        return write_error(exc, ErrorCode.COORDINATOR_NOT_AVAILABLE)
    return ErrorCode.NONE
