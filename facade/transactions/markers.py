"""Delivering a transaction's markers to the leaders of its partitions (Kafka's TransactionMarkerChannelManager).

A transaction ends with a COMMIT or ABORT marker on every partition it wrote to, and, for every consumer group it
committed offsets for, on the group's ``__consumer_offsets`` partition (whose leader holds those offsets until the
marker says what became of them). The coordinator asks ``route`` who leads each partition now:

- ``LOCAL``: this broker; the coordinator writes the marker into its own store (``write_local``);
- a :class:`~rockafka.facade.topology.BrokerAddress`: another broker, sent WriteTxnMarkers (API 27, v1);
- ``UNAVAILABLE``: no leader right now (its broker is down): tried again later;
- ``GONE``: the topic or partition no longer exists: nothing to write.

``deliver`` sends to every leader at once and repeats, every ``retry_backoff_s`` (doubling to ``MAX_BACKOFF_S``),
for the partitions not yet answered NONE, for as long as it takes: a leader that is down is waited for, as Kafka's
coordinator waits, and the transaction stays PrepareCommit/PrepareAbort meanwhile. A leader that answers
NOT_LEADER_OR_FOLLOWER (its leadership moved) is asked again at the new leader on the next round; a partition it
answers UNKNOWN_TOPIC_OR_PARTITION for is gone, and one it answers INVALID_PRODUCER_EPOCH for holds a newer epoch of
the producer, whose own marker ends what is open there: neither is asked again (Kafka's coordinator stops sending
on INVALID_PRODUCER_EPOCH too; retried, the transaction would stay in its Prepare state for ever). The coordinator
cancels deliveries at shutdown; a restart resumes them from the prepared transactions in ``__transaction_state``.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Final

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.write_txn_markers import (
    WritableTxnMarker,
    WritableTxnMarkerTopic,
    WriteTxnMarkersRequest,
    WriteTxnMarkersResponse,
)
from rockafka.store import MessageStore, TopicPartition, UnknownTopicOrPartitionError

from ..interbroker import BrokerConnection, InterBrokerAuthError, InterBrokerError, InterBrokerSettings
from ..topology import BrokerAddress

log = logging.getLogger(__name__)

WRITE_TXN_MARKERS_VERSION: Final = 1
MAX_BACKOFF_S: Final = 2.0
REQUEST_TIMEOUT_S: Final = 10.0


class Place(enum.Enum):
    """Where a partition's marker goes when no other broker leads it."""

    LOCAL = "local"
    UNAVAILABLE = "unavailable"
    GONE = "gone"


Route = Callable[[TopicPartition], "BrokerAddress | Place"]


@dataclass(frozen=True, slots=True)
class Marker:
    """What a WriteTxnMarkers entry carries for one producer."""

    producer_id: int
    producer_epoch: int
    coordinator_epoch: int
    commit: bool

    @property
    def name(self) -> str:
        return "COMMIT" if self.commit else "ABORT"


#: Writes a marker into this broker's store (a partition led here now); False: not written, try again.
WriteLocal = Callable[[Marker, TopicPartition], bool]


def write_marker(store: MessageStore, marker: Marker, tp: TopicPartition) -> None:
    """Write ``marker`` into this broker's copy of ``tp`` (a partition gone meanwhile is skipped)."""
    try:
        store.records.write_transaction_marker(
            tp.topic, tp.partition, producer_id=marker.producer_id, producer_epoch=marker.producer_epoch,
            coordinator_epoch=marker.coordinator_epoch, commit=marker.commit,
        )  # fmt: skip
    except UnknownTopicOrPartitionError:
        log.info("transaction marker for %s-%d skipped: the partition is gone", tp.topic, tp.partition)


def abort_orphans(store: MessageStore, ongoing: Collection[tuple[int, TopicPartition]], coordinator_epoch: int) -> int:
    """Abort every transaction open on a partition of ``store`` but not ``ongoing`` (producer id, partition): its
    coordinator state was lost or unreadable, and left open it would hold the partition's last stable offset back
    forever. Only a single broker does this (it coordinates every transaction it holds); returns how many."""
    aborted = 0
    for topic in store.topics.list():
        for partition in range(topic.partitions):
            tp = TopicPartition(topic.name, partition)
            for orphan in store.transactions.open(topic.name, partition):
                if (orphan.producer_id, tp) in ongoing:
                    continue
                log.warning("%s-%d: transaction of producer %d (from offset %d) has no coordinator state: aborted",
                            topic.name, partition, orphan.producer_id, orphan.first_offset)  # fmt: skip
                marker = Marker(orphan.producer_id, orphan.producer_epoch, coordinator_epoch, commit=False)
                write_marker(store, marker, tp)
                aborted += 1
    return aborted


def by_topic(partitions: Iterable[TopicPartition]) -> list[WritableTxnMarkerTopic]:
    grouped: dict[str, list[int]] = defaultdict(list)
    for tp in partitions:
        grouped[tp.topic].append(tp.partition)
    return [WritableTxnMarkerTopic(name=t, partition_indexes=sorted(ps)) for t, ps in sorted(grouped.items())]


