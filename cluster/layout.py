"""How a Rockafka cluster lays out its metadata in etcd: the keys, and the JSON each holds.

Every key of a cluster lives under one prefix, ``/rockafka/<cluster name>/`` (the setting
``rockafka.cluster.name``, "rockafka" by default), so several clusters may share one etcd. Each object
others depend on is ONE key, so a watcher that applies events one at a time never sees half a change;
every write that depends on what is there is a compare-and-swap transaction (see ``metadata.py``).

=============================  =================================================================  ==========
key (under the prefix)         value (UTF-8 JSON unless said)                                       lease
=============================  =================================================================  ==========
``cluster_id``                 the cluster id, plain text (22 characters of URL-safe base64, as     none
                               Kafka makes them); created once by the first broker (create == 0)
``brokers/<node id>``          ``{"node_id": 1, "group": "g1", "host": "127.0.0.1", "port": 9092}``  the broker's
                               the broker's registration; its first advertised listener, and        lease
                               ``"listeners": {"SSL": "127.0.0.1:9093", ...}`` every advertised
                               listener by name (a client is told the other brokers' addresses on
                               the listener it came in on), and ``"rack": "a"`` its ``broker.rack``
                               when set. Created only if absent (a live twin refuses to start)
``controller``                 ``{"node_id": 1}``: the elected controller. The key's                the controller's
                               ``create_revision`` is the term: every controller write compares     lease
                               it, so a deposed controller's writes fail (fencing)
``groups/<group>``             ``{"leader": 1, "epoch": 3, "in_sync": [1, 2]}``: the group's        none
                               leader, leader epoch and in-sync set (node ids, ascending, the
                               leader's included). The controller writes a new leader (leader -1
                               when no member can lead), the epoch one higher, the in-sync set
                               ``[leader]``; the leader alone rewrites ``in_sync`` at its epoch
                               (``group_writes.py``). A value without ``in_sync`` (written before it
                               existed) reads as ``[leader]``, or ``[]`` for leader -1 (no record:
                               any member may lead)
``log_ends/<node id>``         ``{"group": "g1", "epoch": 3, "end": 1048576}``: where a member's    the broker's
                               CommitLog ends and the newest epoch in it, published by members of   lease
                               a group without a leader only (an unclean election picks the most
                               advanced); never written while the group has a leader
``replica_lag/<group>``        ``{"end": 1050000, "confirm": 1048576, "ends": {"2": 1040000},      the leader's
                               "at_ms": 1700000}``: the leader's log end, its confirm offset and    lease
                               each connected follower's end, as
                               the leader saw them at wall-clock ``at_ms``; rewritten at most every
                               ``LAG_REPORT_S`` (5) seconds and only when something changed (the
                               CLI's lag per follower)
``topics/<name>``              ``{"id": "<uuid>", "placement": ["g1", "g2", ...],                   none
                               "configs": {"retention.ms": "1000"}}``: placement[i] is the group
                               that holds partition i; created only if absent, changed only if
                               its ``mod_revision`` is the one read (configs too: AlterConfigs
                               and IncrementalAlterConfigs replace ``configs`` at that revision)
``acls``                       ``{"acls": [{"resource_type": "TOPIC", "name": "orders",             none
                               "pattern_type": "LITERAL", "principal": "User:alice", "host": "*",
                               "operation": "READ", "permission": "ALLOW"}, ...]}``: every ACL
                               binding of the cluster (Kafka's enum names), one key so that a
                               change is one compare-and-swap at the ``mod_revision`` read
``users/<user>``               ``{"SCRAM-SHA-256": {"iterations": 4096, "salt": "<base64>",         none
                               "stored_key": "<base64>", "server_key": "<base64>"}, ...}``: one
                               user's SCRAM credentials, salted-hash material only (never a
                               password); written at the ``mod_revision`` read (or only if absent)
``broker_default_configs``     ``{"configs": {"log.retention.ms": "3600000"}}``: the cluster-wide   none
                               dynamic broker default (``kafka-configs --entity-type brokers
                               --entity-default``), applied by every broker's watch under its own
                               per-broker dynamic configs; written at the ``mod_revision`` read
``moves/<topic>/<partition>``  ``{"source": "g1", "target": "g2", "state": "copying"}``: a         none
                               partition moving between groups (AlterPartitionReassignments),
                               created only if absent and only while ``topics/<topic>`` is at the
                               ``mod_revision`` read; ``state`` goes ``copying`` (the target's
                               leader copies from the source's) → ``fenced`` (the target caught
                               up: the source stops taking appends) → ``sealed`` (the source
                               stopped; ``"end": <offset>`` is its last offset + 1); then one
                               transaction puts the topic's new placement, raises the target
                               group's epoch above both groups' and deletes the key. A cancel
                               deletes it while ``copying``; each step compares ``mod_revision``
=============================  =================================================================  ==========

The ``acls`` rows and ``users/<user>`` documents are the same JSON the single broker keeps in
``acls.json`` and ``scram-credentials.json``; the cluster layer stores them as they are and the facade's
security layer reads them (this package never imports the facade).

Node ids are written in decimal without padding; group and topic names as they are (Kafka topic names
use only ``[a-zA-Z0-9._-]``; a group name must match the same pattern, checked by ``check_group_name``).
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from .errors import ClusterError

ROOT: Final = "/rockafka/"
CLUSTER_ID_KEY: Final = "cluster_id"
CONTROLLER_KEY: Final = "controller"
BROKERS_DIR: Final = "brokers/"
GROUPS_DIR: Final = "groups/"
TOPICS_DIR: Final = "topics/"
ACLS_KEY: Final = "acls"
USERS_DIR: Final = "users/"
BROKER_DEFAULT_CONFIGS_KEY: Final = "broker_default_configs"
MOVES_DIR: Final = "moves/"
LOG_ENDS_DIR: Final = "log_ends/"
REPLICA_LAG_DIR: Final = "replica_lag/"
NO_LEADER: Final = -1

_NAME: Final = re.compile(r"[a-zA-Z0-9._-]{1,249}")


def check_group_name(name: str) -> str:
    """``name`` if it is a valid broker group name, else :class:`ClusterError`."""
    if not _NAME.fullmatch(name):
        raise ClusterError(f"broker group name {name!r} must be 1-249 characters of a-z, A-Z, 0-9, '.', '_', '-'")
    return name


@dataclass(frozen=True, slots=True)
class KeyLayout:
    """The keys of one cluster: each method answers the full etcd key (bytes) of one object."""

    cluster_name: str

    @property
    def prefix(self) -> bytes:
        return f"{ROOT}{self.cluster_name}/".encode()

    def key(self, relative: str) -> bytes:
        return self.prefix + relative.encode()

    def cluster_id(self) -> bytes:
        return self.key(CLUSTER_ID_KEY)

    def controller(self) -> bytes:
        return self.key(CONTROLLER_KEY)

    def broker(self, node_id: int) -> bytes:
        return self.key(f"{BROKERS_DIR}{node_id}")

    def group(self, name: str) -> bytes:
        return self.key(f"{GROUPS_DIR}{name}")

    def topic(self, name: str) -> bytes:
        return self.key(f"{TOPICS_DIR}{name}")

    def acls(self) -> bytes:
        return self.key(ACLS_KEY)

    def user(self, name: str) -> bytes:
        return self.key(f"{USERS_DIR}{name}")

    def broker_default_configs(self) -> bytes:
        return self.key(BROKER_DEFAULT_CONFIGS_KEY)

    def move(self, topic: str, partition: int) -> bytes:
        return self.key(f"{MOVES_DIR}{topic}/{partition}")

    def log_end(self, node_id: int) -> bytes:
        return self.key(f"{LOG_ENDS_DIR}{node_id}")

    def replica_lag(self, group: str) -> bytes:
        return self.key(f"{REPLICA_LAG_DIR}{group}")

    def relative(self, key: bytes) -> str | None:
        """The part of ``key`` after this cluster's prefix, or None for a key of another cluster."""
        prefix = self.prefix
        return key[len(prefix) :].decode() if key.startswith(prefix) else None


