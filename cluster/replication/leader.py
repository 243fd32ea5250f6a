"""``ReplicationLeader``: a group leader serving its followers on the replication listener (RocketMQ's HAService).

Per follower connection (``stream.py`` is the wire format): read ``HELLO``; refuse a follower whose segment size
differs or whose log parts from this one below this log's first offset; answer ``WELCOME`` with where the
follower's log parts from this one (``store/divergence.py``), then ``TOPICS``, then ``DATA`` frames from there:
slices of the CommitLog's mapping (``ReplicaLog.read_copy``, no copy; old segments too, read under the lock
that segment deletion takes, so the appends on the loop thread never wait on a follower), at most
``CHUNK_BYTES`` each, ``drain`` between them so a slow follower slows only its own stream, and one turn of the
loop after each that leaves it behind, so a follower catching up (whose socket takes frame after frame) never
holds produce back. Caught up, the stream parks until the next append (one future shared by every stream,
completed by the store's append listener: no polling) or until ``HEARTBEAT_S`` passes, when a frame without
bytes carries the confirm offset.

Acknowledgements feed the in-sync set (``insync.py``); a timer shrinks it every ``CHECK_S``. While a follower is
in sync, the store's reads stop at the confirm offset (``Records.set_confirmed``: the high watermark consumers
see), and ``on_confirm`` wakes parked fetches when it moves. ``wait_confirmed`` is acks=all's waiter: a future
completed when the confirm offset reaches a given physical end (a heap of waiters, popped as the confirm offset
moves).

Threads: the broker loop thread, like the store calls it makes.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections.abc import Callable

from rockafka.store import MessageStore, StoreError
from rockafka.store.divergence import EpochLog, find_divergence

from .insync import InSyncSet
from .stream import (
    Ack,
    Hello,
    Refused,
    ReplicationProtocolError,
    StreamDecoder,
    Welcome,
    data_header,
    encode,
    topic_specs,
)

log = logging.getLogger(__name__)

CHUNK_BYTES = 1 << 20
"""The most CommitLog bytes in one DATA frame (a record larger than this goes whole in its own frame)."""
HEARTBEAT_S = 0.5
CHECK_S = 0.25
HANDSHAKE_TIMEOUT_S = 10.0


class ReplicationLeader:
    def __init__(self, store: MessageStore, *, lag_time_ms: int, clock: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._clock = clock
        self.in_sync = InSyncSet(lag_time_ms, store.replica.published_end)
        self._appended: asyncio.Future[None] | None = None
        self._waiters: list[tuple[int, int, asyncio.Future[bool | None], asyncio.TimerHandle | None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None  # kept: asking for the running loop costs a getpid
        self._order = itertools.count()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._checker: asyncio.Task[None] | None = None
        self._limit: int | None = None  # the confirm offset the store holds reads to (None: no follower in sync)
        self.on_confirm: Callable[[], None] = lambda: None
        """Called when the high watermark consumers see moved (the broker wakes its parked fetches)."""
        self._sent_all: dict[int, int] = {}  # follower -> the leader's end when a frame last took it there
        self.port = 0

    async def start(self, host: str, port: int) -> None:
        """Listen for followers (``OSError`` when the address cannot be bound)."""
        self._loop = asyncio.get_running_loop()
        self._server = await asyncio.start_server(self._serve, host or None, port, reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]
        self._store.records.add_append_listener(self._on_append)
        self._checker = asyncio.create_task(self._check_lag())
        log.info("replication: serving followers on %s:%d", host or "0.0.0.0", self.port)

    async def stop(self) -> None:
        self._store.records.remove_append_listener(self._on_append)
        if self._server is not None:
            self._server.close()
        for task in [*self._tasks, *([self._checker] if self._checker else [])]:
            task.cancel()
        for task in [*self._tasks]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._server is not None:
            await self._server.wait_closed()
        self._release_waiters(everyone=True)

    # --- acks=all ---

    def wait_confirmed(self, end: int, timeout_ms: int | None = None) -> asyncio.Future[bool | None] | None:
        """A future completed (True) once every in-sync member holds the CommitLog below ``end``; None when they
        do already. Completed with False if the leader stops first, with None if ``timeout_ms`` passes first (one
        timer of the loop's: no task, no ``wait_for``, for each acks=all request)."""
        if self.in_sync.confirm_offset >= end:
            return None
        loop = self._loop or asyncio.get_running_loop()
        future: asyncio.Future[bool | None] = loop.create_future()
        timer = None if timeout_ms is None else loop.call_later(max(timeout_ms, 0) / 1000, _time_out, future)
        heapq.heappush(self._waiters, (end, next(self._order), future, timer))
        return future

    def _release_waiters(self, *, everyone: bool = False) -> None:
        """Complete the waits the confirm offset reached, and hold the store's reads to it."""
        confirm, waiters = self.in_sync.confirm_offset, self._waiters
        limit = None if self.in_sync.size == 1 else confirm
        if limit != self._limit:
            self._store.records.set_confirmed(limit)
            self._limit = limit
            self.on_confirm()
        while waiters and (everyone or waiters[0][0] <= confirm):
            _, _, future, timer = heapq.heappop(waiters)
            if timer is not None:
                timer.cancel()
            if not future.done():
                future.set_result(not everyone)

    def _on_append(self, _result: object) -> None:
        self.in_sync.appended(self._store.replica.published_end)
        if self._waiters and self.in_sync.size == 1:
            self._release_waiters()
        appended = self._appended
        if appended is not None and not appended.done():
            appended.set_result(None)

    def _next_append(self) -> asyncio.Future[None]:
        if self._appended is None or self._appended.done():
            self._appended = (self._loop or asyncio.get_running_loop()).create_future()
        return self._appended

    async def _check_lag(self) -> None:
        while True:
            await asyncio.sleep(CHECK_S)
            dropped = self.in_sync.shrink(self._store.replica.published_end, self._now_ms())
            if dropped:
                log.warning("replication: follower(s) %s out of the in-sync set (lag over %d ms)", dropped,
                            self.in_sync.lag_time_ms)  # fmt: skip
                self._release_waiters()

    def _now_ms(self) -> int:
        return int(self._clock() * 1000)

    # --- one follower ---

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        peer = writer.get_extra_info("peername")
        decoder = StreamDecoder()
        node_id: int | None = None
        try:
            hello = await asyncio.wait_for(_first_message(reader, decoder), HANDSHAKE_TIMEOUT_S)
            start = self._welcome(hello, writer)
            if start is None:
                return
            node_id = hello.node_id
            self.in_sync.joined(node_id, start, self._now_ms())
            self._sent_all[node_id] = self._store.replica.published_end
            log.info("replication: follower %d (%s) connected, copying from offset %d", node_id, peer, start)
            acks = asyncio.create_task(self._read_acks(reader, decoder, node_id))
            try:
                await self._stream(writer, start, node_id, acks)
            finally:
                acks.cancel()
        except (OSError, EOFError, TimeoutError, ReplicationProtocolError, StoreError) as exc:
            log.warning("replication: follower %s (%s) disconnected: %s", node_id, peer, exc or type(exc).__name__)
        finally:
            if node_id is not None:
                self.in_sync.left(node_id, self._store.replica.published_end)
                self._sent_all.pop(node_id, None)
                self._release_waiters()
            writer.close()
            self._tasks.discard(task)

    def _welcome(self, hello: Hello, writer: asyncio.StreamWriter) -> int | None:
        """Answer ``HELLO``: where the follower's data starts, or None when it is refused."""
        replica = self._store.replica
        leader = EpochLog(self._store.epochs.entries(), replica.published_end)
        start = find_divergence(leader, EpochLog(hello.entries, hello.end)).truncate_to
        reason = None
        if hello.segment_bytes != replica.segment_bytes:
            reason = f"CommitLog segment sizes differ: {hello.segment_bytes} there, {replica.segment_bytes} here"
        elif start < replica.first_offset and start < replica.published_end:
            reason = f"the follower's log ends at {start}, below this log's first offset {replica.first_offset}"
        if reason is not None:
            log.warning("replication: follower %d refused: %s", hello.node_id, reason)
            writer.write(encode(Refused(reason)))
            return None
        writer.write(encode(Welcome(start, replica.published_end)))
        return start

    async def _stream(
        self, writer: asyncio.StreamWriter, position: int, node_id: int, acks: asyncio.Task[None]
    ) -> None:
        replica, sent_topics = self._store.replica, None
        while not acks.done():
            topics = self._store.topics.list()
            if topics != sent_topics:
                rows = [(t.name, t.topic_id, t.partitions, t.configs) for t in topics]
                writer.write(encode(topic_specs(rows)))
                sent_topics = topics
            chunk = replica.read_copy(position, CHUNK_BYTES)
            header = data_header(position, self._store.epochs.current, self.in_sync.confirm_offset, len(chunk))
            if chunk:
                writer.writelines((header, chunk))
                position += len(chunk)
                behind = position < replica.published_end
                if not behind:
                    self._sent_all[node_id] = position
                await writer.drain()
                if behind:  # drain does not yield while the socket takes all: let produce in (caught up, the wait does)
                    await asyncio.sleep(0)
                continue
            appended = self._next_append()
            await asyncio.wait((appended, acks), timeout=HEARTBEAT_S, return_when=asyncio.FIRST_COMPLETED)
            if not appended.done():
                writer.write(header)
                await writer.drain()
        acks.result()

    async def _read_acks(self, reader: asyncio.StreamReader, decoder: StreamDecoder, node_id: int) -> None:
        while data := await reader.read(1 << 16):
            for message in decoder.feed(data):
                if not isinstance(message, Ack):
                    raise ReplicationProtocolError(f"a follower sent {type(message).__name__}, not ACK")
                self.in_sync.acknowledged(
                    node_id, message.end, self._store.replica.published_end, self._sent_all[node_id],
                    self._now_ms(),
                )  # fmt: skip
                self._release_waiters()
        raise EOFError("the follower closed the connection")


def _time_out(future: asyncio.Future[bool | None]) -> None:
    if not future.done():
        future.set_result(None)


async def _first_message(reader: asyncio.StreamReader, decoder: StreamDecoder) -> Hello:
    while data := await reader.read(1 << 16):
        messages = decoder.feed(data)
        if messages:
            if not isinstance(messages[0], Hello) or len(messages) > 1:
                raise ReplicationProtocolError("a follower must send HELLO first, and only HELLO")
            return messages[0]
    raise EOFError("the follower closed the connection before HELLO")
