"""ElectLeaders (API 43) in a cluster: one group of two members (``Cluster(replicas=2)``), in-process brokers.

A group's partitions share one leader, so an election is of the group and every partition asked for gets its
group's answer (``facade/leader_elections.py``). confluent-kafka's ``AdminClient.elect_leaders`` sends the request
to the controller Metadata names; the raw tests ask the other broker (NOT_CONTROLLER) at every version.

The group's state is set in etcd the way an election leaves it (a new leader, the next epoch, an in-sync set) so
each answer is shown exactly; ``_wire_elections`` gives each broker its ``ClusterLeaderElections``, the one line
the broker's app gains when this work is wired in.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from confluent_kafka import ElectionType, KafkaException, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from rockafka.cluster import NO_LEADER
from rockafka.cluster.etcd import Etcd
from rockafka.cluster.group_writes import publish_log_end
from rockafka.cluster.layout import GroupState, KeyLayout, LogEnd, decode_group, encode_group
from rockafka.cluster.readiness import wait_for_snapshot
from rockafka.facade.leader_elections import ClusterLeaderElections
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages import elect_leaders as el
from rockafka.testing import Cluster

from .clients.records import unique_topic
from .clients.wire import RawClient

pytestmark = pytest.mark.slow

DEADLINE_S = 60.0
GROUP = "group-1"
NAME = "elect"


def _wire_elections(cluster: Cluster) -> None:
    for handle in cluster.brokers.values():
        app = handle._runner._app  # type: ignore[union-attr]  # the in-process broker's app
        assert app is not None and app.broker is not None and app._member is not None
        app.broker.leader_elections = ClusterLeaderElections(app._member)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with Cluster(groups=1, replicas=2, subprocess=False, name=NAME) as running:
        _wire_elections(running)
        yield running


@pytest.fixture(scope="module")
def topic(cluster: Cluster) -> str:
    name = unique_topic("elect")
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    admin.create_topics([NewTopic(name, 2, 1)])[name].result(DEADLINE_S)
    asyncio.run(wait_for_snapshot(cluster.etcd.endpoint, NAME, lambda s: name in s.topics, DEADLINE_S))
    return name


def _state(cluster: Cluster) -> GroupState:
    async def read() -> GroupState:
        etcd = await Etcd.connect([cluster.etcd.endpoint])
        try:
            entry = await etcd.get(KeyLayout(NAME).group(GROUP))
            assert entry is not None
            return decode_group(GROUP, entry.value)
        finally:
            await etcd.close()

    return asyncio.run(read())


def _set_state(cluster: Cluster, leader: int, in_sync: tuple[int, ...]) -> GroupState:
    """Write the group's state as an election would (the next epoch), and wait until the brokers see it."""
    state = GroupState(GROUP, leader, _state(cluster).epoch + 1, in_sync)
    _write(cluster, state)
    asyncio.run(wait_for_snapshot(cluster.etcd.endpoint, NAME, lambda s: s.groups[GROUP] == state, DEADLINE_S))
    return state


def _write(cluster: Cluster, state: GroupState) -> None:
    async def write() -> None:
        etcd = await Etcd.connect([cluster.etcd.endpoint])
        try:
            await etcd.swap([], [etcd.txn.put(KeyLayout(NAME).group(GROUP), encode_group(state))])
        finally:
            await etcd.close()

    asyncio.run(write())


def _elect(cluster: Cluster, topic: str, election: ElectionType) -> dict[int, int]:
    """Each partition's answer to confluent-kafka's elect_leaders: 0, or the Kafka error code."""
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    asked = [TopicPartition(topic, 0), TopicPartition(topic, 1)]
    answers = admin.elect_leaders(election, asked).result(DEADLINE_S)
    codes = {}
    for partition, error in answers.items():
        codes[partition.partition] = 0 if error is None else KafkaException(error).args[0].code()
    return codes


def test_a_preferred_election_moves_leadership_to_the_lowest_member_only_when_it_is_in_sync(
    cluster: Cluster, topic: str
) -> None:
    not_needed, unavailable = ErrorCode.ELECTION_NOT_NEEDED.value, ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE.value
    assert _state(cluster).leader == 1
    assert _elect(cluster, topic, ElectionType.PREFERRED) == {0: not_needed, 1: not_needed}
    moved = _set_state(cluster, 2, (2,))  # 2 leads; 1 is not in sync
    assert _elect(cluster, topic, ElectionType.PREFERRED) == {0: unavailable, 1: unavailable}
    assert _state(cluster) == moved
    synced = _set_state(cluster, 2, (1, 2))
    assert _elect(cluster, topic, ElectionType.PREFERRED) == {0: 0, 1: 0}
    assert _state(cluster) == GroupState(GROUP, 1, synced.epoch + 1, (1,))  # one election for both partitions


