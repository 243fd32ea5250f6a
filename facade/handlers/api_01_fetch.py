"""Fetch v0-17: whole stored batches per partition, long-polling until ``min_bytes`` or ``max_wait_ms``.

Version notes: v0-3 are answered in the old message formats (v0-1: magic 0, v2-3: magic 1 with timestamps),
down-converted from the stored batches by ``rockafka.facade.legacy`` within the same size limits (the first
message of the first partition with data always goes): headers dropped, control batches left out,
transactional records served uncommitted as Kafka serves fetches without an isolation level. A topic whose
``message.downconversion.enable`` is false (broker default ``log.message.downconversion.enable``) answers
them UNSUPPORTED_VERSION for its partitions, as Kafka does.
v4+ has isolation_level and the last stable offset (LSO: the first offset of the partition's oldest open
transaction, else the high watermark), reported for both isolation levels as Kafka does.
read_committed returns whole batches below the LSO only, and the aborted transactions (producer id, first
offset) overlapping [fetch offset, offset after the returned batches) so the client can drop their records;
read_uncommitted returns every batch and null aborted transactions (as Kafka; a list there would make
clients skip records). A parked read_committed fetch wakes on every append to its partitions, transaction
markers included, and answers once the LSO has let enough through. v5+ reports the log start offset. v7+ fetch sessions
are answered sessionless (session id 0), which every client accepts; a request naming an existing
session id gets FETCH_SESSION_ID_NOT_FOUND. v13+ addresses topics by id (UNKNOWN_TOPIC_ID when
unknown). A fetch offset in the middle of a batch returns the whole batch. Size (KIP-74): partitions
are filled in request order, each up to its partition_max_bytes and what remains of max_bytes, and
only the first batch of the first partition with data may exceed either (so a consumer always
progresses); a later partition whose next batch does not fit returns no records, with its high
watermark. Clients rotate the partition order between fetches (librdkafka round-robin, the Java
client and kafka-python move partitions that returned data to the end, aiokafka leaves out partitions
with buffered records), so a full response does not starve later partitions; fetches are sessionless,
so the broker keeps no partition order of its own. Offsets outside [log start, high watermark] get
OFFSET_OUT_OF_RANGE with both bounds filled in, also in a full response. A fetch parked for more data
wakes on the first append to any of its partitions; it is answered within the same limits.
The answer is the hot codec's ``FetchResponse`` (``rockafka.core_pyx.hotcodec``, generated from the specs), encoded
as parts: batches of ``ZERO_COPY_MIN_BYTES`` or more are written to the socket straight from the mapped CommitLog.
Authorization: READ on each topic (TOPIC_AUTHORIZATION_FAILED for its partitions, which are not read).
Leadership (``handlers/leadership.py``): v9+ ``current_leader_epoch`` is checked first (FENCED_LEADER_EPOCH,
UNKNOWN_LEADER_EPOCH; -1 skips it); in a cluster, a partition this broker does not lead is then answered
NOT_LEADER_OR_FOLLOWER (``topology.readable``: what it leads, and a partition moving away until the switch), and
from v16 both errors carry the partition's current leader and the response the leaders' endpoints (KIP-951).
Diverging epoch (v12+, Kafka's ``Partition.readRecords``): a partition fetched with ``last_fetched_epoch`` (a
follower's, or a client's that tracks it; -1 skips this) is first checked against the leader's epoch history:
where that epoch ends here (OffsetForLeaderEpoch's answer) must be at or past ``fetch_offset``, in that same
epoch. Otherwise the fetcher's log diverged from the leader's: the partition answers no records and
``diverging_epoch``, the largest epoch at or below its own and that epoch's end offset here, so it truncates
there and fetches again. An epoch whose end is not known here (newer than every epoch of the partition), or a
fetch offset below the log start, is OFFSET_OUT_OF_RANGE, as Kafka answers.
Reads from followers (KIP-392, v11+): in a cluster, a consumer's fetch (replica id -1) of a partition of this
broker's group while it follows the group's leader (``topology.followed``) is served like the leader's, up to the
high watermark its leader last sent (the confirm offset on every replication frame: ``Records.set_confirmed``);
offsets below this copy's log start or past its end are OFFSET_OUT_OF_RANGE, which sends a client back to the
leader. With ``replica.selector.class`` set, the leader answers a consumer naming its ``rack_id`` with
``preferred_read_replica`` and no records for the partitions an in-sync member of that rack can serve
(``read_replicas.py``).
Not implemented: quotas.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from rockafka.core_pyx import hotcodec as hot
from rockafka.core_pyx.hotcodec import FetchResponse
from rockafka.facade.legacy import down_convert, fetch_magic
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.fetch import FetchRequest
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import MessageStore, OffsetOutOfRangeError, PartitionBounds, StoreError, UnknownTopicIdError

from ..errors import store_error_code
from .context import RequestContext
from .leadership import FETCH_HINTS_VERSION, LeaderHints, epoch_error
from .read_replicas import READ_REPLICA_VERSION, ReadReplicaSelector, from_consumer
from .registry import register

READ_COMMITTED = 1
#: The first Fetch version answered in RecordBatch v2; older ones get down-converted MessageSets.
FIRST_RECORD_BATCH_VERSION = 4
DOWNCONVERSION = "message.downconversion.enable"
#: Stored batches this large go out as slices of the mapped CommitLog, uncopied; smaller ones are copied.
ZERO_COPY_MIN_BYTES = 8192
_NOT_REFUSED = ErrorCode.NONE  # a global: cheaper to load per partition than the enum's attribute


@dataclass(slots=True)
class _Target:
    """One partition of the request, resolved to a topic name (None when its topic id is unknown)."""

    topic_index: int
    name: str | None
    partition: int
    fetch_offset: int
    max_bytes: int
    current_leader_epoch: int
    last_fetched_epoch: int
    denied: bool = False
    """The principal may not READ the topic."""
    size: int = 0
    """Bytes of records the last read of the partition answered."""


def _error(request: FetchRequest, code: ErrorCode) -> FetchResponse:
    return FetchResponse(error_code=code)


def _encode(version: int, response: FetchResponse, correlation_id: int) -> list[bytes | memoryview]:
    return hot.encode_fetch_response_parts(version, response, correlation_id, ZERO_COPY_MIN_BYTES)


@register(1, *hot.FETCH_VERSIONS, _error, encode=_encode, parks=True)
def handle(ctx: RequestContext, request: FetchRequest) -> FetchResponse | Awaitable[FetchResponse]:
    if request.session_id != 0:
        return FetchResponse(error_code=ErrorCode.FETCH_SESSION_ID_NOT_FOUND, session_id=0)
    targets = _resolve(ctx, request)
    response, size, failed = _read(ctx, request, targets)
    if size >= request.min_bytes or request.max_wait_ms <= 0 or failed or not targets:
        return _answered(ctx, targets, response, failed)
    return _long_poll(ctx, request, targets)


async def _long_poll(ctx: RequestContext, request: FetchRequest, targets: list[_Target]) -> FetchResponse:
    deadline = time.monotonic() + request.max_wait_ms / 1000
    keys = [(t.name, t.partition) for t in targets if t.name is not None]
    while True:
        remaining = deadline - time.monotonic()
        woken = remaining > 0 and await ctx.broker.waiters.wait_for_append(keys, remaining)
        response, size, failed = _read(ctx, request, targets)
        if not woken or size >= request.min_bytes or failed:
            return _answered(ctx, targets, response, failed)


def _answered(ctx: RequestContext, targets: list[_Target], response: FetchResponse, failed: bool) -> FetchResponse:
    """Count the answer's bytes per topic, and its partitions' errors when one failed, in the broker's metrics
    (when it keeps them)."""
    metrics = ctx.broker.metrics
    if metrics is not None:
        metrics.on_fetch(targets)
        if failed:
            metrics.on_partition_errors(1, (p.error_code for t in response.responses for p in t.partitions))
    return response


def _resolve(ctx: RequestContext, request: FetchRequest) -> list[_Target]:
    by_id = ctx.api_version >= 13
    targets: list[_Target] = []
    for index, topic in enumerate(request.topics):
        name: str | None = topic.topic
        if by_id:
            try:
                name = ctx.broker.store.topics.name_of(topic.topic_id)
            except UnknownTopicIdError:
                name = None
        denied = name is not None and not ctx.authorize(AclOperation.READ, ResourceType.TOPIC, name)
        for part in topic.partitions:
            target = _Target(
                index,
                name,
                part.partition,
                part.fetch_offset,
                part.partition_max_bytes,
                part.current_leader_epoch,
                part.last_fetched_epoch,
                denied,
            )
            targets.append(target)
    return targets


def _read(ctx: RequestContext, request: FetchRequest, targets: list[_Target]) -> tuple[FetchResponse, int, bool]:
    """Read every target once: the response, its records' size, and whether a partition failed.

    The records are slices of the mapped CommitLog, which the hot encoder writes uncopied or copies once."""
    store = ctx.broker.store
    committed = request.isolation_level == READ_COMMITTED
    budget = request.max_bytes
    total = 0
    failed = False
    by_topic: dict[int, list[hot.PartitionData]] = {}
    led = ctx.broker.topology.readable  # None on a single broker: it leads every partition, at its store's epoch
    same_epoch = store.epochs.current if led is None else None  # read once: no call per partition then
    hints = LeaderHints(ctx) if led is not None and ctx.api_version >= FETCH_HINTS_VERSION else None
    followed, selector = _follower_reads(ctx, request) if led is not None else (None, None)
    legacy = ctx.api_version < FIRST_RECORD_BATCH_VERSION
    for target in targets:
        refused = _NOT_REFUSED
        client_epoch = target.current_leader_epoch
        if client_epoch != same_epoch and client_epoch >= 0 and target.name is not None and not target.denied:
            refused = epoch_error(ctx.broker.topology, target.name, target.partition, client_epoch)
        if (
            led is not None
            and not refused
            and target.name is not None
            and target.partition not in led.get(target.name, ())
            and (followed is None or target.partition not in followed.get(target.name, ()))
        ):
            refused = ErrorCode.NOT_LEADER_OR_FOLLOWER
        if refused:
            aborted: list[hot.AbortedTransaction] | None = [] if committed else None
            partition, size = _failed(target, refused, aborted), 0
            if hints is not None and target.name is not None:
                partition = partition._replace(current_leader=hints.leader(target.name, target.partition))
        elif selector is not None and (elsewhere := _read_elsewhere(store, selector, target, committed)) is not None:
            partition, size = elsewhere, 0
        else:
            partition, size = _read_partition(store, target, committed, budget, first=total == 0)
            if legacy and partition.records:
                partition, size = _down_converted(ctx, target, partition, max(min(target.max_bytes, budget), 0))
        target.size = size
        failed = failed or partition.error_code != ErrorCode.NONE
        total += size
        budget -= size
        by_topic.setdefault(target.topic_index, []).append(partition)
    topics = [
        hot.FetchableTopicResponse(
            topic=request.topics[index].topic,
            partitions=partitions,
            topic_id=request.topics[index].topic_id if ctx.api_version >= 13 else hot.ZERO_UUID,
        )
        for index, partitions in by_topic.items()
    ]
    return FetchResponse(responses=topics, node_endpoints=hints.endpoints() if hints else ()), total, failed


def _follower_reads(
    ctx: RequestContext, request: FetchRequest
) -> tuple[Mapping[str, frozenset[int]] | None, ReadReplicaSelector | None]:
    """In a cluster: the partitions this broker serves a consumer as a follower, and the selector of the
    preferred read replicas when one applies to this fetch (see the module docstring)."""
    consumer = from_consumer(request.replica_id, request.replica_state.replica_id)
    if ctx.api_version < READ_REPLICA_VERSION or not consumer:
        return None, None
    return ctx.broker.topology.followed, ReadReplicaSelector.for_fetch(ctx, request.rack_id)


def _read_elsewhere(
    store: MessageStore, selector: ReadReplicaSelector, target: _Target, committed: bool
) -> hot.PartitionData | None:
    """The answer naming the preferred read replica of a partition this broker leads, or None: it reads here."""
    if target.name is None or target.denied:
        return None
    try:
        bounds = store.records.partition_bounds(target.name, target.partition)
    except StoreError:
        return None  # the read answers the error
    high_watermark, _, log_start = bounds
    node = selector.preferred(target.name, target.partition, target.fetch_offset, log_start, high_watermark)
    if node < 0:
        return None
    aborted: list[hot.AbortedTransaction] | None = [] if committed else None
    return _partition(target, ErrorCode.NONE, bounds, aborted, ())._replace(preferred_read_replica=node)


def _read_partition(
    store: MessageStore, target: _Target, committed: bool, budget: int, *, first: bool
) -> tuple[hot.PartitionData, int]:
    """One partition's answer and its records' size, within its own limit and ``budget`` (what remains of
    the request's max_bytes). Only the ``first`` partition with data may exceed them, by its first batch."""
    aborted: list[hot.AbortedTransaction] | None = [] if committed else None
    if target.name is None:
        return _failed(target, ErrorCode.UNKNOWN_TOPIC_ID, aborted), 0
    if target.denied:
        return _failed(target, ErrorCode.TOPIC_AUTHORIZATION_FAILED, aborted), 0
    try:
        bounds = store.records.partition_bounds(target.name, target.partition)
        if target.last_fetched_epoch >= 0:
            diverged = _diverged(store, target, bounds, aborted)
            if diverged is not None:
                return diverged, 0
        limit = max(min(target.max_bytes, budget), 0)
        no_room = limit == 0 and not first and bounds.log_start_offset <= target.fetch_offset <= bounds.high_watermark
        if no_room or target.fetch_offset == bounds.high_watermark:
            return _partition(target, ErrorCode.NONE, bounds, aborted, ()), 0  # no room (in range), or nothing new
        ceiling = bounds.last_stable_offset if committed else None
        result = store.records.read(target.name, target.partition, target.fetch_offset, limit, max_offset=ceiling)
        if not result.size_bytes or (result.size_bytes > limit and not first):
            return _partition(target, ErrorCode.NONE, bounds, aborted, ()), 0  # its first batch waits to be first
        if committed:
            found = store.transactions.aborted(target.name, target.partition, target.fetch_offset, result.next_offset)
            aborted = [hot.AbortedTransaction(t.producer_id, t.first_offset) for t in found]
    except OffsetOutOfRangeError as exc:
        bounds = PartitionBounds(exc.high_watermark, exc.high_watermark, exc.log_start_offset)
        return _partition(target, ErrorCode.OFFSET_OUT_OF_RANGE, bounds, aborted, ()), 0
    except StoreError as exc:
        return _failed(target, store_error_code(exc), aborted), 0
    return _partition(target, ErrorCode.NONE, bounds, aborted, result.batches), result.size_bytes


def _diverged(
    store: MessageStore, target: _Target, bounds: PartitionBounds, aborted: list[hot.AbortedTransaction] | None
) -> hot.PartitionData | None:
    """The answer to a fetch whose ``last_fetched_epoch`` and ``fetch_offset`` disagree with this log's epochs
    (``diverging_epoch``, or OFFSET_OUT_OF_RANGE), else None: the fetch reads on (see the module docstring)."""
    assert target.name is not None  # a known topic
    found = store.epochs.end_offset(target.name, target.partition, target.last_fetched_epoch)
    if found.end_offset < 0 or target.fetch_offset < bounds.log_start_offset:
        return _partition(target, ErrorCode.OFFSET_OUT_OF_RANGE, bounds, aborted, ())
    if found.epoch < target.last_fetched_epoch or found.end_offset < target.fetch_offset:
        diverging = hot.EpochEndOffset(found.epoch, found.end_offset)
        return _partition(target, ErrorCode.NONE, bounds, aborted, ())._replace(diverging_epoch=diverging)
    return None


def _down_converted(
    ctx: RequestContext, target: _Target, partition: hot.PartitionData, limit: int
) -> tuple[hot.PartitionData, int]:
    """A Fetch v0-3 partition's stored batches as a MessageSet of the version's format, within ``limit``."""
    assert target.name is not None  # a partition with records has a topic
    if not _downconversion_enabled(ctx, target.name):
        return _failed(target, ErrorCode.UNSUPPORTED_VERSION, None), 0
    stored = cast("Sequence[memoryview]", partition.records)  # the batch slices _read_partition gave it
    converted = down_convert(stored, fetch_magic(ctx.api_version), target.fetch_offset, limit)
    return partition._replace(records=[converted.records]), len(converted.records)


def _downconversion_enabled(ctx: RequestContext, topic: str) -> bool:
    override = ctx.broker.store.topics.describe(topic).configs.get(DOWNCONVERSION)
    if override is None:
        return ctx.broker.config.bool("log." + DOWNCONVERSION)
    return override.strip().lower() == "true"


def _failed(target: _Target, code: ErrorCode, aborted: list[hot.AbortedTransaction] | None) -> hot.PartitionData:
    """A partition that was not read: no offsets known (-1), no records."""
    return hot.PartitionData(target.partition, code, -1, aborted_transactions=aborted)


def _partition(
    target: _Target,
    code: ErrorCode,
    bounds: tuple[int, int, int],
    aborted: list[hot.AbortedTransaction] | None,
    records: Sequence[memoryview],
) -> hot.PartitionData:
    high_watermark, last_stable_offset, log_start_offset = bounds
    return hot.PartitionData(
        partition_index=target.partition,
        error_code=code,
        high_watermark=high_watermark,
        last_stable_offset=last_stable_offset,
        log_start_offset=log_start_offset,
        aborted_transactions=aborted,
        records=records,
    )
