"""Rockafka as a cluster: brokers grouped like RocketMQ's broker groups, with their metadata in etcd.

What exists only in a cluster lives here (DESIGN.md section 7): the etcd key layout (``layout.py``), the
immutable snapshot a broker serves from (``snapshot.py``) and the watch that keeps it current (``view.py``),
placement (``placement.py``), the compare-and-swap writes (``metadata.py``), the elected controller
(``controller.py``), one broker's membership (``member.py``) and a local etcd for tests and
``rockafka cluster up`` (``local_etcd.py``). ``etcd.py`` is the one module that imports the etcd client
(the ``cluster`` extra), so a single broker never needs it. This package imports ``store`` and ``core_pyx``
at most, never the facade.
"""

from __future__ import annotations

from .errors import (
    ClusterError,
    ConcurrentChangeError,
    EtcdRefusedError,
    EtcdUnavailableError,
    NoBrokerGroupsError,
    NodeIdTakenError,
    NotControllerError,
    TopicExistsError,
    UnknownTopicError,
)
from .layout import NO_LEADER, BrokerInfo, GroupState, KeyLayout, TopicRecord
from .placement import place_partitions
from .snapshot import ClusterSnapshot, PartitionLeader, snapshot_from_keys

__all__ = [
    "NO_LEADER",
    "BrokerInfo",
    "ClusterError",
    "ClusterSnapshot",
    "ConcurrentChangeError",
    "EtcdRefusedError",
    "EtcdUnavailableError",
    "GroupState",
    "KeyLayout",
    "NoBrokerGroupsError",
    "NodeIdTakenError",
    "NotControllerError",
    "PartitionLeader",
    "TopicExistsError",
    "TopicRecord",
    "UnknownTopicError",
    "place_partitions",
    "snapshot_from_keys",
]
