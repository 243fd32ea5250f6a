"""Fault injection for tests: a broker that misbehaves on demand, as a real Kafka cluster sometimes does.

Built only for a broker started by :mod:`rockafka.testing` (``BrokerApp(config, fault_injection=True)``);
``rockafka serve`` never builds it. :class:`FaultInjector` wraps the broker's request handler. While no
fault is installed its ``dispatch`` *is* the wrapped handler's bound ``dispatch`` (an instance attribute),
so a connection calls the broker's dispatcher directly: no extra call and no check on the produce and
fetch path. Installing a fault swaps in :meth:`FaultInjector._dispatch_with_faults`; once the last
fault is spent or cleared, the direct path is back.

The faults, and the Kafka behaviour each one stands for:

- ``fail``: the next ``times`` requests of an API key (only those naming ``topic``, and ``partition``,
  or sent by ``client_id``, when given) are answered with the API's error response carrying
  ``error_code``, without being handled: what a client sees from a leader that moved
  (NOT_LEADER_OR_FOLLOWER), a request that timed out broker-side (REQUEST_TIMED_OUT), a coordinator
  that is loading (COORDINATOR_LOAD_IN_PROGRESS), and so on. A request naming several topics gets the
  code for all of them. An acks=0 Produce expects no answer and is never failed.
- ``delay``: the next ``times`` requests of an API key (every one, when ``times`` is None) are answered
  ``seconds`` later than they would be: a slow or overloaded broker, a network with latency.
- ``drop_connections``: every client connection is aborted now, unanswered requests and all: a broker
  that crashed or a network that cut the TCP connections (clients see a reset and reconnect).
- ``refuse_connections``: for ``seconds``, new connections are closed as soon as they are accepted, as
  a broker that is down or restarting looks to a client (existing connections go on).
- ``stop_answering``: the connections open now go on reading requests and never answer them: a broker
  that hangs (a stuck request thread, a long GC pause) or a network path that lost its return direction.
  Clients time the requests out (``request.timeout.ms``), close the connection and retry on a new one,
  which is served normally.
- ``stop_reading``: the connections open now answer what they have read and then read no more: a peer
  whose receive side stopped (a half-open TCP connection, a zero window). The client's requests wait in
  the socket buffers until they time out; it closes the connection and retries on a new one.
- ``stall_high_watermark``: a partition's high watermark stands still until ``release_high_watermark``
  (``stalled_records.py``): appends go on, fetches see nothing past it, as when a follower in the ISR lags.
- ``rebalance``: the group starts a rebalance as if a member had joined or changed its subscription;
  members are told REBALANCE_IN_PROGRESS on their next heartbeat and rejoin.
- ``move_coordinator``: the group's requests (JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit,
  OffsetFetch) are answered NOT_COORDINATOR until the client asks FindCoordinator for the group again,
  as after the group's coordinator moved to another broker (here it "moves" back to the same one).
- ``time_out_transaction``: the transactional id's ongoing transaction is aborted and its producer fenced,
  as when ``transaction.timeout.ms`` passes: the producer's next transactional request fails (fenced, or
  an abortable error), and read_committed consumers never see the aborted records.
- ``fail_store``: the store goes offline as after an I/O error on Kafka's log directory: every request
  that needs it answers KAFKA_STORAGE_ERROR until the broker restarts.

Threads: every method runs on the broker's event loop (:func:`apply` is how commands arrive there).
Misuse (an unknown API, error code or fault) raises :class:`FaultError`.
"""

from __future__ import annotations

import asyncio
import errno
import inspect
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rockafka.store import StoreError

from .protocol.error_codes import ErrorCode
from .protocol.messages import API_SPECS
from .stalled_records import StalledRecords

if TYPE_CHECKING:
    from .broker import Broker
    from .connections import Connections
    from .dispatch import RequestDispatcher
    from .server import Buffers, ConnectionInfo, Outcome, RequestHandler

PRODUCE_KEY = 0
FETCH_KEY = 1
FIND_COORDINATOR_KEY = 10
GROUP_KEY_TYPE = 0
#: The APIs a group's coordinator answers, each naming the group in ``group_id``.
GROUP_APIS = frozenset({8, 9, 11, 12, 13, 14})  # OffsetCommit, OffsetFetch, JoinGroup, Heartbeat, LeaveGroup, SyncGroup


class FaultError(Exception):
    """A fault that cannot be installed (unknown API, error code or fault name, a bad value); one line."""


