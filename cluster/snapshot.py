"""The immutable picture of a cluster a broker serves from: built from etcd's keys, replaced on every change.

``ClusterSnapshot`` is never mutated: :func:`snapshot_from_keys` builds one from a range read of the
cluster's prefix, and :meth:`ClusterSnapshot.with_change` returns a new one for one watch event (a put
or a delete of one key). Request handlers read the current snapshot with no lock and no etcd request;
the watcher (``view.py``) swaps in the next one. A value that cannot be decoded is left out and named
in ``ClusterSnapshot.damaged`` (a broker keeps serving what it understands).

ACLs and SCRAM credentials are kept as the JSON etcd holds (``layout.py``): ``acls`` the rows, ``users``
each user's document by name; the facade's security layer turns them into bindings and credentials.

Leadership of a partition: the topic's placement names the group, the group's state names its leader
and leader epoch. A group without state, or with ``NO_LEADER``, has no leader yet.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Final, TypeVar

from .layout import (
    ACLS_KEY,
    BROKER_DEFAULT_CONFIGS_KEY,
    BROKERS_DIR,
    CLUSTER_ID_KEY,
    CONTROLLER_KEY,
    GROUPS_DIR,
    LOG_ENDS_DIR,
    MOVES_DIR,
    NO_LEADER,
    REPLICA_LAG_DIR,
    TOPICS_DIR,
    USERS_DIR,
    BrokerInfo,
    GroupState,
    KeyLayout,
    LogEnd,
    MoveRecord,
    ReplicaLag,
    TopicRecord,
    decode_acls,
    decode_broker,
    decode_configs,
    decode_controller,
    decode_group,
    decode_log_end,
    decode_move,
    decode_replica_lag,
    decode_topic,
    decode_user,
)

log = logging.getLogger(__name__)

_EMPTY: Final[Mapping[str, str]] = MappingProxyType({})
_K = TypeVar("_K")
_V = TypeVar("_V")


@dataclass(frozen=True, slots=True)
class PartitionLeader:
    """Who leads one partition: the group that holds it, its leader's node id and the leader epoch."""

    group: str
    leader: int
    epoch: int


@dataclass(frozen=True)
class ClusterSnapshot:
    """Everything a broker knows of the cluster at one etcd revision; never changes once made."""

    revision: int = 0
    cluster_id: str | None = None
    controller: int | None = None
    brokers: Mapping[int, BrokerInfo] = field(default_factory=lambda: MappingProxyType({}))
    groups: Mapping[str, GroupState] = field(default_factory=lambda: MappingProxyType({}))
    topics: Mapping[str, TopicRecord] = field(default_factory=lambda: MappingProxyType({}))
    acls: tuple[Mapping[str, str], ...] = ()
    users: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=lambda: MappingProxyType({}))
    broker_default_configs: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    """The cluster-wide dynamic broker default (``broker_default_configs``; empty when the key is absent)."""
    moves: Mapping[tuple[str, int], MoveRecord] = field(default_factory=lambda: MappingProxyType({}))
    log_ends: Mapping[int, LogEnd] = field(default_factory=lambda: MappingProxyType({}))
    """Members' published log ends (``log_ends/<node id>``: only members of a leaderless group publish one)."""
    replica_lag: Mapping[str, ReplicaLag] = field(default_factory=lambda: MappingProxyType({}))
    damaged: Mapping[str, str] = field(default_factory=lambda: _EMPTY)

    def leader_of(self, topic: str, partition: int) -> PartitionLeader | None:
        """The leader of ``topic``'s partition, or None if the topic or partition is unknown or leaderless."""
        record = self.topics.get(topic)
        if record is None or not 0 <= partition < record.partitions:
            return None
        group = record.placement[partition]
        state = self.groups.get(group)
        if state is None or state.leader == NO_LEADER:
            return PartitionLeader(group, NO_LEADER, -1 if state is None else state.epoch)
        return PartitionLeader(group, state.leader, state.epoch)

    def live_groups(self) -> list[str]:
        """The groups whose leader is a registered broker, sorted by name: where new partitions may go."""
        return sorted(name for name, state in self.groups.items() if state.leader in self.brokers)

    def group_members(self, group: str) -> list[int]:
        """The node ids of the live brokers registered in ``group``, ascending."""
        return sorted(node for node, info in self.brokers.items() if info.group == group)

    def partition_counts(self) -> dict[str, int]:
        """How many partitions each group holds, over every topic (groups holding none are absent)."""
        counts: dict[str, int] = {}
        for record in self.topics.values():
            for group in record.placement:
                counts[group] = counts.get(group, 0) + 1
        return counts

    def with_change(self, layout: KeyLayout, key: bytes, value: bytes | None, revision: int) -> ClusterSnapshot:
        """The snapshot after one event: ``value`` put at ``key``, or ``key`` deleted (``value`` None)."""
        relative = layout.relative(key)
        if relative is None:
            return replace(self, revision=max(self.revision, revision))
        changed = _Builder.from_snapshot(self)
        changed.apply(relative, value)
        return changed.build(max(self.revision, revision))


