"""``ClusterRoles``: a member of a replicated group in a cluster plays the part etcd gives it, snapshot by snapshot.

Built by ``BrokerApp`` once the broker joined its cluster, before the ``ClusterTopology``: its view listener
runs first, so by the time the topology hands this broker partitions to lead (and the coordinators replay
``__consumer_offsets`` and ``__transaction_state`` from the store) the store has stopped copying and takes
appends. The part is ``cluster/replication/roles.py``'s ``role_in``; each change of part is a synchronous step in
the listener (what must hold before the next request is served) and an asynchronous one after it (sockets),
the asynchronous steps run one after another:

- **Promotion** (etcd names this follower leader: the old leader's lease expired): the copying task is cancelled
  at once (appends run between its awaits, so none follows), the store leaves follow mode
  (``store.replica.lead()``; its log ends at a record boundary, as ``append_copied`` stores whole records only),
  ``promoted`` is called (the broker rebuilds its idempotent producers' state from the copied log: copied appends
  do not record it), and a ``ReplicationLeader`` takes acks=all from then on; then it listens for followers.
  The topology begins the group's new epoch in the store (``store.epochs.begin``) on the same snapshot and, no
  longer following, mirrors etcd's topics again.
- **Demotion** (another member leads, at a newer epoch: this leader was paused or cut off past its lease): the
  topology stops leading its partitions on the same snapshot; the store takes no appends of its own
  (``store.replica.follow()``) and its reads stop at the confirm offset its follower knows (Fetch serves consumers
  from a follower, KIP-392: never past the leader's high watermark); the leader stops (acks=all still waiting is
  answered NOT_LEADER_OR_FOLLOWER) and this broker follows the new leader. When the handshake says its log parts
  from the leader's (an unreplicated tail), a live store cannot be cut: ``restart`` is called, and ``BrokerApp``
  stops and starts again in this process, which handshakes before it serves and reopens the store cut back
  (``MessageStore.open(truncate_to=)``).
- **Another leader to follow**: the copying task is cancelled and a new one follows the new address.

While following, a task replays the newly copied batches into the idempotent producers' tables every
``KEEP_UP_S`` (``ProducerService.keep_up``), so the promotion's ``promoted`` replays only the tail since the last
pass instead of the whole log (which held a promoted broker's loop 0.3-2 s in ``bench.failover``).

A member with no part yet (a new group) takes the first one etcd names. Threads: the broker loop thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Final, Protocol

from rockafka.cluster import ClusterError, GroupState
from rockafka.cluster.group_writes import LogEndPublisher, keep_leader_in_etcd
from rockafka.cluster.member import ClusterMember
from rockafka.cluster.replication.follower import ReplicationFollower
from rockafka.cluster.replication.leader import ReplicationLeader
from rockafka.cluster.replication.roles import Role, role_in
from rockafka.cluster.snapshot import ClusterSnapshot
from rockafka.cluster.tasks import cancel_and_wait
from rockafka.cluster.view import RETRY_FIRST_S, RETRY_MAX_S, ClusterView
from rockafka.store import MessageStore, StoreError

from . import replication as replicated
from .config import BrokerConfig

log = logging.getLogger(__name__)

#: How often a follower replays its newly copied batches into its idempotent producers' tables.
KEEP_UP_S: Final = 1.0


class FollowedProducers(Protocol):
    """The idempotent producers' state a follower keeps (``ProducerService``)."""

    def follow(self) -> None: ...

    async def keep_up(self) -> int: ...