@dataclass(slots=True)
class ErrorFault:
    api_key: int
    error_code: ErrorCode
    times: int
    topic: str | None = None
    partition: int | None = None
    client_id: str | None = None


@dataclass(slots=True)
class DelayFault:
    api_key: int
    seconds: float
    times: int | None


class FaultInjector:
    """The :class:`~rockafka.facade.server.RequestHandler` of a broker started for tests."""

    dispatch: Callable[[bytes, ConnectionInfo], Outcome]

    def __init__(
        self, inner: RequestHandler, dispatcher: RequestDispatcher, broker: Broker, connections: Connections
    ) -> None:
        self._inner = inner
        self._dispatcher = dispatcher
        self._broker = broker
        self._connections = connections
        self._errors: list[ErrorFault] = []
        self._delays: list[DelayFault] = []
        self._moved_groups: set[str] = set()
        self._unanswered: list[ConnectionInfo] = []
        self._never_answered: list[asyncio.Future[Buffers | None]] = []
        self.dispatch = inner.dispatch

    def ssl_principal(self, listener_name: str, peer_certificate: dict[str, object] | None) -> str:
        return self._inner.ssl_principal(listener_name, peer_certificate)

    # --- installing ---

    def fail(self, fault: ErrorFault) -> None:
        self._errors.append(fault)
        self._armed()

    def delay(self, fault: DelayFault) -> None:
        self._delays.append(fault)
        self._armed()

    def move_coordinator(self, group_id: str) -> None:
        self._moved_groups.add(group_id)
        self._armed()

    def drop_connections(self) -> int:
        """Abort every client connection; how many there were."""
        dropped = list(self._connections)
        for connection in dropped:
            connection.drop()
        return len(dropped)

    def stop_answering(self) -> int:
        """Read but never answer on every connection open now; how many there are."""
        self._unanswered = [connection.info for connection in self._connections]
        if self._unanswered:
            self._armed()
        return len(self._unanswered)

    def stop_reading(self) -> int:
        """Answer what was read, then read nothing more, on every connection open now; how many there are."""
        stopped = list(self._connections)
        for connection in stopped:
            connection.hold()
        return len(stopped)

    def stall_high_watermark(self, topic: str, partition: int) -> int:
        """Stop ``topic``-``partition``'s high watermark where it is now (fetches see nothing past it); that
        offset."""
        store = self._broker.store
        stalled = store.records if isinstance(store.records, StalledRecords) else StalledRecords(store.records)
        try:
            offset = stalled.real.partition_bounds(topic, partition).high_watermark
        except StoreError as exc:
            raise FaultError(f"cannot stall {topic}-{partition}: {exc}") from None
        stalled.stalled.setdefault((topic, partition), offset)
        store.records = stalled  # type: ignore[assignment]
        return stalled.stalled[(topic, partition)]

    def release_high_watermark(self, topic: str, partition: int) -> bool:
        """Let ``topic``-``partition``'s high watermark move again (parked fetches wake); False if not stalled."""
        store = self._broker.store
        stalled = store.records
        if not isinstance(stalled, StalledRecords) or stalled.stalled.pop((topic, partition), None) is None:
            return False
        if not stalled.stalled:
            store.records = stalled.real
        self._broker.waiters.wake(topic, partition)
        return True

    def refuse_connections(self, seconds: float) -> None:
        self._connections.refuse_for(seconds, "refusing connections (a fault injected by a test)")

    def rebalance(self, group_id: str) -> bool:
        """Start a rebalance of ``group_id``; False when it has no members or is rebalancing already."""
        return self._broker.groups.coordinator.force_rebalance(group_id)

    async def time_out_transaction(self, transactional_id: str) -> bool:
        """Abort the id's Ongoing transaction as its timeout would; False when it has none."""
        return await self._broker.transactions.time_out_now(transactional_id)

    def fail_store(self) -> None:
        self._broker.store.health.report(OSError(errno.EIO, "input/output error (a fault injected by a test)"))

    def clear(self) -> None:
        """Remove every request fault (errors, delays, moved coordinators, unanswered connections; requests never
        answered stay so) and accept connections again. A stopping broker calls it, so nothing waits on a fault."""
        self._errors.clear()
        self._delays.clear()
        self._moved_groups.clear()
        self._unanswered.clear()
        if isinstance(self._broker.store.records, StalledRecords):
            for topic, partition in list(self._broker.store.records.stalled):
                self.release_high_watermark(topic, partition)
        for never in self._never_answered:
            never.cancel()
        self._never_answered.clear()
        self._connections.refuse_for(0.0, "")
        self._disarm_if_idle()

    def pending(self) -> dict[str, list[Any]]:
        """What is installed and not spent yet, JSON-shaped: ``errors`` and ``delays`` (API key, code or seconds,
        the requests left) and ``moved_groups``."""
        return {
            "errors": [[fault.api_key, fault.error_code.name, fault.times] for fault in self._errors],
            "delays": [[fault.api_key, fault.seconds, fault.times] for fault in self._delays],
            "moved_groups": sorted(self._moved_groups),
        }

    def _armed(self) -> None:
        self.dispatch = self._dispatch_with_faults

    def _disarm_if_idle(self) -> None:
        if not self._errors and not self._delays and not self._moved_groups and not self._unanswered:
            self.dispatch = self._inner.dispatch

    # --- requests while faults are installed ---

    def _dispatch_with_faults(self, frame: bytes, connection: ConnectionInfo) -> Outcome:
        if self._unanswered and any(connection is unanswered for unanswered in self._unanswered):
            never: asyncio.Future[Buffers | None] = asyncio.get_running_loop().create_future()
            self._never_answered.append(never)
            return never
        api_key = int.from_bytes(frame[0:2], "big", signed=True)
        if self._moved_groups and (api_key in GROUP_APIS or api_key == FIND_COORDINATOR_KEY):
            answer = self._moved_coordinator(api_key, frame)
            if answer is not None:
                return answer
        if self._errors:
            answer = self._injected_error(api_key, frame)
            if answer is not None:
                return answer
        delay_s = self._take_delay(api_key)
        outcome = self._inner.dispatch(frame, connection)
        self._disarm_if_idle()
        if delay_s is None or outcome is None:
            return outcome
        return _later(outcome, delay_s)

    def _moved_coordinator(self, api_key: int, frame: bytes) -> Buffers | None:
        body = self._dispatcher.decode_body(frame)
        if api_key == FIND_COORDINATOR_KEY:
            if getattr(body, "key_type", GROUP_KEY_TYPE) == GROUP_KEY_TYPE:
                self._moved_groups.difference_update([body.key, *body.coordinator_keys])
                self._disarm_if_idle()
            return None
        if getattr(body, "group_id", None) not in self._moved_groups:
            return None
        return self._dispatcher.error_answer(frame, ErrorCode.NOT_COORDINATOR)

    def _injected_error(self, api_key: int, frame: bytes) -> Buffers | None:
        body: Any = None
        for fault in self._errors:
            if fault.api_key != api_key:
                continue
            if body is None:
                body = self._dispatcher.decode_body(frame)
            if api_key == PRODUCE_KEY and getattr(body, "acks", 1) == 0:
                return None
            if not self._matches(fault, frame, body):
                continue
            fault.times -= 1
            if fault.times <= 0:
                self._errors.remove(fault)
                self._disarm_if_idle()
            return self._dispatcher.error_answer(frame, fault.error_code)
        return None

    def _matches(self, fault: ErrorFault, frame: bytes, body: Any) -> bool:
        if fault.client_id is not None and self._dispatcher.client_id(frame) != fault.client_id:
            return False
        if fault.topic is None:
            return True
        for name, partitions in _topics_named(body, self._topic_name):
            if name == fault.topic and (fault.partition is None or fault.partition in partitions):
                return True
        return False

    def _topic_name(self, topic_id: object) -> str | None:
        return self._broker.store.topics.name_of(topic_id)  # type: ignore[arg-type]

    def _take_delay(self, api_key: int) -> float | None:
        for fault in self._delays:
            if fault.api_key == api_key:
                if fault.times is not None:
                    fault.times -= 1
                    if fault.times <= 0:
                        self._delays.remove(fault)
                return fault.seconds
        return None


