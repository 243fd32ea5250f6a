"""ElectLeaders (API 43) in a cluster: one group of two members (``Cluster(replicas=2)``), in-process brokers.

A group's partitions share one leader, so an election is of the group and every partition asked for gets its
group's answer (``facade/leader_elections.py``). confluent-kafka's ``AdminClient.elect_leaders`` sends the request
to the controller Metadata names; the raw tests ask the other broker (NOT_CONTROLLER) at every version.

The members replicate for real: the leader keeps the in-sync set in etcd. Leadership is moved by writing the
group's state as an election leaves it (a new leader, the next epoch), a member is taken out of sync by stopping
it, and a group is made leaderless by naming a leader that does not live.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import pytest
from confluent_kafka import ElectionType, KafkaException, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from rockafka.cluster import NO_LEADER
from rockafka.cluster.etcd import Etcd
from rockafka.cluster.layout import GroupState, KeyLayout, decode_group, encode_group
from rockafka.cluster.readiness import wait_for_snapshot
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages import elect_leaders as el
from rockafka.testing import Cluster

from .clients.records import unique_topic
from .clients.wire import RawClient

pytestmark = pytest.mark.slow

DEADLINE_S = 60.0
GROUP = "group-1"
NAME = "elect"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with Cluster(groups=1, replicas=2, subprocess=False, name=NAME) as running:
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


def _move_to(cluster: Cluster, leader: int) -> int:
    """Make ``leader`` lead at the next epoch (an election's write); once both members are in sync again under it,
    the epoch."""
    epoch = _state(cluster).epoch + 1
    _write(cluster, GroupState(GROUP, leader, epoch, (leader,)))
    _until(cluster, lambda state: state == GroupState(GROUP, leader, epoch, (1, 2)), f"{leader} leads, both in sync")
    return epoch


def _until(cluster: Cluster, wanted: Callable[[GroupState], bool], what: str) -> GroupState:
    try:
        snapshot = asyncio.run(
            wait_for_snapshot(
                cluster.etcd.endpoint, NAME, lambda s: GROUP in s.groups and wanted(s.groups[GROUP]), DEADLINE_S
            )
        )
    except TimeoutError:
        raise AssertionError(f"etcd never showed: {what} (now {_state(cluster)})") from None
    return snapshot.groups[GROUP]


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
    not_needed = ErrorCode.ELECTION_NOT_NEEDED.value
    _until(cluster, lambda state: state.leader == 1 and state.in_sync == (1, 2), "1 leads, 2 in sync")
    assert _elect(cluster, topic, ElectionType.PREFERRED) == {0: not_needed, 1: not_needed}
    epoch = _move_to(cluster, 2)
    cluster.brokers[1].stop()  # 1 leaves the group and the in-sync set: 2 is the lowest member now
    _until(cluster, lambda state: state.in_sync == (2,), "2 dropped 1 from the in-sync set")
    assert _elect(cluster, topic, ElectionType.PREFERRED) == {0: not_needed, 1: not_needed}
    assert _state(cluster).leader == 2  # (a live preferred member out of sync: tests/cluster/test_in_sync_election.py)
    cluster.brokers[1].start()
    _until(cluster, lambda state: state.in_sync == (1, 2), "1 back in sync")
    assert _elect(cluster, topic, ElectionType.PREFERRED) == {0: 0, 1: 0}
    elected = _until(cluster, lambda state: state.leader == 1, "1 leads")
    assert elected.epoch == epoch + 1  # one election for both partitions
    _until(cluster, lambda state: state.in_sync == (1, 2), "2 back in sync under 1")


def test_an_unclean_election_of_a_group_with_a_live_leader_is_not_needed(cluster: Cluster, topic: str) -> None:
    not_needed = ErrorCode.ELECTION_NOT_NEEDED.value
    before = _state(cluster)
    assert _elect(cluster, topic, ElectionType.UNCLEAN) == {0: not_needed, 1: not_needed}
    assert _state(cluster) == before


def test_an_unclean_election_of_a_leaderless_group_elects_the_most_advanced_published_member(
    cluster: Cluster, topic: str
) -> None:
    gone = GroupState(GROUP, 7, _state(cluster).epoch + 1, (7,))  # its only in-sync member is not live
    _write(cluster, gone)
    leaderless = _until(cluster, lambda state: state.leader == NO_LEADER, "the controller left the group leaderless")
    assert leaderless.in_sync == (7,)  # the controller elects no one outside the set on its own
    snapshot = asyncio.run(
        wait_for_snapshot(cluster.etcd.endpoint, NAME, lambda s: {1, 2} <= set(s.log_ends), DEADLINE_S)
    )  # the members publish their log ends while the group has no leader
    assert {end.group for end in snapshot.log_ends.values()} == {GROUP}
    assert _elect(cluster, topic, ElectionType.UNCLEAN) == {0: 0, 1: 0}
    elected = _until(cluster, lambda state: state.leader in (1, 2), "an unclean election")
    assert elected.epoch == leaderless.epoch + 1
    _move_to(cluster, 1)


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
        epoch = _move_to(cluster, 2)
        moved = client.request(request, 2)
    answers = {
        r.topic: [(p.partition_id, p.error_code) for p in r.partition_result] for r in moved.replica_election_results
    }
    assert answers[topic] == [(0, 0), (1, 0)]
    assert _until(cluster, lambda state: state.leader == 1, "1 leads").epoch == epoch + 1
    _until(cluster, lambda state: state.in_sync == (1, 2), "2 back in sync under 1")
