"""What the raw-socket admin tests read back through other APIs: a topic's Metadata, a partition's log start.

The admin tests send every version of an API exactly as written with :class:`~.clients.wire.RawClient`,
including requests the real clients never send (duplicates, null values, wrong replica assignments).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from rockafka.facade.protocol.messages.list_offsets import ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic

from .clients.wire import RawClient


@dataclass(frozen=True, slots=True)
class TopicState:
    """A topic as Metadata v12 reports it (without auto-creating it)."""

    error_code: int
    topic_id: uuid.UUID
    partitions: int


def topic_state(client: RawClient, name: str) -> TopicState:
    request = MetadataRequest(topics=[MetadataRequestTopic(name=name)], allow_auto_topic_creation=False)
    (topic,) = client.request(request, 12).topics
    return TopicState(topic.error_code, topic.topic_id, len(topic.partitions))


def log_start_offset(client: RawClient, topic: str, partition: int) -> int:
    """The partition's log start offset (ListOffsets v1, EARLIEST)."""
    request = ListOffsetsRequest(
        replica_id=-1,
        topics=[
            ListOffsetsTopic(name=topic, partitions=[ListOffsetsPartition(partition_index=partition, timestamp=-2)])
        ],
    )
    (answer,) = client.request(request, 1).topics[0].partitions
    assert answer.error_code == 0, answer
    return int(answer.offset)