class ClusterRoles:
    """Plays ``role_in(snapshot)`` for one broker (see the module docstring)."""

    def __init__(
        self,
        replication: replicated.Replication,
        config: BrokerConfig,
        store: MessageStore,
        group: str,
        wake_fetches: Callable[[], None],
        restart: Callable[[str], None],
        promoted: Callable[[], None],
        duties: EtcdDuties | None = None,
        producers: FollowedProducers | None = None,
    ) -> None:
        self._replication = replication
        self._config = config
        self._store = store
        self._group = group
        self._wake_fetches = wake_fetches
        self._restart = restart
        self._promoted = promoted
        self._duties = duties
        self._producers = producers
        self._keeping: asyncio.Task[None] | None = None  # the producers' tables kept up while following
        self._kept_epoch: int | None = None  # the leadership whose in-sync set this broker keeps in etcd
        self._source: tuple[str, int] | None = None  # the address followed now, if any
        self._steps: asyncio.Task[None] | None = None
        follower = replication.follower
        if follower is not None:
            self._source = follower.address
            follower.on_diverged = self._diverged
            follower.on_confirm = wake_fetches

    def attach(self, view: ClusterView) -> None:
        """Play the part the current snapshot gives, and every later one's."""
        self._changed(ClusterSnapshot(), view.snapshot)
        view.add_listener(self._changed)
        if self._replication.follower is not None and self._keeping is None:
            self._keep_producers_up()

    async def stop(self) -> None:
        self._stop_keeping()
        steps, self._steps = self._steps, None
        if steps is not None:
            with contextlib.suppress(Exception):
                await cancel_and_wait(steps)
        if self._duties is not None:
            await self._duties.stop()

    def _changed(self, _old: ClusterSnapshot, new: ClusterSnapshot) -> None:
        role = role_in(new, self._config.node_id, self._group)
        if self._duties is not None:
            self._duties.publish_log_end(new, self._store.replica.end, self._store.epochs.current)
        if role is None:
            return
        if role.leads and self._replication.leader is None:
            self._promote(role)
        elif not role.leads and role.source != self._source:
            self._follow(role)
        leader = self._replication.leader
        if role.leads and leader is not None and self._duties is not None and self._kept_epoch != role.epoch:
            self._kept_epoch = role.epoch  # every election this broker wins: the set starts over in etcd
            self._duties.lead(leader, new.groups[self._group])

    def _promote(self, role: Role) -> None:
        replication, store = self._replication, self._store
        follower, replication.follower, self._source = replication.follower, None, None
        if follower is not None:
            follower.cancel()
            log.warning("group %s: this broker leads now (epoch %d): it stops following at offset %d", self._group,
                        role.epoch, store.replica.end)  # fmt: skip
        store.replica.lead()
        store.records.set_confirmed(None)  # the follower's hold on reads: the new leader's in-sync set sets its own
        self._stop_keeping()
        if follower is not None:
            self._promoted()
        leader = replication.leader = replicated.new_leader(self._config, store, self._wake_fetches)

        async def start() -> None:
            if follower is not None:
                await follower.stop()
            if replication.leader is leader:
                try:
                    await replicated.listen(leader, self._config)
                except replicated.ReplicationSetupError as exc:
                    log.error("group %s: %s", self._group, exc)

        self._then(start)

    def _follow(self, role: Role) -> None:
        replication, store = self._replication, self._store
        assert role.source is not None
        leader, replication.leader = replication.leader, None
        follower, replication.follower = replication.follower, None
        if leader is not None:
            log.warning("group %s: node %d leads at epoch %d: this broker stops leading and follows it", self._group,
                        role.leader, role.epoch)  # fmt: skip
        if follower is not None:
            follower.cancel()
        store.replica.follow()
        store.records.set_confirmed(0 if follower is None else follower.confirm_offset)  # what the leader confirmed
        self._source = role.source
        fresh = replication.follower = ReplicationFollower(
            self._config.node_id, *role.source, silence_ms=self._config.int("replica.lag.time.max.ms")
        )
        if follower is not None:  # a new leader was in sync: it holds what the last one confirmed
            fresh.confirm_offset = follower.confirm_offset
        fresh.on_diverged = self._diverged
        fresh.on_confirm = self._wake_fetches
        self._keep_producers_up()

        async def start() -> None:
            if leader is not None:
                await leader.stop()
            if follower is not None:
                await follower.stop()
            if replication.follower is fresh:
                fresh.follow(store, None)

        self._then(start)

    def _keep_producers_up(self) -> None:
        """While following: the idempotent producers' tables kept up with the copied log every ``KEEP_UP_S``, so
        that a promotion replays only the tail since the last pass (copied appends record nothing)."""
        producers = self._producers
        if producers is None:
            return
        self._stop_keeping()
        producers.follow()

        async def keep_up() -> None:
            while True:
                try:
                    await producers.keep_up()
                except StoreError as exc:
                    log.warning("group %s: cannot keep the producers' state up with the log: %s", self._group, exc)
                await asyncio.sleep(KEEP_UP_S)

        self._keeping = asyncio.get_running_loop().create_task(keep_up(), name="rockafka-producers-keep-up")

    def _stop_keeping(self) -> None:
        keeping, self._keeping = self._keeping, None
        if keeping is not None:
            keeping.cancel()

    def _diverged(self, offset: int) -> None:
        self._restart(
            f"this log parts from the leader's at offset {offset} (it ends at {self._store.replica.end}): restarting "
            "to cut it back and follow"
        )

    def _then(self, step: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run ``step()`` after the steps scheduled before it."""
        previous = self._steps

        async def run() -> None:
            if previous is not None:
                await asyncio.gather(previous, return_exceptions=True)
            await step()

        self._steps = asyncio.get_running_loop().create_task(run(), name="rockafka-replication-role")


class EtcdDuties:
    """What a member of a replicated group writes to etcd (``cluster/group_writes.py``): as leader, its in-sync set
    (a shrink before the confirm offset passes the follower dropped) and its followers' lag, from every election it
    wins; as any member, its log end while the group has no live leader (what an unclean election compares)."""

    def __init__(self, member: ClusterMember, group: str) -> None:
        assert member.metadata is not None, "the member has started"
        self._member = member
        self._etcd = member.metadata.etcd
        self._publisher = LogEndPublisher(self._etcd, member.layout, member.settings.node_id, group, self._lease)
        self._publishing: asyncio.Task[None] | None = None

    def _lease(self) -> int:
        return self._member.lease_id

    def lead(self, leader: ReplicationLeader, state: GroupState) -> None:
        keep_leader_in_etcd(leader, self._etcd, self._member.layout, state, self._lease)

    def publish_log_end(self, snapshot: ClusterSnapshot, end: int, epoch: int) -> None:
        """Publish (or withdraw) this member's log end if the snapshot calls for it; one write at a time."""
        publisher = self._publisher
        state = snapshot.groups.get(publisher.group)
        leaderless = state is None or state.leader not in snapshot.brokers
        if not leaderless and publisher.node_id not in snapshot.log_ends:
            return  # the usual case: a group with a leader, nothing of ours published
        previous = self._publishing

        async def publish() -> None:
            if previous is not None:
                await asyncio.gather(previous, return_exceptions=True)
            pause = RETRY_FIRST_S
            while self._publishing is asyncio.current_task():  # a later snapshot's publication supersedes this one
                try:
                    await publisher.update(snapshot, end, epoch)
                    return
                except ClusterError as exc:
                    if pause == RETRY_FIRST_S:  # once per outage
                        log.warning("group %s: cannot publish this member's log end (trying on): %s",
                                    publisher.group, exc)  # fmt: skip
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MAX_S)

        self._publishing = asyncio.get_running_loop().create_task(publish(), name="rockafka-log-end")

    async def stop(self) -> None:
        publishing, self._publishing = self._publishing, None
        if publishing is not None:
            await cancel_and_wait(publishing)