def test_an_unclean_election_of_a_group_with_a_live_leader_is_not_needed(cluster: Cluster, topic: str) -> None:
    not_needed = ErrorCode.ELECTION_NOT_NEEDED.value
    before = _state(cluster)
    assert _elect(cluster, topic, ElectionType.UNCLEAN) == {0: not_needed, 1: not_needed}
    assert _state(cluster) == before


def test_an_unclean_election_of_a_leaderless_group_elects_the_most_advanced_published_member(
    cluster: Cluster, topic: str
) -> None:
    eligible_none = ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE.value
    gone = GroupState(GROUP, 7, _state(cluster).epoch + 1, (7,))  # its only in-sync member is not live
    _write(cluster, gone)
    leaderless = asyncio.run(
        wait_for_snapshot(cluster.etcd.endpoint, NAME, lambda s: s.groups[GROUP].leader == NO_LEADER, DEADLINE_S)
    ).groups[GROUP]
    assert leaderless.in_sync == (7,)  # the controller elects no one outside the set on its own
    assert _elect(cluster, topic, ElectionType.UNCLEAN) == {0: eligible_none, 1: eligible_none}  # no end published

    async def publish() -> None:
        etcd = await Etcd.connect([cluster.etcd.endpoint])
        try:
            lease = await etcd.grant_lease(60)
            await publish_log_end(etcd, KeyLayout(NAME), LogEnd(1, GROUP, 0, 0), lease)
            await publish_log_end(etcd, KeyLayout(NAME), LogEnd(2, GROUP, leaderless.epoch, 0), lease)
        finally:
            await etcd.close()

    asyncio.run(publish())
    assert _elect(cluster, topic, ElectionType.UNCLEAN) == {0: 0, 1: 0}
    assert _state(cluster) == GroupState(GROUP, 2, leaderless.epoch + 1, (2,))  # the newest epoch wins
    _set_state(cluster, 1, (1,))


@pytest.mark.parametrize("version", range(3))
def test_a_broker_that_is_not_the_controller_answers_not_controller(cluster: Cluster, topic: str, version: int) -> None:
    controller = asyncio.run(
        wait_for_snapshot(cluster.etcd.endpoint, NAME, lambda s: s.controller is not None, DEADLINE_S)
    ).controller
    other = next(handle for node, handle in cluster.brokers.items() if node != controller)
    request = el.ElectLeadersRequest(topic_partitions=[el.TopicPartitions(topic=topic, partitions=[0, 1])])
    with RawClient(other.bootstrap) as client:
        response = client.request(request, version)
    codes = [p.error_code for result in response.replica_election_results for p in result.partition_result]
    assert codes == [ErrorCode.NOT_CONTROLLER, ErrorCode.NOT_CONTROLLER]
    assert response.error_code == (ErrorCode.NONE if version == 0 else ErrorCode.NOT_CONTROLLER)


def test_a_null_partition_list_elects_every_group_and_lists_only_the_partitions_it_had_to(
    cluster: Cluster, topic: str
) -> None:
    controller = asyncio.run(
        wait_for_snapshot(cluster.etcd.endpoint, NAME, lambda s: s.controller is not None, DEADLINE_S)
    ).controller
    assert controller is not None
    request = el.ElectLeadersRequest(election_type=0, topic_partitions=None)
    with RawClient(cluster.brokers[controller].bootstrap) as client:
        assert _state(cluster).leader == 1  # the preferred member leads: nothing was needed
        quiet = client.request(request, 2)
        assert quiet.error_code == 0
        assert {r.topic: r.partition_result for r in quiet.replica_election_results}[topic] == []
        synced = _set_state(cluster, 2, (1, 2))
        moved = client.request(request, 2)
    answers = {
        r.topic: [(p.partition_id, p.error_code) for p in r.partition_result] for r in moved.replica_election_results
    }
    assert answers[topic] == [(0, 0), (1, 0)]
    assert _state(cluster) == GroupState(GROUP, 1, synced.epoch + 1, (1,))