class MarkerDelivery:
    """Sends markers to other leaders until each has written them (see the module docstring)."""

    def __init__(
        self, route: Route, write_local: WriteLocal, interbroker: InterBrokerSettings | None = None,
        retry_backoff_s: float = 0.1, timeout_s: float = REQUEST_TIMEOUT_S,
    ) -> None:  # fmt: skip
        self._route = route
        self._interbroker = interbroker
        self._write_local = write_local
        self._retry_backoff_s = retry_backoff_s
        self._timeout_s = timeout_s
        self._connections: dict[int, BrokerConnection] = {}
        self._problems: dict[int, str] = {}  # node id -> the last reason its markers were not written

    def split(self, partitions: Iterable[TopicPartition]) -> tuple[list[TopicPartition], list[TopicPartition]]:
        """(the partitions this broker leads now, those it does not); gone partitions are in neither."""
        local, remote = [], []
        for tp in partitions:
            place = self._route(tp)
            if place is Place.LOCAL:
                local.append(tp)
            elif place is not Place.GONE:
                remote.append(tp)
        return local, remote

    async def deliver(self, marker: Marker, partitions: Collection[TopicPartition]) -> None:
        """Return once every partition's leader has written ``marker`` (or the partition is gone)."""
        pending, backoff, rounds = set(partitions), self._retry_backoff_s, 0
        while pending:
            pending = await self._round(marker, pending)
            rounds += 1
            if pending:
                if rounds == 1 or rounds % 50 == 0:
                    log.info("%s markers of producer %d: %d partitions not written yet (%s...), retrying",
                             marker.name, marker.producer_id, len(pending), _names(pending))  # fmt: skip
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF_S)

    async def _round(self, marker: Marker, pending: set[TopicPartition]) -> set[TopicPartition]:
        """One try for every pending partition; the partitions still pending after it."""
        left: set[TopicPartition] = set()
        leaders: dict[BrokerAddress, list[TopicPartition]] = defaultdict(list)
        for tp in pending:
            place = self._route(tp)
            if place is Place.LOCAL:
                if not self._write_local(marker, tp):
                    left.add(tp)
            elif place is Place.UNAVAILABLE:
                left.add(tp)
            elif isinstance(place, BrokerAddress):
                leaders[place].append(tp)
        answers = await asyncio.gather(*(self._send(a, marker, tps) for a, tps in leaders.items()))
        for unwritten in answers:
            left.update(unwritten)
        return left

    async def _send(
        self, leader: BrokerAddress, marker: Marker, partitions: list[TopicPartition]
    ) -> list[TopicPartition]:
        """WriteTxnMarkers to ``leader``; the partitions it did not write."""
        request = WriteTxnMarkersRequest(markers=[WritableTxnMarker(
            producer_id=marker.producer_id, producer_epoch=marker.producer_epoch, transaction_result=marker.commit,
            topics=by_topic(partitions), coordinator_epoch=marker.coordinator_epoch,
        )])  # fmt: skip
        try:
            response = await self._connection(leader).request(
                request, WRITE_TXN_MARKERS_VERSION, WriteTxnMarkersResponse
            )
        except InterBrokerError as exc:
            self._report(leader, str(exc), refused=isinstance(exc, InterBrokerAuthError))
            return partitions
        errors = {
            TopicPartition(topic.name, p.partition_index): ErrorCode.of(p.error_code)
            for result in response.markers
            for topic in result.topics
            for p in topic.partitions
        }
        unwritten = []
        for tp in partitions:
            error = errors.get(tp, ErrorCode.UNKNOWN_SERVER_ERROR)
            if error is ErrorCode.UNKNOWN_TOPIC_OR_PARTITION:
                log.info("%s marker for %s-%d skipped: broker %d says the partition is gone", marker.name, tp.topic,
                         tp.partition, leader.node_id)  # fmt: skip
            elif error is ErrorCode.INVALID_PRODUCER_EPOCH:
                log.warning("%s marker of producer %d at epoch %d for %s-%d skipped: broker %d holds a newer epoch",
                            marker.name, marker.producer_id, marker.producer_epoch, tp.topic, tp.partition,
                            leader.node_id)  # fmt: skip
            elif error is not ErrorCode.NONE:
                self._report(leader, f"it answered {error.name} for {tp.topic}-{tp.partition}")
                unwritten.append(tp)
        if not unwritten and self._problems.pop(leader.node_id, None) is not None:
            log.info("transaction markers for broker %d are written again", leader.node_id)
        return unwritten

    def _report(self, leader: BrokerAddress, problem: str, refused: bool = False) -> None:
        """Say why ``leader`` did not write markers, once per change of reason (deliveries retry every second);
        credentials it refused are an ERROR: nothing completes until an operator fixes them."""
        if self._problems.get(leader.node_id) != problem:
            self._problems[leader.node_id] = problem
            if refused:
                log.error("transaction markers for broker %d cannot be written: it refused this broker's inter-broker "
                          "credentials: %s; retrying", leader.node_id, problem)  # fmt: skip
            else:
                log.warning("transaction markers for broker %d not written yet: %s; retrying", leader.node_id, problem)

    def _connection(self, leader: BrokerAddress) -> BrokerConnection:
        found = self._connections.get(leader.node_id)
        if found is None or (found.host, found.port) != (leader.host, leader.port):
            if found is not None:
                found.close()
            found = self._connections[leader.node_id] = BrokerConnection(
                leader.host, leader.port, self._timeout_s, self._interbroker
            )
        return found

    def close(self) -> None:
        connections, self._connections = list(self._connections.values()), {}
        for connection in connections:
            connection.close()


def _names(partitions: Collection[TopicPartition]) -> str:
    first = sorted(partitions, key=lambda tp: (tp.topic, tp.partition))[:3]
    return ", ".join(f"{tp.topic}-{tp.partition}" for tp in first)
