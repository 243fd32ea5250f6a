"""The broker's clock: what its own timers consult, real by default, or a :class:`ManualClock` a test moves.

Every broker-side timer reads it: group session timeouts, rebalance and join timeouts and
``group.initial.rebalance.delay.ms``, transaction timeouts and transactional id expiry, producer id
expiry, log retention (``log.retention.check.interval.ms``), the log cleaner's schedule and
``delete.retention.ms``, offsets retention, and SASL session lifetimes (``connections.max.reauth.ms``).
A timer is a handle with ``when()`` and ``cancel()``, as asyncio's are; periodic passes
``await clock.sleep(seconds)``.

What a client waits on stays on real time, because the client's own timers do: a parked fetch's
``fetch.max.wait.ms``, request latency, idle connections (``connections.max.idle.ms``), and shutdown. A
:class:`ManualClock` therefore never stalls a client, and a test moves the broker's timers on with
:meth:`ManualClock.advance` instead of sleeping through them.

The real clock costs what reading the time cost before: ``now_ms`` is ``time.time_ns() // 1_000_000`` and
the timers are the running event loop's own.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Final, Protocol

#: Loop turns given to a callback's consequences (a task woken by a timer runs, then sets its next timer).
SETTLE_TURNS: Final = 8
SETTLE_TIMEOUT_S: Final = 10.0
#: At most this many timers fire in one ``advance`` (a timer re-arming itself with no delay cannot hang it).
MAX_FIRINGS_PER_ADVANCE: Final = 100_000


class Timer(Protocol):
    def when(self) -> float: ...

    def cancel(self) -> None: ...


class Clock(Protocol):
    def now_ms(self) -> int:
        """Wall-clock milliseconds since the epoch (record timestamps, retention, expiry)."""
        ...

    def time(self) -> float:
        """Seconds on the timers' scale (what ``call_at`` takes)."""
        ...

    def call_later(self, delay_s: float, callback: Callable[..., object], *args: Any) -> Timer: ...

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> Timer: ...

    async def sleep(self, seconds: float) -> None: ...


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class RealClock:
    """The system clock and the running event loop's timers (call the timer methods on the loop's thread)."""

    #: A plain function (no bound method): what the store's writer stamps appends with costs what it did before.
    now_ms = staticmethod(wall_clock_ms)

    def time(self) -> float:
        return asyncio.get_running_loop().time()

    def call_later(self, delay_s: float, callback: Callable[..., object], *args: Any) -> Timer:
        return asyncio.get_running_loop().call_later(delay_s, callback, *args)

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> Timer:
        return asyncio.get_running_loop().call_at(when, callback, *args)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


REAL_CLOCK: Final = RealClock()


class ManualTimer:
    """A timer of a :class:`ManualClock`: it fires when ``advance`` reaches its time, on the loop that set it."""

    __slots__ = ("_args", "_callback", "_cancelled", "loop", "not_before_s", "when_ns")

    def __init__(
        self,
        when_ns: int,
        callback: Callable[..., object],
        args: tuple[Any, ...],
        loop: asyncio.AbstractEventLoop | None,
        not_before_s: float = 0.0,
    ) -> None:
        self.when_ns, self._callback, self._args, self.loop = when_ns, callback, args, loop
        self.not_before_s = not_before_s
        self._cancelled = False

    def when(self) -> float:
        return self.when_ns / 1e9

    def cancel(self) -> None:
        self._cancelled = True

    def cancelled(self) -> bool:
        return self._cancelled

    def fire(self) -> None:
        """Run the callback once (not after ``cancel``); what it raises goes to its loop's exception handler, as
        with an asyncio timer."""
        if self._cancelled:
            return
        self._cancelled = True
        try:
            self._callback(*self._args)
        except Exception as exc:
            if self.loop is None:
                raise
            self.loop.call_exception_handler({"message": "exception in a ManualClock timer", "exception": exc})


