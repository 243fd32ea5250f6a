"""Produce v0-11: validate each partition's record batches, append them, answer per partition.

Version notes: v0-2 carry a MessageSet of message format v0 or v1, converted once to one RecordBatch v2 before
anything else (``rockafka.facade.legacy``: one CommitLog format remains); a set that does not parse or whose
CRC-32 is wrong is refused with CORRUPT_MESSAGE, as Kafka does, and one naming zstd (which the old formats
do not have) with UNSUPPORTED_COMPRESSION_TYPE. v3+ carries only RecordBatch v2 (magic 2);
a batch of another magic is refused with
INVALID_RECORD (v8+) or CORRUPT_MESSAGE (older clients do not know 87), as is a batch whose CRC,
lengths or counts are wrong, and a partition carrying other than exactly one batch.
zstd needs v7+ (UNSUPPORTED_COMPRESSION_TYPE before). Every batch's records are walked once in C
(compressed ones after decompression; no record objects are made) to check that each record's fields
fit it, that offset deltas run in order and that they are exactly as many as the header says, as
Kafka's validator iterates them: a batch declaring fewer or more records than it holds would
otherwise be stored with wrong offsets. acks must be -1, 0 or 1
(INVALID_REQUIRED_ACKS); acks=0 gets no response, and a failure under acks=0 closes the connection,
as Kafka does. Under ``rockafka.flush.mode=sync`` acks=1/-1 are answered once the batches are fsynced.
v8+ reports the failing batch index and message. Partition errors are independent: one bad
partition does not fail the others.
Idempotence: a batch with a producer id >= 0 is checked against that producer's state on the partition
(``rockafka.facade.producers.sequence`` has the rules, Kafka's): a retry of one of its last 5 batches is
answered with success and the ORIGINAL base offset (log_append_time -1) and is not written again; a gap is
OUT_OF_ORDER_SEQUENCE_NUMBER, an older epoch INVALID_PRODUCER_EPOCH (as Kafka 2.7+, transactional or not);
a producer the partition does not know is accepted at any sequence (Kafka 2.5+, no UNKNOWN_PRODUCER_ID); a
negative base sequence is INVALID_RECORD. Batches with producer id -1 (aiokafka and kafkajs send sequence 0
with it) are never checked.
Transactions: a transactional batch (attribute bit 0x10) is appended only within its producer's Ongoing
transaction and to a partition AddPartitionsToTxn added to it (Kafka's produce-side verification, asked of
``rockafka.facade.transactions``): a request with transactional batches and no transactional id, or one the
principal may not WRITE, is refused whole with TRANSACTIONAL_ID_AUTHORIZATION_FAILED; a producer id other than
the transactional id's answers INVALID_PRODUCER_ID_MAPPING, another epoch INVALID_PRODUCER_EPOCH (the producer
was fenced), a partition not in the ongoing transaction (or no transaction ongoing) INVALID_TXN_STATE, and a
transaction being completed NOT_ENOUGH_REPLICAS (retriable, as Kafka maps CONCURRENT_TRANSACTIONS for Produce).
Clients may not write control batches (INVALID_RECORD). Idempotent, non-transactional batches are not affected.
The request body is read by the hot codec (``rockafka.core_pyx.hotcodec``, generated from the specs): each
partition's records stay a zero-copy view of the request frame until the store copies them into the CommitLog;
every answer, a refused request's whole-request error included, is the hot codec's ``ProduceResponse``, which
it encodes.
Authorization: WRITE on each topic (TOPIC_AUTHORIZATION_FAILED for its partitions; nothing is appended).
Timestamps, as Kafka's LogValidator checks them (after the transaction check, before the duplicate check): on a
CreateTime topic each record's timestamp must lie within ``message.timestamp.before.max.ms`` before and
``message.timestamp.after.max.ms`` after the broker's clock (Kafka 4.0's defaults: unbounded before, one hour
after); records without a timestamp (-1) are not checked. Refused: INVALID_TIMESTAMP for the partition, with a
record error naming each offending record (v8+). The walk that counts the records also gives their least and
greatest timestamps, so the records are decoded only to name the offenders. A batch the producer marked
LogAppendTime is refused the same way; Kafka refuses it on LogAppendTime topics but on CreateTime topics
rewrites it to CreateTime, which Rockafka's append does not do, so it refuses it there too rather than store
timestamps that would read differently (no Kafka client sets that bit).
In a cluster, a partition this broker does not lead is answered NOT_LEADER_OR_FOLLOWER, checked in the
topology's ``led`` map (no etcd request; nothing at all on a single broker); from v10 it carries the partition's
current leader and the response the leaders' endpoints (KIP-951, ``handlers/leadership.py``). Produce has no
``current_leader_epoch`` (Kafka's request has none): a producer is fenced by leadership alone.
Replication (``facade/replication.py``; nothing on a single broker): a follower answers NOT_LEADER_OR_FOLLOWER; a
group leader refuses acks=all with NOT_ENOUGH_REPLICAS while its in-sync set is below ``min.insync.replicas``,
and answers it once every in-sync member holds the appended bytes (REQUEST_TIMED_OUT after the request's
timeout; NOT_ENOUGH_REPLICAS_AFTER_APPEND if the set shrank below the minimum meanwhile), as Kafka's
DelayedProduce does.
Not implemented yet: quotas.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING

from rockafka.core_pyx import hotcodec as hot
from rockafka.core_pyx.compression import ReusableDecompressor
from rockafka.core_pyx.errors import CorruptBatchError, InvalidBatchError, KernelError, UnsupportedMagicError
from rockafka.core_pyx.hotcodec import ProduceRequest, ProduceResponse, decode_produce_request
from rockafka.core_pyx.recordbatch import (
    ATTRIBUTES_OFFSET,
    RECORD_BATCH_OVERHEAD,
    TRANSACTIONAL_BIT,
    BatchHeader,
    validate_batches,
)
from rockafka.core_pyx.records import Record, decode_records, walk_records
from rockafka.facade.legacy import MessageSetError, UnsupportedCodecError, up_convert
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import StoreError, TopicSettings

from .. import replication as replicated
from ..errors import store_error_code
from ..producers import Duplicate, Refused
from ..server import BrokenRequestError
from .context import RequestContext
from .leadership import PRODUCE_HINTS_VERSION, LeaderHints
from .registry import register

if TYPE_CHECKING:
    from typing_extensions import Buffer

ZSTD = 4
NO_TIMESTAMP = -1
INVALID_TIMESTAMPS = "One or more records have been rejected due to invalid timestamp"
#: The first Produce version carrying RecordBatch v2; older ones carry a MessageSet (format v0/v1).
FIRST_RECORD_BATCH_VERSION = 3


class _Refused(Exception):
    def __init__(
        self,
        code: ErrorCode,
        message: str,
        batch_index: int | None = None,
        record_errors: Sequence[hot.BatchIndexAndErrorMessage] = (),
    ) -> None:
        super().__init__(message)
        self.code = code
        self.record_errors = tuple(record_errors) or (
            () if batch_index is None else (hot.BatchIndexAndErrorMessage(batch_index),)
        )


def _error(request: ProduceRequest, code: ErrorCode) -> ProduceResponse:
    return ProduceResponse(
        [
            hot.TopicProduceResponse(
                topic.name, [hot.PartitionProduceResponse(p.partition_index, code, -1) for p in topic.partition_data]
            )
            for topic in request.topic_data
        ]
    )


def _encode(version: int, response: ProduceResponse, correlation_id: int) -> list[bytes]:
    return [hot.encode_produce_response(version, response, correlation_id)]


@register(0, *hot.PRODUCE_VERSIONS, _error, decode=decode_produce_request, encode=_encode)
def handle(ctx: RequestContext, request: ProduceRequest) -> ProduceResponse | Awaitable[ProduceResponse] | None:
    if request.acks not in (-1, 0, 1):
        return _error(request, ErrorCode.INVALID_REQUIRED_ACKS)
    if (
        ctx.api_version >= FIRST_RECORD_BATCH_VERSION
        and _has_transactional_batches(request)
        and not (
            request.transactional_id is not None
            and ctx.authorize(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactional_id)
        )
    ):
        return _error(request, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED)
    waits: list[asyncio.Future[None]] = []
    responses: list[hot.TopicProduceResponse] = []
    failed = False
    led = ctx.broker.topology.led  # None on a single broker: it leads every partition
    replication = ctx.broker.replication  # None on a single broker
    hints = LeaderHints(ctx) if led is not None and ctx.api_version >= PRODUCE_HINTS_VERSION else None
    for topic in request.topic_data:
        partitions: list[hot.PartitionProduceResponse] = []
        writable = ctx.authorize(AclOperation.WRITE, ResourceType.TOPIC, topic.name)
        here = None if led is None else led.get(topic.name, frozenset())
        refusal = None if replication is None else _replicated_refusal(ctx, topic.name, request.acks)
        for data in topic.partition_data:
            if not writable:
                response = _refused_topic(data.partition_index)
            elif refusal is not None:
                response = hot.PartitionProduceResponse(data.partition_index, refusal, -1)
            elif here is not None and data.partition_index not in here:
                response = _not_leader(data.partition_index, hints, topic.name)
            else:
                response = _produce_partition(
                    ctx, request.transactional_id, topic.name, data.partition_index, data.records, waits
                )
            failed = failed or response.error_code != ErrorCode.NONE
            partitions.append(response)
        responses.append(hot.TopicProduceResponse(topic.name, partitions))
    if failed and ctx.broker.metrics is not None:
        ctx.broker.metrics.on_partition_errors(0, (p.error_code for t in responses for p in t.partition_responses))
    if request.acks == 0:
        if failed:
            raise BrokenRequestError("a produce with acks=0 failed; closing the connection as Kafka does")
        return None
    endpoints = hints.endpoints() if hints else ()
    if replication is not None and replication.leader is not None and request.acks == -1:
        end = ctx.broker.store.replica.published_end
        confirmed = replicated.confirmed(replication.leader, end, request.timeout_ms)
        return _after_durable(ctx, waits, responses, endpoints, confirmed)
    if waits:
        return _after_durable(ctx, waits, responses, endpoints)
    return ProduceResponse(responses, node_endpoints=endpoints)


def _replicated_refusal(ctx: RequestContext, topic: str, acks: int) -> ErrorCode | None:
    assert ctx.broker.replication is not None
    return replicated.produce_refusal(ctx.broker.replication, ctx.broker.config, ctx.broker.store, topic, acks)


async def _after_durable(
    ctx: RequestContext, waits: Sequence[asyncio.Future[None]], responses: list[hot.TopicProduceResponse],
    endpoints: Sequence[hot.NodeEndpoint], confirmed: Awaitable[ErrorCode] | None = None,
) -> ProduceResponse:  # fmt: skip
    results = await asyncio.gather(*waits, return_exceptions=True)
    if confirmed is not None:
        responses = replicated.after_confirm(ctx.broker, responses, await confirmed)
    if any(isinstance(result, BaseException) for result in results):
        storage_error = ErrorCode.KAFKA_STORAGE_ERROR
        if ctx.broker.metrics is not None:
            ctx.broker.metrics.on_partition_errors(
                0, [storage_error] * sum(len(t.partition_responses) for t in responses)
            )
        responses = [
            topic._replace(
                partition_responses=[p._replace(error_code=storage_error) for p in topic.partition_responses]
            )
            for topic in responses
        ]
    return ProduceResponse(responses, node_endpoints=endpoints)


def _produce_partition(
    ctx: RequestContext, transactional_id: str | None, topic: str, partition: int, records: object,
    waits: list[asyncio.Future[None]],
) -> hot.PartitionProduceResponse:  # fmt: skip
    try:
        if records is None:
            raise _Refused(ErrorCode.CORRUPT_MESSAGE, "a produce request carried no records")
        if ctx.api_version < FIRST_RECORD_BATCH_VERSION:
            records = _up_converted(records)  # type: ignore[arg-type]
        batches, stamps = _validate(records, ctx.api_version)  # type: ignore[arg-type]
        if batches[0].is_transactional:
            refused = ctx.broker.transactions.check_produce(transactional_id, topic, partition, batches[0])
            if refused is not None:
                raise _Refused(refused.error, refused.message)
        _check_timestamps(ctx.broker.store.topics.settings(topic), records, batches[0], stamps)  # type: ignore[arg-type]
        verdict = ctx.broker.producers.check(topic, partition, batches[0])
        if isinstance(verdict, Duplicate):
            return _duplicate(ctx, topic, partition, verdict)
        if isinstance(verdict, Refused):
            raise _Refused(_version_code(verdict.error, ctx.api_version), verdict.message)
        result = ctx.broker.store.records.append(topic, partition, records, batches)  # type: ignore[arg-type]
        ctx.broker.producers.record(topic, partition, batches[0], result.base_offset)
    except _Refused as exc:
        return hot.PartitionProduceResponse(
            partition, exc.code, -1, record_errors=exc.record_errors, error_message=str(exc)
        )
    except StoreError as exc:
        code = _version_code(store_error_code(exc), ctx.api_version)
        return hot.PartitionProduceResponse(partition, code, -1, error_message=str(exc))
    if result.durable is not None:
        waits.append(asyncio.wrap_future(result.durable))
    append_time = -1 if result.log_append_time_ms is None else result.log_append_time_ms
    return hot.PartitionProduceResponse(
        partition, ErrorCode.NONE, result.base_offset, append_time, result.log_start_offset
    )


def _up_converted(message_set: memoryview) -> memoryview:
    """A Produce v0-2 MessageSet as the one RecordBatch v2 the store keeps."""
    try:
        return memoryview(up_convert(message_set))
    except UnsupportedCodecError as exc:
        raise _Refused(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, str(exc)) from None
    except MessageSetError as exc:
        raise _Refused(ErrorCode.CORRUPT_MESSAGE, str(exc)) from None


def _refused_topic(partition: int) -> hot.PartitionProduceResponse:
    """A partition of a topic the principal may not WRITE: nothing is appended."""
    return hot.PartitionProduceResponse(partition, ErrorCode.TOPIC_AUTHORIZATION_FAILED, -1)


def _not_leader(partition: int, hints: LeaderHints | None, topic: str) -> hot.PartitionProduceResponse:
    """A partition another broker leads (in a cluster): the client sends it to the leader ``hints`` names (v10+),
    else refreshes metadata to find it."""
    leader = None if hints is None else hints.leader(topic, partition)
    return hot.PartitionProduceResponse(partition, ErrorCode.NOT_LEADER_OR_FOLLOWER, -1, current_leader=leader)


def _has_transactional_batches(request: ProduceRequest) -> bool:
    for topic in request.topic_data:
        for data in topic.partition_data:
            records = data.records
            if (
                records is not None
                and len(records) > ATTRIBUTES_OFFSET + 1
                and records[ATTRIBUTES_OFFSET + 1] & TRANSACTIONAL_BIT  # the int16 attributes' low byte
            ):
                return True
    return False


def _duplicate(ctx: RequestContext, topic: str, partition: int, verdict: Duplicate) -> hot.PartitionProduceResponse:
    """A retried batch already written: success with its original base offset, as Kafka answers."""
    log_start = ctx.broker.store.records.partition_offsets(topic, partition).log_start_offset
    return hot.PartitionProduceResponse(partition, ErrorCode.NONE, verdict.base_offset, -1, log_start)


def _version_code(code: ErrorCode, version: int) -> ErrorCode:
    return ErrorCode.CORRUPT_MESSAGE if code == ErrorCode.INVALID_RECORD and version < 8 else code


def _validate(records: memoryview, version: int) -> tuple[list[BatchHeader], tuple[int, int]]:
    """The request's one batch, checked whole, and the least and greatest timestamp deltas of its records."""
    invalid_record = ErrorCode.INVALID_RECORD if version >= 8 else ErrorCode.CORRUPT_MESSAGE
    try:
        batches = validate_batches(records)
    except (UnsupportedMagicError, InvalidBatchError) as exc:
        raise _Refused(invalid_record, str(exc), 0) from None
    except CorruptBatchError as exc:
        raise _Refused(ErrorCode.CORRUPT_MESSAGE, str(exc)) from None
    if len(batches) != 1:
        raise _Refused(invalid_record, f"Produce v3+ must carry exactly one record batch, not {len(batches)}")
    header = batches[0]
    if header.is_control:
        raise _Refused(invalid_record, "clients may not write control batches", 0)
    if header.compression == ZSTD and version < 7:
        raise _Refused(ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, "zstd needs Produce v7 or later", 0)
    return batches, _check_records(records, header, 0, invalid_record)


