"""A broker's real dispatcher driven in-process: requests encoded as a client would, per connection.

:class:`Conn` is one client connection (listener, security protocol, principal); it sends requests
through the broker's :class:`RequestDispatcher` and decodes the answers, or reports that the connection
was closed (``Closed``, with the last response if one was written first).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rockafka.facade.broker import Broker
from rockafka.facade.clock import REAL_CLOCK, Clock
from rockafka.facade.config import load_broker_config
from rockafka.facade.dispatch import RequestDispatcher
from rockafka.facade.protocol.framing import decode_response, encode_request
from rockafka.facade.protocol.message import ApiMessage
from rockafka.facade.protocol.messages import api_spec
from rockafka.facade.server import BrokenRequestError, ConnectionInfo
from rockafka.store import MessageStore, StoreConfig

M = TypeVar("M", bound=ApiMessage)


@dataclass
class Closed(Exception):
    """The dispatcher closed the connection; ``response`` is what it wrote first (raw bytes), if anything."""

    reason: str
    response: bytes | None


class Conn:
    def __init__(self, dispatcher: RequestDispatcher, info: ConnectionInfo) -> None:
        self.dispatcher = dispatcher
        self.info = info
        self._correlation = 0

    def raw(self, frame: bytes) -> bytes | None:
        """Dispatch one frame (without its size prefix); the raw answer (with size prefix), or None."""
        try:
            outcome = self.dispatcher.dispatch(frame, self.info)
        except BrokenRequestError as exc:
            raise Closed(str(exc), None if exc.response is None else b"".join(exc.response)) from None
        if isinstance(outcome, Awaitable):
            outcome = asyncio.get_event_loop().run_until_complete(_await(outcome))
        return None if outcome is None else b"".join(outcome)

    def call(self, request: ApiMessage, version: int, response: type[M] | None = None) -> M:
        self._correlation += 1
        answer = self.raw(encode_request(request, version, self._correlation, client_id="security-test")[4:])
        assert answer is not None
        kind = response or api_spec(request.API_KEY).response
        correlation, body = decode_response(answer[4:], kind, version)
        assert correlation == self._correlation
        return body  # type: ignore[return-value]


async def _await(outcome: Any) -> Any:
    return await asyncio.wait_for(outcome, 10)


def decode_closing(closed: Closed, response: type[M], version: int) -> M:
    """The response written just before the connection closed."""
    assert closed.response is not None, closed.reason
    return decode_response(closed.response[4:], response, version)[1]


@contextmanager
def broker(tmp_path: Path, *settings: str, clock: Clock = REAL_CLOCK) -> Iterator[tuple[Broker, RequestDispatcher]]:
    """A broker (store in ``tmp_path``) with the given ``key=value`` settings and its dispatcher; its group
    coordinator runs on an event loop of its own, made current for the block."""
    config = load_broker_config(overrides=[f"log.dirs={tmp_path}", *settings])
    store = MessageStore.open(
        StoreConfig(
            tmp_path,
            commitlog_segment_bytes=1 << 20,
            consume_queue_units_per_file=64,
            index_slot_count=16,
            index_entry_count=64,
            preallocate=False,
        )
    )
    instance = Broker(config, store, "cluster", clock=clock)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)

    async def start() -> None:
        instance.groups.start()

    loop.run_until_complete(start())
    try:
        yield instance, RequestDispatcher(instance)
    finally:
        instance.groups.shutdown()
        loop.run_until_complete(asyncio.sleep(0))
        loop.close()
        asyncio.set_event_loop(None)
        store.close()


def connect(
    dispatcher: RequestDispatcher,
    principal: str = "User:ANONYMOUS",
    listener: str = "PLAINTEXT",
    protocol: str = "PLAINTEXT",
    host: str = "127.0.0.1",
) -> Conn:
    info = ConnectionInfo(f"{host}:40000", listener, protocol, principal, host=host)
    return Conn(dispatcher, info)
