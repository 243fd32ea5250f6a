"""KIP-848's online migration through the group service over a real store: a live classic group upgraded by a
consumer-protocol member, its classic members reconciled through JoinGroup/SyncGroup/Heartbeat, the downgrade
when the last consumer-protocol member leaves, the migration policy, restarts, and TxnOffsetCommit's checks of
member epochs."""

from __future__ import annotations

from pathlib import Path

import pytest

from rockafka.facade.clock import ManualClock
from rockafka.facade.group import GroupService, JoinRequest, LeavingMember, SyncRequest
from rockafka.facade.group.consumer_protocol.migration import read_assignment, read_subscription
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.consumer_protocol_assignment import ConsumerProtocolAssignment
from rockafka.facade.protocol.messages.consumer_protocol_assignment import TopicPartition as AssignedPartitions
from rockafka.facade.protocol.messages.consumer_protocol_subscription import ConsumerProtocolSubscription
from rockafka.facade.protocol.messages.consumer_protocol_subscription import TopicPartition as OwnedPartitions
from rockafka.facade.protocol.primitives import pack_int16
from rockafka.store import MessageStore

from .test_consumer_protocol import beat, partitions, run

SETTINGS = {"group.initial.rebalance.delay.ms": "0"}


def metadata(version: int = 1, owned: list[int] | None = None) -> bytes:
    subscription = ConsumerProtocolSubscription(
        topics=["t"], owned_partitions=[OwnedPartitions(topic="t", partitions=owned)] if owned else []
    )
    out = bytearray(pack_int16(version))
    subscription.write(out, version)
    return bytes(out)


def join_request(member: str = "", protocol_type: str = "consumer", owned: list[int] | None = None) -> JoinRequest:
    protocols = (("range", metadata(owned=owned)),)
    return JoinRequest("g", member, None, "c", "/h", 10_000, 10_000, protocol_type, protocols, False)


async def classic_member(service: GroupService) -> tuple[str, int]:
    """A classic member alone in group g: it leads and assigns itself every partition of t."""
    joined = await service.coordinator.join(join_request())
    assert joined.error is ErrorCode.NONE
    everything = _assignment_bytes([0, 1, 2, 3])
    request = SyncRequest("g", joined.generation_id, joined.member_id, None, None, None, {joined.member_id: everything})
    assert (await service.coordinator.sync(request)).error is ErrorCode.NONE
    return joined.member_id, joined.generation_id


def _assignment_bytes(indexes: list[int]) -> bytes:
    out = bytearray(pack_int16(0))
    ConsumerProtocolAssignment(assigned_partitions=[AssignedPartitions(topic="t", partitions=indexes)]).write(out, 0)
    return bytes(out)


