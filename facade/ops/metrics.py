"""What the broker counts while it serves, at the cost of a few integer additions per request, never per record.

:class:`BrokerMetrics` holds plain counters that the serving code bumps on the event loop thread:

- per topic (from the store's append listener and the Fetch handler): messages and bytes in, bytes out,
  produce and fetch requests (Kafka's ``BrokerTopicMetrics``);
- per API key and version (from :class:`MeteredDispatcher`, which wraps the broker's dispatcher): requests and
  their time from the frame's arrival to its answer being ready, as histogram buckets; per API key and
  error code (from the dispatcher's error hook): requests answered with an error as a whole, and (from the
  Produce and Fetch handlers, only when a partition failed) each partition's error.

Nothing here formats or locks: ``exposition.py`` turns these counters into Prometheus metrics when scraped.
The counters only grow while the broker runs; a restart starts them at zero (Prometheus' ``rate`` expects that).
"""

from __future__ import annotations

import asyncio
import struct
import time
from bisect import bisect_left
from collections.abc import Awaitable, Iterable
from typing import Protocol

from rockafka.store import AppendResult

from ..server import Buffers, ConnectionInfo, Outcome, RequestHandler

#: Upper bounds (seconds) of the request-time histogram buckets; the last bucket is +Inf.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

_API_AND_VERSION = struct.Struct(">I")


class TopicCounts:
    """One topic's traffic since the broker started."""

    __slots__ = ("bytes_in", "bytes_out", "fetch_requests", "messages_in", "produce_requests")

    def __init__(self) -> None:
        self.messages_in = 0
        self.bytes_in = 0
        self.bytes_out = 0
        self.produce_requests = 0
        self.fetch_requests = 0


class RequestTimes:
    """One API version's requests: how many, and their times as cumulative-later histogram buckets."""

    __slots__ = ("buckets", "count", "seconds")

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0
        self.buckets = [0] * (len(LATENCY_BUCKETS) + 1)

    def observe(self, seconds: float) -> None:
        self.count += 1
        self.seconds += seconds
        self.buckets[bisect_left(LATENCY_BUCKETS, seconds)] += 1


class FetchedPart(Protocol):
    """What a Fetch answered for one partition: its topic (None when unknown) and the bytes of its records."""

    @property
    def name(self) -> str | None: ...

    @property
    def size(self) -> int: ...


class BrokerMetrics:
    def __init__(self) -> None:
        self.topics: dict[str, TopicCounts] = {}
        self.requests: dict[int, RequestTimes] = {}
        """Per API key and version, keyed ``api_key << 16 | version``."""
        self.errors: dict[tuple[int, int], int] = {}
        """Per (API key, error code): requests answered with an error as a whole."""

    def topic(self, name: str) -> TopicCounts:
        counts = self.topics.get(name)
        if counts is None:
            counts = self.topics[name] = TopicCounts()
        return counts

    def on_append(self, result: AppendResult) -> None:
        """The store's append listener: one call per partition of a produce request."""
        counts = self.topics.get(result.topic) or self.topic(result.topic)
        counts.messages_in += result.last_offset - result.base_offset + 1
        counts.bytes_in += result.size_bytes
        counts.produce_requests += 1

    def on_fetch(self, parts: Iterable[FetchedPart]) -> None:
        """A Fetch answered: bytes out per topic, and one fetch request for each topic it named."""
        seen: set[str] = set()
        for part in parts:
            name = part.name
            if name is None:
                continue
            counts = self.topics.get(name) or self.topic(name)
            counts.bytes_out += part.size
            if name not in seen:
                seen.add(name)
                counts.fetch_requests += 1

    def on_error(self, api_key: int, error_code: int) -> None:
        key = (api_key, error_code)
        self.errors[key] = self.errors.get(key, 0) + 1

    def on_partition_errors(self, api_key: int, error_codes: Iterable[int]) -> None:
        """Each partition's error in an answer that had one (Produce, Fetch), counted as Kafka's ErrorsPerSec
        counts them; called only when a partition failed, so successful answers cost nothing here."""
        for code in error_codes:
            if code:
                self.on_error(api_key, code)

    def times_of(self, api_and_version: int) -> RequestTimes:
        """The request times of an API version, keyed ``api_key << 16 | version`` (a request's first 4 bytes)."""
        times = self.requests.get(api_and_version)
        if times is None:
            times = self.requests[api_and_version] = RequestTimes()
        return times

    def forget_topic(self, name: str) -> None:
        """A deleted topic's series go away (a topic created again under the name starts from zero)."""
        self.topics.pop(name, None)


class MeteredDispatcher:
    """A :class:`~rockafka.facade.server.RequestHandler` that times every request of the one it wraps."""

    def __init__(self, inner: RequestHandler, metrics: BrokerMetrics) -> None:
        self._inner = inner
        self._metrics = metrics
        self._clock = time.perf_counter

    def dispatch(self, frame: bytes, connection: ConnectionInfo) -> Outcome:
        started = self._clock()
        outcome = self._inner.dispatch(frame, connection)
        key = _API_AND_VERSION.unpack_from(frame)[0]
        times = self._metrics.requests.get(key) or self._metrics.times_of(key)
        if type(outcome) is list or outcome is None:
            times.observe(self._clock() - started)
            return outcome
        if isinstance(outcome, asyncio.Future):
            outcome.add_done_callback(lambda _: times.observe(self._clock() - started))
            return outcome
        if isinstance(outcome, Awaitable):
            return self._timed(outcome, times, started)
        times.observe(self._clock() - started)
        return outcome

    async def _timed(self, pending: Awaitable[Buffers | None], times: RequestTimes, started: float) -> Buffers | None:
        try:
            return await pending
        finally:
            times.observe(self._clock() - started)

    def ssl_principal(self, listener_name: str, peer_certificate: dict[str, object] | None) -> str:
        return self._inner.ssl_principal(listener_name, peer_certificate)
