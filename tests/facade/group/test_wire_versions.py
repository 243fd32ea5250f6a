"""Every version of every group API, through the broker's real dispatcher: requests encoded as a client
would, responses decoded at the same version, and one group's whole life at each version level."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from rockafka.facade.broker import Broker
from rockafka.facade.config import load_broker_config
from rockafka.facade.dispatch import RequestDispatcher
from rockafka.facade.handlers import HANDLERS
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.framing import decode_response, encode_request
from rockafka.facade.protocol.message import ApiMessage
from rockafka.facade.protocol.messages import delete_groups as dg
from rockafka.facade.protocol.messages import describe_groups as dsg
from rockafka.facade.protocol.messages import find_coordinator as fc
from rockafka.facade.protocol.messages import heartbeat as hb
from rockafka.facade.protocol.messages import join_group as jg
from rockafka.facade.protocol.messages import leave_group as lg
from rockafka.facade.protocol.messages import list_groups as lsg
from rockafka.facade.protocol.messages import offset_commit as oc
from rockafka.facade.protocol.messages import offset_delete as od
from rockafka.facade.protocol.messages import offset_fetch as of
from rockafka.facade.protocol.messages import sync_group as sg
from rockafka.facade.server import ConnectionInfo

from .helpers import open_store

M = TypeVar("M", bound=ApiMessage)
SPEC_RANGES = {8: 9, 9: 9, 10: 6, 11: 9, 12: 4, 13: 5, 14: 5, 15: 5, 16: 5, 42: 2, 47: 0}


def test_every_group_api_advertises_its_full_spec_range() -> None:
    assert {key: (HANDLERS[key].min_version, HANDLERS[key].max_version) for key in SPEC_RANGES} == {
        key: (0, top) for key, top in SPEC_RANGES.items()
    }


class Client:
    def __init__(self, broker: Broker) -> None:
        self._dispatcher = RequestDispatcher(broker)
        self._connection = ConnectionInfo("127.0.0.1:40000", "PLAINTEXT")
        self._correlation = 0

    async def call(self, request: ApiMessage, response: type[M], version: int) -> M:
        self._correlation += 1
        frame = encode_request(request, version, self._correlation, client_id="wire-test")[4:]
        outcome = self._dispatcher.dispatch(frame, self._connection)
        if isinstance(outcome, Awaitable):
            outcome = await asyncio.wait_for(outcome, 10)
        assert outcome is not None
        correlation, body = decode_response(b"".join(outcome)[4:], response, version)
        assert correlation == self._correlation
        return body


def _v(level: int, api_key: int) -> int:
    return min(level, SPEC_RANGES[api_key])


async def group_life(client: Client, level: int) -> None:
    group = f"group-at-{level}"
    version = _v(level, 10)
    if version >= 4:
        found = await client.call(
            fc.FindCoordinatorRequest(key_type=0, coordinator_keys=[group]), fc.FindCoordinatorResponse, version
        )
        assert [(c.key, c.error_code, c.node_id) for c in found.coordinators] == [(group, 0, 0)]
    else:
        found = await client.call(fc.FindCoordinatorRequest(key=group), fc.FindCoordinatorResponse, version)
        assert (found.error_code, found.node_id, found.host) == (0, 0, "127.0.0.1")

    version = _v(level, 11)
    join = jg.JoinGroupRequest(
        group_id=group, session_timeout_ms=10_000, rebalance_timeout_ms=10_000, protocol_type="consumer",
        protocols=[jg.JoinGroupRequestProtocol(name="range", metadata=b"subscription")],
    )  # fmt: skip
    joined = await client.call(join, jg.JoinGroupResponse, version)
    if version >= 4:
        assert joined.error_code == ErrorCode.MEMBER_ID_REQUIRED and joined.member_id
        join.member_id = joined.member_id
        joined = await client.call(join, jg.JoinGroupResponse, version)
    assert (joined.error_code, joined.generation_id, joined.protocol_name) == (0, 1, "range")
    assert joined.leader == joined.member_id and [m.metadata for m in joined.members] == [b"subscription"]
    assert joined.protocol_type == ("consumer" if version >= 7 else None)
    member = joined.member_id

    version = _v(level, 14)
    sync = sg.SyncGroupRequest(
        group_id=group, generation_id=1, member_id=member,
        protocol_type="consumer" if version >= 5 else None, protocol_name="range" if version >= 5 else None,
        assignments=[sg.SyncGroupRequestAssignment(member_id=member, assignment=b"assignment")],
    )  # fmt: skip
    synced = await client.call(sync, sg.SyncGroupResponse, version)
    assert (synced.error_code, synced.assignment) == (0, b"assignment")
    assert synced.protocol_name == ("range" if version >= 5 else None)

    beat = hb.HeartbeatRequest(group_id=group, generation_id=1, member_id=member)
    assert (await client.call(beat, hb.HeartbeatResponse, _v(level, 12))).error_code == 0

    version = _v(level, 8)
    commit = oc.OffsetCommitRequest(
        group_id=group, generation_id_or_member_epoch=1 if version >= 1 else -1,
        member_id=member if version >= 1 else "",
        topics=[oc.OffsetCommitRequestTopic(name="t", partitions=[oc.OffsetCommitRequestPartition(
            partition_index=1, committed_offset=40 + level, committed_leader_epoch=3 if version >= 6 else -1,
            committed_metadata=f"meta-{level}")])],
    )  # fmt: skip
    committed = await client.call(commit, oc.OffsetCommitResponse, version)
    # v0 has no generation: a commit without one is refused while the group has members
    expected_commit = ErrorCode.UNKNOWN_MEMBER_ID if version == 0 else ErrorCode.NONE
    assert committed.topics[0].partitions[0].error_code == expected_commit

    version = _v(level, 9)
    if version >= 8:
        fetch = of.OffsetFetchRequest(
            groups=[of.OffsetFetchRequestGroup(group_id=group, topics=None)], require_stable=True
        )
        fetched = await client.call(fetch, of.OffsetFetchResponse, version)
        partitions = [p for t in fetched.groups[0].topics for p in t.partitions]
    else:
        topics = [of.OffsetFetchRequestTopic(name="t", partition_indexes=[1, 0])]
        fetched = await client.call(
            of.OffsetFetchRequest(group_id=group, topics=topics), of.OffsetFetchResponse, version
        )
        partitions = [p for t in fetched.topics for p in t.partitions]
    rows = [(p.partition_index, p.committed_offset, p.metadata) for p in partitions]
    if expected_commit is ErrorCode.NONE:
        assert rows[0] == (1, 40 + level, f"meta-{level}")
        if version >= 5:
            assert partitions[0].committed_leader_epoch == (3 if _v(level, 8) >= 6 else -1)

    version = _v(level, 15)
    described = await client.call(dsg.DescribeGroupsRequest(groups=[group]), dsg.DescribeGroupsResponse, version)
    (info,) = described.groups
    assert (info.group_state, info.protocol_type, info.protocol_data) == ("Stable", "consumer", "range")
    assert [(m.member_id, m.client_id, m.client_host, m.member_assignment) for m in info.members] == [
        (member, "wire-test", "/127.0.0.1", b"assignment")
    ]

    version = _v(level, 16)
    listing = lsg.ListGroupsRequest(states_filter=["stable"] if version >= 4 else [])
    listed = await client.call(listing, lsg.ListGroupsResponse, version)
    assert group in {g.group_id for g in listed.groups}

    version = _v(level, 42)
    refused = await client.call(dg.DeleteGroupsRequest(groups_names=[group]), dg.DeleteGroupsResponse, version)
    assert refused.results[0].error_code == ErrorCode.NON_EMPTY_GROUP

    version = _v(level, 13)
    if version >= 3:
        leave = lg.LeaveGroupRequest(group_id=group, members=[lg.MemberIdentity(member_id=member)])
        left = await client.call(leave, lg.LeaveGroupResponse, version)
        assert left.error_code == 0 and [(m.member_id, m.error_code) for m in left.members] == [(member, 0)]
    else:
        left = await client.call(lg.LeaveGroupRequest(group_id=group, member_id=member), lg.LeaveGroupResponse, version)
        assert left.error_code == 0

    delete_offsets = od.OffsetDeleteRequest(
        group_id=group,
        topics=[od.OffsetDeleteRequestTopic(name="t", partitions=[od.OffsetDeleteRequestPartition(partition_index=1)])],
    )  # fmt: skip
    deleted = await client.call(delete_offsets, od.OffsetDeleteResponse, 0)
    if expected_commit is ErrorCode.NONE:
        assert deleted.error_code == 0 and deleted.topics[0].partitions[0].error_code == 0

    version = _v(level, 42)
    removed = await client.call(dg.DeleteGroupsRequest(groups_names=[group, "never"]), dg.DeleteGroupsResponse, version)
    assert [(r.group_id, r.error_code) for r in removed.results] == [
        (group, ErrorCode.NONE), ("never", ErrorCode.GROUP_ID_NOT_FOUND),
    ]  # fmt: skip


@pytest.mark.parametrize("level", range(10))
def test_a_group_lives_and_dies_at_every_version_level(tmp_path: Path, level: int) -> None:
    async def main() -> None:
        config = load_broker_config(overrides=[f"log.dirs={tmp_path}", "group.initial.rebalance.delay.ms=0"])
        store = open_store(tmp_path / "store")
        store.topics.create("t", 2)
        broker = Broker(config, store, "cluster")
        broker.groups.start()
        try:
            await group_life(Client(broker), level)
        finally:
            broker.groups.shutdown()
            store.close()

    asyncio.run(main())


def test_find_coordinator_refuses_key_types_not_served(tmp_path: Path) -> None:
    async def main() -> Any:
        config = load_broker_config(overrides=[f"log.dirs={tmp_path}"])
        store = open_store(tmp_path / "store")
        broker = Broker(config, store, "cluster")
        broker.groups.start()
        client = Client(broker)
        try:
            batched = fc.FindCoordinatorRequest(key_type=1, coordinator_keys=["txn-a", "txn-b"])
            many = await client.call(batched, fc.FindCoordinatorResponse, 6)
            single = await client.call(fc.FindCoordinatorRequest(key="txn", key_type=1), fc.FindCoordinatorResponse, 3)
            share = await client.call(fc.FindCoordinatorRequest(key="s", key_type=2), fc.FindCoordinatorResponse, 1)
            return many, single, share
        finally:
            broker.groups.shutdown()
            store.close()

    many, single, share = asyncio.run(main())
    expected = ErrorCode.NONE if 26 in HANDLERS else ErrorCode.INVALID_REQUEST
    assert [(c.key, c.error_code) for c in many.coordinators] == [("txn-a", expected), ("txn-b", expected)]
    assert single.error_code == expected
    assert (share.error_code, share.node_id) == (ErrorCode.INVALID_REQUEST, -1)