@dataclass(frozen=True, slots=True)
class BrokerInfo:
    """A live broker's registration (``brokers/<node id>``)."""

    node_id: int
    group: str
    host: str
    port: int
    listeners: Mapping[str, tuple[str, int]] = field(default_factory=lambda: MappingProxyType({}))
    """Every advertised listener by name: (host, port); empty in a registration older than this field."""
    rack: str | None = None
    """``broker.rack``: None when unset (and in a registration older than this field)."""

    def address(self, listener: str) -> tuple[str, int]:
        """Where clients of ``listener`` reach this broker (its first listener if it has none of that name)."""
        return self.listeners.get(listener, (self.host, self.port))


@dataclass(frozen=True, slots=True)
class GroupState:
    """A broker group's leader (``NO_LEADER`` when no member can lead), leader epoch and in-sync set
    (``groups/<group>``; ``in_sync`` ascending, empty only for a leaderless group with no record of one)."""

    name: str
    leader: int
    epoch: int
    in_sync: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.in_sync and self.leader != NO_LEADER:
            object.__setattr__(self, "in_sync", (self.leader,))


@dataclass(frozen=True, slots=True)
class LogEnd:
    """Where a member's CommitLog ends and its newest epoch (``log_ends/<node id>``)."""

    node_id: int
    group: str
    epoch: int
    end: int


