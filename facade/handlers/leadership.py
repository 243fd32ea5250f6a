"""What Produce, Fetch, ListOffsets and OffsetForLeaderEpoch tell a client about a partition's leadership.

``epoch_error``: a request's ``current_leader_epoch`` (Fetch v9+, ListOffsets v4+, OffsetForLeaderEpoch v2+;
Produce has none) against the partition's leader epoch, as Kafka's ``Partition.checkCurrentLeaderEpoch``: the
client's older, FENCED_LEADER_EPOCH (its metadata is stale: it refreshes it); newer, UNKNOWN_LEADER_EPOCH (this
broker has not seen the election yet: it retries); a negative epoch (-1, "not known") skips the check, and so does
a partition whose epoch is not known here (its unknown topic or partition is answered as such). The epoch is the
topology's (``facade/topology.py``): 0 on a single broker, the partition group's epoch in etcd in a cluster, which
is also the epoch its leader's store stamps (``facade/cluster_topology.py``).

``LeaderHints`` (KIP-951): a partition answered NOT_LEADER_OR_FOLLOWER (Produce v10+, Fetch v16+) or
FENCED_LEADER_EPOCH (Fetch v16+) carries its current leader's id and epoch, and the response lists the
endpoints of the leaders it names, so a client sends its next request to the new leader without waiting for a
Metadata refresh (librdkafka 2.4+, the Java client 3.7+). A partition with no leader now carries -1/-1 and no
endpoint, as Kafka answers.
"""

from __future__ import annotations

from typing import Final

from rockafka.core_pyx import hotcodec as hot
from rockafka.facade.protocol.error_codes import ErrorCode

from ..topology import BrokerAddress, Topology
from .admin import advertised_listener
from .context import RequestContext

#: The first versions whose responses carry the current leader of a partition answered "not the leader".
PRODUCE_HINTS_VERSION: Final = 10
FETCH_HINTS_VERSION: Final = 16


def epoch_error(topology: Topology, topic: str, partition: int, client_epoch: int) -> ErrorCode:
    """NONE, FENCED_LEADER_EPOCH or UNKNOWN_LEADER_EPOCH for a client at ``client_epoch`` (see the module
    docstring)."""
    if client_epoch < 0:
        return ErrorCode.NONE
    epoch = topology.leader_epoch(topic, partition)
    if epoch < 0 or client_epoch == epoch:
        return ErrorCode.NONE
    return ErrorCode.FENCED_LEADER_EPOCH if client_epoch < epoch else ErrorCode.UNKNOWN_LEADER_EPOCH


class LeaderHints:
    """The current leaders named in one response, and their endpoints (see the module docstring)."""

    def __init__(self, ctx: RequestContext) -> None:
        self._ctx = ctx
        self._nodes: set[int] = set()

    def leader(self, topic: str, partition: int) -> hot.LeaderIdAndEpoch:
        """The partition's current leader and epoch, remembered for :meth:`endpoints`."""
        broker = self._ctx.broker
        place = broker.topology.place(topic, partition, broker.node_id)
        if place.leader >= 0:
            self._nodes.add(place.leader)
        return hot.LeaderIdAndEpoch(place.leader, place.epoch)

    def endpoints(self) -> list[hot.NodeEndpoint]:
        """The address of every leader :meth:`leader` named, as clients reach it through this listener."""
        if not self._nodes:
            return []
        broker = self._ctx.broker
        listener = advertised_listener(self._ctx)
        own = BrokerAddress(broker.node_id, listener.host, listener.port, listener.name)
        return [
            hot.NodeEndpoint(address.node_id, address.host, address.port)
            for address in broker.topology.brokers(own)
            if address.node_id in self._nodes
        ]
