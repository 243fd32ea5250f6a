"""Fault injection on a test broker: ``broker.faults`` of :class:`rockafka.testing.Broker` (docs/testing.md).

::

    with Broker() as broker:
        broker.faults.fail("Produce", "NOT_LEADER_OR_FOLLOWER", times=2, topic="orders")
        broker.faults.delay("Fetch", 0.5, times=3)
        broker.faults.move_coordinator("billing")     # NOT_COORDINATOR until the client looks it up again
        broker.faults.rebalance("billing")            # members rejoin
        broker.faults.drop_connections()              # every client reconnects
        broker.faults.stop_answering()                # half-closed: requests time out, clients reconnect
        broker.faults.stop_reading()                  # half-closed the other way
        broker.faults.refuse_connections(2.0)         # the broker looks down for 2 s
        broker.faults.fail_store()                    # KAFKA_STORAGE_ERROR until broker.restart()
        broker.faults.clear()

What each fault does, and the Kafka behaviour it simulates, is in :mod:`rockafka.facade.faults`, which runs
them on the broker's event loop. An in-process broker takes them directly. A subprocess broker takes them
only when started with ``Broker(subprocess=True, faults=True)``: it then runs ``python -m
rockafka.testing_server``, which is ``rockafka serve`` plus a Unix socket (the *fault channel*) in a
private temporary directory, never a network listener; ``rockafka serve`` has no such socket.

The fault channel speaks one JSON object per line each way: a command ``{"fault": name, ...}`` (the
fields of :func:`rockafka.facade.faults.apply`), answered ``{"result": value}`` or ``{"error": "one line"}``.
Misuse raises :class:`rockafka.testing.BrokerError` with that line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rockafka.facade.faults import FaultError, FaultInjector, apply

#: How long a fault command may take to be answered (it runs between two requests on the broker's loop).
COMMAND_TIMEOUT_S = 20.0
#: The longest command line the channel reads.
MAX_COMMAND_BYTES = 64 << 10

Send = Callable[[dict[str, Any]], Any]


class FaultCommandError(Exception):
    """The broker refused a fault command (the message is its one line); ``rockafka.testing`` re-raises it
    as ``BrokerError``."""


class Faults:
    """What a test can make a running broker do wrong; each method returns once the broker has done it."""

    def __init__(self, send: Send) -> None:
        self._send = send

    def fail(
        self,
        api: int | str,
        error: int | str,
        *,
        times: int = 1,
        topic: str | None = None,
        partition: int | None = None,
        client_id: str | None = None,
    ) -> None:
        """Answer the next ``times`` requests of ``api`` (a key or a name, ``"Produce"``) with ``error`` (a code
        or a name, ``"NOT_LEADER_OR_FOLLOWER"``); only those naming ``topic`` (and ``partition``) or sent by
        ``client_id``, when given."""
        command = {"fault": "fail", "api": api, "error": error, "times": times}
        optional = {"topic": topic, "partition": partition, "client_id": client_id}
        self._send({**command, **{key: value for key, value in optional.items() if value is not None}})

    def delay(self, api: int | str, seconds: float, *, times: int | None = None) -> None:
        """Answer the next ``times`` requests of ``api`` (all of them, by default) ``seconds`` late."""
        self._send({"fault": "delay", "api": api, "seconds": seconds, "times": times})

    def drop_connections(self) -> int:
        """Abort every client connection now; how many there were."""
        return int(self._send({"fault": "drop_connections"}))

    def stop_answering(self) -> int:
        """Read requests but never answer them, on every connection open now (new ones are served); how many."""
        return int(self._send({"fault": "stop_answering"}))

    def stop_reading(self) -> int:
        """Answer what was read, then read nothing more, on every connection open now (new ones are served); how
        many."""
        return int(self._send({"fault": "stop_reading"}))

    def stall_high_watermark(self, topic: str, partition: int = 0) -> int:
        """Stop the partition's high watermark where it is (appends go on; fetches and ListOffsets see nothing past
        it) until :meth:`release_high_watermark` or :meth:`clear`; the offset it stands at."""
        return int(self._send({"fault": "stall_high_watermark", "topic": topic, "partition": partition}))

    def release_high_watermark(self, topic: str, partition: int = 0) -> bool:
        """Let the partition's high watermark catch up with its log; False if it was not stalled."""
        return bool(self._send({"fault": "release_high_watermark", "topic": topic, "partition": partition}))

    def refuse_connections(self, seconds: float) -> None:
        """Close new connections as soon as they are accepted, for ``seconds``."""
        self._send({"fault": "refuse_connections", "seconds": seconds})

    def rebalance(self, group: str) -> bool:
        """Make ``group`` rebalance; False when it has no members or is rebalancing already."""
        return bool(self._send({"fault": "rebalance", "group": group}))

    def move_coordinator(self, group: str) -> None:
        """Answer ``group``'s requests NOT_COORDINATOR until a client asks FindCoordinator for it again."""
        self._send({"fault": "move_coordinator", "group": group})

    def time_out_transaction(self, transactional_id: str) -> bool:
        """Abort ``transactional_id``'s ongoing transaction as its timeout would (its producer is fenced); False
        when it has none."""
        return bool(self._send({"fault": "time_out_transaction", "transactional_id": transactional_id}))

    def fail_store(self) -> None:
        """Take the store offline as an I/O error would: KAFKA_STORAGE_ERROR until the broker restarts."""
        self._send({"fault": "fail_store"})

    def pending(self) -> dict[str, list[Any]]:
        """What is installed and not spent: ``{"errors": [[api key, error name, requests left], ...], "delays":
        [[api key, seconds, requests left or None], ...], "moved_groups": [group, ...]}``."""
        return dict(self._send({"fault": "pending"}))

    def clear(self) -> None:
        """Remove every pending error, delay and moved coordinator, and accept connections again."""
        self._send({"fault": "clear"})


