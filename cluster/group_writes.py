"""What a group's members write to etcd besides their registration (keys: ``layout.py``).

- :class:`InSyncWriter`: the group leader's in-sync set, ``in_sync`` of ``groups/<group>``. Built for one
  leadership (node id and epoch); each write reads the key, refuses to write unless it still names this leader
  at this epoch (:class:`FencedLeaderError`: a deposed leader learns it), and puts the new set compared at the
  ``mod_revision`` read, so a controller's election that lands in between wins and the leader's write fails
  fenced on the next read. It is the awaited hook of ``ReplicationLeader`` (``replication/leader.py``): a
  shrink is written before the confirm offset moves on without the members dropped.
- :class:`LagReporter`: the leader's log end, confirm offset and its followers' ends (``replica_lag/<group>``, under
  the leader's lease), for ``rockafka cluster status``; the leader calls it at most every
  ``replication.leader.LAG_REPORT_S`` seconds, and only when something changed.
- :func:`publish_log_end` (:class:`LogEndPublisher` decides when): a member of a leaderless group says where
  its log ends (``log_ends/<node id>``, under its lease), so the controller can elect the most advanced when
  unclean election is enabled.

Wiring, one call each: :func:`keep_leader_in_etcd` when this broker wins its group's election (each epoch), and
``LogEndPublisher.update`` from the member's view listener.

None of these runs on the produce path: the in-sync set changes when a follower joins or leaves, the lag
report on a timer, the log end only while the group has no leader.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection, Mapping
from types import MappingProxyType
from typing import Final

from .errors import ConcurrentChangeError, FencedLeaderError
from .etcd import Etcd
from .layout import (
    GroupState,
    KeyLayout,
    LogEnd,
    ReplicaLag,
    decode_group,
    encode_group,
    encode_log_end,
    encode_replica_lag,
)
from .replication.leader import ReplicationLeader
from .snapshot import ClusterSnapshot

log = logging.getLogger(__name__)

#: Compare-and-swap attempts an in-sync write makes when only the key's revision moved (not its leader).
SWAP_ATTEMPTS: Final = 5


class InSyncWriter:
    """Writes the in-sync set of ``group`` for its leader ``node_id`` at ``epoch``: ``await writer(followers)``."""

    def __init__(self, etcd: Etcd, layout: KeyLayout, group: str, node_id: int, epoch: int) -> None:
        self._etcd = etcd
        self._key = layout.group(group)
        self.group = group
        self.node_id = node_id
        self.epoch = epoch

    async def __call__(self, followers: Collection[int]) -> None:
        """Make etcd's in-sync set this leader and ``followers``. Raises FencedLeaderError when etcd names another
        leader or epoch, ConcurrentChangeError after ``SWAP_ATTEMPTS`` lost swaps, EtcdUnavailableError."""
        wanted = tuple(sorted({self.node_id, *followers}))
        txn = self._etcd.txn
        for _ in range(SWAP_ATTEMPTS):
            entry = await self._etcd.get(self._key)
            current = None if entry is None else decode_group(self.group, entry.value)
            if current is None or (current.leader, current.epoch) != (self.node_id, self.epoch):
                named = "nothing" if current is None else f"leader {current.leader} at epoch {current.epoch}"
                raise FencedLeaderError(f"group {self.group}: etcd names {named}, not node {self.node_id} at epoch "
                                        f"{self.epoch}; its in-sync set is not written")  # fmt: skip
            if current.in_sync == wanted:
                return
            assert entry is not None
            state = GroupState(self.group, self.node_id, self.epoch, wanted)
            same = txn.mod(self._key) == entry.mod_revision
            if await self._etcd.swap([same], [txn.put(self._key, encode_group(state))]):
                log.info("group %s: in-sync set %s (was %s)", self.group, list(wanted), list(current.in_sync))
                return
        raise ConcurrentChangeError(f"group {self.group}: the in-sync set lost {SWAP_ATTEMPTS} swaps in a row")


class LagReporter:
    """Puts ``replica_lag/<group>`` under the leader's lease: ``await reporter(end, confirm, ends)``."""

    def __init__(self, etcd: Etcd, layout: KeyLayout, group: str, lease: Callable[[], int]) -> None:
        self._etcd = etcd
        self._key = layout.replica_lag(group)
        self.group = group
        self._lease = lease  # the member's current lease (it takes a new one after its lease expired)

    async def __call__(self, end: int, confirm: int, ends: Mapping[int, int]) -> None:
        lag = ReplicaLag(self.group, end, confirm, MappingProxyType(dict(ends)), int(time.time() * 1000))
        txn = self._etcd.txn
        await self._etcd.swap([], [txn.put(self._key, encode_replica_lag(lag), lease=self._lease())])


async def publish_log_end(etcd: Etcd, layout: KeyLayout, end: LogEnd, lease_id: int) -> None:
    """Put ``log_ends/<node id>`` under the member's lease (a member of a leaderless group, once per change)."""
    txn = etcd.txn
    await etcd.swap([], [txn.put(layout.log_end(end.node_id), encode_log_end(end), lease=lease_id)])


def keep_leader_in_etcd(
    leader: ReplicationLeader, etcd: Etcd, layout: KeyLayout, state: GroupState, lease: Callable[[], int]
) -> None:
    """Wire ``leader`` (this broker, leader of ``state.name`` at ``state.epoch``) to etcd: its in-sync set and lag
    report. Call it at every election this broker wins, with the group's state that names it."""
    writer = InSyncWriter(etcd, layout, state.name, state.leader, state.epoch)
    leader.keep_in_etcd(writer, LagReporter(etcd, layout, state.name, lease))


class LogEndPublisher:
    """A member's ``log_ends/<node id>``, published only while its group has no live leader and deleted once it has
    one (an end left from an earlier leaderless time would understate the member's log at the next): call
    ``await publisher.update(snapshot, end, epoch)`` on every snapshot (it writes only when something changed)."""

    def __init__(self, etcd: Etcd, layout: KeyLayout, node_id: int, group: str, lease: Callable[[], int]) -> None:
        self._etcd = etcd
        self._layout = layout
        self.node_id = node_id
        self.group = group
        self._lease = lease
        self._published: LogEnd | None = None

    async def update(self, snapshot: ClusterSnapshot, end: int, epoch: int) -> bool:
        """Publish this member's log end if its group has no live leader and it is not published as it is, delete it
        if the group has one; True when it wrote."""
        state = snapshot.groups.get(self.group)
        if state is not None and state.leader in snapshot.brokers:
            if self.node_id not in snapshot.log_ends:
                return False
            txn = self._etcd.txn
            await self._etcd.swap([], [txn.delete(self._layout.log_end(self.node_id))])
            self._published = None
            return True
        mine = LogEnd(self.node_id, self.group, epoch, end)
        if snapshot.log_ends.get(self.node_id) == mine and self._published == mine:
            return False
        await publish_log_end(self._etcd, self._layout, mine, self._lease())
        self._published = mine
        return True
