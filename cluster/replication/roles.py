"""Which part a broker plays in its group's replication, as the cluster says (``groups/<group>`` in etcd).

A member of a replicated group registers its replication listener among its listeners, under the name
``REPLICATION`` (``member.py``). The controller names the group's leader; so, for one broker:

- the group's leader is this broker: it *leads* (serves followers on its replication listener);
- the leader is another live broker that registered a replication listener: it *follows* that address;
- otherwise (no group state yet, no live leader, a leader that registered no replication listener): nothing is
  said, and the broker keeps the part it plays (a follower of a dead leader retries it until another is named).

``role_from_etcd`` answers the same from one read of the cluster's keys, before a broker joins: a broker that
must follow handshakes with its leader, and cuts its store back if it must, before it serves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..etcd import Etcd
from ..layout import KeyLayout
from ..member import REPLICATION_LISTENER
from ..snapshot import ClusterSnapshot, snapshot_from_keys


@dataclass(frozen=True, slots=True)
class Role:
    """Lead (``source`` None), or follow the leader ``leader`` at its replication address ``source``."""

    leader: int
    epoch: int
    source: tuple[str, int] | None = None

    @property
    def leads(self) -> bool:
        return self.source is None


def role_in(snapshot: ClusterSnapshot, node_id: int, group: str) -> Role | None:
    """The part ``node_id`` plays in ``group`` by ``snapshot``; None when the snapshot names none."""
    state = snapshot.groups.get(group)
    if state is None or state.leader < 0:
        return None
    if state.leader == node_id:
        return Role(node_id, state.epoch)
    info = snapshot.brokers.get(state.leader)
    if info is None or REPLICATION_LISTENER not in info.listeners:
        return None
    return Role(state.leader, state.epoch, info.listeners[REPLICATION_LISTENER])


async def role_from_etcd(endpoints: Sequence[str], cluster_name: str, node_id: int, group: str) -> Role | None:
    """``role_in`` the cluster as etcd holds it now (one range read). Raises ``ClusterError`` (etcd unreachable)."""
    layout = KeyLayout(cluster_name)
    etcd = await Etcd.connect(endpoints)
    try:
        entries, revision = await etcd.get_prefix(layout.prefix)
    finally:
        await etcd.close()
    snapshot = snapshot_from_keys(layout, ((entry.key, entry.value) for entry in entries), revision)
    return role_in(snapshot, node_id, group)
