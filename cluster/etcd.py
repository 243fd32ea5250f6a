"""The one module that talks to etcd: a typed, asyncio wrapper over the ``aetcd`` client.

Everything else in ``rockafka.cluster`` calls :class:`Etcd`; it turns the client's gRPC failures into
:class:`EtcdUnavailableError` (one line naming the endpoint) so no traceback of the client leaks. The
client (``aetcd``, asyncio over gRPC) is imported here only, so a single broker never loads it.

Endpoints are ``host:port`` strings; the first that answers a status request is used. (etcd's own Go client
fails over between endpoints; ``aetcd`` holds one channel, so a lost endpoint is the etcd-loss case, not yet
handled: see docs/cluster.md.)
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

import aetcd
import aetcd.exceptions

from .errors import ClusterError, EtcdUnavailableError

#: How long one etcd request may take before the broker calls etcd unreachable.
REQUEST_TIMEOUT_S: Final = 5


@dataclass(frozen=True, slots=True)
class Entry:
    """One key as etcd holds it."""

    key: bytes
    value: bytes
    create_revision: int
    mod_revision: int


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
    """A connection to one etcd endpoint (``await Etcd.connect(endpoints)``)."""

    def __init__(self, client: Any, endpoint: str) -> None:
        self._client = client
        self.endpoint = endpoint
        self.txn = client.transactions

    @classmethod
    async def connect(cls, endpoints: Sequence[str]) -> Etcd:
        """The first of ``endpoints`` that answers, or :class:`EtcdUnavailableError` naming them all."""
        if not endpoints:
            raise ClusterError("no etcd endpoint given")
        for endpoint in endpoints:
            host, port = parse_endpoint(endpoint)
            client = aetcd.Client(host=host, port=port, timeout=REQUEST_TIMEOUT_S)
            try:
                await asyncio.wait_for(client.get(b"/rockafka"), REQUEST_TIMEOUT_S)
            except (aetcd.exceptions.ClientError, TimeoutError, OSError):
                await client.close()
                continue
            return cls(client, endpoint)
        raise EtcdUnavailableError(f"etcd is not reachable at {','.join(endpoints)}")

    async def close(self) -> None:
        await self._client.close()

    async def get(self, key: bytes) -> Entry | None:
        found = await self._call(self._client.get(key))
        return None if found is None else _entry(found)

    async def get_prefix(self, prefix: bytes) -> tuple[list[Entry], int]:
        """Every key under ``prefix`` and the revision they were read at."""
        found = await self._call(self._client.get_prefix(prefix))
        return [_entry(item) for item in found], int(found.header.revision)

    async def transaction(
        self, compare: list[Any], success: list[Any], failure: list[Any] | None = None
    ) -> tuple[bool, list[Any]]:
        succeeded, responses = await self._call(self._client.transaction(compare, success, failure or []))
        return bool(succeeded), list(responses)

    async def swap(self, compare: list[Any], success: list[Any]) -> int | None:
        """Run ``success`` if every ``compare`` holds: the revision its writes landed at, or None if one failed."""
        succeeded, responses = await self.transaction(compare, success)
        if not succeeded:
            return None
        return max((int(getattr(r, str(r.WhichOneof("response"))).header.revision) for r in responses), default=0)

    async def grant_lease(self, ttl_s: int) -> int:
        lease = await self._call(self._client.lease(ttl_s))
        return int(lease.id)

    async def keep_alive(self, lease_id: int) -> int:
        """Refresh ``lease_id``; its remaining TTL (0 or less: the lease is gone)."""
        reply = await self._call(self._client.refresh_lease(lease_id))
        return int(reply.TTL) if reply is not None else 0

    async def revoke_lease(self, lease_id: int) -> None:
        await self._call(self._client.revoke_lease(lease_id))

    async def watch_prefix(self, prefix: bytes, start_revision: int) -> AsyncIterator[Change]:
        """Every change under ``prefix`` from ``start_revision`` on, in order, until cancelled."""
        watch = await self._call(self._client.watch_prefix(prefix, start_revision=start_revision))
        try:
            async for event in watch:
                deleted = event.kind == "DELETE"
                yield Change(event.kv.key, None if deleted else event.kv.value, event.kv.mod_revision)
        except aetcd.exceptions.ClientError as exc:
            raise EtcdUnavailableError(f"etcd watch at {self.endpoint} failed: {exc}") from None
        finally:
            await asyncio.shield(watch.cancel())

    async def _call(self, request: Any) -> Any:
        try:
            return await request
        except aetcd.exceptions.ClientError as exc:
            raise EtcdUnavailableError(f"etcd at {self.endpoint} failed: {type(exc).__name__} {exc}") from None


def _entry(kv: Any) -> Entry:
    return Entry(kv.key, kv.value, int(kv.create_revision), int(kv.mod_revision))
