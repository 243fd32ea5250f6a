"""Parked fetches: futures waiting for an append to any of a set of partitions.

The store calls :meth:`PartitionWaiters.on_append` on the event-loop thread after every append
(appends run there), which completes every future parked on that partition. A fetch parks with
:meth:`wait_for_append` and then reads again; a timeout simply ends the wait. When the broker stops,
:meth:`close` ends every wait at once and later waits end as they begin, so a long-poll fetch that reads
again and finds too little answers with what it has instead of parking for the rest of its wait.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from rockafka.store import AppendResult

PartitionKey = tuple[str, int]


class PartitionWaiters:
    def __init__(self) -> None:
        self._parked: dict[PartitionKey, set[asyncio.Future[bool]]] = {}
        self._closed = False

    def __len__(self) -> int:
        """How many fetches are parked now."""
        return len(set().union(*self._parked.values()))

    def on_append(self, result: AppendResult) -> None:
        for future in self._parked.pop((result.topic, result.partition), ()):
            if not future.done():
                future.set_result(True)

    def parked(self, topic: str, partition: int) -> int:
        """How many fetches wait on the partition now."""
        return len(self._parked.get((topic, partition), ()))

    def wake(self, topic: str, partition: int) -> None:
        """Wake the fetches parked on the partition, as an append does."""
        for future in self._parked.pop((topic, partition), ()):
            if not future.done():
                future.set_result(True)

    async def wait_for_append(self, partitions: Iterable[PartitionKey], timeout_s: float) -> bool:
        """Wait until one of ``partitions`` gets an append, or ``timeout_s`` passes; True if woken by an append.

        One future and one timer per wait (no ``asyncio.wait_for``: its extra future, callbacks and loop
        lookups were a visible share of a low-latency consumer's fetches). After :meth:`close`, False at once."""
        if self._closed:
            return False
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        keys = list(partitions)
        for key in keys:
            self._parked.setdefault(key, set()).add(future)
        timer = loop.call_later(timeout_s, _time_up, future)
        try:
            return await future
        finally:
            timer.cancel()
            for key in keys:
                parked = self._parked.get(key)
                if parked is not None:
                    parked.discard(future)
                    if not parked:
                        del self._parked[key]

    def wake_all(self) -> None:
        """Wake every parked fetch to read again (a group leader's high watermark moved without an append)."""
        parked, self._parked = self._parked, {}
        for futures in parked.values():
            for future in futures:
                if not future.done():
                    future.set_result(True)

    def close(self) -> None:
        """End every wait, now and later, as if its time were up (shutdown: parked fetches answer at once)."""
        self._closed = True
        parked, self._parked = self._parked, {}
        for futures in parked.values():
            for future in futures:
                _time_up(future)


def _time_up(future: asyncio.Future[bool]) -> None:
    if not future.done():
        future.set_result(False)
