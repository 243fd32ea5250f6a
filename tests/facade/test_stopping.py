"""``stop_within``: a part whose stop does not end (a task that swallowed its cancel, as a ``grpc.aio`` call does)
no longer holds the broker's stop for ever; the ERROR names the task still waiting and where."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from rockafka.facade.stopping import stop_within


async def _swallows_its_cancel() -> None:
    for _ in range(100):  # bounded: 100 cancels swallowed at most
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(60)


def test_a_stop_that_never_ends_is_left_after_the_bound_and_named(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        stuck = asyncio.get_running_loop().create_task(_swallows_its_cancel(), name="stuck-etcd-call")

        async def stop() -> None:
            stuck.cancel()
            await stuck  # the cancel was swallowed: this waits on

        await asyncio.wait_for(stop_within("the stuck part", stop(), timeout_s=0.3), timeout=10)
        assert not stuck.done()
        for _ in range(100):
            stuck.cancel()
            await asyncio.sleep(0)
            if stuck.done():
                break

    with caplog.at_level("ERROR", logger="rockafka.facade.stopping"):
        asyncio.run(scenario())
    assert "the stuck part did not stop within 0.3 s" in caplog.text
    assert "stuck-etcd-call (" in caplog.text and "test_stopping.py" in caplog.text


def test_a_stop_that_ends_in_time_is_awaited_and_its_error_raised() -> None:
    async def failing() -> None:
        await asyncio.sleep(0.01)
        raise RuntimeError("stop failed")

    async def scenario() -> None:
        await stop_within("a quick part", asyncio.sleep(0.01), timeout_s=5)
        with pytest.raises(RuntimeError, match="stop failed"):
            await stop_within("a failing part", failing(), timeout_s=5)

    asyncio.run(scenario())