@dataclass(frozen=True, slots=True)
class ReplicaLag:
    """A group's log end, confirm offset and each connected follower's end, as its leader last reported them
    (``replica_lag/<group>``; ``at_ms``: the leader's wall clock then)."""

    group: str
    end: int
    confirm: int
    ends: Mapping[int, int]
    at_ms: int


@dataclass(frozen=True, slots=True)
class TopicRecord:
    """A topic as the cluster knows it (``topics/<name>``): id, where each partition lives, configs."""

    name: str
    topic_id: uuid.UUID
    placement: tuple[str, ...]
    configs: Mapping[str, str]

    @property
    def partitions(self) -> int:
        return len(self.placement)


#: The states of a move, in order (see ``moves/<topic>/<partition>`` above).
MOVE_COPYING: Final = "copying"
MOVE_FENCED: Final = "fenced"
MOVE_SEALED: Final = "sealed"
MOVE_STATES: Final = (MOVE_COPYING, MOVE_FENCED, MOVE_SEALED)


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """A partition moving from group ``source`` to group ``target`` (``moves/<topic>/<partition>``); ``end`` is
    the source's next offset once it stopped taking appends (``sealed``), else -1."""

    topic: str
    partition: int
    source: str
    target: str
    state: str
    end: int = -1


def encode_move(move: MoveRecord) -> bytes:
    doc: dict[str, Any] = {"source": move.source, "target": move.target, "state": move.state}
    if move.end >= 0:
        doc["end"] = move.end
    return _dump(doc)


def decode_move(relative: str, value: bytes) -> MoveRecord:
    """The move at ``<topic>/<partition>`` (the key below ``moves/``)."""
    topic, _, partition = relative.rpartition("/")
    doc = _load(value)
    state = str(doc["state"])
    if state not in MOVE_STATES or not topic:
        raise ValueError(f"move {relative}: state {state!r}")
    return MoveRecord(topic, int(partition), str(doc["source"]), str(doc["target"]), state, int(doc.get("end", -1)))


def encode_broker(info: BrokerInfo) -> bytes:
    doc: dict[str, Any] = {"node_id": info.node_id, "group": info.group, "host": info.host, "port": info.port}
    if info.listeners:
        doc["listeners"] = {name: f"{host}:{port}" for name, (host, port) in info.listeners.items()}
    if info.rack is not None:
        doc["rack"] = info.rack
    return _dump(doc)


