"""A minimal Kafka client over a raw socket, speaking our generated codec: one request, one response.

The admin tests use it to send every version of an API exactly as written, including requests the real
clients never send (duplicates, null values, wrong replica assignments).
"""

from __future__ import annotations

import itertools
import socket
import uuid
from dataclasses import dataclass
from typing import Any

from rockafka.facade.protocol.framing import decode_response, encode_request
from rockafka.facade.protocol.message import ApiMessage
from rockafka.facade.protocol.messages import api_spec
from rockafka.facade.protocol.messages.list_offsets import ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic

TIMEOUT_S = 10.0


class WireClient:
    """One connection to a broker; ``call(request, version)`` returns the decoded response."""

    def __init__(self, bootstrap: str) -> None:
        host, _, port = bootstrap.rpartition(":")
        self._sock = socket.create_connection((host, int(port)), timeout=TIMEOUT_S)
        self._correlation = itertools.count(1)

    def call(self, request: ApiMessage, version: int) -> Any:
        correlation_id = next(self._correlation)
        self._sock.sendall(encode_request(request, version, correlation_id, "rockafka-admin-tests"))
        size = int.from_bytes(self._read(4), "big", signed=True)
        answered, response = decode_response(self._read(size), api_spec(request.API_KEY).response, version)
        assert answered == correlation_id
        return response

    def _read(self, count: int) -> bytes:
        chunks = bytearray()
        while len(chunks) < count:
            chunk = self._sock.recv(count - len(chunks))
            if not chunk:
                raise ConnectionError(f"broker closed the connection after {len(chunks)} of {count} bytes")
            chunks += chunk
        return bytes(chunks)

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> WireClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class TopicState:
    """A topic as Metadata v12 reports it (without auto-creating it)."""

    error_code: int
    topic_id: uuid.UUID
    partitions: int


def topic_state(client: WireClient, name: str) -> TopicState:
    request = MetadataRequest(topics=[MetadataRequestTopic(name=name)], allow_auto_topic_creation=False)
    (topic,) = client.call(request, 12).topics
    return TopicState(topic.error_code, topic.topic_id, len(topic.partitions))


def log_start_offset(client: WireClient, topic: str, partition: int) -> int:
    """The partition's log start offset (ListOffsets v1, EARLIEST)."""
    request = ListOffsetsRequest(
        replica_id=-1,
        topics=[
            ListOffsetsTopic(name=topic, partitions=[ListOffsetsPartition(partition_index=partition, timestamp=-2)])
        ],
    )
    (answer,) = client.call(request, 1).topics[0].partitions
    assert answer.error_code == 0, answer
    return int(answer.offset)