async def _later(outcome: Buffers | Awaitable[Buffers | None], delay_s: float) -> Buffers | None:
    answer = await outcome if isinstance(outcome, Awaitable) else outcome
    await asyncio.sleep(delay_s)
    return answer


def _topics_named(body: Any, name_of: Callable[[object], str | None]) -> Iterator[tuple[str | None, set[int]]]:
    """(topic name, partition indexes) of every topic a request body names (Produce, Fetch, ListOffsets,
    Metadata, OffsetCommit, ... all list them under ``topics`` or ``topic_data``)."""
    for entry in getattr(body, "topic_data", None) or getattr(body, "topics", None) or ():
        name = getattr(entry, "name", None) or getattr(entry, "topic", None)
        if not isinstance(name, str) or not name:
            topic_id = getattr(entry, "topic_id", None)
            name = name_of(topic_id) if topic_id is not None else None
        partitions: set[int] = set()
        for part in getattr(entry, "partition_data", None) or getattr(entry, "partitions", None) or ():
            index = part if isinstance(part, int) else getattr(part, "partition_index", getattr(part, "partition", -1))
            partitions.add(index)
        partitions.update(getattr(entry, "partition_indexes", None) or ())
        yield name, partitions


# --- commands: what rockafka.testing sends, in-process or over the test-only admin channel ---