def _check_timestamps(
    settings: TopicSettings, records: memoryview, header: BatchHeader, deltas: tuple[int, int]
) -> None:
    """Kafka's timestamp rules (LogValidator): a producer may not mark its batch LogAppendTime, and on a
    CreateTime topic every record's timestamp (but -1, none) must lie within ``message.timestamp.before.max.ms``
    before and ``message.timestamp.after.max.ms`` after the broker's clock. Refused: INVALID_TIMESTAMP, each
    offending record named in the record errors."""
    if header.is_log_append_time:
        message = "Producer should not set timestamp type to LogAppendTime"
        errors = [hot.BatchIndexAndErrorMessage(index, message) for index in range(header.record_count)]
        raise _Refused(ErrorCode.INVALID_TIMESTAMP, message, record_errors=errors)
    before, after = settings.timestamp_before_max_ms, settings.timestamp_after_max_ms
    if settings.log_append_time or (before is None and after is None):
        return
    now = time.time_ns() // 1_000_000
    lowest = -1 << 63 if before is None else now - before
    highest = 1 << 63 if after is None else now + after
    if lowest <= header.base_timestamp + deltas[0] and header.base_timestamp + deltas[1] <= highest:
        return
    errors = [
        hot.BatchIndexAndErrorMessage(index, f"Timestamp {record.timestamp} of message with offset {record.offset} "
                                      f"is out of range. The timestamp should be within [{lowest}, {highest}]")
        for index, record in enumerate(_records_of(records, header))
        if record.timestamp != NO_TIMESTAMP and not lowest <= record.timestamp <= highest
    ]  # fmt: skip
    if errors:
        raise _Refused(ErrorCode.INVALID_TIMESTAMP, INVALID_TIMESTAMPS, record_errors=errors)


