"""Connection limits and bounds, against a real broker (in-process, on its own loop) and raw sockets:
``max.connections.per.ip`` (and its overrides) closes a connection over the limit before answering
anything; a connection over ``max.connections`` waits unanswered until a slot frees;
``connections.max.idle.ms`` closes a connection idle that long, but not one whose request is parked; a
client that stops reading its answers makes the broker stop reading its requests rather than buffer
answers without bound, and is still let go when it leaves.

Every wait is bounded; nothing asserts how fast the broker is.
"""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Callable, Iterator

import pytest
from kafka import KafkaProducer

from rockafka.facade.app import BrokerApp
from rockafka.facade.connections import MAX_WAITING
from rockafka.facade.group.group import Member
from rockafka.facade.protocol.framing import decode_response, encode_request
from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest
from rockafka.facade.protocol.messages.fetch import FetchPartition, FetchRequest, FetchTopic
from rockafka.facade.protocol.messages.join_group import JoinGroupRequest, JoinGroupRequestProtocol
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse
from rockafka.facade.server import WRITE_HIGH_WATER, KafkaConnection
from rockafka.testing import Broker

WAIT_S = 10.0


def connect(broker: Broker, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", broker.port), timeout=WAIT_S, source_address=(source, 0))
    return sock


def api_versions() -> bytes:
    return encode_request(ApiVersionsRequest(), 0, 1, "connections-test")


def answers(sock: socket.socket) -> bool:
    """Send ApiVersions: True if an answer comes, False if the broker closes (or resets) the connection."""
    try:
        sock.sendall(api_versions())
        return read_frame(sock) is not None
    except (ConnectionResetError, BrokenPipeError):
        return False


def read_frame(sock: socket.socket) -> bytes | None:
    """One response frame, or None at the end of the connection."""
    data = b""
    while len(data) < 4 or len(data) < 4 + struct.unpack_from(">i", data)[0]:
        chunk = sock.recv(1 << 16)
        if not chunk:
            return None
        data += chunk
    return data


def create_topic(broker: Broker, name: str) -> None:
    """Create ``name`` (one partition) through Metadata's auto-creation."""
    request = MetadataRequest(topics=[MetadataRequestTopic(name=name)], allow_auto_topic_creation=True)
    with connect(broker) as sock:
        for _ in range(20):
            sock.sendall(encode_request(request, 9, 1, "connections-test"))
            frame = read_frame(sock)
            assert frame is not None
            _, answer = decode_response(frame[4:], MetadataResponse, 9)
            if answer.topics[0].error_code == 0:
                return
    raise AssertionError(f"topic {name} was not created")


def closed_by_broker(sock: socket.socket) -> bool:
    """Wait (bounded) for the broker to close ``sock`` without sending anything more."""
    sock.settimeout(WAIT_S)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def eventually(condition: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def sends_stall(sock: socket.socket, data: bytes) -> bool:
    """Send ``data`` over and over on a non-blocking socket until sends have failed for a second in a row
    (a busy broker only lags; one that stopped reading never takes more); False if 256 MiB went through."""
    sent = 0
    stalled_since: float | None = None
    while sent < 256 << 20:  # bounded: far beyond what the socket buffers on both sides hold
        try:
            sent += sock.send(data)
            stalled_since = None
        except BlockingIOError:
            if stalled_since is None:
                stalled_since = time.monotonic()
            elif time.monotonic() - stalled_since > 1.0:
                return True
            time.sleep(0.02)
    return False


@pytest.fixture
def sockets() -> Iterator[list[socket.socket]]:
    opened: list[socket.socket] = []
    yield opened
    for sock in opened:
        sock.close()


def test_connections_over_the_per_ip_limit_are_closed_before_any_answer(sockets: list[socket.socket]) -> None:
    settings = {"max.connections.per.ip": "2", "max.connections.per.ip.overrides": "127.0.0.1:3"}
    with Broker(settings=settings) as broker:
        sockets += [connect(broker) for _ in range(3)]
        assert all(answers(sock) for sock in sockets)
        fourth = connect(broker)
        assert not answers(fourth) and closed_by_broker(fourth)
        others = [connect(broker, "127.0.0.2") for _ in range(2)]
        sockets += others
        assert all(answers(sock) for sock in others)
        third_of_other = connect(broker, "127.0.0.2")
        assert not answers(third_of_other)
        sockets.pop(0).close()  # a slot of 127.0.0.1 frees once the broker has seen the close

        def admitted() -> bool:
            sock = connect(broker)
            sockets.append(sock)
            return answers(sock)

        assert eventually(admitted)


def test_connections_over_max_connections_wait_for_a_slot(sockets: list[socket.socket]) -> None:
    """As Kafka leaves them in the listen queue: unanswered until a slot frees, oldest first; at most
    ``MAX_WAITING`` wait, and one more is closed at once; a waiting client that hangs up is let go."""
    with Broker(settings={"max.connections": "2"}) as broker:
        sockets += [connect(broker, "127.0.0.1"), connect(broker, "127.0.0.2")]
        assert all(answers(sock) for sock in sockets)
        first, second = connect(broker, "127.0.0.3"), connect(broker, "127.0.0.4")
        for waiting in (first, second):
            waiting.sendall(api_versions())
            waiting.settimeout(0.3)
            with pytest.raises(TimeoutError):  # held, not read: no answer while the broker is full
                waiting.recv(1)
        gone = connect(broker, "127.0.0.5")
        gone.close()  # a waiting client that leaves is let go (the broker polls held connections)
        assert eventually(lambda: len(broker_connections(broker)) == 4)
        sockets[0].close()  # a slot frees: the oldest waiting connection is answered
        first.settimeout(WAIT_S)
        assert read_frame(first) is not None
        second.settimeout(0.3)
        with pytest.raises(TimeoutError):
            second.recv(1)
        sockets[1].close()
        second.settimeout(WAIT_S)
        assert read_frame(second) is not None
        sockets += [first, second]
        more = [connect(broker) for _ in range(MAX_WAITING)]
        sockets += more
        assert eventually(lambda: len(broker_connections(broker)) == 2 + MAX_WAITING)
        over = connect(broker)
        sockets.append(over)
        assert not answers(over) and closed_by_broker(over)


def fetch(topic: str, *, max_wait_ms: int, max_bytes: int = 1 << 20, correlation_id: int = 2) -> bytes:
    partition = FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=max_bytes)
    request = FetchRequest(
        max_wait_ms=max_wait_ms, min_bytes=1 << 30, max_bytes=max_bytes,
        topics=[FetchTopic(topic=topic, partitions=[partition])],
    )  # fmt: skip
    return encode_request(request, 11, correlation_id, "connections-test")


def test_an_idle_connection_is_closed_and_a_parked_or_busy_one_is_not(sockets: list[socket.socket]) -> None:
    with Broker(settings={"connections.max.idle.ms": "300"}) as broker:
        create_topic(broker, "idle-test")
        idle, busy, parked = connect(broker), connect(broker), connect(broker)
        sockets += [idle, busy, parked]
        assert answers(idle) and answers(busy) and answers(parked)  # parked's ApiVersions also creates nothing
        parked.sendall(fetch("idle-test", max_wait_ms=1500))  # waits 1.5 s for bytes that never come
        started = time.monotonic()
        while time.monotonic() - started < 1.0:
            assert answers(busy)
            time.sleep(0.1)
        assert closed_by_broker(idle)
        parked.settimeout(WAIT_S)
        assert read_frame(parked) is not None, "the parked fetch is answered, not cut off as idle"
        assert closed_by_broker(parked), "then idle, it is closed"


def broker_connections(broker: Broker) -> list[KafkaConnection]:
    app = broker._runner._app  # type: ignore[union-attr]
    assert isinstance(app, BrokerApp)
    return list(app._connections)


def test_a_client_that_stops_reading_is_not_buffered_without_bound(sockets: list[socket.socket]) -> None:
    """Fetches of 2 MiB each, sent until the socket stalls and never read: the broker stops writing at its
    high-water mark and stops reading requests; when the client then closes, the broker lets it go."""
    with Broker(settings={"message.max.bytes": str(1 << 21)}) as broker:
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap, max_request_size=1 << 22, batch_size=1 << 21)
        sends = [producer.send("unread", b"x" * (500 << 10), partition=0) for _ in range(4)]
        for record in sends:  # stored, so every fetch below is answered with 2 MB
            record.get(timeout=WAIT_S)
        producer.close()
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", broker.port))
        sockets.append(sock)
        requests = b"".join(fetch("unread", max_wait_ms=0, max_bytes=1 << 21, correlation_id=i) for i in range(200))
        sock.setblocking(False)
        assert sends_stall(sock, requests)  # the broker stops reading: our sends stall for good
        (connection,) = broker_connections(broker)
        assert eventually(lambda: connection._reading_paused and connection._writing_paused)
        transport = connection._transport
        assert transport is not None
        buffered = transport.get_write_buffer_size()
        assert buffered <= 2 * WRITE_HIGH_WATER + (2 << 20), (
            f"{buffered} bytes buffered for a client that reads nothing"
        )
        sockets.remove(sock)
        sock.close()  # it leaves without reading (a reset: answers were unread): the broker lets it go
        assert eventually(lambda: not broker_connections(broker))


