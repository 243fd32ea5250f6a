"""A client that leaves takes its connection with it: the broker closes the socket at once and drops what
the connection had parked, counted from outside the broker process (its socket descriptors in
``/proc/<pid>/fd`` and the kernel's TCP table), as an attacker holding descriptors would see it.

Each departing client parks a request that would otherwise hold for ten minutes (a long-poll Fetch with
``max_wait_ms`` = 600,000, or a JoinGroup in a rebalance that waits for a member that does not rejoin)
and closes its socket. The broker's socket count must come back to what it was before they came,
and none of its sockets may stay in CLOSE-WAIT (the peer gone, the broker not closing). A group member
that leaves mid-JoinGroup is treated as Kafka treats it: the rebalance completes with it, and it is
removed when its session expires, after which the others form a generation without it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import pytest

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.message import ApiMessage
from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest
from rockafka.facade.protocol.messages.describe_groups import DescribeGroupsRequest, DescribeGroupsResponse
from rockafka.facade.protocol.messages.fetch import FetchPartition, FetchRequest, FetchTopic
from rockafka.facade.protocol.messages.heartbeat import HeartbeatRequest, HeartbeatResponse
from rockafka.facade.protocol.messages.join_group import (
    JoinGroupRequest,
    JoinGroupRequestProtocol,
    JoinGroupResponse,
)
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse
from rockafka.facade.protocol.messages.sync_group import (
    SyncGroupRequest,
    SyncGroupRequestAssignment,
    SyncGroupResponse,
)

from .brokerproc import BrokerProcess
from .clients.fixtures import module_broker
from .clients.wire import RawClient

broker = module_broker(**{"group.min.session.timeout.ms": "1000", "group.initial.rebalance.delay.ms": "0"})
DEPARTING = 64
TEN_MINUTES_MS = 600_000
SETTLE_S = 10.0
"""How long the broker may take to notice the departures (it should take milliseconds; a broker that
waits for the parked requests holds them ten minutes)."""
CLOSE_WAIT = "08"  # the state column of /proc/net/tcp


def descriptors(pid: int) -> int:
    """The process's socket descriptors (its files come and go with the store's work)."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except FileNotFoundError:
            continue
    return count


def close_wait_sockets(port: int) -> int:
    """Sockets on the broker's ``port`` in CLOSE-WAIT (the client closed, the broker has not)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as lines:
                next(lines)
                for line in lines:
                    fields = line.split()
                    local_port = int(fields[1].rsplit(":", 1)[1], 16)
                    count += local_port == port and fields[3] == CLOSE_WAIT
        except FileNotFoundError:
            continue
    return count


def settled(broker: BrokerProcess, baseline: int) -> tuple[int, int]:
    """Wait (bounded) until the broker is back to ``baseline`` descriptors with no socket in CLOSE-WAIT;
    the last descriptor and CLOSE-WAIT counts seen."""
    assert broker.process is not None
    deadline = time.monotonic() + SETTLE_S
    while True:
        counts = descriptors(broker.process.pid), close_wait_sockets(broker.port)
        if (counts[0] <= baseline and counts[1] == 0) or time.monotonic() > deadline:
            return counts
        time.sleep(0.05)


def quiet_descriptors(broker: BrokerProcess) -> int:
    """The broker's descriptors once no connection of an earlier test is closing (bounded wait)."""
    assert broker.process is not None
    deadline = time.monotonic() + SETTLE_S
    last = -1
    while time.monotonic() < deadline:
        count = descriptors(broker.process.pid)
        if count == last and close_wait_sockets(broker.port) == 0:
            break
        last = count
        time.sleep(0.1)
    return descriptors(broker.process.pid)


