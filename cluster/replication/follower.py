"""``ReplicationFollower``: a broker copying its group leader's CommitLog (RocketMQ's HAClient).

It connects to the leader's replication listener, sends ``HELLO`` (its node id, segment size, CommitLog end and
epoch entries) and reads ``WELCOME``: where its log parts from the leader's. The broker cuts its store back
there before it serves (``MessageStore.open(truncate_to=)``: ``handshake`` is called between opening the store
and building the broker, see ``facade/replication.py``). Then, for every frame: ``TOPICS`` makes the store's
topics the leader's (same names, ids, partition counts and configs; a topic the leader no longer has is
deleted), ``DATA`` bytes go to ``store.replica.append_copied`` (checked, written at the same offsets,
dispatched), and after each read from the socket one ``ACK`` tells the leader the new end (one for every frame
that read completed). Once streaming, frames are read straight into one buffer and decoded in place
(``receiver.py``). The leader's confirm offset and epoch are kept for the broker to read, and the confirm offset
holds the store's reads (``Records.set_confirmed``): a follower serving consumers (KIP-392) answers up to the high
watermark its leader sent, never a record a failover could lose. From ``follow`` until the first DATA frame the
reads stop at the confirm offset known before (0 at first: nothing is served). ``on_confirm`` is called when the
confirm offset moves (the broker wakes its parked fetches).

A lost connection is retried every ``RETRY_S`` with a new handshake. The leader sends a frame at least every
``HEARTBEAT_S`` (half a second) while it has nothing new, so a stream silent for ``silence_ms``
(``replica.lag.time.max.ms``: a leader that long silent has dropped this follower from its in-sync set) is a
leader gone without closing it (a host down, a partition): the connection is closed and tried again, and a new
leader, once etcd names one, is followed then. If the leader then says this log must be
cut, the running store cannot be cut in place (not built: a restart does it), so following stops: with an
ERROR line, or by calling ``on_diverged`` (a broker in a cluster restarts in-process, handshakes and cuts).
Threads: the broker loop thread.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rockafka.store import INTERNAL_TOPICS, MessageStore, StoreError

from ..errors import ClusterError
from ..tasks import cancel_and_wait
from .receiver import FrameReceiver
from .stream import (
    Ack,
    Data,
    Hello,
    Message,
    Refused,
    ReplicationProtocolError,
    StreamDecoder,
    Topics,
    Welcome,
    encode,
)

log = logging.getLogger(__name__)

RETRY_S = 1.0
CONNECT_TIMEOUT_S = 5.0
#: How long a stream may stay silent before the leader is taken for gone: replica.lag.time.max.ms's default.
SILENCE_MS = 30_000


class FollowerRefusedError(ClusterError):
    """The leader refused this follower (its reason is the message)."""


@dataclass
class Session:
    """A handshaken connection to the leader."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    decoder: StreamDecoder
    welcome: Welcome
    early: list[Topics | Data]  # frames read with the WELCOME