def _records_of(records: memoryview, header: BatchHeader) -> list[Record]:
    """The batch's records decoded, timestamps made absolute (the refusal path only)."""
    return decode_records(_plain(records, header), header.record_count, header.base_offset, header.base_timestamp)


def _plain(records: memoryview, header: BatchHeader) -> Buffer:
    """The records section of the batch, decompressed if it is compressed (KernelError if it does not)."""
    payload = records[header.position + RECORD_BATCH_OVERHEAD : header.position + header.size]
    return _decompressor().decompress(header.compression, payload) if header.compression else payload


_PER_THREAD = threading.local()


def _decompressor() -> ReusableDecompressor:
    """This thread's reusable decompressor (each broker's event loop runs on its own thread)."""
    found: ReusableDecompressor | None = getattr(_PER_THREAD, "decompressor", None)
    if found is None:
        found = _PER_THREAD.decompressor = ReusableDecompressor()
    return found


def _check_records(records: memoryview, header: BatchHeader, index: int, code: ErrorCode) -> tuple[int, int]:
    """Walk the batch's records (decompressed first); their least and greatest timestamp deltas."""
    try:
        count, least, greatest = walk_records(_plain(records, header))
    except KernelError as exc:
        raise _Refused(code, f"the batch's records do not decode: {exc}", index) from None
    if count != header.record_count:
        raise _Refused(code, f"batch holds {count} records, its header says {header.record_count}", index)
    return least, greatest