def api_key_of(api: int | str) -> int:
    """An API key from its number or its name (``"Produce"``, ``"produce"``)."""
    if isinstance(api, int) and not isinstance(api, bool):
        if api not in API_SPECS:
            raise FaultError(f"no API has key {api}")
        return api
    wanted = str(api).replace("_", "").lower()
    for key, spec in API_SPECS.items():
        if spec.name.lower() == wanted:
            return key
    raise FaultError(f"no API is named {api!r}")


def error_code_of(error: int | str) -> ErrorCode:
    """An error code from its number or its name (``"NOT_LEADER_OR_FOLLOWER"``)."""
    try:
        if isinstance(error, str):
            return ErrorCode[error.upper()]
        return ErrorCode(error)
    except (KeyError, ValueError):
        raise FaultError(f"no Kafka error code {error!r}") from None


async def apply(injector: FaultInjector, command: Mapping[str, Any]) -> object:
    """Run one fault command (a JSON-shaped mapping, ``{"fault": name, ...}``) on the loop; its result."""
    result = _run(injector, command)
    return await result if inspect.isawaitable(result) else result


def _run(injector: FaultInjector, command: Mapping[str, Any]) -> object:
    name = command.get("fault")
    try:
        return _COMMANDS[str(name)](injector, command)
    except KeyError as exc:
        if name not in _COMMANDS:
            raise FaultError(f"no fault is named {name!r}") from None
        raise FaultError(f"fault {name!r} needs {exc}") from None
    except (TypeError, ValueError) as exc:
        raise FaultError(f"fault {name!r}: {exc}") from None


def _fail(injector: FaultInjector, command: Mapping[str, Any]) -> None:
    times = int(command.get("times", 1))
    if times < 1:
        raise ValueError("times must be at least 1")
    partition = command.get("partition")
    injector.fail(
        ErrorFault(
            api_key_of(command["api"]),
            error_code_of(command["error"]),
            times,
            topic=command.get("topic"),
            partition=None if partition is None else int(partition),
            client_id=command.get("client_id"),
        )
    )


def _delay(injector: FaultInjector, command: Mapping[str, Any]) -> None:
    seconds = float(command["seconds"])
    times = command.get("times")
    if seconds < 0 or (times is not None and int(times) < 1):
        raise ValueError("seconds must not be negative and times, when given, at least 1")
    injector.delay(DelayFault(api_key_of(command["api"]), seconds, None if times is None else int(times)))


def _refuse(injector: FaultInjector, command: Mapping[str, Any]) -> None:
    seconds = float(command["seconds"])
    if seconds < 0:
        raise ValueError("seconds must not be negative")
    injector.refuse_connections(seconds)


_COMMANDS: dict[str, Callable[[FaultInjector, Mapping[str, Any]], object]] = {
    "fail": _fail,
    "delay": _delay,
    "drop_connections": lambda injector, _: injector.drop_connections(),
    "stop_answering": lambda injector, _: injector.stop_answering(),
    "stop_reading": lambda injector, _: injector.stop_reading(),
    "stall_high_watermark": lambda injector, command: injector.stall_high_watermark(
        str(command["topic"]), int(command["partition"])
    ),
    "release_high_watermark": lambda injector, command: injector.release_high_watermark(
        str(command["topic"]), int(command["partition"])
    ),
    "refuse_connections": _refuse,
    "rebalance": lambda injector, command: injector.rebalance(str(command["group"])),
    "move_coordinator": lambda injector, command: injector.move_coordinator(str(command["group"])),
    "time_out_transaction": lambda injector, command: injector.time_out_transaction(str(command["transactional_id"])),
    "fail_store": lambda injector, _: injector.fail_store(),
    "clear": lambda injector, _: injector.clear(),
    "pending": lambda injector, _: injector.pending(),
}
