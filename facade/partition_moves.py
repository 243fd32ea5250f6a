"""Moving a partition between broker groups, as the brokers carry it out (the etcd side: ``cluster/moves.py``).

``PartitionMover`` is told of every new cluster snapshot by ``ClusterTopology`` and plays both ends of each move
in ``snapshot.moves``:

- **The target group's leader copies.** One task per move fetches the partition from the source group's leader
  over the Kafka protocol (Fetch, as a consumer reading uncommitted: every batch, control batches and aborted
  data included; on the inter-broker listener, with TLS and SASL as ``interbroker.py`` says) from this store's
  next offset, and stores each batch at its own offset (``store.kept_offsets``); the source's log start offset
  comes along. When it is within ``CATCH_UP_RECORDS`` of the source's high watermark it advances the move to
  ``fenced``. When the source has ``sealed`` it (``end``
  known) and the copy reaches ``end``, it fsyncs the store, rebuilds the partition's producer state from the
  copied batches (idempotent producers continue their sequences here) and completes the move in etcd.
- **The source group's leader fences.** From the snapshot in which a move it leads is ``fenced``, the partition
  leaves ``fenced_out`` and so ``ClusterTopology.led``: produce and list-offsets answer NOT_LEADER_OR_FOLLOWER at
  once, on the loop thread, so no append lands after that point. Fetch still reads it (``readable``), for the
  copy and for consumers until the switch. It then seals the move with its high watermark as ``end``.
- **The old copy is retired** once the placement has switched: the source's log start offset moves to its high
  watermark (DeleteRecords), so its records are gone for readers and retention reclaims their CommitLog segments.

A move that is cancelled or redirected while copying stops its task; what was copied stays (the partition's
next offset continues from it if the partition moves here again). Nothing here is on the produce or fetch path.
"""

from __future__ import annotations

import asyncio
import logging
import struct
from collections.abc import Callable, Mapping
from typing import Final

from rockafka.cluster import ClusterError, ClusterSnapshot
from rockafka.cluster.layout import MOVE_COPYING, MOVE_FENCED, MOVE_SEALED, MoveRecord
from rockafka.cluster.moves import PartitionMoves
from rockafka.cluster.tasks import cancel_and_wait
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.fetch import FetchPartition, FetchRequest, FetchResponse, FetchTopic
from rockafka.store import MessageStore, StoreError, UnknownTopicOrPartitionError

from .interbroker import BrokerConnection, InterBrokerAuthError, InterBrokerError, InterBrokerSettings

log = logging.getLogger(__name__)

#: The copy asks the source to fence once it is this close to the source's high watermark.
CATCH_UP_RECORDS: Final = 5_000
FETCH_VERSION: Final = 11
FETCH_BYTES: Final = 4 << 20
FETCH_WAIT_MS: Final = 100
REQUEST_TIMEOUT_S: Final = 10.0
RETRY_S: Final = 0.2
MAX_RETRY_S: Final = 5.0
PartitionKey = tuple[str, int]


