"""Share groups through the broker's real dispatcher, encoded as a client would at v1: the error codes of
ShareGroupHeartbeat, ShareGroupDescribe, ShareFetch and ShareAcknowledge, acquisition and acknowledgement
between two members, lock expiry on the broker's (manual) clock, and a restart from the saved document."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest
from kafka.record.default_records import DefaultRecordBatchBuilder

from rockafka.facade.broker import Broker
from rockafka.facade.clock import ManualClock
from rockafka.facade.config import load_broker_config
from rockafka.facade.dispatch import RequestDispatcher
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.framing import decode_response, encode_request
from rockafka.facade.protocol.message import ApiMessage
from rockafka.facade.protocol.messages import delete_groups as dg
from rockafka.facade.protocol.messages import describe_configs as dc
from rockafka.facade.protocol.messages import describe_groups as dsg
from rockafka.facade.protocol.messages import incremental_alter_configs as iac
from rockafka.facade.protocol.messages import join_group as jg
from rockafka.facade.protocol.messages import list_groups as lsg
from rockafka.facade.protocol.messages import produce as pr
from rockafka.facade.protocol.messages import share_acknowledge as sa
from rockafka.facade.protocol.messages import share_fetch as sf
from rockafka.facade.protocol.messages import share_group_describe as sgd
from rockafka.facade.protocol.messages import share_group_heartbeat as sgh
from rockafka.facade.server import ConnectionInfo

from .helpers import open_store

M = TypeVar("M", bound=ApiMessage)
TOPIC = "queue"
LOCK_S = 5.0
ACCEPT, RELEASE, REJECT = 1, 2, 3


class Client:
    def __init__(self, broker: Broker) -> None:
        self._dispatcher = RequestDispatcher(broker)
        self._connection = ConnectionInfo("127.0.0.1:40001", "PLAINTEXT")
        self._correlation = 0

    async def call(self, request: ApiMessage, response: type[M], version: int = 1) -> M:
        self._correlation += 1
        frame = encode_request(request, version, self._correlation, client_id="share-wire")[4:]
        outcome = self._dispatcher.dispatch(frame, self._connection)
        if isinstance(outcome, Awaitable):
            outcome = await asyncio.wait_for(outcome, 10)
        assert outcome is not None
        correlation, body = decode_response(b"".join(outcome)[4:], response, version)
        assert correlation == self._correlation
        return body

    async def beat(
        self, group: str, member: str, epoch: int, topics: list[str] | None
    ) -> sgh.ShareGroupHeartbeatResponse:
        request = sgh.ShareGroupHeartbeatRequest(
            group_id=group, member_id=member, member_epoch=epoch, subscribed_topic_names=topics
        )
        return await self.call(request, sgh.ShareGroupHeartbeatResponse)

    async def fetch(
        self, group: str, member: str, epoch: int, topic_id: uuid.UUID, acks: list[sf.AcknowledgementBatch] = (),
        *, max_records: int = 100, max_wait_ms: int = 0,
    ) -> sf.ShareFetchResponse:  # fmt: skip
        request = sf.ShareFetchRequest(
            group_id=group, member_id=member, share_session_epoch=epoch, max_wait_ms=max_wait_ms,
            max_bytes=1 << 20, max_records=max_records, batch_size=max_records,
            topics=[sf.FetchTopic(topic_id=topic_id, partitions=[
                sf.FetchPartition(partition_index=0, acknowledgement_batches=list(acks))])],
        )  # fmt: skip
        return await self.call(request, sf.ShareFetchResponse)

    async def acknowledge(
        self, group: str, member: str, epoch: int, topic_id: uuid.UUID, first: int, last: int, kind: int
    ) -> sa.ShareAcknowledgeResponse:
        batch = sa.AcknowledgementBatch(first_offset=first, last_offset=last, acknowledge_types=[kind])
        request = sa.ShareAcknowledgeRequest(
            group_id=group, member_id=member, share_session_epoch=epoch,
            topics=[sa.AcknowledgeTopic(topic_id=topic_id, partitions=[
                sa.AcknowledgePartition(partition_index=0, acknowledgement_batches=[batch])])],
        )  # fmt: skip
        return await self.call(request, sa.ShareAcknowledgeResponse)


def ack(first: int, last: int, kind: int) -> sf.AcknowledgementBatch:
    return sf.AcknowledgementBatch(first_offset=first, last_offset=last, acknowledge_types=[kind])


def acquired(response: sf.ShareFetchResponse) -> list[tuple[int, int, int]]:
    return [
        (r.first_offset, r.last_offset, r.delivery_count)
        for t in response.responses
        for p in t.partitions
        for r in p.acquired_records
    ]


def partition(response: sf.ShareFetchResponse) -> sf.PartitionData:
    (topic,) = response.responses
    (only,) = topic.partitions
    return only


async def produce(client: Client, count: int) -> None:
    """``count`` records, one batch (one Produce) each: a share fetch acquires whole batches."""
    for i in range(count):
        builder = DefaultRecordBatchBuilder(2, 0, False, -1, -1, -1, 1 << 20)
        builder.append(0, timestamp=1_700_000_000_000, key=None, value=b"%d" % i, headers=[])
        data = pr.PartitionProduceData(index=0, records=bytes(builder.build()))
        request = pr.ProduceRequest(
            acks=1, timeout_ms=5000, topic_data=[pr.TopicProduceData(name=TOPIC, partition_data=[data])]
        )
        answer = await client.call(request, pr.ProduceResponse, 9)
        assert answer.responses[0].partition_responses[0].error_code == ErrorCode.NONE


T = TypeVar("T")


def run(
    root: Path, scenario: Callable[[Client, Broker, ManualClock, uuid.UUID], Awaitable[T]], flush_mode: str = "async"
) -> T:
    async def main() -> T:
        lock_ms = int(LOCK_S * 1000)
        overrides = [
            f"log.dirs={root}",
            f"group.share.record.lock.duration.ms={lock_ms}",
            "group.share.delivery.count.limit=3",
        ]
        config = load_broker_config(overrides=overrides)
        store = open_store(root / "store", flush_mode=flush_mode)
        if TOPIC not in {t.name for t in store.topics.list()}:
            store.topics.create(TOPIC, 1)
        clock = ManualClock()
        broker = Broker(config, store, "cluster", clock=clock)
        broker.groups.start()
        broker.groups.share.configs.replace("g", {"share.auto.offset.reset": "earliest"})
        try:
            return await scenario(Client(broker), broker, clock, store.topics.describe(TOPIC).topic_id)
        finally:
            broker.groups.shutdown()
            store.close()

    return asyncio.run(main())


def test_heartbeat_errors_membership_and_listing(tmp_path: Path) -> None:
    async def scenario(client: Client, broker: Broker, clock: ManualClock, topic_id: uuid.UUID) -> None:
        assert (await client.beat("", "m1", 0, [TOPIC])).error_code == ErrorCode.INVALID_REQUEST
        assert (await client.beat("g", "m1", 0, None)).error_code == ErrorCode.INVALID_REQUEST
        assert (await client.beat("g", "nobody", 3, None)).error_code == ErrorCode.UNKNOWN_MEMBER_ID
        joined = await client.beat("g", "m1", 0, [TOPIC])
        assert (joined.error_code, joined.member_id, joined.member_epoch) == (0, "m1", 1)
        assert joined.assignment is not None
        assert [(tp.topic_id, tp.partitions) for tp in joined.assignment.topic_partitions] == [(topic_id, [0])]
        second = await client.beat("g", "m2", 0, [TOPIC])
        assert second.member_epoch == 2 and second.assignment is not None  # both share partition 0
        assert second.assignment.topic_partitions[0].partitions == [0]
        assert (await client.beat("g", "m1", 7, None)).error_code == ErrorCode.FENCED_MEMBER_EPOCH
        assert (await client.beat("g", "m1", 1, None)).member_epoch == 2
        listed = await client.call(lsg.ListGroupsRequest(types_filter=["share"]), lsg.ListGroupsResponse, 5)
        assert [(g.group_id, g.group_type, g.group_state, g.protocol_type) for g in listed.groups] == [
            ("g", "share", "Stable", "share")
        ]
        described = await client.call(sgd.ShareGroupDescribeRequest(group_ids=["g", "nope"]),
                                      sgd.ShareGroupDescribeResponse)  # fmt: skip
        found, missing = described.groups
        assert (found.error_code, found.group_state, found.group_epoch, found.assignor_name) == (
            0,
            "Stable",
            2,
            "simple",
        )
        assert sorted(m.member_id for m in found.members) == ["m1", "m2"]
        assert missing.error_code == ErrorCode.GROUP_ID_NOT_FOUND
        classic = await client.call(dsg.DescribeGroupsRequest(groups=["g"]), dsg.DescribeGroupsResponse, 5)
        assert classic.groups[0].error_code == ErrorCode.GROUP_ID_NOT_FOUND
        join = jg.JoinGroupRequest(group_id="classic", session_timeout_ms=10_000, rebalance_timeout_ms=10_000,
                                   protocol_type="consumer", member_id="",
                                   protocols=[jg.JoinGroupRequestProtocol(name="range", metadata=b"")])  # fmt: skip
        join.group_id = "g"  # a share group's id: no classic member joins it
        assert (await client.call(join, jg.JoinGroupResponse, 3)).error_code == ErrorCode.INCONSISTENT_GROUP_PROTOCOL
        join.group_id = "classic"
        joining = asyncio.ensure_future(client.call(join, jg.JoinGroupResponse, 3))  # parks: the initial delay
        for _ in range(5):
            await asyncio.sleep(0)
        assert (await client.beat("classic", "m9", 0, [TOPIC])).error_code == ErrorCode.GROUP_ID_NOT_FOUND
        joining.cancel()
        delete = dg.DeleteGroupsRequest(groups_names=["g"])
        deleted = await client.call(delete, dg.DeleteGroupsResponse, 2)
        assert deleted.results[0].error_code == ErrorCode.NON_EMPTY_GROUP
        left = await client.beat("g", "m2", -1, None)
        assert (left.error_code, left.member_epoch) == (0, -1)
        clock.advance(60)  # m1 stops heartbeating: its session ends
        assert "g" in broker.groups.share.groups and not broker.groups.share.groups["g"].members
        assert (await client.call(delete, dg.DeleteGroupsResponse, 2)).results[0].error_code == ErrorCode.NONE
        listed = await client.call(lsg.ListGroupsRequest(types_filter=["share"]), lsg.ListGroupsResponse, 5)
        assert listed.groups == []

    run(tmp_path, scenario)


def test_fetch_and_acknowledge_error_codes(tmp_path: Path) -> None:
    async def scenario(client: Client, broker: Broker, clock: ManualClock, topic_id: uuid.UUID) -> None:
        await produce(client, 4)
        assert (await client.fetch("g", "m1", 0, topic_id)).error_code == ErrorCode.UNKNOWN_MEMBER_ID
        await client.beat("g", "m1", 0, [TOPIC])
        assert (await client.fetch("g", "m1", 3, topic_id)).error_code == ErrorCode.SHARE_SESSION_NOT_FOUND
        refused = await client.fetch("g", "m1", 0, topic_id, [ack(0, 0, ACCEPT)])
        assert refused.error_code == ErrorCode.INVALID_REQUEST
        assert (await client.fetch("", "m1", 0, topic_id)).error_code == ErrorCode.INVALID_REQUEST
        first = await client.fetch("g", "m1", 0, topic_id, max_records=2)
        assert (first.error_code, first.acquisition_lock_timeout_ms) == (0, int(LOCK_S * 1000))
        assert acquired(first) == [(0, 1, 1)] and partition(first).records
        assert (await client.fetch("g", "m1", 5, topic_id)).error_code == ErrorCode.INVALID_SHARE_SESSION_EPOCH
        wrong = await client.fetch("g", "m1", 1, topic_id, [ack(2, 3, ACCEPT)], max_records=0)
        assert partition(wrong).acknowledge_error_code == ErrorCode.INVALID_RECORD_STATE
        reopened = await client.acknowledge("g", "m1", 0, topic_id, 0, 0, ACCEPT)
        assert reopened.error_code == ErrorCode.INVALID_SHARE_SESSION_EPOCH
        bad_topic = await client.acknowledge("g", "m1", 2, uuid.uuid4(), 0, 0, ACCEPT)
        assert bad_topic.responses[0].partitions[0].error_code == ErrorCode.UNKNOWN_TOPIC_ID
        done = await client.acknowledge("g", "m1", 3, topic_id, 0, 1, ACCEPT)
        assert done.responses[0].partitions[0].error_code == ErrorCode.NONE
        twice = await client.acknowledge("g", "m1", 4, topic_id, 0, 1, ACCEPT)
        assert twice.responses[0].partitions[0].error_code == ErrorCode.INVALID_RECORD_STATE

    run(tmp_path, scenario)


@pytest.mark.parametrize("flush_mode", ["async", "sync"])
def test_two_members_release_reject_expiry_and_restart(tmp_path: Path, flush_mode: str) -> None:
    async def first_life(client: Client, broker: Broker, clock: ManualClock, topic_id: uuid.UUID) -> None:
        await produce(client, 6)
        await client.beat("g", "a", 0, [TOPIC])
        await client.beat("g", "b", 0, [TOPIC])
        got_a = await client.fetch("g", "a", 0, topic_id, max_records=3)
        got_b = await client.fetch("g", "b", 0, topic_id, max_records=10)
        assert (acquired(got_a), acquired(got_b)) == ([(0, 2, 1)], [(3, 5, 1)])  # disjoint
        assert acquired(await client.fetch("g", "b", 1, topic_id)) == []  # nothing left to acquire
        # a accepts 0, releases 1, rejects 2; b accepts 3 and holds 4-5 past its lock
        await client.fetch("g", "a", 1, topic_id, [ack(0, 0, ACCEPT), ack(1, 1, RELEASE), ack(2, 2, REJECT)],
                           max_records=0)  # fmt: skip
        await client.acknowledge("g", "b", 2, topic_id, 3, 3, ACCEPT)
        assert acquired(await client.fetch("g", "a", 2, topic_id)) == [(1, 1, 2)]
        clock.advance(LOCK_S + 1)
        assert acquired(await client.fetch("g", "a", 3, topic_id)) == [(1, 1, 3), (4, 5, 2)]
        closing = await client.fetch("g", "a", -1, topic_id, [ack(4, 4, ACCEPT)], max_records=0)
        assert partition(closing).acknowledge_error_code == ErrorCode.NONE  # and 1, 5 are released

    async def second_life(client: Client, broker: Broker, clock: ManualClock, topic_id: uuid.UUID) -> None:
        await client.beat("g", "c", 0, [TOPIC])
        # 0, 3, 4 accepted, 2 rejected, 1 released at the delivery limit (3): only 5 is delivered again
        assert acquired(await client.fetch("g", "c", 0, topic_id)) == [(5, 5, 3)]

    run(tmp_path, first_life, flush_mode)  # under sync, each acknowledgement is answered once fsynced
    run(tmp_path, second_life, flush_mode)


GROUP_RESOURCE = 32  # Kafka's config resource type of a group


def test_share_group_configs_are_described_and_altered(tmp_path: Path) -> None:
    async def scenario(client: Client, broker: Broker, clock: ManualClock, topic_id: uuid.UUID) -> None:
        async def alter(name: str, value: str) -> int:
            config = iac.AlterableConfig(name=name, config_operation=0, value=value)
            resource = iac.AlterConfigsResource(resource_type=GROUP_RESOURCE, resource_name="h", configs=[config])
            answer = await client.call(
                iac.IncrementalAlterConfigsRequest(resources=[resource]), iac.IncrementalAlterConfigsResponse, 1
            )
            return answer.responses[0].error_code

        async def described() -> dict[str, tuple[str | None, int]]:
            resource = dc.DescribeConfigsResource(
                resource_type=GROUP_RESOURCE, resource_name="h", configuration_keys=None
            )
            answer = await client.call(dc.DescribeConfigsRequest(resources=[resource]), dc.DescribeConfigsResponse, 4)
            return {
                c.name: (c.value, c.config_source) for c in answer.results[0].configs if c.name.startswith("share.")
            }

        assert await described() == {
            "share.auto.offset.reset": ("latest", 5),  # DEFAULT_CONFIG: no broker setting
            "share.heartbeat.interval.ms": ("5000", 5),
            "share.record.lock.duration.ms": (str(int(LOCK_S * 1000)), 4),  # STATIC_BROKER_CONFIG
            "share.session.timeout.ms": ("45000", 5),
        }
        assert await alter("share.auto.offset.reset", "sideways") == ErrorCode.INVALID_CONFIG
        assert await alter("share.heartbeat.interval.ms", "50000") == ErrorCode.INVALID_CONFIG  # not below the session
        assert await alter("share.record.lock.duration.ms", "2500") == ErrorCode.NONE
        assert (await described())["share.record.lock.duration.ms"] == ("2500", 8)  # GROUP_CONFIG
        await client.beat("h", "m", 0, [TOPIC])
        fetched = await client.fetch("h", "m", 0, topic_id)
        assert fetched.acquisition_lock_timeout_ms == 2500

    run(tmp_path, scenario)
