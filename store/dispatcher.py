"""The dispatcher: the one path from the CommitLog to the derived data (RocketMQ's CommitLogDispatcher).

ConsumeQueue units are dispatched synchronously, on the appending thread, before the CommitLog's write
position is published, so a batch is readable the moment ``append`` returns. IndexFile entries are
dispatched asynchronously by the index thread (``IndexService``), which follows the published CommitLog.
Recovery re-dispatches the CommitLog tail through ``dispatch`` and restarts the index thread where the
surviving IndexFiles end; both writers skip what they already hold, so re-dispatch is idempotent.
"""

from __future__ import annotations

from collections.abc import Mapping

from .commitlog import StoredBatch
from .consumequeue import ConsumeQueue
from .indexservice import IndexService


class Dispatcher:
    def __init__(self, queues: Mapping[tuple[bytes, int], ConsumeQueue], index: IndexService | None) -> None:
        self._queues = queues
        self._index = index

    def dispatch(self, batch: StoredBatch) -> bool:
        """Write the ConsumeQueue unit of ``batch``; False when its partition is gone or already has it."""
        queue = self._queues.get((batch.topic_id, batch.partition))
        if queue is None or not queue.append(batch):
            return False
        if self._index is not None:
            self._index.offer(batch)
        return True

    def start_index(self) -> None:
        if self._index is not None:
            self._index.start()

    def stop_index(self) -> None:
        if self._index is not None:
            self._index.stop()