def snapshot_from_keys(layout: KeyLayout, items: Iterable[tuple[bytes, bytes]], revision: int) -> ClusterSnapshot:
    """The snapshot of every (key, value) read under ``layout.prefix`` at ``revision``."""
    builder = _Builder()
    for key, value in items:
        relative = layout.relative(key)
        if relative is not None:
            builder.apply(relative, value)
    return builder.build(revision)


class _Builder:
    """Mutable maps that become one :class:`ClusterSnapshot`."""

    def __init__(self) -> None:
        self.cluster_id: str | None = None
        self.controller: int | None = None
        self.brokers: dict[int, BrokerInfo] = {}
        self.groups: dict[str, GroupState] = {}
        self.topics: dict[str, TopicRecord] = {}
        self.acls: tuple[Mapping[str, str], ...] = ()
        self.users: dict[str, Mapping[str, Mapping[str, Any]]] = {}
        self.broker_default_configs: Mapping[str, str] = _EMPTY
        self.moves: dict[tuple[str, int], MoveRecord] = {}
        self.log_ends: dict[int, LogEnd] = {}
        self.replica_lag: dict[str, ReplicaLag] = {}
        self.damaged: dict[str, str] = {}

    @classmethod
    def from_snapshot(cls, snapshot: ClusterSnapshot) -> _Builder:
        builder = cls()
        builder.cluster_id = snapshot.cluster_id
        builder.controller = snapshot.controller
        builder.brokers = dict(snapshot.brokers)
        builder.groups = dict(snapshot.groups)
        builder.topics = dict(snapshot.topics)
        builder.acls = snapshot.acls
        builder.users = dict(snapshot.users)
        builder.broker_default_configs = snapshot.broker_default_configs
        builder.moves = dict(snapshot.moves)
        builder.log_ends = dict(snapshot.log_ends)
        builder.replica_lag = dict(snapshot.replica_lag)
        builder.damaged = dict(snapshot.damaged)
        return builder

    def apply(self, relative: str, value: bytes | None) -> None:
        """Put (``value``) or delete (None) the object at ``relative``; an undecodable value is recorded as damaged."""
        self.damaged.pop(relative, None)
        try:
            self._apply(relative, value)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("cluster metadata key %s cannot be read (%s); left out", relative, exc)
            self.damaged[relative] = str(exc)

    def _apply(self, relative: str, value: bytes | None) -> None:
        if relative == CLUSTER_ID_KEY:
            self.cluster_id = None if value is None else value.decode()
        elif relative == CONTROLLER_KEY:
            self.controller = None if value is None else decode_controller(value)
        elif relative.startswith(BROKERS_DIR):
            node = int(relative[len(BROKERS_DIR) :])
            _put_or_drop(self.brokers, node, None if value is None else decode_broker(value))
        elif relative.startswith(GROUPS_DIR):
            name = relative[len(GROUPS_DIR) :]
            _put_or_drop(self.groups, name, None if value is None else decode_group(name, value))
        elif relative.startswith(TOPICS_DIR):
            name = relative[len(TOPICS_DIR) :]
            _put_or_drop(self.topics, name, None if value is None else decode_topic(name, value))
        elif relative == ACLS_KEY:
            self.acls = () if value is None else decode_acls(value)
        elif relative.startswith(USERS_DIR):
            name = relative[len(USERS_DIR) :]
            _put_or_drop(self.users, name, None if value is None else decode_user(value))
        elif relative == BROKER_DEFAULT_CONFIGS_KEY:
            self.broker_default_configs = _EMPTY if value is None else decode_configs(value)
        elif relative.startswith(MOVES_DIR):
            self._apply_move(relative[len(MOVES_DIR) :], value)
        elif relative.startswith(LOG_ENDS_DIR):
            node = int(relative[len(LOG_ENDS_DIR) :])
            _put_or_drop(self.log_ends, node, None if value is None else decode_log_end(node, value))
        elif relative.startswith(REPLICA_LAG_DIR):
            name = relative[len(REPLICA_LAG_DIR) :]
            _put_or_drop(self.replica_lag, name, None if value is None else decode_replica_lag(name, value))

    def _apply_move(self, relative: str, value: bytes | None) -> None:
        if value is not None:
            move = decode_move(relative, value)
            self.moves[(move.topic, move.partition)] = move
            return
        topic, _, partition = relative.rpartition("/")
        self.moves.pop((topic, int(partition)), None)

    def build(self, revision: int) -> ClusterSnapshot:
        return ClusterSnapshot(
            revision=revision,
            cluster_id=self.cluster_id,
            controller=self.controller,
            brokers=MappingProxyType(self.brokers),
            groups=MappingProxyType(self.groups),
            topics=MappingProxyType(self.topics),
            acls=self.acls,
            users=MappingProxyType(self.users),
            broker_default_configs=self.broker_default_configs,
            moves=MappingProxyType(self.moves),
            log_ends=MappingProxyType(self.log_ends),
            replica_lag=MappingProxyType(self.replica_lag),
            damaged=MappingProxyType(self.damaged) if self.damaged else _EMPTY,
        )


def _put_or_drop(table: dict[_K, _V], key: _K, value: _V | None) -> None:
    if value is None:
        table.pop(key, None)
    else:
        table[key] = value
