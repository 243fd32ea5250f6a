"""Which replica a consumer should read a partition from (KIP-392), as a group leader answers Fetch v11+.

With ``replica.selector.class`` = ``org.apache.kafka.common.replica.RackAwareReplicaSelector`` (Kafka's class name;
the only selector offered) the leader of a partition answers a consumer's fetch (replica id -1) that names its
``rack_id`` (``client.rack``) with ``preferred_read_replica``: a member of the partition's group in that rack which
holds the fetch offset, else -1 (the leader serves it). As Kafka's selector: the leader is chosen (-1) when it is in
the client's rack itself, and a fetch with no rack is served by the leader. A partition answered with a preferred
replica carries no records (Kafka's ``ReplicaManager`` skips the read): the client fetches it from that broker.

"Holds the fetch offset": the member is in the group's in-sync set (etcd's, live members only) and the fetch offset
is within [log start, high watermark]. The high watermark is the confirm offset, which every in-sync member holds,
so such a member can answer the fetch at once. Among several candidates in the rack the lowest node id is named, so
a client is not moved between them from fetch to fetch.
"""

from __future__ import annotations

from rockafka.facade.config.definitions import RACK_AWARE_REPLICA_SELECTOR

from ..topology import BrokerAddress
from .context import RequestContext

#: The first Fetch version with ``rack_id`` in the request and ``preferred_read_replica`` in the response.
READ_REPLICA_VERSION = 11


def from_consumer(replica_id: int, state_replica_id: int) -> bool:
    """Whether a fetch comes from a consumer (replica id -1 up to v14, ``replica_state`` from v15)."""
    return replica_id < 0 and state_replica_id < 0


class ReadReplicaSelector:
    """The preferred read replicas of one consumer fetch (see the module docstring)."""

    def __init__(self, ctx: RequestContext, rack: str) -> None:
        self._ctx = ctx
        self._rack = rack
        self._racks: dict[int, str | None] | None = None

    @staticmethod
    def for_fetch(ctx: RequestContext, rack: str) -> ReadReplicaSelector | None:
        """A selector when the broker has one configured and the consumer fetching names its rack; else None."""
        if not rack or ctx.api_version < READ_REPLICA_VERSION:
            return None
        if ctx.broker.config.get("replica.selector.class") != RACK_AWARE_REPLICA_SELECTOR:
            return None
        return ReadReplicaSelector(ctx, rack)

    def preferred(self, topic: str, partition: int, fetch_offset: int, log_start: int, high_watermark: int) -> int:
        """The node a consumer at ``fetch_offset`` should read ``topic``/``partition`` from, or -1 for this leader."""
        if not log_start <= fetch_offset <= high_watermark:
            return -1
        broker = self._ctx.broker
        racks = self._rack_of()
        if racks.get(broker.node_id) == self._rack:
            return -1
        place = broker.topology.place(topic, partition, broker.node_id)
        candidates = [node for node in place.in_sync if node != broker.node_id and racks.get(node) == self._rack]
        return min(candidates, default=-1)

    def _rack_of(self) -> dict[int, str | None]:
        if self._racks is None:
            broker = self._ctx.broker
            brokers = broker.topology.brokers(BrokerAddress(broker.node_id, "", 0))
            self._racks = {address.node_id: address.rack for address in brokers}
        return self._racks