class ManualClock:
    """Time that moves only when a test says so: ``clock.advance(seconds)``.

    It starts at the real time of its creation (records produced by clients carry real timestamps, so
    retention and compaction lag compare like with like) and fires each timer whose time ``advance`` passes,
    in order, on the event loop that set it. Called from another thread than the broker's (the usual case:
    the test's thread, with the in-process broker on its own), ``advance`` returns once each fired timer has
    run and its loop has had a few turns to act on it, so a periodic pass that re-arms itself within the
    advanced span fires again, as it would have in real time.
    """

    def __init__(self, start_s: float | None = None) -> None:
        # nanoseconds in an int: steps add up exactly (0.05 s twice is 0.1 s), as floats would not
        self._now_ns = time.time_ns() if start_s is None else _ns(start_s)
        self._timers: list[tuple[int, int, ManualTimer]] = []
        self._order = itertools.count()
        self._lock = threading.Lock()

    def now_ms(self) -> int:
        return self._now_ns // 1_000_000

    def time(self) -> float:
        return self._now_ns / 1e9

    def call_later(self, delay_s: float, callback: Callable[..., object], *args: Any) -> Timer:
        return self._call_at_ns(self._now_ns + _ns(delay_s), callback, args)

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> Timer:
        return self._call_at_ns(_ns(when), callback, args, not_before_s=when)

    def _call_at_ns(
        self, when_ns: int, callback: Callable[..., object], args: tuple[Any, ...], not_before_s: float = 0.0
    ) -> Timer:
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        timer = ManualTimer(when_ns, callback, args, loop, not_before_s)
        if loop is not None and when_ns <= self._now_ns and self.time() >= not_before_s:
            loop.call_soon(timer.fire)  # due already (no delay): the loop's next turn, as a real timer
            return timer
        with self._lock:
            heapq.heappush(self._timers, (when_ns, next(self._order), timer))
        return timer

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        timer = self.call_later(seconds, _wake, woken)
        try:
            await woken
        finally:
            timer.cancel()

    def pending(self) -> int:
        """How many timers are set and not fired or cancelled."""
        with self._lock:
            return sum(not timer.cancelled() for _, _, timer in self._timers)

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on, firing every timer due by then (and those they set that fall due too)."""
        if seconds < 0:
            raise ValueError(f"a clock cannot go back: advance({seconds})")
        target = self._now_ns + _ns(seconds)
        for _ in range(MAX_FIRINGS_PER_ADVANCE):
            timer = self._next_due(target)
            if timer is None:
                break
            self._now_ns = max(self._now_ns, timer.when_ns)
            while self.time() < timer.not_before_s:  # a float time given to call_at: never fire before it
                self._now_ns += 1
            _run_on_its_loop(timer)
        self._now_ns = max(self._now_ns, target)

    def _next_due(self, target: int) -> ManualTimer | None:
        with self._lock:
            while self._timers:
                when, _, timer = self._timers[0]
                if timer.cancelled():
                    heapq.heappop(self._timers)
                elif when <= target:
                    heapq.heappop(self._timers)
                    return timer
                else:
                    return None
        return None


def _ns(seconds: float) -> int:
    return round(seconds * 1e9)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _run_on_its_loop(timer: ManualTimer) -> None:
    """Fire ``timer`` on its loop; from another thread, wait until it ran and the loop took a few turns after.
    A timer set outside any loop fires here; one whose loop has stopped (the broker closed) is dropped."""
    loop = timer.loop
    try:
        on_its_loop = asyncio.get_running_loop() is loop
    except RuntimeError:
        on_its_loop = False
    if loop is None or on_its_loop:
        timer.fire()
    elif loop.is_running():
        done: Future[None] = asyncio.run_coroutine_threadsafe(_fire_and_settle(timer), loop)
        done.result(SETTLE_TIMEOUT_S)


async def _fire_and_settle(timer: ManualTimer) -> None:
    timer.fire()
    for _ in range(SETTLE_TURNS):
        await asyncio.sleep(0)
