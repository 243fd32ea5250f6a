"""The ``rockafka`` sink's exactly-once mode (``exactlyOnce=true``, streaming writes): one Kafka transaction per
Spark task, and a marker committed in that transaction that says which micro-batch the task's output belongs to.

**Identity.** A task of micro-batch ``B`` of the query with id ``Q`` (Spark keeps ``Q`` in the checkpoint, so it
survives restarts; executors read ``Q`` and ``B`` from the local properties ``sql.streaming.queryId`` and
``streaming.sql.batchId`` Spark sets for every micro-batch) and Spark partition ``P`` produces with
``transactional.id = <transactionalIdPrefix><Q>-<P>``. The same transactional id serves the same task slot in
every micro-batch, every attempt and every run of the query.

**Marker.** The transaction also commits, through AddOffsetsToTxn/TxnOffsetCommit, the offset ``B`` of
partition 0 of the marker topic (the ``topic`` option, else the task's first row's topic: offsets can only be
committed for a partition that exists) for the consumer group named like the transactional id. Records and
marker become visible together, or not at all.

**A task, in order:** ``init_transactions`` (this fences any earlier attempt of the slot: the broker aborts its
open transaction, or finishes one already decided, before it answers); read the group's committed marker;
when it is ``B`` or later, this micro-batch's output is already committed: write nothing; otherwise begin,
commit the marker ``B`` (AddOffsetsToTxn, TxnOffsetCommit), produce every row, commit the transaction. Any
failure aborts the transaction.

**Kept producers.** The Python worker keeps the slot's producer after a commit (Spark reuses its workers), and
the slot's next task in that worker begins its transaction and adds the marker first: the coordinator accepts
that only from the slot's current epoch, so no other producer of the slot has initialised, hence committed,
since this one read the marker at its ``init_transactions``; the last committed micro-batch is then the one this
producer knows. A refused marker (another worker's producer of the slot fenced this one) closes the kept
producer and the task starts afresh as above. A micro-batch then costs no connection, InitProducerId or marker
read per task, only its transaction.

**Why this is exactly-once.** Spark replays a micro-batch after a failure with the same id and the same
input offsets (the offsets log), so each task slot gets the same rows when the plan partitions them
deterministically (a source read, projections, filters; not a ``repartition()`` of unordered rows). A slot
whose transaction committed skips on replay; a slot whose transaction did not commit was aborted (by the
task, by the fencing ``init_transactions`` of the next attempt, or by the broker after
``kafka.transaction.timeout.ms``) and writes again. Readers must use ``isolation.level=read_committed``; a
read_uncommitted reader also sees aborted attempts.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import OptionError, PipelineError
from .options import flag
from .wire import PRODUCER_DEFAULTS

DEFAULT_PREFIX = "rockafka-sink-"
CLOSE_TIMEOUT_S = 10
BATCH_ID_PROPERTY = "streaming.sql.batchId"
QUERY_ID_PROPERTY = "sql.streaming.queryId"


@dataclass(frozen=True, slots=True)
class ExactlyOnce:
    """The sink's exactly-once settings (``exactlyOnce``, ``transactionalIdPrefix``)."""

    prefix: str


def exactly_once_settings(options: Mapping[str, str], config: Mapping[str, Any]) -> ExactlyOnce | None:
    """None unless ``exactlyOnce=true``; the producer settings must then allow transactions."""
    if "transactional_id" in config:
        raise OptionError("option kafka.transactional.id is not supported: use exactlyOnce and transactionalIdPrefix")
    if not flag(options, "exactlyOnce", False):
        if "transactionalidprefix" in options:
            raise OptionError("transactionalIdPrefix needs exactlyOnce=true")
        return None
    if config.get("acks", "all") not in ("all", -1):
        raise OptionError("exactlyOnce needs kafka.acks=all")
    if config.get("enable_idempotence") is False:
        raise OptionError("exactlyOnce needs kafka.enable.idempotence=true")
    prefix = options.get("transactionalidprefix", DEFAULT_PREFIX)
    if not prefix.strip():
        raise OptionError("transactionalIdPrefix must not be empty")
    return ExactlyOnce(prefix)


@dataclass(frozen=True, slots=True)
class TaskSlot:
    """Which query, micro-batch and Spark partition the running task writes."""

    query_id: str
    batch_id: int
    partition: int

    def transactional_id(self, prefix: str) -> str:
        return f"{prefix}{self.query_id}-{self.partition}"


def task_slot() -> TaskSlot:
    """The running Spark task's slot, from its TaskContext (executor side)."""
    from pyspark import TaskContext

    context = TaskContext.get()
    query_id = context.getLocalProperty(QUERY_ID_PROPERTY) if context is not None else None
    batch_id = context.getLocalProperty(BATCH_ID_PROPERTY) if context is not None else None
    if context is None or query_id is None or batch_id is None:
        raise PipelineError("exactlyOnce: this task is not part of a streaming micro-batch (no query or batch id)")
    return TaskSlot(query_id, int(batch_id), context.partitionId())


@dataclass(frozen=True, slots=True)
class TaskOutcome:
    records: int
    #: True when the micro-batch's output of this slot was already committed (a replay): nothing was written.
    skipped: bool


