"""The share-group offset admin APIs (DescribeShareGroupOffsets, AlterShareGroupOffsets, DeleteShareGroupOffsets)
through the broker's real dispatcher, encoded as a client would at v0: every answer and error code, and a restart
that keeps an altered and a deleted share-partition state."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from rockafka.facade.broker import Broker
from rockafka.facade.clock import ManualClock
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages import alter_share_group_offsets as alt
from rockafka.facade.protocol.messages import api_versions as av
from rockafka.facade.protocol.messages import consumer_group_heartbeat as cgh
from rockafka.facade.protocol.messages import delete_share_group_offsets as dlt
from rockafka.facade.protocol.messages import describe_share_group_offsets as dsc

from .test_share_wire import ACCEPT, TOPIC, Client, ack, acquired, produce, run

OTHER = "other"
ZERO_ID = uuid.UUID(int=0)
#: (topic, topic id, [(partition, start offset, leader epoch known, error)])
Described = list[tuple[str, uuid.UUID, list[tuple[int, int, bool, int]]]]


async def describe(
    client: Client, group: str, topics: dict[str, list[int]] | None
) -> dsc.DescribeShareGroupOffsetsResponseGroup:
    asked = None if topics is None else [
        dsc.DescribeShareGroupOffsetsRequestTopic(topic_name=name, partitions=parts) for name, parts in topics.items()
    ]  # fmt: skip
    request = dsc.DescribeShareGroupOffsetsRequest(
        groups=[dsc.DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=asked)]
    )
    (answer,) = (await client.call(request, dsc.DescribeShareGroupOffsetsResponse, 0)).groups
    assert answer.group_id == group
    return answer


def described(answer: dsc.DescribeShareGroupOffsetsResponseGroup) -> Described:
    assert answer.error_code == ErrorCode.NONE
    return [
        (t.topic_name, t.topic_id, [(p.partition_index, p.start_offset, p.leader_epoch >= 0, p.error_code)
                                    for p in t.partitions])
        for t in answer.topics
    ]  # fmt: skip


async def alter(client: Client, group: str, offsets: dict[str, dict[int, int]]) -> alt.AlterShareGroupOffsetsResponse:
    topics = [
        alt.AlterShareGroupOffsetsRequestTopic(topic_name=name, partitions=[
            alt.AlterShareGroupOffsetsRequestPartition(partition_index=p, start_offset=o) for p, o in parts.items()])
        for name, parts in offsets.items()
    ]  # fmt: skip
    request = alt.AlterShareGroupOffsetsRequest(group_id=group, topics=topics)
    return await client.call(request, alt.AlterShareGroupOffsetsResponse, 0)


def altered(answer: alt.AlterShareGroupOffsetsResponse) -> list[tuple[str, bool, list[tuple[int, int]]]]:
    """(topic, whether its id is known, [(partition, error)])"""
    return [
        (t.topic_name, t.topic_id != ZERO_ID, [(p.partition_index, p.error_code) for p in t.partitions])
        for t in answer.responses
    ]


async def delete(client: Client, group: str, topics: list[str]) -> dlt.DeleteShareGroupOffsetsResponse:
    request = dlt.DeleteShareGroupOffsetsRequest(
        group_id=group, topics=[dlt.DeleteShareGroupOffsetsRequestTopic(topic_name=name) for name in topics]
    )
    return await client.call(request, dlt.DeleteShareGroupOffsetsResponse, 0)


def deleted(answer: dlt.DeleteShareGroupOffsetsResponse) -> list[tuple[str, bool, int]]:
    return [(t.topic_name, t.topic_id != ZERO_ID, t.error_code) for t in answer.responses]


async def consumer_group(client: Client, group: str) -> None:
    """A KIP-848 consumer group of that id, with one member."""
    request = cgh.ConsumerGroupHeartbeatRequest(
        group_id=group, member_id=str(uuid.uuid4()), member_epoch=0, rebalance_timeout_ms=10_000,
        subscribed_topic_names=[TOPIC], topic_partitions=[],
    )  # fmt: skip
    answer = await client.call(request, cgh.ConsumerGroupHeartbeatResponse, 0)
    assert answer.error_code == ErrorCode.NONE


async def consumed_to_two(client: Client, topic_id: uuid.UUID) -> None:
    """Member ``m`` of group ``g`` acquires records 0-2 of six and accepts 0-1: the SPSO moves to 2."""
    await produce(client, 6)
    await client.beat("g", "m", 0, [TOPIC])
    assert acquired(await client.fetch("g", "m", 0, topic_id, max_records=3)) == [(0, 2, 1)]
    await client.fetch("g", "m", 1, topic_id, [ack(0, 1, ACCEPT)], max_records=0)


def test_the_three_apis_are_advertised_at_v0(tmp_path: Path) -> None:
    async def scenario(client: Client, broker: Broker, clock: ManualClock, topic_id: uuid.UUID) -> None:
        answer = await client.call(av.ApiVersionsRequest(), av.ApiVersionsResponse, 3)
        ranges = {k.api_key: (k.min_version, k.max_version) for k in answer.api_keys}
        assert [ranges.get(key) for key in (90, 91, 92)] == [(0, 0), (0, 0), (0, 0)]

    run(tmp_path, scenario)


def test_describe_answers_start_offsets_and_every_error(tmp_path: Path) -> None:
    async def scenario(client: Client, broker: Broker, clock: ManualClock, topic_id: uuid.UUID) -> None:
        broker.store.topics.create(OTHER, 2)
        other_id = broker.store.topics.describe(OTHER).topic_id
        await consumed_to_two(client, topic_id)
        assert described(await describe(client, "g", None)) == [(TOPIC, topic_id, [(0, 2, True, 0)])]
        asked = {TOPIC: [0, 5], OTHER: [1], "ghost": [0]}
        assert described(await describe(client, "g", asked)) == [
            (TOPIC, topic_id, [(0, 2, True, 0), (5, -1, False, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)]),
            (OTHER, other_id, [(1, -1, False, 0)]),  # no state: -1, and no error
            ("ghost", ZERO_ID, [(0, -1, False, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)]),
        ]
        await consumer_group(client, "consumers")
        for group, code in [("nope", ErrorCode.GROUP_ID_NOT_FOUND), ("consumers", ErrorCode.GROUP_ID_NOT_FOUND),
                            ("", ErrorCode.INVALID_GROUP_ID)]:  # fmt: skip
            answer = await describe(client, group, None)
            assert (answer.error_code, answer.topics) == (code, [])
        assert (await describe(client, "consumers", None)).error_message == "Group consumers is not a share group."
        fresh = await describe(client, "g", {TOPIC: [0]})  # describing changes nothing, members or not
        assert described(fresh) == [(TOPIC, topic_id, [(0, 2, True, 0)])]

    run(tmp_path, scenario)


def test_alter_and_delete_refuse_unknown_and_non_empty_groups(tmp_path: Path) -> None:
    async def scenario(client: Client, broker: Broker, clock: ManualClock, topic_id: uuid.UUID) -> None:
        await consumed_to_two(client, topic_id)
        await consumer_group(client, "consumers")
        for group, code in [("g", ErrorCode.NON_EMPTY_GROUP), ("nope", ErrorCode.GROUP_ID_NOT_FOUND),
                            ("consumers", ErrorCode.GROUP_ID_NOT_FOUND), ("", ErrorCode.INVALID_GROUP_ID)]:  # fmt: skip
            refused = await alter(client, group, {TOPIC: {0: 5}})
            assert (refused.error_code, altered(refused)) == (code, [(TOPIC, False, [(0, code)])])
            not_deleted = await delete(client, group, [TOPIC])
            assert (not_deleted.error_code, deleted(not_deleted)) == (code, [(TOPIC, False, code)])
        assert described(await describe(client, "g", None)) == [(TOPIC, topic_id, [(0, 2, True, 0)])]

    run(tmp_path, scenario)


@pytest.mark.parametrize("flush_mode", ["async", "sync"])
def test_alter_and_delete_of_an_empty_group_survive_restarts(tmp_path: Path, flush_mode: str) -> None:
    async def first_life(client: Client, broker: Broker, clock: ManualClock, topic_id: uuid.UUID) -> None:
        broker.store.topics.create(OTHER, 1)
        await consumed_to_two(client, topic_id)
        assert (await client.beat("g", "m", -1, None)).error_code == ErrorCode.NONE  # the group is empty now
        answer = await alter(client, "g", {TOPIC: {0: 4, 7: 1}, OTHER: {0: 1}, "ghost": {0: 1}})
        assert answer.error_code == ErrorCode.NONE
        assert altered(answer) == [
            (TOPIC, True, [(0, 0), (7, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)]),
            (OTHER, True, [(0, 0)]),
            ("ghost", False, [(0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)]),
        ]
        negative = await alter(client, "g", {OTHER: {0: -5}})
        assert altered(negative) == [(OTHER, True, [(0, ErrorCode.INVALID_REQUEST)])]
        other_id = broker.store.topics.describe(OTHER).topic_id
        assert described(await describe(client, "g", None)) == [
            (OTHER, other_id, [(0, 1, True, 0)]),
            (TOPIC, topic_id, [(0, 4, True, 0)]),
        ]

    async def second_life(client: Client, broker: Broker, clock: ManualClock, topic_id: uuid.UUID) -> None:
        other_id = broker.store.topics.describe(OTHER).topic_id
        asked = {TOPIC: [0], OTHER: [0]}
        assert described(await describe(client, "g", asked)) == [
            (TOPIC, topic_id, [(0, 4, True, 0)]),
            (OTHER, other_id, [(0, 1, True, 0)]),
        ]
        answer = await delete(client, "g", [OTHER, "ghost"])
        assert answer.error_code == ErrorCode.NONE
        assert deleted(answer) == [(OTHER, True, 0), ("ghost", False, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)]
        assert deleted(await delete(client, "g", [OTHER])) == [(OTHER, True, 0)]  # nothing left: no error

    async def third_life(client: Client, broker: Broker, clock: ManualClock, topic_id: uuid.UUID) -> None:
        other_id = broker.store.topics.describe(OTHER).topic_id
        asked = {TOPIC: [0], OTHER: [0]}
        assert described(await describe(client, "g", asked)) == [
            (TOPIC, topic_id, [(0, 4, True, 0)]),
            (OTHER, other_id, [(0, -1, False, 0)]),
        ]
        await client.beat("g", "n", 0, [TOPIC])
        assert acquired(await client.fetch("g", "n", 0, topic_id)) == [(4, 5, 1)]  # from the altered SPSO

    run(tmp_path, first_life, flush_mode)  # under sync, each change is answered once fsynced
    run(tmp_path, second_life, flush_mode)
    run(tmp_path, third_life, flush_mode)
