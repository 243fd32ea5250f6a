"""Parked fetches: woken by an append to one of their partitions, or by their timeout, and never left behind."""

from __future__ import annotations

import asyncio
import time

from rockafka.facade.waiters import PartitionWaiters
from rockafka.store import AppendResult


def appended(topic: str, partition: int) -> AppendResult:
    return AppendResult(topic, partition, 0, 0, None, 0, 1, None)


def test_an_append_to_a_parked_partition_wakes_it_at_once() -> None:
    async def scenario() -> tuple[bool, float, PartitionWaiters]:
        waiters = PartitionWaiters()
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, waiters.on_append, appended("other", 0))  # not parked there: no effect
        loop.call_later(0.1, waiters.on_append, appended("t", 1))
        started = time.monotonic()
        woken = await waiters.wait_for_append([("t", 0), ("t", 1)], 10.0)
        return woken, time.monotonic() - started, waiters

    woken, waited, waiters = asyncio.run(scenario())
    assert woken and 0.09 <= waited < 5.0
    assert not waiters._parked, "the wait leaves nothing parked on any of its partitions"


def test_the_timeout_ends_the_wait_unwoken() -> None:
    async def scenario() -> tuple[bool, float, PartitionWaiters]:
        waiters = PartitionWaiters()
        started = time.monotonic()
        woken = await waiters.wait_for_append([("t", 0)], 0.1)
        return woken, time.monotonic() - started, waiters

    woken, waited, waiters = asyncio.run(scenario())
    assert not woken and waited >= 0.09
    assert not waiters._parked


def test_a_cancelled_wait_is_unparked_and_close_ends_the_rest_and_every_later_wait() -> None:
    async def scenario() -> tuple[list[bool], PartitionWaiters]:
        waiters = PartitionWaiters()
        cancelled = asyncio.ensure_future(waiters.wait_for_append([("t", 0)], 10.0))
        kept = asyncio.ensure_future(waiters.wait_for_append([("t", 0), ("u", 0)], 10.0))
        await asyncio.sleep(0)  # both park
        assert waiters.parked("t", 0) == 2
        cancelled.cancel()
        await asyncio.sleep(0)
        assert waiters.parked("t", 0) == 1 and waiters.parked("u", 0) == 1
        waiters.close()
        later = asyncio.ensure_future(waiters.wait_for_append([("t", 0)], 10.0))
        await asyncio.sleep(0)
        assert later.done() and not waiters._parked  # ended as it began: never parked
        return [await kept, await later], waiters

    results, waiters = asyncio.run(scenario())
    assert results == [False, False]
    assert not waiters._parked


def test_wake_all_wakes_every_parked_fetch_as_woken() -> None:
    """A group leader's high watermark moved without an append: every parked fetch reads again (True)."""

    async def scenario() -> tuple[list[bool], PartitionWaiters]:
        waiters = PartitionWaiters()
        parked = [asyncio.create_task(waiters.wait_for_append([("t", p)], 30)) for p in range(3)]
        for _ in range(100):
            if len(waiters) == 3:
                break
            await asyncio.sleep(0)
        waiters.wake_all()
        return list(await asyncio.gather(*parked)), waiters

    woken, waiters = asyncio.run(scenario())
    assert woken == [True, True, True]
    assert not waiters._parked