class ReplicationFollower:
    def __init__(self, node_id: int, host: str, port: int, *, silence_ms: int = SILENCE_MS) -> None:
        self.node_id = node_id
        self.address = (host, port)
        self.silence_ms = silence_ms
        self._reads = 0  # reads from the leader that completed frames: a stream not silent moves it
        self.confirm_offset = 0
        self.leader_epoch = -1
        self.on_confirm: Callable[[], None] | None = None
        self.on_diverged: Callable[[int], None] | None = None
        """Called, and following stopped, when a new handshake says this log must be cut back to the offset given
        (in a cluster the broker restarts in-process to cut it); None: following stops with an ERROR line."""
        self._task: asyncio.Task[None] | None = None
        self._stopped = False  # ``cancel``/``stop`` called: no frame is applied or acknowledged from then on

    async def handshake(self, store: MessageStore) -> Session:
        """Connect and handshake; ``FollowerRefusedError``, ``ReplicationProtocolError`` or ``OSError``."""
        reader, writer = await asyncio.wait_for(asyncio.open_connection(*self.address), CONNECT_TIMEOUT_S)
        try:
            replica = store.replica
            writer.write(encode(Hello(self.node_id, replica.segment_bytes, replica.end, store.epochs.entries())))
            decoder = StreamDecoder()
            while data := await asyncio.wait_for(reader.read(1 << 16), CONNECT_TIMEOUT_S):
                messages = decoder.feed(data)
                if messages:
                    first = messages[0]
                    if isinstance(first, Refused):
                        raise FollowerRefusedError(f"the leader at {_address(self.address)} refused: {first.reason}")
                    if not isinstance(first, Welcome) or not all(isinstance(m, Topics | Data) for m in messages[1:]):
                        raise ReplicationProtocolError("the leader's first frame is not WELCOME")
                    return Session(reader, writer, decoder, first, messages[1:])  # type: ignore[arg-type]
            raise ReplicationProtocolError("the leader closed the connection during the handshake")
        except BaseException:
            writer.close()
            raise

    def follow(self, store: MessageStore, session: Session | None) -> None:
        """Copy from ``session`` (or a new one) in a task, reconnecting while the broker runs."""
        store.records.set_confirmed(self.confirm_offset)
        self._stopped = False
        self._task = asyncio.create_task(self._run(store, session))

    def cancel(self) -> None:
        """Stop copying now: no append, acknowledgement or confirm offset follows this call. The task unwinds at
        its next turn, but the transport may hand the receiver a read before that (in the same turn of the loop as
        this call): that read is dropped, not applied (a promoted broker's store leads from this call on)."""
        self._stopped = True
        if self._task is not None:
            self._task.cancel()

    async def stop(self) -> None:
        self._stopped = True
        if self._task is not None:
            await cancel_and_wait(self._task)

    async def _run(self, store: MessageStore, session: Session | None) -> None:
        # until stopped: not only the cancel ends the loop, which 3.11's wait_for (the handshake's) can swallow when
        # it lands as the wait times out (a stop then waited for ever while the loop retried: a CI run's timeout)
        while not self._stopped:
            try:
                if session is None:
                    session = await self.handshake(store)
                if session.welcome.truncate_to < store.replica.end and self.on_diverged is not None:
                    self.on_diverged(session.welcome.truncate_to)
                    return
                if session.welcome.truncate_to < store.replica.end:
                    log.error(
                        "replication: the leader says this log parts from its own at %d (it ends at %d); a running "
                        "broker cannot cut its log: restart it to follow again",
                        session.welcome.truncate_to, store.replica.end,
                    )  # fmt: skip
                    return
                await self._copy(store, session)
            except (OSError, EOFError, TimeoutError, ClusterError, StoreError) as exc:
                log.warning("replication: following %s stopped: %s; retrying", _address(self.address), exc)
            finally:  # a stop (cancellation) closes the connection too, so the leader sees the follower leave
                if session is not None:
                    session.writer.close()
                    session = None
            await asyncio.sleep(RETRY_S)

    async def _copy(self, store: MessageStore, session: Session) -> None:
        """Apply the leader's frames as they arrive (read into one buffer: ``receiver.py``) until the stream ends."""
        log.info("replication: following %s from offset %d", _address(self.address), store.replica.end)
        self._received(store, session, session.early)
        receiver = FrameReceiver(lambda messages: self._received(store, session, messages))
        await receiver.take_over(session.reader, session.writer, session.decoder)
        while True:
            reads = self._reads
            done, _ = await asyncio.wait((receiver.closed,), timeout=self.silence_ms / 1000)
            if done:
                raise receiver.closed.result()
            if self._reads == reads:
                raise TimeoutError(f"nothing from the leader for {self.silence_ms} ms")

    def _received(self, store: MessageStore, session: Session, messages: Sequence[Message]) -> None:
        """Apply the frames one read completed, then acknowledge the new end once for all of them (none once
        cancelled: see ``cancel``)."""
        if self._stopped:
            return
        self._reads += 1
        for message in messages:
            self._apply(store, message)
        session.writer.write(encode(Ack(store.replica.end)))

    def _apply(self, store: MessageStore, message: object) -> None:
        if isinstance(message, Data):
            if message.data:
                store.replica.append_copied(message.physical_offset, message.data)
            self.leader_epoch = message.leader_epoch
            if message.confirm_offset != self.confirm_offset:
                self.confirm_offset = message.confirm_offset
                store.records.set_confirmed(message.confirm_offset)
                if self.on_confirm is not None:
                    self.on_confirm()
        elif isinstance(message, Topics):
            sync_topics(store, message)
        else:
            raise ReplicationProtocolError(f"the leader sent {type(message).__name__} while streaming")


def sync_topics(store: MessageStore, message: Topics) -> None:
    """Make the store's topics those of the leader's ``TOPICS`` message: user topics by name, id, partitions and
    configs; the internal topics the leader holds by id (``store.replica.adopt_internal``)."""
    have = {topic.name: topic for topic in store.topics.list()}
    user = [spec for spec in message.topics if spec.name not in INTERNAL_TOPICS]
    for spec in message.topics:
        if spec.name in INTERNAL_TOPICS:
            store.replica.adopt_internal(spec.name, spec.topic_id, spec.partitions)
    for name in have.keys() - {spec.name for spec in user}:
        store.topics.delete(name)
    for spec in user:
        mine = have.get(spec.name)
        if mine is not None and mine.topic_id != spec.topic_id:
            store.topics.delete(spec.name)
            mine = None
        if mine is None:
            store.topics.create(spec.name, spec.partitions, spec.configs, topic_id=spec.topic_id)
            continue
        if spec.partitions > mine.partitions:
            store.topics.create_partitions(spec.name, spec.partitions)
        if dict(mine.configs) != dict(spec.configs):
            store.topics.alter_configs(spec.name, dict(spec.configs), replace=True)


def _address(address: tuple[str, int]) -> str:
    return f"{address[0]}:{address[1]}"
