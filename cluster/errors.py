"""The cluster layer's one error family: :class:`ClusterError` and what derives from it.

The facade maps these onto Kafka error codes; the CLI prints them as one line and exits 1.
"""

from __future__ import annotations


class ClusterError(Exception):
    """Something about the cluster's metadata (etcd) went wrong; the message is one line for a person."""


class EtcdUnavailableError(ClusterError):
    """etcd could not be reached, or did not answer in time."""


class EtcdRefusedError(ClusterError):
    """etcd answered and refused the request (a lease it no longer has, a full database, a compacted revision):
    the connection is sound, and the same request fails again until what etcd holds changes."""


class NodeIdTakenError(ClusterError):
    """Another live broker is registered with this ``node.id``."""


class TopicExistsError(ClusterError):
    """A topic of that name is already in the cluster's metadata."""


class UnknownTopicError(ClusterError):
    """No topic of that name is in the cluster's metadata."""


class NoBrokerGroupsError(ClusterError):
    """No broker group has a live leader, so a new partition has nowhere to go."""


class ConcurrentChangeError(ClusterError):
    """A compare-and-swap lost to another change of the same key; the caller may read again and retry."""


class NotControllerError(ClusterError):
    """This broker's controller term ended (another broker was elected); it must not act as controller."""


class NoMoveError(ClusterError):
    """No move of that partition is in progress (a cancel, or a step of a move that was cancelled)."""


class MoveSwitchingError(ClusterError):
    """The move is past copying (its source has stopped taking appends): it can no longer be cancelled or
    redirected, only completed."""


class FencedLeaderError(ClusterError):
    """etcd names another leader or a newer epoch for this broker's group: this broker no longer leads it, and
    its write (an in-sync set) was refused."""
