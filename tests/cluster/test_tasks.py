"""``cancel_and_wait`` against a task that swallows a cancel, as ``grpc.aio`` does when a call's answer is in as the
cancel lands (the call returns its answer, and the coroutine awaiting it runs on)."""

from __future__ import annotations

import asyncio

import pytest

from rockafka.cluster.tasks import cancel_and_wait


async def _swallows_one_cancel(swallowed: list[int]) -> None:
    """A loop like the member's duties: each turn waits for a wake-up that never comes; the first cancel is taken
    for an answer."""
    never = asyncio.Event()
    while True:
        try:
            await never.wait()
        except asyncio.CancelledError:
            if swallowed:
                raise
            swallowed.append(1)


def test_a_task_that_swallowed_a_cancel_is_cancelled_again_and_ends() -> None:
    async def scenario() -> None:
        swallowed: list[int] = []
        task = asyncio.create_task(_swallows_one_cancel(swallowed))
        await asyncio.sleep(0)
        await asyncio.wait_for(cancel_and_wait(task), 10)
        assert swallowed == [1] and task.cancelled()

    asyncio.run(scenario())


def test_what_the_task_raised_is_raised() -> None:
    async def fails() -> None:
        raise ValueError("broken")

    async def scenario() -> None:
        task = asyncio.create_task(fails())
        await asyncio.sleep(0)
        with pytest.raises(ValueError, match="broken"):
            await cancel_and_wait(task)

    asyncio.run(scenario())