def depart(broker: BrokerProcess, park: Callable[[RawClient], None], count: int = DEPARTING) -> None:
    """Open ``count`` connections, park a request on each (``park`` sends it and returns once the
    broker has read it), close them all, and check that the broker lets every one of them go."""
    assert broker.process is not None
    baseline = quiet_descriptors(broker)
    clients = [RawClient(broker.bootstrap, client_id=f"departing-{i}") for i in range(count)]
    try:
        for client in clients:
            park(client)
        deadline = time.monotonic() + SETTLE_S
        while descriptors(broker.process.pid) < baseline + count and time.monotonic() < deadline:
            time.sleep(0.05)  # accepted, each one a descriptor
        assert descriptors(broker.process.pid) >= baseline + count
        time.sleep(0.2)
        for client in clients:  # still parked: nothing answered
            client.sock.setblocking(False)
            with pytest.raises(BlockingIOError):
                client.sock.recv(1)
    finally:
        for client in clients:
            client.close()
    held, close_wait = settled(broker, baseline)
    assert held <= baseline and close_wait == 0, (
        f"{count} clients left: the broker holds {held} descriptors ({baseline} before they came), "
        f"{close_wait} sockets in CLOSE-WAIT"
    )


def create_topic(client: RawClient, name: str) -> None:
    request = MetadataRequest(topics=[MetadataRequestTopic(name=name)], allow_auto_topic_creation=True)
    for _ in range(20):
        if client.request(request, 9, MetadataResponse).topics[0].error_code == 0:
            return
    raise AssertionError(f"topic {name} was not created")


def parked_behind_api_versions(client: RawClient, request: ApiMessage, version: int) -> None:
    """Send ApiVersions and ``request`` in one write and wait for the ApiVersions answer: the broker has
    read ``request`` too (one small write arrives in one read), and parks it."""
    _, probe = client.frame(ApiVersionsRequest(), 0)
    _, frame = client.frame(request, version)
    client.send(probe + frame)
    client.read_frame()


def test_departed_long_poll_fetches_leave_nothing_behind(broker: BrokerProcess) -> None:
    with RawClient(broker.bootstrap) as client:
        create_topic(client, "departed-fetch")
    partition = FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20)
    fetch = FetchRequest(
        max_wait_ms=TEN_MINUTES_MS, min_bytes=1, max_bytes=1 << 20,
        topics=[FetchTopic(topic="departed-fetch", partitions=[partition])],
    )  # fmt: skip
    depart(broker, lambda client: parked_behind_api_versions(client, fetch, 11))
    with RawClient(broker.bootstrap) as client:  # the broker still serves
        assert client.request(MetadataRequest(topics=None), 9, MetadataResponse).brokers


def join_request(group: str, member_id: str = "", *, session_ms: int, rebalance_ms: int) -> JoinGroupRequest:
    protocol = JoinGroupRequestProtocol(name="range", metadata=b"subscription")
    return JoinGroupRequest(
        group_id=group, session_timeout_ms=session_ms, rebalance_timeout_ms=rebalance_ms, member_id=member_id,
        protocol_type="consumer", protocols=[protocol],
    )  # fmt: skip


def join(client: RawClient, group: str, *, session_ms: int, rebalance_ms: int) -> JoinGroupResponse:
    """JoinGroup v5 as a client does it: the first answer is MEMBER_ID_REQUIRED, the second the generation."""
    first = client.request(join_request(group, session_ms=session_ms, rebalance_ms=rebalance_ms), 5, JoinGroupResponse)
    assert first.error_code == ErrorCode.MEMBER_ID_REQUIRED
    request = join_request(group, first.member_id, session_ms=session_ms, rebalance_ms=rebalance_ms)
    answer = client.request(request, 5, JoinGroupResponse)
    assert answer.error_code == ErrorCode.NONE, answer
    return answer


def sync(client: RawClient, group: str, joined: JoinGroupResponse) -> None:
    assignments = [SyncGroupRequestAssignment(member_id=m.member_id, assignment=b"a") for m in joined.members]
    request = SyncGroupRequest(
        group_id=group, generation_id=joined.generation_id, member_id=joined.member_id, assignments=assignments
    )
    assert client.request(request, 3, SyncGroupResponse).error_code == ErrorCode.NONE


