"""The broker's client connections: how many there may be, from where, and for how long idle.

Kafka's settings, applied as Kafka applies them except where said:

- ``max.connections.per.ip`` (and ``max.connections.per.ip.overrides``, ``host:limit`` pairs whose host
  names are resolved once at start): a connection from an address that already has its limit is closed
  at once, before anything is read from it (Kafka drops it the same way).
- ``max.connections``: a connection over the broker-wide limit waits, unread, until a slot frees (oldest
  first), as Kafka leaves it in the listen queue. asyncio's servers cannot pause accepting, so the
  waiting connections are accepted and held: at most ``MAX_WAITING`` of them (a listen queue's size),
  beyond which a new connection is closed at once. A waiting client that hangs up is let go.
- ``connections.max.idle.ms``: a connection that has nothing to answer (no parked request, no answer
  waiting to be written) and has neither read nor written for that long is closed (negative: never).
  Kafka's idle clock is the same (the last read or write); a connection with a parked request is never
  idle here, however long its request waits. Connections are swept every tenth of the idle time
  (between 10 ms and 10 s), so one is closed within that much after its idle time has passed.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
from collections import Counter, deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from .config import BrokerConfig
from .config.definitions import connection_overrides
from .server import KafkaConnection

log = logging.getLogger(__name__)

SWEEP_MIN_S = 0.01
SWEEP_MAX_S = 10.0
#: Connections accepted over ``max.connections`` that wait for a slot (as many as a listen queue holds).
MAX_WAITING = 100


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    max_connections: int
    max_per_ip: int
    per_ip: Mapping[str, int] = field(default_factory=dict)
    """Limits by IP address (the overrides, host names resolved)."""
    idle_ms: int = -1

    @classmethod
    def from_config(cls, config: BrokerConfig) -> ConnectionLimits:
        per_ip: dict[str, int] = {}
        for host, limit in connection_overrides(config.str("max.connections.per.ip.overrides")).items():
            for address in _addresses(host):
                per_ip[address] = limit
        return cls(
            max_connections=config.int("max.connections"),
            max_per_ip=config.int("max.connections.per.ip"),
            per_ip=per_ip,
            idle_ms=config.int("connections.max.idle.ms"),
        )

    def for_ip(self, address: str) -> int:
        return self.per_ip.get(address, self.max_per_ip)


def _addresses(host: str) -> list[str]:
    """The IP addresses of an override's host: itself if it is one, else what it resolves to (none if not)."""
    try:
        return [str(ipaddress.ip_address(host))]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError as exc:
        log.warning("max.connections.per.ip.overrides: %s does not resolve (%s); its limit is not applied", host, exc)
        return []
    return sorted({str(info[4][0]) for info in infos})


class Connections:
    """Every open connection, counted per IP address; admits, holds or refuses new ones and closes idle ones."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self._open: set[KafkaConnection] = set()
        self._waiting: deque[KafkaConnection] = deque()
        """Accepted over ``max.connections``, not read from until a slot frees (oldest first)."""
        self._per_ip: Counter[str] = Counter()
        self._sweeper: asyncio.Task[None] | None = None
        self._refusing: tuple[float, str] | None = None
        """Until when (event-loop time) new connections are closed at once, and why (``refuse_for``)."""

    def __iter__(self) -> Iterator[KafkaConnection]:
        return iter([*self._open, *self._waiting])

    def __len__(self) -> int:
        return len(self._open) + len(self._waiting)

    def opened(self, connection: KafkaConnection) -> str | None:
        if self._refusing is not None and (refused := self._refused()) is not None:
            return refused
        host = connection.info.host
        if self._per_ip[host] >= self.limits.for_ip(host):
            return f"{host} has {self._per_ip[host]} connections, its limit (max.connections.per.ip)"
        if len(self._open) < self.limits.max_connections:
            self._open.add(connection)
        elif len(self._waiting) < MAX_WAITING:
            self._waiting.append(connection)
            connection.hold()
        else:
            return (
                f"the broker has {len(self._open)} connections, its limit (max.connections), and {MAX_WAITING} waiting"
            )
        self._per_ip[host] += 1
        log.debug("connection from %s on listener %s (%d open)", connection.info.peer, connection.info.listener_name,
                  len(self))  # fmt: skip
        return None

    def refuse_for(self, seconds: float, reason: str) -> None:
        """Close every new connection at once for ``seconds`` (a fault a test injected: the broker looks down);
        0 accepts them again."""
        until = asyncio.get_running_loop().time() + seconds
        self._refusing = (until, reason) if seconds > 0 else None

    def _refused(self) -> str | None:
        assert self._refusing is not None
        until, reason = self._refusing
        if asyncio.get_running_loop().time() < until:
            return reason
        self._refusing = None
        return None

    def closed(self, connection: KafkaConnection) -> None:
        if connection in self._open:
            self._open.discard(connection)
        elif connection in self._waiting:
            self._waiting.remove(connection)
        else:
            return
        log.debug("connection from %s closed (%d open)", connection.info.peer, len(self) - 1)
        host = connection.info.host
        self._per_ip[host] -= 1
        if self._per_ip[host] <= 0:
            del self._per_ip[host]
        while self._waiting and len(self._open) < self.limits.max_connections:
            admitted = self._waiting.popleft()
            self._open.add(admitted)
            admitted.admit()

    def start(self) -> None:
        """Start closing idle connections (when ``connections.max.idle.ms`` is not negative)."""
        if self.limits.idle_ms >= 0 and self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None

    async def _sweep(self) -> None:
        idle_s = self.limits.idle_ms / 1000
        interval_s = min(max(idle_s / 10, SWEEP_MIN_S), SWEEP_MAX_S)
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(interval_s)
            cutoff = loop.time() - idle_s
            for connection in [c for c in self._open if c.idle and c.last_active <= cutoff]:
                connection.close_idle()
