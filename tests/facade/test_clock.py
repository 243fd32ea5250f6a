"""The broker's clock: ``ManualClock`` fires timers when advanced, in order, on the loop that set them."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

from rockafka.facade.clock import REAL_CLOCK, ManualClock, wall_clock_ms


@pytest.fixture
def loop_thread() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running on its own thread, as the in-process test broker's does."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield loop
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def test_timers_fire_in_order_when_advanced_past_them() -> None:
    clock = ManualClock(start_s=1000.0)
    fired: list[tuple[str, float]] = []
    clock.call_later(5, lambda: fired.append(("five", clock.time())))
    clock.call_at(1002.0, lambda: fired.append(("two", clock.time())))
    cancelled = clock.call_later(1, lambda: fired.append(("cancelled", clock.time())))
    cancelled.cancel()
    clock.advance(4)
    assert fired == [("two", 1002.0)]
    assert clock.now_ms() == 1_004_000
    clock.advance(1)
    assert fired == [("two", 1002.0), ("five", 1005.0)]
    assert clock.pending() == 0


def test_a_clock_cannot_go_back() -> None:
    with pytest.raises(ValueError, match="cannot go back"):
        ManualClock().advance(-1)


def test_a_periodic_sleeper_on_another_thread_runs_once_per_period_advanced(
    loop_thread: asyncio.AbstractEventLoop,
) -> None:
    clock = ManualClock(start_s=0.0)
    passes: list[float] = []

    async def every_ten_seconds() -> None:
        while True:
            await clock.sleep(10)
            passes.append(clock.time())

    task = asyncio.run_coroutine_threadsafe(every_ten_seconds(), loop_thread)
    asyncio.run_coroutine_threadsafe(asyncio.sleep(0), loop_thread).result(10)  # the task has set its timer
    clock.advance(9)
    assert passes == []
    clock.advance(26)
    assert passes == [10.0, 20.0, 30.0]  # each pass re-armed within the span and fired again
    assert clock.time() == 35.0
    task.cancel()


def test_a_cancelled_sleep_leaves_no_timer(loop_thread: asyncio.AbstractEventLoop) -> None:
    clock = ManualClock()

    async def sleep_then_cancelled() -> None:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(clock.sleep(60), 0.01)

    asyncio.run_coroutine_threadsafe(sleep_then_cancelled(), loop_thread).result(10)
    assert clock.pending() == 0


def test_the_real_clock_uses_the_running_loop() -> None:
    async def scenario() -> list[str]:
        fired: list[str] = []
        timer = REAL_CLOCK.call_later(0, fired.append, "now")
        await REAL_CLOCK.sleep(0.01)
        assert timer.when() <= REAL_CLOCK.time() <= asyncio.get_running_loop().time()  # the loop's own clock
        return fired

    assert asyncio.run(scenario()) == ["now"]
    assert REAL_CLOCK.now_ms is wall_clock_ms  # what the writer stamps appends with: a plain function, as before


def test_a_timer_due_already_fires_at_the_next_turn_without_an_advance() -> None:
    async def scenario() -> list[str]:
        clock = ManualClock()
        fired: list[str] = []
        clock.call_later(0, fired.append, "now")
        clock.call_later(0, fired.append, "cancelled").cancel()
        clock.call_later(0.001, fired.append, "later")
        await asyncio.sleep(0)
        await clock.sleep(0)
        return fired

    assert asyncio.run(scenario()) == ["now"]


def test_a_failing_timer_goes_to_its_loops_exception_handler(loop_thread: asyncio.AbstractEventLoop) -> None:
    clock = ManualClock()
    reported: list[str] = []
    loop_thread.call_soon_threadsafe(
        loop_thread.set_exception_handler, lambda loop, context: reported.append(str(context["exception"]))
    )

    async def arm() -> None:
        clock.call_later(1, lambda: 1 / 0)

    asyncio.run_coroutine_threadsafe(arm(), loop_thread).result(10)
    clock.advance(1)  # does not raise here: the loop's handler is told, as for an asyncio timer
    assert reported == ["division by zero"]