def test_a_consumer_member_upgrades_a_live_classic_group_and_partitions_move_only_once_revoked(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        classic_id, generation = await classic_member(service)
        joined = beat(service, "new", 0)
        assert joined.error is ErrorCode.NONE and joined.member_epoch == generation + 1
        assert partitions(joined) == set()  # the classic member still owns everything
        group = service.consumer.groups["g"]
        assert "g" not in service.coordinator.groups and group.members[classic_id].classic is not None
        heartbeat = service.coordinator.heartbeat
        assert heartbeat("g", classic_id, None, generation) is ErrorCode.REBALANCE_IN_PROGRESS
        rejoined = await service.coordinator.join(join_request(classic_id))  # eager: it owns nothing now
        assert (rejoined.error, rejoined.generation_id, rejoined.leader_id) == (ErrorCode.NONE, generation + 1, "")
        sync = SyncRequest("g", rejoined.generation_id, classic_id, None, "consumer", "range", {})
        synced = await service.coordinator.sync(sync)
        topics = {topic.name: topic for topic in store.topics.list()}
        kept = partitions(read_assignment(synced.assignment, topics))
        assert synced.error is ErrorCode.NONE and len(kept) == 2
        assert partitions(beat(service, "new", joined.member_epoch)) == {0, 1, 2, 3} - kept
        assert heartbeat("g", classic_id, None, rejoined.generation_id) is ErrorCode.NONE
        assert heartbeat("g", classic_id, None, generation) is ErrorCode.ILLEGAL_GENERATION
        assert heartbeat("g", "new", None, rejoined.generation_id) is ErrorCode.UNKNOWN_MEMBER_ID

    run(tmp_path, scenario, **SETTINGS)


def test_the_last_consumer_member_leaving_downgrades_the_group_and_its_members_rebalance(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        classic_id, generation = await classic_member(service)
        epoch = beat(service, "new", 0).member_epoch
        assert beat(service, "new", -1).error is ErrorCode.NONE
        assert "g" not in service.consumer.groups
        group = service.coordinator.groups["g"]
        assert (group.state.kafka_name, group.generation_id, list(group.members)) == (
            "PreparingRebalance", epoch, [classic_id],
        )  # fmt: skip
        assert read_subscription(group.members[classic_id].metadata("range")).topics == ["t"]
        # it never rejoined after the upgrade: its generation is behind, as in Kafka, and it rejoins
        assert service.coordinator.heartbeat("g", classic_id, None, generation) is ErrorCode.ILLEGAL_GENERATION
        rejoined = await service.coordinator.join(join_request(classic_id))
        assert (rejoined.error, rejoined.leader_id, rejoined.generation_id) == (ErrorCode.NONE, classic_id, epoch + 1)

    run(tmp_path, scenario, **SETTINGS)


@pytest.mark.parametrize("policy", ["disabled", "downgrade"])
def test_a_policy_without_upgrades_refuses_the_consumer_member(tmp_path: Path, policy: str) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        await classic_member(service)
        refused = beat(service, "new", 0)
        assert refused.error is ErrorCode.GROUP_ID_NOT_FOUND and policy in (refused.message or "")
        assert "g" in service.coordinator.groups

    run(tmp_path, scenario, **SETTINGS, **{"group.consumer.migration.policy": policy})


def test_a_policy_without_downgrades_keeps_the_consumer_group(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        classic_id, _ = await classic_member(service)
        beat(service, "new", 0)
        beat(service, "new", -1)
        assert list(service.consumer.groups["g"].members) == [classic_id]
        left = service.coordinator.leave("g", [LeavingMember(classic_id)])
        assert left.members == ((classic_id, None, ErrorCode.NONE),)
        assert service.list_groups()[0].state == "Empty"

    run(tmp_path, scenario, **SETTINGS, **{"group.consumer.migration.policy": "upgrade"})


def test_an_upgraded_group_comes_back_after_a_restart_with_its_classic_member(tmp_path: Path) -> None:
    async def first(service: GroupService, store: MessageStore) -> tuple[str, int]:
        classic_id, generation = await classic_member(service)
        beat(service, "new", 0)
        return classic_id, generation

    async def second(service: GroupService, store: MessageStore) -> None:
        group = service.consumer.groups["g"]
        classic = group.members[classic_id].classic
        assert classic is not None and classic.session_timeout_ms == 10_000
        assert service.coordinator.heartbeat("g", classic_id, None, generation) is ErrorCode.REBALANCE_IN_PROGRESS

    classic_id, generation = run(tmp_path, first, **SETTINGS)
    run(tmp_path, second, **SETTINGS)


def test_a_classic_join_of_an_empty_consumer_group_makes_it_classic(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        beat(service, "new", 0)
        beat(service, "new", -1)
        joined = await service.coordinator.join(join_request())
        assert joined.error is ErrorCode.NONE and joined.leader_id == joined.member_id
        assert "g" not in service.consumer.groups and "g" in service.coordinator.groups

    run(tmp_path, scenario, **SETTINGS)


def test_txn_offset_commits_to_a_consumer_group_are_checked_against_member_epochs(tmp_path: Path) -> None:
    async def scenario(service: GroupService, store: MessageStore) -> None:
        epoch = beat(service, "a", 0).member_epoch
        check = service.offsets.check_txn_commit
        assert check("g", "a", None, epoch) is ErrorCode.NONE
        assert check("g", "a", None, epoch + 1) is ErrorCode.ILLEGAL_GENERATION  # Kafka's, not STALE_MEMBER_EPOCH
        assert check("g", "a", None, epoch - 1) is ErrorCode.ILLEGAL_GENERATION
        assert check("g", "b", None, epoch) is ErrorCode.UNKNOWN_MEMBER_ID
        assert check("g", "", None, -1) is ErrorCode.UNKNOWN_MEMBER_ID  # v0-2 carry no member: only while empty
        beat(service, "a", -1)
        assert check("g", "", None, -1) is ErrorCode.NONE

    run(tmp_path, scenario)


def test_a_classic_member_told_to_rejoin_that_does_not_is_removed_and_its_session_is_its_own(tmp_path: Path) -> None:
    clock = ManualClock()

    async def scenario(service: GroupService, store: MessageStore) -> None:
        classic_id, generation = await classic_member(service)  # session 10 s, rebalance timeout 10 s
        joined = beat(service, "new", 0)
        group = service.consumer.groups["g"]
        heartbeat = service.coordinator.heartbeat
        assert heartbeat("g", classic_id, None, generation) is ErrorCode.REBALANCE_IN_PROGRESS
        clock.advance(5.0)
        beat(service, "new", joined.member_epoch)
        assert heartbeat("g", classic_id, None, generation) is ErrorCode.REBALANCE_IN_PROGRESS  # same deadline
        clock.advance(5.1)  # past its rebalance timeout since it was first told
        assert classic_id not in group.members
        assert partitions(beat(service, "new", joined.member_epoch)) == {0, 1, 2, 3}
        again = await service.coordinator.join(join_request())
        assert again.error is ErrorCode.NONE  # a new classic member of the consumer group
        synced = await service.coordinator.sync(
            SyncRequest("g", again.generation_id, again.member_id, None, None, None, {})
        )
        assert synced.error is ErrorCode.NONE and read_assignment(synced.assignment, {}) == {}  # all are new's
        clock.advance(10.1)  # its own session.timeout.ms (10 s), not group.consumer.session.timeout.ms (45 s)
        assert list(group.members) == ["new"]  # whose session (45 s) goes on

    run(tmp_path, scenario, clock=clock, **SETTINGS)


def test_a_classic_member_that_joins_and_never_syncs_is_removed_after_its_rebalance_timeout(tmp_path: Path) -> None:
    clock = ManualClock()

    async def scenario(service: GroupService, store: MessageStore) -> None:
        classic_id, _ = await classic_member(service)
        joined = beat(service, "new", 0)
        rejoined = await service.coordinator.join(join_request(classic_id))
        assert rejoined.error is ErrorCode.NONE
        clock.advance(5.0)
        beat(service, "new", joined.member_epoch)
        assert service.coordinator.heartbeat("g", classic_id, None, rejoined.generation_id) is ErrorCode.NONE
        clock.advance(5.1)  # 10 s after its JoinGroup answer, without a SyncGroup
        assert list(service.consumer.groups["g"].members) == ["new"]

    run(tmp_path, scenario, clock=clock, **SETTINGS)