class PartitionMover:
    """Both ends of the moves of one broker (see the module docstring)."""

    def __init__(
        self,
        moves: PartitionMoves,
        store: MessageStore,
        node_id: int,
        snapshot: Callable[[], ClusterSnapshot],
        moved_in: Callable[[str, int], None],
        interbroker: InterBrokerSettings | None = None,
    ) -> None:
        self._moves = moves
        self._interbroker = interbroker
        self._store = store
        self._node = node_id
        self._snapshot = snapshot
        self._moved_in = moved_in
        self._tasks: dict[tuple[str, PartitionKey], asyncio.Task[None]] = {}

    def fenced_out(self, snapshot: ClusterSnapshot) -> dict[str, set[int]]:
        """Per topic, the partitions this broker leads but no longer takes appends for (their move is fenced)."""
        out: dict[str, set[int]] = {}
        for move in snapshot.moves.values():
            if move.state != MOVE_COPYING and self._leads(snapshot, move.source):
                out.setdefault(move.topic, set()).add(move.partition)
        return out

    def changed(self, old: ClusterSnapshot, new: ClusterSnapshot) -> None:
        """Start what ``new`` asks of this broker: copies into its group, seals of fenced moves, retirements."""
        for key, move in new.moves.items():
            if self._leads(new, move.target):
                self._spawn("copy", key, self._copy)
            if move.state == MOVE_FENCED and self._leads(new, move.source):
                self._spawn("seal", key, self._seal)
        if new.topics is not old.topics:
            self._retire(old, new)

    async def stop(self) -> None:
        for task in list(self._tasks.values()):
            await cancel_and_wait(task)  # they make etcd calls, which can swallow a cancel

    def _leads(self, snapshot: ClusterSnapshot, group: str) -> bool:
        state = snapshot.groups.get(group)
        return state is not None and state.leader == self._node

    def _spawn(self, kind: str, key: PartitionKey, run: Callable[[PartitionKey], object]) -> None:
        if (kind, key) in self._tasks:
            return
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(run(key))  # type: ignore[arg-type]
        self._tasks[(kind, key)] = task
        task.add_done_callback(lambda _: self._tasks.pop((kind, key), None))

    async def _seal(self, key: PartitionKey) -> None:
        """The source's step: appends are already refused (``fenced_out``); record where the partition ends."""
        move = self._snapshot().moves.get(key)
        if move is None or move.state != MOVE_FENCED:
            return
        end = self._store.records.partition_offsets(*key).high_watermark
        while True:
            try:
                if await self._moves.advance(move, MOVE_SEALED, end):
                    log.info("move of %s-%d: sealed at offset %d", key[0], key[1], end)
                return
            except ClusterError as exc:
                log.warning("move of %s-%d: cannot seal yet: %s", key[0], key[1], exc)
                await asyncio.sleep(RETRY_S)

    def _retire(self, old: ClusterSnapshot, new: ClusterSnapshot) -> None:
        """Drop the records of partitions this broker led before and another group holds now."""
        for name, record in new.topics.items():
            before = old.topics.get(name)
            if before is None or before.topic_id != record.topic_id:
                continue
            for index, (was, now) in enumerate(zip(before.placement, record.placement, strict=False)):
                if was != now and self._leads(old, was) and not self._leads(new, now):
                    try:
                        self._store.records.delete_records(name, index, -1)
                        log.info("moved %s-%d to group %s: the copy here is retired", name, index, now)
                    except StoreError as exc:
                        log.warning("cannot retire %s-%d after its move: %s", name, index, exc)

    async def _copy(self, key: PartitionKey) -> None:
        """The target's step: copy from the source until the move completes, is cancelled or is redirected."""
        source: _SourceConnection | None = None
        pause = RETRY_S
        try:
            while True:
                snapshot = self._snapshot()
                move = snapshot.moves.get(key)
                if move is None or not self._leads(snapshot, move.target):
                    return
                try:
                    source = await self._connected(source, snapshot, move)
                    if source is None or not await self._copy_once(source, move):
                        await asyncio.sleep(RETRY_S)
                    elif await self._switched(move):
                        return
                    pause = RETRY_S
                except (InterBrokerError, ClusterError, StoreError) as exc:
                    problem = f"move of {key[0]}-{key[1]}: copy paused {pause:.1f} s: {exc}"
                    refused = isinstance(exc, InterBrokerAuthError)
                    if refused and pause == RETRY_S:  # said once per run of failures, not at every retry
                        log.error("%s (the source refused this broker's inter-broker credentials)", problem)
                    elif not refused:
                        log.warning("%s", problem)
                    if source is not None:
                        source.close()
                    source = None
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, MAX_RETRY_S)
        finally:
            if source is not None:
                source.close()

    async def _connected(
        self, source: _SourceConnection | None, snapshot: ClusterSnapshot, move: MoveRecord
    ) -> _SourceConnection | None:
        state = snapshot.groups.get(move.source)
        info = None if state is None else snapshot.brokers.get(state.leader)
        if info is None:
            return None
        listener = None if self._interbroker is None else self._interbroker.listener
        address = (info.host, info.port) if listener is None else info.address(listener)
        if source is not None and source.address == address:
            return source
        if source is not None:
            source.close()
        return _SourceConnection(*address, self._interbroker)

    async def _copy_once(self, source: _SourceConnection, move: MoveRecord) -> bool:
        """One fetch from the source stored here; False when the source could not answer it (retry later)."""
        topic, partition = move.topic, move.partition
        try:
            offsets = self._store.records.partition_offsets(topic, partition)
        except UnknownTopicOrPartitionError:
            return False  # the topic is not mirrored here yet
        position = max(offsets.high_watermark, source.log_start)  # records here below the source's start: stale
        answer = await source.fetch(topic, partition, position)
        source.log_start = max(source.log_start, answer.log_start_offset)
        if answer.error_code == ErrorCode.OFFSET_OUT_OF_RANGE and answer.log_start_offset > position:
            self._store.kept_offsets.start_at(topic, partition, answer.log_start_offset)
            return True
        if answer.error_code != ErrorCode.NONE:
            log.info("move of %s-%d: the source answered %s", topic, partition, ErrorCode(answer.error_code).name)
            return False
        if answer.records:
            self._store.kept_offsets.append(topic, partition, _whole_batches(answer.records))
        if answer.log_start_offset != offsets.log_start_offset:  # moved up there, or a retired copy here
            self._store.kept_offsets.start_at(topic, partition, answer.log_start_offset)
        copied = self._store.records.partition_offsets(topic, partition).high_watermark
        close = move.state == MOVE_COPYING and answer.high_watermark - copied <= CATCH_UP_RECORDS
        if close and await self._moves.advance(move, MOVE_FENCED):
            log.info("move of %s-%d: copied to %d of %d, fencing", topic, partition, copied, answer.high_watermark)
        return True

    async def _switched(self, move: MoveRecord) -> bool:
        """Complete a sealed move whose copy reached its end; True once done."""
        if move.state != MOVE_SEALED:
            return False
        if self._store.records.partition_offsets(move.topic, move.partition).high_watermark < move.end:
            return False
        self._store.flush()  # what the switch hands over is on disk first
        self._moved_in(move.topic, move.partition)
        switched = await self._moves.complete(move)
        if switched is not None:
            log.info("moved %s-%d to group %s (epoch %d)", move.topic, move.partition, move.target, switched.epoch)
        return switched is not None


