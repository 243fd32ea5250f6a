"""WriteTxnMarkers v0-1: a transaction coordinator has the leader of a partition end a producer's transaction there.

Kafka's inter-broker request: the coordinator of a transaction sends it to the leader of every partition of the
transaction that another broker leads (``rockafka.facade.transactions.markers``). For each marker (a producer id
and epoch, COMMIT or ABORT, the coordinator's epoch) and each partition named, answered per partition:

- a partition this broker does not lead (in a cluster, ``topology.led``): NOT_LEADER_OR_FOLLOWER, written nowhere;
  a topic or partition that does not exist: UNKNOWN_TOPIC_OR_PARTITION;
- a coordinator epoch below the one of the producer's last marker on the partition: TRANSACTION_COORDINATOR_FENCED
  (a deposed coordinator), as Kafka's leaders check it;
- a producer epoch below the one the partition holds batches or a marker of (the producer was fenced and began
  again): INVALID_PRODUCER_EPOCH, written nowhere, as Kafka's ``appendEndTxnMarker`` refuses it: the marker would
  end the newer epoch's open transaction there, and its records would be read as committed or aborted too soon;
- a partition of ``__consumer_offsets`` (a group this broker coordinates committed offsets in the transaction
  with TxnOffsetCommit): the offsets held for the producer's groups there become committed (COMMIT) or are
  dropped (ABORT), the marker written into that partition too (``store/txnoffsets.py``);
- any other partition: the COMMIT or ABORT control batch is appended, ending the producer's open transaction
  there (its aborted range is recorded for read_committed fetches, and the last stable offset moves past it);
  NONE once it is stored (fsynced under ``rockafka.flush.mode=sync``), or the store's error. The leader of a
  replicated group answers NONE only once every in-sync member holds the marker, as Kafka appends markers with
  acks=all: a marker only the old leader held would be cut at a failover, the transaction left open, and the
  producer's next COMMIT would then commit the aborted records too. A wait that ends unconfirmed (a timeout, a
  demotion) answers its error (REQUEST_TIMED_OUT, NOT_LEADER_OR_FOLLOWER) and the coordinator sends it again.

Version notes: v1 is the first flexible version; nothing else differs. Authorization: CLUSTER_ACTION on the
cluster (else every partition answers CLUSTER_AUTHORIZATION_FAILED): with ACLs on, only a broker's principal may
send it (``docs/cluster.md`` says how brokers authenticate to each other).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.write_txn_markers import (
    WritableTxnMarker,
    WritableTxnMarkerPartitionResult,
    WritableTxnMarkerResult,
    WritableTxnMarkerTopicResult,
    WriteTxnMarkersRequest,
    WriteTxnMarkersResponse,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import StoreError, UnknownTopicOrPartitionError

from .. import replication as replicated
from ..errors import store_error_code
from ..group import OFFSETS_TOPIC
from ..transactions.markers import Marker
from .context import RequestContext
from .registry import register

Answer = Callable[[str, int], ErrorCode]
#: How long a marker waits for the in-sync members (Kafka appends markers with its request.timeout.ms, 30 s).
MARKER_CONFIRM_TIMEOUT_MS = 30_000


def _error(request: WriteTxnMarkersRequest, code: ErrorCode) -> WriteTxnMarkersResponse:
    return WriteTxnMarkersResponse(markers=[_result(marker, lambda _t, _p: code) for marker in request.markers])


@register(27, 0, 1, _error)
async def handle(ctx: RequestContext, request: WriteTxnMarkersRequest) -> WriteTxnMarkersResponse:
    ctx.check(AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER)
    waits: list[asyncio.Future[None]] = []
    answers = [_write(ctx, marker, waits) for marker in request.markers]
    results = await asyncio.gather(*waits, return_exceptions=True)
    if any(isinstance(result, BaseException) for result in results):
        return _error(request, ErrorCode.KAFKA_STORAGE_ERROR)
    unconfirmed = await replicated.coordinator_write_confirmed(ctx.broker, MARKER_CONFIRM_TIMEOUT_MS)
    if unconfirmed != ErrorCode.NONE:
        answers = [_unless_ok(answer, unconfirmed) for answer in answers]
    return WriteTxnMarkersResponse(
        markers=[_result(m, answer) for m, answer in zip(request.markers, answers, strict=True)]
    )


def _unless_ok(answer: Answer, code: ErrorCode) -> Answer:
    return lambda topic, partition: code if answer(topic, partition) == ErrorCode.NONE else answer(topic, partition)


def _write(ctx: RequestContext, marker: WritableTxnMarker, waits: list[asyncio.Future[None]]) -> Answer:
    """Write one producer's marker into every partition named; how each partition is answered."""
    led = ctx.broker.topology.led
    errors: dict[tuple[str, int], ErrorCode] = {}
    for topic in marker.topics:
        for partition in topic.partition_indexes:
            if led is not None and partition not in led.get(topic.name, frozenset()):
                errors[topic.name, partition] = ErrorCode.NOT_LEADER_OR_FOLLOWER
            elif topic.name == OFFSETS_TOPIC:
                errors[topic.name, partition] = _settle_offsets(ctx, marker, partition, waits)
            else:
                errors[topic.name, partition] = _append(ctx, marker, topic.name, partition, waits)
    return lambda topic, partition: errors[topic, partition]


def _settle_offsets(
    ctx: RequestContext, marker: WritableTxnMarker, partition: int, waits: list[asyncio.Future[None]]
) -> ErrorCode:
    if not 0 <= partition < ctx.broker.config.int("offsets.topic.num.partitions"):
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    settled = Marker(marker.producer_id, marker.producer_epoch, marker.coordinator_epoch, marker.transaction_result)
    try:
        _, durable = ctx.broker.transactions.complete_held(settled, partition)
    except StoreError as exc:
        return store_error_code(exc)
    if durable is not None:
        waits.append(asyncio.wrap_future(durable))
    return ErrorCode.NONE


def _append(
    ctx: RequestContext, marker: WritableTxnMarker, topic: str, partition: int, waits: list[asyncio.Future[None]]
) -> ErrorCode:
    store = ctx.broker.store
    try:
        last = store.transactions.coordinator_epochs(topic, partition).get(marker.producer_id, -1)
        if marker.coordinator_epoch < last:
            return ErrorCode.TRANSACTION_COORDINATOR_FENCED
        if ctx.broker.producers.marker_fenced(topic, partition, marker.producer_id, marker.producer_epoch):
            return ErrorCode.INVALID_PRODUCER_EPOCH
        result = store.records.write_transaction_marker(
            topic, partition, producer_id=marker.producer_id, producer_epoch=marker.producer_epoch,
            coordinator_epoch=marker.coordinator_epoch, commit=marker.transaction_result,
        )  # fmt: skip
    except UnknownTopicOrPartitionError:
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    except StoreError as exc:
        return store_error_code(exc)
    ctx.broker.producers.transaction_ended(topic, partition, marker.producer_id, marker.producer_epoch)
    if result.durable is not None:
        waits.append(asyncio.wrap_future(result.durable))
    return ErrorCode.NONE


def _result(marker: WritableTxnMarker, answer: Answer) -> WritableTxnMarkerResult:
    return WritableTxnMarkerResult(
        producer_id=marker.producer_id,
        topics=[
            WritableTxnMarkerTopicResult(
                name=topic.name,
                partitions=[
                    WritableTxnMarkerPartitionResult(partition_index=p, error_code=answer(topic.name, p))
                    for p in topic.partition_indexes
                ],
            )
            for topic in marker.topics
        ],
    )
