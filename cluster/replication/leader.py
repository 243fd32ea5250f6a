"""``ReplicationLeader``: a group leader serving its followers on the replication listener (RocketMQ's HAService).

Per follower connection (``stream.py`` is the wire format): read ``HELLO``; refuse a follower whose segment size
differs or whose log parts from this one below this log's first offset; answer ``WELCOME`` with where the
follower's log parts from this one (``store/divergence.py``), then ``TOPICS`` (the internal topics included, so
the follower holds them under this store's ids), then ``DATA`` frames from there:
slices of the CommitLog's mapping (``ReplicaLog.read_copy``, no copy; old segments too, read under the lock
that segment deletion takes, so the appends on the loop thread never wait on a follower), at most
``CHUNK_BYTES`` each, ``drain`` between them so a slow follower slows only its own stream, and one turn of the
loop after each that leaves it behind, so a follower catching up (whose socket takes frame after frame) never
holds produce back. Caught up, the stream parks until the next append (one future shared by every stream,
completed by the store's append listener: no polling, and by its topic change listener, so a topic created,
deleted or changed here reaches the followers at once) or until ``HEARTBEAT_S`` passes, when a frame without
bytes carries the confirm offset.

Acknowledgements feed the in-sync set (``insync.py``); one task keeps the set, every ``CHECK_S`` and whenever a
follower joins or disconnects. In a cluster the set is in etcd too: ``record_in_sync`` is an awaited hook
(``cluster/group_writes.InSyncWriter``) that makes etcd's set this leader and the followers given, and the
task orders the steps so that etcd's set is always within this one: a shrink is written to etcd *before* the
members dropped leave the set here (until then they hold the confirm offset back, so an acks=all never waits on
fewer members than etcd lists); an expand is in the set here at once and written after. A failed write (etcd
unreachable) leaves the set as it was and is tried again at the next check; a fenced one (etcd names another
leader or epoch: :class:`FencedLeaderError`) sets ``deposed`` and the set stops shrinking (acks=all then waits
for every member the set had). Without the hook (None: the static pair of ``rockafka.replication.*``) the set
lives here only. ``report_lag``, another optional hook (``LagReporter``), is given the log end, the confirm
offset and the followers' ends every ``LAG_REPORT_S`` when they changed.

While a follower is in sync, the store's reads stop at the confirm offset (``Records.set_confirmed``: the high
watermark consumers see), and ``on_confirm`` wakes parked fetches when it moves. ``wait_confirmed`` is acks=all's
waiter: a future completed when the confirm offset reaches a given physical end (a heap of waiters, popped as the
confirm offset moves).

Threads: the broker loop thread, like the store calls it makes.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Mapping

from rockafka.store import MessageStore, StoreError
from rockafka.store.divergence import EpochLog, find_divergence

from ..errors import ClusterError, FencedLeaderError
from ..tasks import cancel_and_wait
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
LAG_REPORT_S = 5.0
"""The shortest time between two calls of ``report_lag``."""


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
        self._membership_changed = asyncio.Event()
        self.record_in_sync: Callable[[frozenset[int]], Awaitable[None]] | None = None
        """Makes etcd's in-sync set this leader and the followers given (raises ClusterError); None: memory only."""
        self.report_lag: Callable[[int, int, Mapping[int, int]], Awaitable[None]] | None = None
        """Publishes the log end, the confirm offset and each connected follower's end (raises ClusterError)."""
        self.deposed = False
        """etcd named another leader or epoch when this leader wrote its in-sync set."""
        self._recorded: frozenset[int] | None = None  # the followers etcd's set holds, as last written
        self._etcd_failing = False
        self._lag_reported: tuple[int, int, dict[int, int]] | None = None
        self._lag_reported_at = float("-inf")
        self._limit: int | None = None  # the confirm offset the store holds reads to (None: no follower in sync)
        self.on_confirm: Callable[[], None] = lambda: None
        """Called when the high watermark consumers see moved (the broker wakes its parked fetches)."""
        self._sent_all: dict[int, int] = {}  # follower -> the leader's end when a frame last took it there
        self.port = 0
        # from now on, not from start(): acks=all made before the listener is up (a follower just promoted) is
        # answered as the in-sync set allows, not left waiting for the next append; stop() removes it
        store.records.add_append_listener(self._on_append)
        store.topics.add_change_listener(self._wake_streams)
        self._listening = True

    async def start(self, host: str, port: int) -> None:
        """Listen for followers (``OSError`` when the address cannot be bound)."""
        self._loop = asyncio.get_running_loop()
        self._server = await asyncio.start_server(self._serve, host or None, port, reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]
        self._checker = asyncio.create_task(self._keep_in_sync_set())
        log.info("replication: serving followers on %s:%d", host or "0.0.0.0", self.port)

    def keep_in_etcd(
        self,
        record_in_sync: Callable[[frozenset[int]], Awaitable[None]] | None,
        report_lag: Callable[[int, int, Mapping[int, int]], Awaitable[None]] | None = None,
    ) -> None:
        """Set the etcd hooks for a new leadership (at every election this broker wins: the epoch changed), and
        forget what was written under the last: the next check writes the whole set."""
        self.record_in_sync, self.report_lag = record_in_sync, report_lag
        self._recorded, self.deposed, self._lag_reported = None, False, None
        self._membership_changed.set()

    async def stop(self) -> None:
        """Stop serving: the followers' streams end, acks=all still waiting is answered (False), and the store's
        reads are no longer held to the confirm offset, unless the store follows now (a demoted leader: its
        follower holds them to what the new leader confirms)."""
        server = self._server
        if self._listening:
            self._store.records.remove_append_listener(self._on_append)
            self._store.topics.remove_change_listener(self._wake_streams)
            self._listening = False
        if server is not None:  # it started: a leader promoted whose listener failed never did
            server.close()
        checker, self._checker = self._checker, None
        for task in [*self._tasks, *([checker] if checker else [])]:
            task.cancel()
        for task in [*self._tasks, *([checker] if checker else [])]:
            with contextlib.suppress(Exception):
                await cancel_and_wait(task)  # the checker makes etcd calls, which can swallow a cancel
        if server is not None:
            await server.wait_closed()
        self._release_waiters(everyone=True)
        if not self._store.replica.following:  # a demoted leader's reads stay held where its follower holds them
            self._store.records.set_confirmed(None)
        self._limit = None

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
        self._wake_streams()

    def _wake_streams(self) -> None:
        """Wake the followers' parked streams: bytes were appended, or the topic table changed."""
        appended = self._appended
        if appended is not None and not appended.done():
            appended.set_result(None)

    def _next_append(self) -> asyncio.Future[None]:
        if self._appended is None or self._appended.done():
            self._appended = (self._loop or asyncio.get_running_loop()).create_future()
        return self._appended

    async def _keep_in_sync_set(self) -> None:
        """Until :meth:`stop`: not only its cancel ends the loop, which a hook may swallow (a gRPC call whose answer
        is in as the cancel lands returns that answer: ``grpc.aio`` ends its call task normally), and then a
        demoted leader's ``stop`` waited on this task for ever, its broker never following the new leader."""
        while self._checker is asyncio.current_task():
            try:  # asyncio.timeout, not wait_for: 3.11's wait_for can swallow a cancel that lands as it times out
                async with asyncio.timeout(CHECK_S):
                    await self._membership_changed.wait()
            except TimeoutError:
                pass
            self._membership_changed.clear()
            try:
                await self.update_in_sync_set()
                if self.report_lag is not None and self._clock() - self._lag_reported_at >= LAG_REPORT_S:
                    await self._report_lag(self.report_lag)
            except Exception:  # a hook's unforeseen failure must not end the task that shrinks the set
                log.exception("replication: keeping the in-sync set failed (trying on)")

    async def update_in_sync_set(self) -> None:
        """One step of keeping the set: write etcd's set if it differs (a shrink first there), then drop here the
        members due to leave once etcd no longer lists them."""
        due = self.in_sync.due_to_leave(self._store.replica.published_end, self._now_ms())
        wanted = self.in_sync.in_sync_followers() - due
        record = self.record_in_sync
        if record is not None and wanted != self._recorded and (self.deposed or not await self._record(record, wanted)):
            return
        if due:
            self.in_sync.remove(due, self._store.replica.published_end)
            log.warning("replication: follower(s) %s out of the in-sync set (disconnected, or lag over %d ms)",
                        sorted(due), self.in_sync.lag_time_ms)  # fmt: skip
            self._release_waiters()

    async def _record(self, record: Callable[[frozenset[int]], Awaitable[None]], wanted: frozenset[int]) -> bool:
        """Write ``wanted`` to etcd; False when it was not written (then nothing leaves the set here)."""
        try:
            await record(wanted)
        except FencedLeaderError as exc:
            self.deposed = True
            log.error("replication: %s", exc)
            return False
        except ClusterError as exc:
            if not self._etcd_failing:
                log.warning("replication: cannot write the in-sync set to etcd (trying on): %s", exc)
            self._etcd_failing = True
            return False
        self._etcd_failing = False
        self._recorded = wanted
        return True

    async def _report_lag(self, report: Callable[[int, int, Mapping[int, int]], Awaitable[None]]) -> None:
        ends = {follower.node_id: follower.end for follower in self.in_sync.followers() if follower.connected}
        now = (self._store.replica.published_end, self.in_sync.confirm_offset, ends)
        if now == self._lag_reported:
            return
        try:
            await report(*now)
        except ClusterError as exc:
            log.debug("replication: lag report not written: %s", exc)
            return
        self._lag_reported, self._lag_reported_at = now, self._clock()

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
        except asyncio.CancelledError:  # stop(): end, not raise (3.11's start_server logs a cancelled task as ERROR)
            pass
        finally:
            if node_id is not None:
                self.in_sync.left(node_id)
                self._sent_all.pop(node_id, None)
                self._membership_changed.set()
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
            topics = self._store.topics.list() + self._store.replica.internal_topics()
            if topics != sent_topics:
                rows = [(t.name, t.topic_id, t.partitions, t.configs) for t in topics]
                _send(writer, encode(topic_specs(rows)))
                sent_topics = topics
            chunk = replica.read_copy(position, CHUNK_BYTES)
            header = data_header(position, self._store.epochs.current, self.in_sync.confirm_offset, len(chunk))
            if chunk:
                _send(writer, header, chunk)
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
                _send(writer, header)
                await writer.drain()
        acks.result()

    async def _read_acks(self, reader: asyncio.StreamReader, decoder: StreamDecoder, node_id: int) -> None:
        while data := await reader.read(1 << 16):
            for message in decoder.feed(data):
                if not isinstance(message, Ack):
                    raise ReplicationProtocolError(f"a follower sent {type(message).__name__}, not ACK")
                joined = self.in_sync.acknowledged(
                    node_id, message.end, self._store.replica.published_end, self._sent_all[node_id],
                    self._now_ms(),
                )  # fmt: skip
                if joined:
                    self._membership_changed.set()
                self._release_waiters()
        raise EOFError("the follower closed the connection")


def _send(writer: asyncio.StreamWriter, *parts: bytes | memoryview) -> None:
    """Write to a follower's connection; ``EOFError`` once it is closed (uvloop's transports raise RuntimeError for
    a write then: the follower went between two awaits, one WARNING line says so, not a traceback)."""
    if writer.is_closing():
        raise EOFError("the follower's connection closed")
    writer.writelines(parts)


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