class _FetchedPartition:
    __slots__ = ("error_code", "high_watermark", "log_start_offset", "records")

    def __init__(self, error_code: int, high_watermark: int, log_start_offset: int, records: bytes | None) -> None:
        self.error_code = error_code
        self.high_watermark = high_watermark
        self.log_start_offset = log_start_offset
        self.records = records


class _SourceConnection:
    """The source group's leader, asked Fetch as a consumer through the inter-broker client."""

    def __init__(self, host: str, port: int, interbroker: InterBrokerSettings | None) -> None:
        self.address = (host, port)
        self.log_start = 0  # the partition's log start offset there, as last answered
        self._connection = BrokerConnection(host, port, REQUEST_TIMEOUT_S, interbroker)

    def close(self) -> None:
        self._connection.close()

    async def fetch(self, topic: str, partition: int, offset: int) -> _FetchedPartition:
        request = FetchRequest(
            replica_id=-1, max_wait_ms=FETCH_WAIT_MS, min_bytes=1, max_bytes=FETCH_BYTES, isolation_level=0,
            topics=[FetchTopic(topic=topic, partitions=[
                FetchPartition(partition=partition, fetch_offset=offset, partition_max_bytes=FETCH_BYTES)
            ])],
        )  # fmt: skip
        response = await self._connection.request(request, FETCH_VERSION, FetchResponse)
        for topic_answer in response.responses:
            for found in topic_answer.partitions:
                if found.partition_index == partition:
                    records = None if found.records is None else bytes(found.records)
                    return _FetchedPartition(found.error_code, found.high_watermark, found.log_start_offset, records)
        return _FetchedPartition(response.error_code or ErrorCode.UNKNOWN_SERVER_ERROR, -1, -1, None)


def _whole_batches(records: bytes) -> bytes:
    """``records`` up to its last whole batch (a fetch may end with a partial one)."""
    position = 0
    while position + 12 <= len(records):
        length = struct.unpack_from(">i", records, position + 8)[0]
        if position + 12 + length > len(records):
            break
        position += 12 + length
    return records[:position]


def moved_partitions(moves: Mapping[PartitionKey, MoveRecord]) -> list[MoveRecord]:
    """The moves in progress, sorted by topic and partition."""
    return [moves[key] for key in sorted(moves)]
