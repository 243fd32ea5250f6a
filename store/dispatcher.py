"""The dispatcher: the one path from the CommitLog to the derived data (RocketMQ's CommitLogDispatcher).

ConsumeQueue units (and the transaction tracker's events, for transactional batches) are dispatched
synchronously, on the appending thread, before the CommitLog's write position is published, so a batch is
readable the moment ``append`` returns. IndexFile entries are dispatched asynchronously by the index thread
(``IndexService``), which follows the published CommitLog on its own: the appending thread does nothing for it.
Recovery re-dispatches the CommitLog tail through ``dispatch`` and restarts the index thread where the
surviving IndexFiles end; both writers skip what they already hold, so re-dispatch is idempotent.
"""

from __future__ import annotations

from collections.abc import Mapping

from rockafka.core_pyx.recordbatch import TRANSACTIONAL_BIT

from .commitlog import StoredBatch
from .consumequeue import ConsumeQueue
from .indexservice import IndexService
from .transactions import TransactionTracker


class Dispatcher:
    def __init__(
        self,
        queues: Mapping[tuple[bytes, int], ConsumeQueue],
        index: IndexService | None,
        transactions: TransactionTracker,
    ) -> None:
        self._queues = queues
        self._index = index
        self._transactions = transactions

    def dispatch(self, batch: StoredBatch) -> bool:
        """Write the ConsumeQueue unit of ``batch`` (and tell the transaction tracker of a transactional one);
        False when its partition is gone or already has it."""
        queue = self._queues.get((batch.topic_id, batch.partition))
        return queue is not None and self.dispatch_to(queue, batch)

    def dispatch_to(self, queue: ConsumeQueue, batch: StoredBatch) -> bool:
        """``dispatch`` to the ConsumeQueue of ``batch``'s partition, already known (the append path)."""
        if not queue.append(batch):
            return False
        if batch.attributes & TRANSACTIONAL_BIT:
            self._transactions.observe(batch)
        return True

    def start_index(self) -> None:
        if self._index is not None:
            self._index.start()

    def stop_index(self) -> None:
        if self._index is not None:
            self._index.stop()
