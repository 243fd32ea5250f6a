"""A broker's live view of the cluster: one range read of the prefix, then one watch from the next revision.

``ClusterView.snapshot`` is the current :class:`ClusterSnapshot`; the watch task replaces it after every
event (never polls) and then calls each listener with (old, new). Listeners run on the event loop and must
not block; they are how a broker mirrors topics into its store and wakes its controller duty.
``wait_for(predicate)`` lets callers (admin handlers, tests) wait until a change they made is seen.

etcd lost: the watch fails (``failure`` says why) and the broker serves on from its last snapshot. The view
tries again after ``RETRY_FIRST_S``, doubling up to ``RETRY_MAX_S``; once etcd answers, it reads the whole
prefix again (changes made meanwhile, or compacted away, are in that read), publishes it, and watches from
the next revision. The same happens when the watch's connection is replaced (another request failed and
connected again): the watch fails rather than ends, and any other exception from below is logged and taken as
a lost watch, so the task never dies and leaves the broker on a snapshot that no longer changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Final

from .errors import ClusterError
from .etcd import Etcd
from .layout import KeyLayout
from .snapshot import ClusterSnapshot, snapshot_from_keys
from .tasks import cancel_and_wait

log = logging.getLogger(__name__)

#: The first pause before watching again after etcd was lost, and the longest (doubling in between).
RETRY_FIRST_S: Final = 0.2
RETRY_MAX_S: Final = 2.0

Listener = Callable[[ClusterSnapshot, ClusterSnapshot], None]


class ClusterView:
    """The snapshot of one cluster, kept current by a watch."""

    def __init__(self, etcd: Etcd, layout: KeyLayout) -> None:
        self._etcd = etcd
        self.layout = layout
        self.snapshot = ClusterSnapshot()
        self._listeners: list[Listener] = []
        self._changed = asyncio.Condition()
        self._task: asyncio.Task[None] | None = None
        self.failure: ClusterError | None = None

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def start(self) -> ClusterSnapshot:
        """Read everything under the prefix, start watching from the next revision; the first snapshot."""
        revision = await self._read_all()
        self._task = asyncio.create_task(self._follow(revision + 1), name="rockafka-cluster-watch")
        return self.snapshot

    async def _read_all(self) -> int:
        """Publish a snapshot of everything under the prefix; the revision it was read at."""
        entries, revision = await self._etcd.get_prefix(self.layout.prefix)
        self._publish(snapshot_from_keys(self.layout, ((e.key, e.value) for e in entries), revision))
        await self._notify()
        return revision

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            await cancel_and_wait(task)  # a read swallows a cancel that lands as its answer is in

    async def wait_for(self, predicate: Callable[[ClusterSnapshot], bool], timeout_s: float) -> ClusterSnapshot:
        """The first snapshot for which ``predicate`` holds (TimeoutError after ``timeout_s``)."""
        async with asyncio.timeout(timeout_s), self._changed:
            await self._changed.wait_for(lambda: predicate(self.snapshot))
        return self.snapshot

    async def _follow(self, start_revision: int) -> None:
        """Watch until stopped; when etcd is lost, read everything again once it answers and watch anew."""
        pause = RETRY_FIRST_S
        while True:
            try:
                if self.failure is not None:
                    start_revision = await self._read_all() + 1
                    log.warning("cluster metadata watch re-established at revision %d", start_revision)
                    self.failure = None
                    pause = RETRY_FIRST_S
                async for change in self._etcd.watch_prefix(self.layout.prefix, start_revision):
                    self._publish(self.snapshot.with_change(self.layout, change.key, change.value, change.revision))
                    start_revision = change.revision + 1
                    await self._notify()
            except ClusterError as exc:
                if self.failure is None:
                    log.error("cluster metadata watch lost (serving on from the last snapshot): %s", exc)
                self.failure = exc
            except Exception as exc:  # a fault below (the etcd client's) must not end the watch for good
                log.exception("cluster metadata watch failed (serving on from the last snapshot)")
                self.failure = ClusterError(f"the watch failed: {type(exc).__name__} {exc}")
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_MAX_S)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    def _publish(self, new: ClusterSnapshot) -> None:
        old, self.snapshot = self.snapshot, new
        for listener in self._listeners:
            try:
                listener(old, new)
            except Exception:
                log.exception("cluster view listener %r failed", listener)
