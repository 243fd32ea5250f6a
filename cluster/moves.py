"""Partitions moving between broker groups: the etcd writes of a move, each one compare-and-swap transaction.

A move is one key, ``moves/<topic>/<partition>`` (``layout.py``), and goes through three states before one
transaction completes it:

1. :meth:`PartitionMoves.start` (AlterPartitionReassignments, on any broker): the key is created ``copying``
   only if absent (or replaced while still ``copying``: a new target) and only if ``topics/<topic>`` is still
   at the ``mod_revision`` read, so the placement it moves from is the current one. Naming the partition's
   current group cancels a move in progress instead, as Kafka's reassignment back to the original replicas does.
2. :meth:`PartitionMoves.advance` ``copying`` → ``fenced``: the target group's leader has copied up to a small
   lag; from now on the source group's leader refuses appends (NOT_LEADER_OR_FOLLOWER) and, once it has
   stopped, advances ``fenced`` → ``sealed`` with its next offset as ``end``.
3. :meth:`PartitionMoves.complete`: the target has copied up to ``end``; one transaction puts the topic's
   placement with the target group, raises the target group's leader epoch above both groups' epochs (a
   partition's epoch never goes down, which clients check) and deletes the move, each compared at the
   ``mod_revision`` read.

:meth:`PartitionMoves.cancel` (null replicas) deletes the key while it is ``copying``; once ``fenced`` the
source takes no appends any more, so the move can only complete (:class:`MoveSwitchingError`).
"""

from __future__ import annotations

from dataclasses import replace

from .errors import MoveSwitchingError, NoMoveError, UnknownTopicError
from .etcd import Entry, Etcd
from .layout import (
    MOVE_COPYING,
    MOVE_SEALED,
    GroupState,
    KeyLayout,
    MoveRecord,
    TopicRecord,
    decode_group,
    decode_move,
    decode_topic,
    encode_group,
    encode_move,
    encode_topic,
)


class PartitionMoves:
    """Writes the moves of one cluster through an :class:`Etcd` connection."""

    def __init__(self, etcd: Etcd, layout: KeyLayout) -> None:
        self.etcd = etcd
        self.layout = layout

    async def start(self, topic: str, partition: int, target: str) -> MoveRecord | None:
        """Move ``topic``'s ``partition`` to group ``target``: the move written, or None when ``target`` already
        holds it (a move in progress is then cancelled)."""
        record, topic_entry = await self._topic(topic, partition)
        source = record.placement[partition]
        key = self.layout.move(topic, partition)
        current = await self.etcd.get(key)
        if target == source:
            if current is not None:
                await self.cancel(topic, partition)
            return None
        txn = self.etcd.txn
        if current is None:
            same_move = txn.create(key) == 0
        else:
            if decode_move(f"{topic}/{partition}", current.value).state != MOVE_COPYING:
                raise MoveSwitchingError(f"{topic}-{partition} is already switching to its new group")
            same_move = txn.mod(key) == current.mod_revision
        move = MoveRecord(topic, partition, source, target, MOVE_COPYING)
        same_topic = txn.mod(self.layout.topic(topic)) == topic_entry.mod_revision
        if await self.etcd.swap([same_topic, same_move], [txn.put(key, encode_move(move))]) is None:
            raise MoveSwitchingError(f"{topic}-{partition} changed while its move was being written; try again")
        return move

    async def cancel(self, topic: str, partition: int) -> MoveRecord:
        """Delete the move of ``topic``-``partition`` while it is still copying; the move cancelled."""
        key = self.layout.move(topic, partition)
        entry = await self.etcd.get(key)
        if entry is None:
            raise NoMoveError("No partition reassignment is in progress.")
        move = decode_move(f"{topic}/{partition}", entry.value)
        if move.state != MOVE_COPYING:
            raise MoveSwitchingError(f"{topic}-{partition} is already switching to group {move.target}")
        txn = self.etcd.txn
        if await self.etcd.swap([txn.mod(key) == entry.mod_revision], [txn.delete(key)]) is None:
            raise MoveSwitchingError(f"the move of {topic}-{partition} changed while being cancelled; try again")
        return move

    async def advance(self, move: MoveRecord, state: str, end: int = -1) -> bool:
        """Put ``move`` in ``state`` (with ``end``) if it is still the move read (same source, target and state);
        False when it changed meanwhile (cancelled, redirected, or advanced by another)."""
        key = self.layout.move(move.topic, move.partition)
        entry = await self.etcd.get(key)
        if entry is None or decode_move(f"{move.topic}/{move.partition}", entry.value) != move:
            return False
        txn = self.etcd.txn
        after = replace(move, state=state, end=end)
        return (
            await self.etcd.swap([txn.mod(key) == entry.mod_revision], [txn.put(key, encode_move(after))]) is not None
        )

    async def complete(self, move: MoveRecord) -> GroupState | None:
        """Switch a sealed ``move``: placement, target epoch and the move's deletion in one transaction; the
        target group's new state, or None when something changed meanwhile (read again and retry)."""
        if move.state != MOVE_SEALED:
            raise NoMoveError(f"the move of {move.topic}-{move.partition} is {move.state}, not sealed")
        key = self.layout.move(move.topic, move.partition)
        entry = await self.etcd.get(key)
        if entry is None or decode_move(f"{move.topic}/{move.partition}", entry.value) != move:
            return None
        record, topic_entry = await self._topic(move.topic, move.partition)
        source, target = (
            await self.etcd.get(self.layout.group(move.source)),
            await self.etcd.get(self.layout.group(move.target)),
        )
        if target is None:
            return None
        target_state = decode_group(move.target, target.value)
        floor = -1 if source is None else decode_group(move.source, source.value).epoch
        switched = GroupState(move.target, target_state.leader, max(target_state.epoch, floor) + 1)
        placement = list(record.placement)
        placement[move.partition] = move.target
        txn = self.etcd.txn
        compare = [
            txn.mod(key) == entry.mod_revision,
            txn.mod(self.layout.topic(move.topic)) == topic_entry.mod_revision,
            txn.mod(self.layout.group(move.target)) == target.mod_revision,
        ]
        writes = [
            txn.put(self.layout.topic(move.topic), encode_topic(replace(record, placement=tuple(placement)))),
            txn.put(self.layout.group(move.target), encode_group(switched)),
            txn.delete(key),
        ]
        return switched if await self.etcd.swap(compare, writes) is not None else None

    async def _topic(self, topic: str, partition: int) -> tuple[TopicRecord, Entry]:
        entry = await self.etcd.get(self.layout.topic(topic))
        if entry is None:
            raise UnknownTopicError(f"Unable to find a topic named {topic}.")
        record = decode_topic(topic, entry.value)
        if not 0 <= partition < record.partitions:
            raise UnknownTopicError(f"Unable to find partition {topic}:{partition}.")
        return record, entry