def test_a_departed_clients_parked_requests_leave_nothing_parked(sockets: list[socket.socket]) -> None:
    """A long-poll fetch and a JoinGroup parked on a connection that closes: the fetch's waiter is gone
    from the partition's list, and the member stays in its group (Kafka's treatment) with its join
    waiter cancelled, not answered (the group's first rebalance waits a minute for more members)."""
    with Broker(settings={"group.initial.rebalance.delay.ms": "60000"}) as broker:
        app = broker._runner._app  # type: ignore[union-attr]
        assert isinstance(app, BrokerApp) and app.broker is not None
        create_topic(broker, "parked")
        fetcher = connect(broker)
        assert answers(fetcher)
        fetcher.sendall(fetch("parked", max_wait_ms=600_000))
        assert eventually(lambda: ("parked", 0) in app.broker.waiters._parked)
        joiner = connect(broker)
        join = JoinGroupRequest(
            group_id="departed", session_timeout_ms=30_000, rebalance_timeout_ms=600_000, member_id="",
            protocol_type="consumer", protocols=[JoinGroupRequestProtocol(name="range", metadata=b"")],
        )  # fmt: skip
        joiner.sendall(encode_request(join, 3, 1, "connections-test"))  # v3: joins without MEMBER_ID_REQUIRED
        coordinator = app.broker.groups.coordinator

        def parked_member() -> Member | None:
            group = coordinator.groups.get("departed")
            return next(iter(group.members.values()), None) if group is not None else None

        assert eventually(lambda: parked_member() is not None)
        member = parked_member()
        assert member is not None and member.join_waiter is not None
        fetcher.close()
        joiner.close()
        assert eventually(lambda: not broker_connections(broker))
        assert app.broker.waiters._parked == {}
        assert member.join_waiter is None or member.join_waiter.cancelled()
        assert parked_member() is member, "the member stays until its session or the rebalance ends it"
