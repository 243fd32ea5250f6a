"""Rockafka's hot-message tuples rendered through kafka-python 3.0.12's own protocol classes (the independent
encoder the hot codec is compared against), and kafka-python's decoding turned back into plain values."""

from __future__ import annotations

from typing import Any

from kafka.protocol.consumer import FetchResponse as KpFetchResponse
from kafka.protocol.metadata import MetadataResponse as KpMetadataResponse
from kafka.protocol.producer import ProduceRequest as KpProduceRequest
from kafka.protocol.producer import ProduceResponse as KpProduceResponse

from rockafka.core_pyx import hotcodec

KAFKA_PYTHON_CLASSES: dict[type, Any] = {
    hotcodec.ProduceResponse: KpProduceResponse,
    hotcodec.FetchResponse: KpFetchResponse,
    hotcodec.MetadataResponse: KpMetadataResponse,
}
# kafka-python renames Metadata's authorized-operations fields and reads them as a set of bit positions.
_BITFIELDS = {"topic_authorized_operations", "cluster_authorized_operations"}
_RENAMED = {name: "authorized_operations" for name in _BITFIELDS}
# Produce's partition field is "Index" in the spec (hotcodec calls it partition_index).
_PRODUCE_RENAMED = _RENAMED | {"partition_index": "index"}
_PRODUCE_PARTS = (hotcodec.PartitionProduceData, hotcodec.PartitionProduceResponse)


def _plain(value: Any, key: str | None = None) -> Any:
    if key in _BITFIELDS:
        return {bit for bit in range(32) if (value & 0xFFFFFFFF) >> bit & 1}
    if key == "records":
        if value is None or isinstance(value, bytes | bytearray | memoryview):
            return None if value is None else bytes(value)
        return b"".join(bytes(chunk) for chunk in value)
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        renamed = _PRODUCE_RENAMED if isinstance(value, _PRODUCE_PARTS) else _RENAMED
        return {renamed.get(k, k): _plain(v, k) for k, v in value._asdict().items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _build(cls: Any, fields: dict[str, Any], version: int | None = None) -> Any:
    kwargs = {}
    for name, value in fields.items():
        field = cls._struct.fields[name]
        if field.is_struct_array() and value is not None:
            value = [_build(field.data_class, item) for item in value]
        elif field.is_struct() and value is not None:
            if isinstance(value, list):  # a plain tuple given for a tagged struct: its fields in spec order
                value = dict(zip(field.data_class._struct.fields, value, strict=False))
            value = _build(field.data_class, value)
        kwargs[name] = value
    return cls(**kwargs) if version is None else cls[version](**kwargs)


def kafka_python_encode(version: int, message: Any, correlation_id: int | None = None) -> bytes:
    """The bytes kafka-python writes for ``message`` (one of hotcodec's response tuples) at ``version``."""
    obj = _build(KAFKA_PYTHON_CLASSES[type(message)], _plain(message), version)
    if correlation_id is None:
        return bytes(obj.encode())
    obj.with_header(correlation_id=correlation_id)
    return bytes(obj.encode(header=True, framed=True))


def kafka_python_produce_request(version: int, request: hotcodec.ProduceRequest) -> bytes:
    """A Produce request body as kafka-python writes it."""
    return bytes(_build(KpProduceRequest, _plain(request), version).encode())


def kafka_python_decode_produce_request(version: int, body: bytes) -> hotcodec.ProduceRequest:
    """kafka-python's reading of a Produce request body, as hotcodec tuples."""
    decoded = KpProduceRequest.decode(body, version=version)
    return hotcodec.ProduceRequest(
        decoded.transactional_id,
        decoded.acks,
        decoded.timeout_ms,
        [
            hotcodec.TopicProduceData(
                topic.name,
                [
                    hotcodec.PartitionProduceData(p.index, None if p.records is None else memoryview(bytes(p.records)))
                    for p in topic.partition_data
                ],
            )
            for topic in decoded.topic_data
        ],
    )
