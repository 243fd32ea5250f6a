"""A partition's move in etcd (``cluster/moves.py``): started, redirected, cancelled, advanced and completed by
compare-and-swap, each step seen by another broker's watch; the switch raises the target group's epoch above both
groups' epochs and puts the new placement in the same transaction."""

from __future__ import annotations

import asyncio

import pytest

from rockafka.cluster.errors import MoveSwitchingError, NoMoveError, UnknownTopicError
from rockafka.cluster.layout import MOVE_COPYING, MOVE_FENCED, MOVE_SEALED, MoveRecord, decode_move, encode_move
from rockafka.cluster.local_etcd import LocalEtcd
from rockafka.cluster.member import ClusterMember, MemberSettings
from rockafka.cluster.moves import PartitionMoves

WAIT_S = 20.0


def test_a_move_document_reads_back_as_written() -> None:
    sealed = MoveRecord("orders.v2", 11, "g1", "g2", MOVE_SEALED, 4096)
    assert decode_move("orders.v2/11", encode_move(sealed)) == sealed
    copying = MoveRecord("t", 0, "g1", "g2", MOVE_COPYING)
    assert decode_move("t/0", encode_move(copying)) == copying
    with pytest.raises(ValueError, match="state 'lost'"):
        decode_move("t/0", b'{"source": "g1", "target": "g2", "state": "lost"}')


def test_a_move_goes_from_copying_to_the_switch_and_can_be_cancelled_only_while_copying(
    etcd: LocalEtcd, cluster_name: str
) -> None:
    async def scenario() -> None:
        members = []
        for node in (1, 2):
            member = ClusterMember(
                MemberSettings([etcd.endpoint], cluster_name, f"g{node}", node, "127.0.0.1", 9100 + node, 5)
            )
            await member.start()
            members.append(member)
        first, other = members
        assert first.metadata is not None and first.view is not None and other.view is not None
        try:
            await first.view.wait_for(lambda s: len(s.live_groups()) == 2, WAIT_S)
            await first.metadata.create_topic(first.snapshot, "orders", 2, {}, ["g1", "g2"])
            moves = PartitionMoves(first.metadata.etcd, first.metadata.layout)
            with pytest.raises(UnknownTopicError, match="Unable to find partition orders:2"):
                await moves.start("orders", 2, "g2")
            with pytest.raises(NoMoveError):
                await moves.cancel("orders", 0)
            assert await moves.start("orders", 0, "g1") is None  # already there: nothing to do

            started = await moves.start("orders", 0, "g2")
            assert started == MoveRecord("orders", 0, "g1", "g2", MOVE_COPYING)
            seen = await other.view.wait_for(lambda s: ("orders", 0) in s.moves, WAIT_S)
            assert seen.moves[("orders", 0)] == started
            assert await moves.cancel("orders", 0) == started
            await other.view.wait_for(lambda s: not s.moves, WAIT_S)

            started = await moves.start("orders", 0, "g2")
            assert started is not None
            assert not await moves.advance(MoveRecord("orders", 0, "g1", "g3", MOVE_COPYING), MOVE_FENCED)
            assert await moves.advance(started, MOVE_FENCED)
            fenced = MoveRecord("orders", 0, "g1", "g2", MOVE_FENCED)
            with pytest.raises(MoveSwitchingError):
                await moves.cancel("orders", 0)
            with pytest.raises(MoveSwitchingError):
                await moves.start("orders", 0, "g1")
            assert await moves.advance(fenced, MOVE_SEALED, 42)
            sealed = MoveRecord("orders", 0, "g1", "g2", MOVE_SEALED, 42)
            await first.view.wait_for(lambda s: s.moves.get(("orders", 0)) == sealed, WAIT_S)
            epochs = {name: state.epoch for name, state in first.snapshot.groups.items()}

            switched = await moves.complete(sealed)
            assert switched is not None and switched.epoch == max(epochs.values()) + 1
            after = await other.view.wait_for(lambda s: not s.moves, WAIT_S)
            assert after.topics["orders"].placement == ("g2", "g2")
            leader = after.leader_of("orders", 0)
            assert leader is not None and (leader.group, leader.leader, leader.epoch) == ("g2", 2, switched.epoch)
            assert await moves.complete(sealed) is None  # done once
        finally:
            for member in members:
                await member.stop()

    asyncio.run(scenario())