# --- in-process: run the command on the broker's loop ---


def in_process_sender(injector: FaultInjector, loop: asyncio.AbstractEventLoop) -> Send:
    async def run(command: dict[str, Any]) -> Any:
        return await apply(injector, command)

    def send(command: dict[str, Any]) -> Any:
        try:
            return asyncio.run_coroutine_threadsafe(run(command), loop).result(COMMAND_TIMEOUT_S)
        except FaultError as exc:
            raise FaultCommandError(str(exc)) from None

    return send


# --- a subprocess: the fault channel ---


def channel_sender(path: Path) -> Send:
    def send(command: dict[str, Any]) -> Any:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as channel:
            channel.settimeout(COMMAND_TIMEOUT_S)
            try:
                channel.connect(str(path))
                channel.sendall(json.dumps(command).encode() + b"\n")
                answer = channel.makefile("rb").readline(MAX_COMMAND_BYTES)
            except OSError as exc:
                raise FaultCommandError(f"the broker's fault channel {path} does not answer: {exc}") from None
        if not answer:
            raise FaultCommandError(f"the broker's fault channel {path} closed without an answer")
        reply = json.loads(answer)
        if "error" in reply:
            raise FaultCommandError(str(reply["error"]))
        return reply["result"]

    return send


async def open_fault_channel(injector: FaultInjector, path: Path) -> asyncio.AbstractServer:
    """Serve fault commands on the Unix socket ``path`` (only the test-mode start, ``rockafka.testing_server``)."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.closing(writer):
            line = await reader.readline()
            try:
                command = json.loads(line)
                if not isinstance(command, dict):
                    raise ValueError("a fault command is a JSON object")
                reply: dict[str, Any] = {"result": await apply(injector, command)}
            except (FaultError, ValueError) as exc:
                reply = {"error": str(exc)}
            writer.write(json.dumps(reply).encode() + b"\n")
            await writer.drain()

    return await asyncio.start_unix_server(answer, path=str(path), limit=MAX_COMMAND_BYTES)