#: One record to produce: topic, value, key, headers, partition, timestamp (ms), and the source offset it was read
#: at (None when not known); the first six are the producer's ``send`` arguments in its order.
Send = tuple[str, bytes | None, bytes | None, list[tuple[str, bytes]] | None, int | None, int | None, int | None]
SendAll = Callable[[Any, Iterator[Send]], int]


def produce_transactionally(
    settings: ExactlyOnce, config: Mapping[str, Any], sends: Iterator[Send], send_all: SendAll
) -> TaskOutcome:
    """Write the task's rows (``sends``: the producer's ``send`` arguments) in one transaction with its marker."""
    from kafka import TopicPartition as KafkaTP
    from kafka.structs import OffsetAndMetadata

    first = next(sends, None)
    if first is None:
        return TaskOutcome(0, skipped=False)  # nothing to write, now or on a replay
    slot = task_slot()
    name = slot.transactional_id(settings.prefix)
    marker = KafkaTP(first[0], 0)
    note = f"rockafka sink: query {slot.query_id} batch {slot.batch_id}"
    offsets = {marker: OffsetAndMetadata(slot.batch_id, note, -1)}
    key = (name, repr(sorted(config.items())))
    kept = _KEPT.pop(key, None)
    producer = None if kept is None else _resumed(kept, name, offsets)
    if producer is None:
        producer = _initialised(name, config, marker)
    try:
        if producer.committed is not None and producer.committed >= slot.batch_id:
            if producer.in_transaction:
                producer.client.abort_transaction()
            _keep(key, producer)
            return TaskOutcome(0, skipped=True)
        if not producer.in_transaction:
            producer.client.begin_transaction()
            producer.client.send_offsets_to_transaction(offsets, name)
        count = send_all(producer.client, _chain(first, sends))
        producer.client.commit_transaction()
    except Exception as exc:
        _abort_quietly(producer.client)
        producer.client.close(timeout=CLOSE_TIMEOUT_S)
        if isinstance(exc, PipelineError):
            raise
        raise PipelineError(f"exactlyOnce: transaction {name} failed: {exc}") from exc
    producer.committed, producer.in_transaction = slot.batch_id, False
    _keep(key, producer)
    return TaskOutcome(count, skipped=False)


@dataclass
class _Producer:
    """A transactional producer of one slot, kept by its Python worker between micro-batches."""

    client: Any
    #: The last micro-batch of the slot committed: read at ``init_transactions``, then each commit's. While the
    #: producer's epoch is the slot's current one, no other producer has committed for the slot since.
    committed: int | None
    #: A transaction is begun with the micro-batch's marker in it (so the epoch was current then).
    in_transaction: bool = False


#: Per transactional id and producer settings, the producers this Python worker keeps (Spark reuses its workers,
#: ``spark.python.worker.reuse``): a micro-batch then costs no new connection, InitProducerId or marker read.
_KEPT: OrderedDict[tuple[str, str], _Producer] = OrderedDict()
KEPT_PRODUCERS = 8


def _initialised(name: str, config: Mapping[str, Any], marker: Any) -> _Producer:
    """A new producer of the slot: ``init_transactions`` fences every earlier one, then the marker is read."""
    from kafka import KafkaProducer

    client = KafkaProducer(**{**PRODUCER_DEFAULTS, **config, "transactional_id": name})
    try:
        client.init_transactions()
        return _Producer(client, _committed_batch(config, name, marker))
    except Exception as exc:
        client.close(timeout=CLOSE_TIMEOUT_S)
        raise PipelineError(f"exactlyOnce: transaction {name} failed: {exc}") from exc


def _resumed(kept: _Producer, name: str, offsets: Mapping[Any, Any]) -> _Producer | None:
    """The kept producer with a transaction begun and the marker added, which the slot's coordinator accepts only
    from its current epoch; None (the producer closed) when another worker's producer has fenced it since."""
    try:
        kept.client.begin_transaction()
        kept.client.send_offsets_to_transaction(offsets, name)
    except Exception:  # fenced, or the coordinator lost: a new producer fences this one and aborts what it began
        kept.client.close(timeout=CLOSE_TIMEOUT_S)
        return None
    kept.in_transaction = True
    return kept


def _keep(key: tuple[str, str], producer: _Producer) -> None:
    _KEPT[key] = producer
    while len(_KEPT) > KEPT_PRODUCERS:
        _, oldest = _KEPT.popitem(last=False)
        oldest.client.close(timeout=CLOSE_TIMEOUT_S)


def _chain(first: Send, rest: Iterator[Send]) -> Iterator[Send]:
    yield first
    yield from rest


def _committed_batch(producer_config: Mapping[str, Any], group: str, marker: Any) -> int | None:
    """The micro-batch id last committed by ``group``'s slot (None: none yet)."""
    from kafka import KafkaConsumer

    shared = {k: v for k, v in producer_config.items() if k in KafkaConsumer.DEFAULT_CONFIG}
    consumer = KafkaConsumer(**{**shared, "group_id": group, "enable_auto_commit": False})
    try:
        committed = consumer.committed(marker)
        return None if committed is None else int(committed)
    finally:
        consumer.close()


def _abort_quietly(client: Any) -> None:
    """Abort the open transaction if there is one and the producer still can (a fenced producer cannot: the
    broker aborts its transaction when the next attempt fences it, or at its timeout)."""
    with contextlib.suppress(Exception):  # no transaction begun, or fenced: the original failure is reported
        client.abort_transaction()
