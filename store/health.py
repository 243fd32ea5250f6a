"""``StoreHealth``: whether the store may be used, and the one channel by which its threads report a failure.

Owns: the closed flag, the store's failure (the first ``OSError`` or other exception that took it offline),
and the translation of an ``OSError`` raised by a call into the store's errors (``guarded``): a full file
system is ``StorageFullError`` and the store stays online (``space.py``); any other ``OSError`` is
``StorageError`` and takes the store offline, after which every guarded call raises ``StorageError``.

Threads: the store's own threads (the flusher) never touch the state; they hand a failure to the loop by
``report``, which only puts it on a queue. The event loop thread, which makes every guarded call, takes what
was reported on its next ``check`` and from then on is the one reader and writer of the state. Every service
the broker calls holds this object (never the facade) and guards its public methods with ``guarded``.
"""

from __future__ import annotations

import functools
import logging
import queue
from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from .errors import StorageError, StoreClosedError
from .space import FreeSpace

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")


class StoreHealth:
    def __init__(self, space: FreeSpace) -> None:
        self.space = space
        self.closed = False
        self.failure: BaseException | None = None
        self._reports: queue.SimpleQueue[BaseException] = queue.SimpleQueue()

    def report(self, exc: BaseException) -> None:
        """Any thread: the store failed (the flusher's ``on_error``). The loop takes it on its next call."""
        self._reports.put(exc)

    def check(self) -> None:
        """The loop thread, before each call: raise if the store is closed or offline."""
        if self.closed or self.failure is not None or not self._reports.empty():
            self._refuse()

    def _refuse(self) -> None:
        self.failed()
        if self.closed:
            raise StoreClosedError("the store is closed")
        if self.failure is not None:
            raise StorageError(f"the store is offline after an I/O error: {self.failure}")

    def failed(self) -> bool:
        """The loop thread: whether the store went offline (taking anything reported meanwhile)."""
        while self.failure is None and not self._reports.empty():
            self._take_offline(self._reports.get_nowait())
        return self.failure is not None

    def _take_offline(self, exc: BaseException) -> None:
        self.failure = exc
        log.error("the store is offline: %s; every request that needs it fails until a restart", exc)

    def go_offline(self, exc: OSError) -> StorageError:
        """The loop thread: an I/O error takes the store offline (the first one is kept); the error to raise."""
        if not self.failed():
            self._take_offline(exc)
        return StorageError(f"I/O error, the store is offline: {exc}")

    def translate(self, exc: OSError) -> StorageError:
        """The store's error for an ``OSError`` a call raised: full (online) or offline."""
        if self.space.out_of_space(exc):
            return self.space.fill(str(exc))
        return self.go_offline(exc)


class Guarded(Protocol):
    """A service whose public methods are ``guarded``."""

    _health: StoreHealth


S = TypeVar("S", bound=Guarded)


def guarded(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """Refuse calls on a closed or offline store; turn an ``OSError`` into the store's error, once."""

    @functools.wraps(method)
    def call(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        health = self._health
        health.check()
        try:
            return method(self, *args, **kwargs)
        except OSError as exc:
            raise health.translate(exc) from exc

    return call