def heartbeat(client: RawClient, group: str, joined: JoinGroupResponse) -> ErrorCode:
    request = HeartbeatRequest(group_id=group, generation_id=joined.generation_id, member_id=joined.member_id)
    return ErrorCode(client.request(request, 3, HeartbeatResponse).error_code)


def members(client: RawClient, group: str) -> tuple[str, list[str]]:
    described = client.request(DescribeGroupsRequest(groups=[group]), 3, DescribeGroupsResponse).groups[0]
    return described.group_state, sorted(m.member_id for m in described.members)


def test_departed_joiners_leave_nothing_behind(broker: BrokerProcess) -> None:
    """Each departing client joins a Stable group whose one member does not rejoin for a minute: its
    JoinGroup parks until that member's session ends (or the ten-minute rebalance timeout)."""
    with RawClient(broker.bootstrap, client_id="stays") as stays:
        sync(stays, "departed-join", join(stays, "departed-join", session_ms=60_000, rebalance_ms=60_000))

        def park(client: RawClient) -> None:
            request = join_request("departed-join", session_ms=30_000, rebalance_ms=TEN_MINUTES_MS)
            first = client.request(request, 5, JoinGroupResponse)
            assert first.error_code == ErrorCode.MEMBER_ID_REQUIRED
            request.member_id = first.member_id
            parked_behind_api_versions(client, request, 5)

        depart(broker, park)
        assert members(stays, "departed-join")[0] == "PreparingRebalance"


def test_a_member_that_leaves_mid_join_is_removed_when_its_session_expires(broker: BrokerProcess) -> None:
    """Kafka's treatment: the departed member's JoinGroup still counts (the rebalance completes with it, as
    its answer was owed), it never syncs nor heartbeats, and its session (2 s) removes it; the member that
    stayed then forms a generation of its own."""
    group = "departed-mid-join"
    with RawClient(broker.bootstrap, client_id="stays") as stays:
        first = join(stays, group, session_ms=30_000, rebalance_ms=30_000)
        sync(stays, group, first)
        leaver = RawClient(broker.bootstrap, client_id="leaves")
        request = join_request(group, session_ms=2000, rebalance_ms=30_000)
        request.member_id = leaver.request(request, 5, JoinGroupResponse).member_id
        parked_behind_api_versions(leaver, request, 5)
        leaver.close()
        assert heartbeat(stays, group, first) == ErrorCode.REBALANCE_IN_PROGRESS
        second = stays.request(join_request(group, first.member_id, session_ms=30_000, rebalance_ms=30_000), 5)
        assert isinstance(second, JoinGroupResponse) and second.error_code == ErrorCode.NONE
        assert sorted(m.member_id for m in second.members) == sorted([first.member_id, request.member_id])
        sync(stays, group, second)
        deadline = time.monotonic() + 15.0
        while heartbeat(stays, group, second) == ErrorCode.NONE and time.monotonic() < deadline:
            time.sleep(0.2)
        third = stays.request(join_request(group, first.member_id, session_ms=30_000, rebalance_ms=30_000), 5)
        assert isinstance(third, JoinGroupResponse) and third.error_code == ErrorCode.NONE
        assert [m.member_id for m in third.members] == [first.member_id]
        assert third.generation_id == second.generation_id + 1
        sync(stays, group, third)
        assert members(stays, group) == ("Stable", [first.member_id])


def test_departed_clients_past_the_in_flight_limit_leave_nothing_behind(broker: BrokerProcess) -> None:
    """Each client pipelines 200 parked fetches: the broker dispatches 128 and stops reading, so it cannot
    see the end of input by reading; it must notice the hang-up all the same."""
    with RawClient(broker.bootstrap) as client:
        create_topic(client, "departed-pipelined")
    partition = FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20)
    fetch = FetchRequest(
        max_wait_ms=TEN_MINUTES_MS, min_bytes=1, max_bytes=1 << 20,
        topics=[FetchTopic(topic="departed-pipelined", partitions=[partition])],
    )  # fmt: skip

    def park(client: RawClient) -> None:
        client.send(b"".join(client.frame(fetch, 11)[1] for _ in range(200)))

    depart(broker, park, count=8)
