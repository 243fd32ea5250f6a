"""The one module that talks to etcd: a typed, asyncio wrapper over the ``aetcd`` client.

Everything else in ``rockafka.cluster`` calls :class:`Etcd`; it turns the client's gRPC failures into
:class:`EtcdUnavailableError` (one line naming the endpoint) so no traceback of the client leaks. The
client (``aetcd``, asyncio over gRPC) is imported here only, so a single broker never loads it.

Endpoints are ``host:port`` strings; the first that answers a read is used. ``aetcd`` holds one gRPC channel to
one endpoint, so failover is done here: a request that fails for want of etcd marks the connection stale, and
the next request first connects again, trying every endpoint from the one after the failed one (a restarted
etcd, or another member of the etcd cluster). While none answers, every request fails at once with
:class:`EtcdUnavailableError`; callers retry on their own schedule (the watch, the lease) or answer the
client a retriable error (admin changes).

Only a failure of the transport is "for want of etcd": no answer in time, a channel that cannot reach its
endpoint or was closed, or etcd saying it cannot serve now (``UNAVAILABLE``: no leader, stopping). A request
etcd answers with a refusal (:data:`REFUSALS`: a lease it no longer has, a full database, a compacted
revision) leaves the connection as it is and raises :class:`EtcdRefusedError`: connecting again would change
nothing but close the channel the watch streams on, and the view would read everything again for nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import aetcd
import aetcd.exceptions
import aetcd.rpc

from .errors import ClusterError, EtcdRefusedError, EtcdUnavailableError
from .etcd_requests import ETCD_REQUESTS, KEEPALIVE

#: How long one etcd request may take before the broker calls etcd unreachable.
REQUEST_TIMEOUT_S: Final = 5

#: The gRPC status codes with which etcd refuses a request it received (``rpctypes`` of etcd's server): an answer,
#: so the connection is sound. Any other failure (``UNAVAILABLE``, ``DEADLINE_EXCEEDED``, ``CANCELLED``, a closed
#: channel, no status at all) is the transport's.
REFUSALS: Final = frozenset(
    {
        aetcd.rpc.StatusCode.NOT_FOUND,  # requested lease not found
        aetcd.rpc.StatusCode.ALREADY_EXISTS,
        aetcd.rpc.StatusCode.FAILED_PRECONDITION,  # lease already exists, not capable
        aetcd.rpc.StatusCode.INVALID_ARGUMENT,  # too many operations, key not given
        aetcd.rpc.StatusCode.OUT_OF_RANGE,  # revision compacted, or in the future
        aetcd.rpc.StatusCode.RESOURCE_EXHAUSTED,  # database space exceeded, too many requests
        aetcd.rpc.StatusCode.PERMISSION_DENIED,
        aetcd.rpc.StatusCode.UNAUTHENTICATED,
    }
)


@dataclass(frozen=True, slots=True)
class Entry:
    """One key as etcd holds it."""

    key: bytes
    value: bytes
    create_revision: int
    mod_revision: int
    lease: int = 0  # the lease the key is bound to (0: none)


@dataclass(frozen=True, slots=True)
class Change:
    """One watch event: ``value`` None for a delete."""

    key: bytes
    value: bytes | None
    revision: int


def parse_endpoint(text: str) -> tuple[str, int]:
    """``host:port`` (an ``http://`` prefix is allowed) as a pair, or :class:`ClusterError`."""
    bare = text.strip().removeprefix("http://")
    host, sep, port = bare.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ClusterError(f"etcd endpoint {text!r} is not host:port")
    return host, int(port)


class Etcd:
    """A connection to etcd through the first of its endpoints that answers (``await Etcd.connect(endpoints)``)."""

    def __init__(self, client: Any, endpoints: Sequence[str], endpoint: str) -> None:
        self._client = client
        self._endpoints = tuple(endpoints)
        self.endpoint = endpoint
        self.txn = client.transactions
        self._stale = False
        self._reconnecting: asyncio.Lock | None = None

    @classmethod
    async def connect(cls, endpoints: Sequence[str]) -> Etcd:
        """The first of ``endpoints`` that answers, or :class:`EtcdUnavailableError` naming them all."""
        if not endpoints:
            raise ClusterError("no etcd endpoint given")
        client, endpoint = await _first_answering(endpoints)
        return cls(client, endpoints, endpoint)

    async def close(self) -> None:
        await self._client.close()

    async def _reconnect(self) -> None:
        """Connect again (the connection failed), from the endpoint after the one that failed."""
        if self._reconnecting is None:
            self._reconnecting = asyncio.Lock()
        async with self._reconnecting:
            if not self._stale:
                return  # another request connected meanwhile
            after = (self._endpoints.index(self.endpoint) + 1) if self.endpoint in self._endpoints else 0
            order = self._endpoints[after:] + self._endpoints[:after]
            client, endpoint = await _first_answering(order)
            old, self._client, self.endpoint, self._stale = self._client, client, endpoint, False
            await old.close()

    async def get(self, key: bytes) -> Entry | None:
        found = await self._call("get", lambda: self._client.get(key))
        return None if found is None else _entry(found)

    async def get_prefix(self, prefix: bytes) -> tuple[list[Entry], int]:
        """Every key under ``prefix`` and the revision they were read at."""
        found = await self._call("get_prefix", lambda: self._client.get_prefix(prefix))
        return [_entry(item) for item in found], int(found.header.revision)

    async def transaction(
        self, compare: list[Any], success: list[Any], failure: list[Any] | None = None
    ) -> tuple[bool, list[Any]]:
        succeeded, responses = await self._call(
            "txn", lambda: self._client.transaction(compare, success, failure or [])
        )
        return bool(succeeded), list(responses)

    async def swap(self, compare: list[Any], success: list[Any]) -> int | None:
        """Run ``success`` if every ``compare`` holds: the revision its writes landed at, or None if one failed."""
        succeeded, responses = await self.transaction(compare, success)
        if not succeeded:
            return None
        return max((int(getattr(r, str(r.WhichOneof("response"))).header.revision) for r in responses), default=0)

    async def grant_lease(self, ttl_s: int) -> int:
        lease = await self._call("lease_grant", lambda: self._client.lease(ttl_s))
        return int(lease.id)

    async def keep_alive(self, lease_id: int) -> int:
        """Refresh ``lease_id``; its remaining TTL (0 or less: the lease is gone)."""
        reply = await self._call(KEEPALIVE, lambda: self._client.refresh_lease(lease_id))
        return int(reply.TTL) if reply is not None else 0

    async def revoke_lease(self, lease_id: int) -> None:
        await self._call("lease_revoke", lambda: self._client.revoke_lease(lease_id))

    async def watch_prefix(self, prefix: bytes, start_revision: int) -> AsyncIterator[Change]:
        """Every change under ``prefix`` from ``start_revision`` on, in order, until cancelled or etcd is lost.

        Never ends quietly: a watch that fails, or whose stream ends (etcd stopped, or the connection was replaced
        and closed under it), raises :class:`EtcdUnavailableError`, and the caller reads again and watches anew
        from what it last saw. ``aetcd`` hands a watch a failure of its stream raw (not only its ``ClientError``)
        and ends it without a word when the connection closes, so both are turned into that error here."""

        async def open_watch() -> tuple[Any, Any]:
            client = self._client  # the one connected now (``_call`` connects again first if need be)
            return client, await client.watch_prefix(prefix, start_revision=start_revision)

        client, watch = await self._call("watch", open_watch)
        try:
            async for event in watch:
                deleted = event.kind == "DELETE"
                yield Change(event.kv.key, None if deleted else event.kv.value, event.kv.mod_revision)
        except Exception as exc:
            self._stale = self._stale or client is self._client
            raise EtcdUnavailableError(f"etcd watch at {self.endpoint} failed: {type(exc).__name__} {exc}") from None
        finally:
            await _cancel_watch(watch)
        self._stale = self._stale or client is self._client  # a live connection does not end a watch
        raise EtcdUnavailableError(f"etcd watch at {self.endpoint} ended")

    async def _call(self, kind: str, request: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``request`` (made on the current client), connecting again first if the last request lost etcd;
        counted under ``kind`` in :data:`~.etcd_requests.ETCD_REQUESTS`."""
        ETCD_REQUESTS[kind] += 1
        if self._stale:
            await self._reconnect()
        try:
            return await request()
        except aetcd.exceptions.ClientError as exc:
            if _refused(exc):
                raise EtcdRefusedError(f"etcd at {self.endpoint} refused {kind}: {exc}") from None
            self._stale = True
            raise EtcdUnavailableError(f"etcd at {self.endpoint} failed: {type(exc).__name__} {exc}") from None


#: gRPC keepalive while a call or stream is open (the watch always is): a connection that stops answering, a peer
#: gone without a reset (a cut network, a proxy that keeps the socket), is found dead within ~15 s and the watch
#: fails over to a fresh read instead of waiting on it for ever (as etcd's own client sets DialKeepAliveTime).
#: 10 s is above etcd's default minimum ping interval (5 s), so it never answers "too many pings".
#:
#: Each channel has its own subchannels (``use_local_subchannel_pool``), with reconnect backoff capped at 1 s. gRPC
#: shares a subchannel among every channel of the same target by default, with its backoff (1 s growing 1.6 times per
#: failure, to 120 s): after etcd was away a minute, the fresh channel a reconnect makes failed at once for seconds
#: after etcd was back (measured: 6.6 s after a 60 s outage, against 1.8 s with a channel of its own), so a broker's
#: first admin request after etcd's restart was refused although etcd served.
CHANNEL_OPTIONS: Final = {
    "grpc.keepalive_time_ms": 10_000,
    "grpc.keepalive_timeout_ms": 5_000,
    "grpc.keepalive_permit_without_calls": 0,
    "grpc.use_local_subchannel_pool": 1,
    "grpc.initial_reconnect_backoff_ms": 200,
    "grpc.max_reconnect_backoff_ms": 1_000,
}


def _refused(exc: aetcd.exceptions.ClientError) -> bool:
    """Whether ``exc`` is etcd's answer (a refusal) rather than a failure to reach it: ``aetcd`` raises its errors
    from the gRPC call's, whose status code says which."""
    cause = exc.__cause__
    return isinstance(cause, aetcd.rpc.AioRpcError) and cause.code() in REFUSALS


async def _cancel_watch(watch: Any) -> None:
    """Stop ``watch`` on etcd's side, if its connection is still there. Never raises: a closed connection's watch
    raises ``AttributeError`` from ``aetcd`` (that escaped once and killed the broker's view, silent from then on),
    and bounded: the request queue of a dead stream may be full, with nothing reading it."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.shield(watch.cancel()), REQUEST_TIMEOUT_S)


async def _first_answering(endpoints: Sequence[str]) -> tuple[Any, str]:
    """A client of the first of ``endpoints`` that answers a read, or :class:`EtcdUnavailableError`."""
    for endpoint in endpoints:
        host, port = parse_endpoint(endpoint)
        client = aetcd.Client(host=host, port=port, timeout=REQUEST_TIMEOUT_S, options=CHANNEL_OPTIONS)
        ETCD_REQUESTS["connect"] += 1
        try:
            await asyncio.wait_for(client.get(b"/rockafka"), REQUEST_TIMEOUT_S)
        except (aetcd.exceptions.ClientError, TimeoutError, OSError):
            await client.close()
            continue
        return client, endpoint
    raise EtcdUnavailableError(f"etcd is not reachable at {','.join(endpoints)}")


def _entry(kv: Any) -> Entry:
    return Entry(kv.key, kv.value, int(kv.create_revision), int(kv.mod_revision), int(kv.lease))
