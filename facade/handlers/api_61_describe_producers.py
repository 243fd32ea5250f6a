"""DescribeProducers v0: per partition, the producers the broker holds state for (kafka-producer-ids, the admin
client's ``describeProducers``).

Each active producer: its id and epoch, last sequence and last batch timestamp (from the idempotence state of
``facade/producers``; -1 when it has none there), the coordinator epoch of its last transaction marker on the
partition (-1 before any), and the first offset of its open transaction there (-1 when none is open).
Producers with an open transaction but no idempotence state left (expired) are listed from the transaction
alone, as Kafka keeps them while their transaction is open. As Kafka answers: a topic the principal may not
READ gets TOPIC_AUTHORIZATION_FAILED for each partition asked; a topic or partition that does not exist gets
UNKNOWN_TOPIC_OR_PARTITION for that partition, with no message.
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.describe_producers import (
    DescribeProducersRequest,
    DescribeProducersResponse,
    PartitionResponse,
    ProducerState,
    TopicResponse,
)
from rockafka.facade.security.acl import AclOperation, ResourceType
from rockafka.store import StoreError

from ..errors import store_error_code
from ..producers import ProducerService
from .context import RequestContext
from .registry import register


def _error(request: DescribeProducersRequest, code: ErrorCode) -> DescribeProducersResponse:
    return DescribeProducersResponse(
        topics=[
            TopicResponse(
                name=topic.name,
                partitions=[PartitionResponse(partition_index=p, error_code=code) for p in topic.partition_indexes],
            )
            for topic in request.topics
        ]
    )


@register(61, 0, 0, _error)
def handle(ctx: RequestContext, request: DescribeProducersRequest) -> DescribeProducersResponse:
    topics = []
    for topic in request.topics:
        if ctx.authorize(AclOperation.READ, ResourceType.TOPIC, topic.name):
            partitions = [_partition(ctx, topic.name, index) for index in topic.partition_indexes]
        else:
            denied = ErrorCode.TOPIC_AUTHORIZATION_FAILED
            partitions = [
                PartitionResponse(partition_index=index, error_code=denied) for index in topic.partition_indexes
            ]
        topics.append(TopicResponse(name=topic.name, partitions=partitions))
    return DescribeProducersResponse(throttle_time_ms=0, topics=topics)


def _partition(ctx: RequestContext, topic: str, partition: int) -> PartitionResponse:
    store = ctx.broker.store
    try:
        open_transactions = {t.producer_id: t for t in store.transactions.open(topic, partition)}
        coordinator_epochs = store.transactions.coordinator_epochs(topic, partition)
    except StoreError as exc:
        return PartitionResponse(partition_index=partition, error_code=store_error_code(exc))
    producers = _idempotence_state(ctx.broker.producers, topic, partition)
    states = []
    for producer_id in sorted(producers.keys() | open_transactions.keys()):
        epoch, last_sequence, last_timestamp = producers.get(producer_id, (-1, -1, -1))
        transaction = open_transactions.get(producer_id)
        if transaction is not None:
            epoch = max(epoch, transaction.producer_epoch)
        states.append(
            ProducerState(
                producer_id=producer_id,
                producer_epoch=epoch,
                last_sequence=last_sequence,
                last_timestamp=last_timestamp,
                coordinator_epoch=coordinator_epochs.get(producer_id, -1),
                current_txn_start_offset=-1 if transaction is None else transaction.first_offset,
            )
        )
    return PartitionResponse(partition_index=partition, error_code=ErrorCode.NONE, active_producers=states)


def _idempotence_state(service: ProducerService, topic: str, partition: int) -> dict[int, tuple[int, int, int]]:
    """Producer id -> (epoch, last sequence, last timestamp) as the idempotence state holds them."""
    table = service.producers(topic, partition)
    if table is None:
        return {}
    return {
        producer_id: (entry.epoch, entry.batches[-1].last_sequence if entry.batches else -1, entry.last_timestamp)
        for producer_id, entry in table.entries.items()
    }