def decode_broker(value: bytes) -> BrokerInfo:
    doc = _load(value)
    listeners = {}
    for name, address in dict(doc.get("listeners") or {}).items():
        host, _, port = str(address).rpartition(":")
        listeners[str(name)] = (host, int(port))
    return BrokerInfo(
        int(doc["node_id"]),
        str(doc["group"]),
        str(doc["host"]),
        int(doc["port"]),
        MappingProxyType(listeners),
        None if doc.get("rack") is None else str(doc["rack"]),
    )


def encode_group(state: GroupState) -> bytes:
    doc: dict[str, Any] = {"leader": state.leader, "epoch": state.epoch}
    if state.in_sync:
        doc["in_sync"] = sorted(state.in_sync)
    return _dump(doc)


def decode_group(name: str, value: bytes) -> GroupState:
    doc = _load(value)
    in_sync = tuple(sorted(int(node) for node in doc.get("in_sync") or ()))
    return GroupState(name, int(doc["leader"]), int(doc["epoch"]), in_sync)


def encode_log_end(end: LogEnd) -> bytes:
    return _dump({"group": end.group, "epoch": end.epoch, "end": end.end})


def decode_log_end(node_id: int, value: bytes) -> LogEnd:
    doc = _load(value)
    return LogEnd(node_id, str(doc["group"]), int(doc["epoch"]), int(doc["end"]))


def encode_replica_lag(lag: ReplicaLag) -> bytes:
    ends = {str(node): end for node, end in sorted(lag.ends.items())}
    return _dump({"end": lag.end, "confirm": lag.confirm, "ends": ends, "at_ms": lag.at_ms})


def decode_replica_lag(group: str, value: bytes) -> ReplicaLag:
    doc = _load(value)
    ends = {int(node): int(end) for node, end in dict(doc.get("ends") or {}).items()}
    return ReplicaLag(group, int(doc["end"]), int(doc["confirm"]), MappingProxyType(ends), int(doc["at_ms"]))


def encode_controller(node_id: int) -> bytes:
    return _dump({"node_id": node_id})


def decode_controller(value: bytes) -> int:
    return int(_load(value)["node_id"])


def encode_topic(record: TopicRecord) -> bytes:
    return _dump({"id": str(record.topic_id), "placement": list(record.placement), "configs": dict(record.configs)})


def decode_topic(name: str, value: bytes) -> TopicRecord:
    doc = _load(value)
    configs = {str(key): str(item) for key, item in dict(doc.get("configs") or {}).items()}
    placement = tuple(str(group) for group in doc["placement"])
    return TopicRecord(name, uuid.UUID(str(doc["id"])), placement, configs)


def encode_acls(rows: Sequence[Mapping[str, str]]) -> bytes:
    return _dump({"acls": [dict(row) for row in rows]})


def decode_acls(value: bytes) -> tuple[Mapping[str, str], ...]:
    rows = _load(value)["acls"]
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise ValueError("acls is not a list of objects")
    return tuple(MappingProxyType({str(k): str(v) for k, v in row.items()}) for row in rows)


def encode_user(credentials: Mapping[str, Mapping[str, Any]]) -> bytes:
    return _dump({mechanism: dict(fields) for mechanism, fields in credentials.items()})


def decode_user(value: bytes) -> Mapping[str, Mapping[str, Any]]:
    doc = _load(value)
    if not all(isinstance(fields, dict) for fields in doc.values()):
        raise ValueError("a user's credentials are not objects")
    return MappingProxyType({str(mechanism): MappingProxyType(fields) for mechanism, fields in doc.items()})


def encode_configs(configs: Mapping[str, str]) -> bytes:
    return _dump({"configs": dict(configs)})


def decode_configs(value: bytes) -> Mapping[str, str]:
    configs = _load(value)["configs"]
    if not isinstance(configs, dict):
        raise ValueError("configs is not an object")
    return MappingProxyType({str(name): str(text) for name, text in configs.items()})


def _dump(doc: Mapping[str, Any]) -> bytes:
    return json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()


def _load(value: bytes) -> dict[str, Any]:
    doc = json.loads(value)
    if not isinstance(doc, dict):
        raise ValueError(f"expected a JSON object, got {value[:60]!r}")
    return doc
