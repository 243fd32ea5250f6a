"""Topic changes that may finish later: the one place the admin handlers wait for a cluster's metadata.

``ctx.broker.topology`` creates, grows and deletes topics. On a single broker it does so at once and returns
the :class:`TopicInfo`; in a cluster it returns an awaitable that finishes once etcd took the change and
this broker's store mirrors it. A handler hands each outcome to :meth:`TopicChanges.add` with a function
that fills that topic's result (from the new ``TopicInfo``, or from the ``ApiError`` it failed with), then
returns :meth:`TopicChanges.answer`: the response itself when nothing is pending, else an awaitable of it.
A change of other cluster metadata (the cluster-wide broker default configs) joins with :meth:`TopicChanges.add_other`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from rockafka.store import TopicInfo

from .context import ApiError

R = TypeVar("R")
Settle = Callable[[TopicInfo | ApiError], None]


class TopicChanges:
    """The topic changes of one admin request still being taken by the cluster's metadata."""

    def __init__(self) -> None:
        self._pending: list[tuple[Awaitable[Any], Callable[[Any], None]]] = []

    def add(self, outcome: TopicInfo | Awaitable[TopicInfo], settle: Settle) -> None:
        if isinstance(outcome, TopicInfo):
            settle(outcome)
        else:
            self._pending.append((outcome, settle))

    def add_other(self, outcome: Awaitable[None], failed: Callable[[ApiError], None]) -> None:
        """A change that is not a topic's: ``failed`` is called only if it ends in an ``ApiError``."""

        def settle(done: object) -> None:
            if isinstance(done, ApiError):
                failed(done)

        self._pending.append((outcome, settle))

    def answer(self, response: R) -> R | Awaitable[R]:
        return self._settled(response) if self._pending else response

    async def _settled(self, response: R) -> R:
        for outcome, settle in self._pending:
            try:
                settle(await outcome)
            except ApiError as exc:
                settle(exc)
        return response
