"""The v0/v1 MessageSet codec and the conversions to and from RecordBatch v2, checked against kafka-python's own
legacy and default record classes as an independent encoder and decoder."""

from __future__ import annotations

import pytest
import xxhash
from kafka.record.default_records import DefaultRecordBatchBuilder
from kafka.record.legacy_records import LegacyRecordBatchBuilder
from kafka.record.memory_records import MemoryRecords

from rockafka.core_pyx.recordbatch import validate_batch
from rockafka.facade.legacy import (
    MessageSetError,
    UnsupportedCodecError,
    down_convert,
    encode_message,
    read_message_set,
    up_convert,
)
from rockafka.facade.legacy.conversion import CONVERSIONS
from rockafka.facade.legacy.lz4frame import lz4_with_header_checksum, xxh32_short
from rockafka.store.control import marker_batch

CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3}
MESSAGES = [(b"k0", b"v0" * 50), (None, b"value-1"), (b"k2", None), (b"", b"")]


def _legacy_set(magic: int, codec: int, timestamps: list[int], base: int = 0) -> bytes:
    builder = LegacyRecordBatchBuilder(magic=magic, compression_type=codec, batch_size=1 << 20)
    for index, (key, value) in enumerate(MESSAGES):
        builder.append(base + index, timestamp=timestamps[index], key=key, value=value)
    return bytes(builder.build())


def _kafka_python_records(data: bytes) -> list[tuple[int, int, bytes | None, bytes | None, list[object]]]:
    records = MemoryRecords(data)
    found = []
    while records.has_next():
        batch = records.next_batch()
        for record in batch:
            found.append((record.offset, record.timestamp, record.key, record.value, list(record.headers)))
    return found


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("key,value", MESSAGES)
def test_an_uncompressed_message_is_the_bytes_kafka_python_writes(
    magic: int, key: bytes | None, value: bytes | None
) -> None:
    builder = LegacyRecordBatchBuilder(magic=magic, compression_type=0, batch_size=1 << 20)
    builder.append(7, timestamp=1_700_000_000_123, key=key, value=value)
    assert encode_message(7, magic, 1_700_000_000_123, key, value) == bytes(builder.build())


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("codec", CODECS.values(), ids=list(CODECS))
def test_up_conversion_keeps_every_message_of_a_kafka_python_set(magic: int, codec: int) -> None:
    stamps = [1_700_000_000_000 + 5 * index for index in range(len(MESSAGES))]
    before = CONVERSIONS.up_messages
    batch = up_convert(_legacy_set(magic, codec, stamps, base=40))
    header = validate_batch(batch)  # CRC-32C, counts and offset deltas as Produce checks them
    assert (header.base_offset, header.record_count, header.producer_id, header.compression) == (0, 4, -1, 0)
    expected_stamps = stamps if magic == 1 else [-1] * len(MESSAGES)
    assert _kafka_python_records(batch) == [
        (index, expected_stamps[index], key, value, []) for index, (key, value) in enumerate(MESSAGES)
    ]
    assert header.max_timestamp == max(expected_stamps)
    assert CONVERSIONS.up_messages == before + len(MESSAGES)


def test_lz4_at_format_v0_is_read_with_its_0_8_header_checksum() -> None:
    """kafka-python writes lz4 at magic 0 as Kafka 0.8/0.9 did (KAFKA-3160: the header checksum hashes the magic
    number too), which a plain LZ4 reader refuses; the same frame with the right checksum passes unchanged."""
    wrapper = read_message_set(_legacy_set(0, CODECS["lz4"], [-1] * 4))[0]
    frame = wrapper.value
    assert frame is not None
    fixed = lz4_with_header_checksum(frame)
    assert fixed != frame and lz4_with_header_checksum(fixed) == fixed
    assert fixed[:6] == frame[:6] and fixed[7:] == frame[7:]  # only the checksum byte changed


def test_the_descriptor_hash_is_xxhash32() -> None:
    data = bytes(range(200, 215))
    assert [xxh32_short(data[:n]) for n in range(16)] == [xxhash.xxh32_intdigest(data[:n]) for n in range(16)]


def _v2_batch(codec: int, base_offset: int, headers: bool = True, producer_id: int = -1) -> bytes:
    builder = DefaultRecordBatchBuilder(
        magic=2, compression_type=codec, is_transactional=producer_id >= 0, producer_id=producer_id,
        producer_epoch=0 if producer_id >= 0 else -1, base_sequence=0 if producer_id >= 0 else -1, batch_size=1 << 20,
    )  # fmt: skip
    for index, (key, value) in enumerate(MESSAGES):
        builder.append(index, 1_700_000_000_000 + index, key, value, [("h", b"x")] if headers else [])
    data = bytearray(builder.build())
    data[0:8] = base_offset.to_bytes(8, "big")  # the broker's assigned base offset: not covered by the CRC
    return bytes(data)


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("codec", CODECS.values(), ids=list(CODECS))
def test_down_conversion_reads_back_in_kafka_python_with_offsets_and_without_headers(magic: int, codec: int) -> None:
    batches = [memoryview(_v2_batch(codec, 100)), memoryview(_v2_batch(codec, 104))]
    converted = down_convert(batches, magic, 100, 1 << 20)
    assert converted.messages == 8
    stamp = (lambda index: 1_700_000_000_000 + index) if magic == 1 else (lambda index: None)
    expected = [
        (base + index, stamp(index), key, value, [])
        for base in (100, 104)
        for index, (key, value) in enumerate(MESSAGES)
    ]
    assert _kafka_python_records(converted.records) == expected
    assert [m.offset for m in read_message_set(converted.records)] == list(range(100, 108))


def test_down_conversion_leaves_out_control_batches_and_records_below_the_fetch_offset() -> None:
    """A transaction's records go out as stored (no isolation level below Fetch v4), its marker does not."""
    marker = bytearray(marker_batch(producer_id=9, producer_epoch=0, coordinator_epoch=0, commit=False, timestamp=5))
    marker[0:8] = (4).to_bytes(8, "big")
    batches = [memoryview(_v2_batch(0, 0, producer_id=9)), memoryview(bytes(marker)), memoryview(_v2_batch(0, 5))]
    converted = down_convert(batches, 1, 2, 1 << 20)
    assert [m.offset for m in read_message_set(converted.records)] == [2, 3, 5, 6, 7, 8]


def test_down_conversion_stops_at_its_limit_but_always_gives_the_first_message() -> None:
    batches = [memoryview(_v2_batch(1, 0)), memoryview(_v2_batch(1, 4))]
    whole = down_convert(batches, 1, 0, 1 << 20).records
    first = read_message_set(whole)[0]
    one = down_convert(batches, 1, 0, 1)
    assert (one.messages, read_message_set(one.records)) == (1, [first])
    three = len(encode_message(0, 1, 0, b"k0", b"v0" * 50)) + 2 * 40
    assert [m.offset for m in read_message_set(down_convert(batches, 1, 0, three).records)] == [0, 1, 2]


def test_a_message_whose_crc_is_wrong_is_refused_as_corrupt() -> None:
    data = bytearray(_legacy_set(1, 0, [1, 2, 3, 4]))
    data[-1] ^= 0xFF
    with pytest.raises(MessageSetError) as caught:
        up_convert(bytes(data))
    assert caught.value.crc


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x00" * 11,
        encode_message(0, 1, 0, b"k", b"v")[:-1],
        encode_message(0, 1, 0, b"k", b"v")[:16] + b"\x02" + encode_message(0, 1, 0, b"k", b"v")[17:],
    ],
    ids=["empty", "short-head", "truncated", "magic-2"],
)
def test_a_malformed_set_is_refused_and_not_a_checksum_error(data: bytes) -> None:
    with pytest.raises(MessageSetError) as caught:
        up_convert(data)
    assert not caught.value.crc


def test_zstd_in_an_old_format_is_an_unsupported_codec() -> None:
    with pytest.raises(UnsupportedCodecError):
        up_convert(encode_message(0, 1, 4, None, b"not really zstd", attributes=4))


def test_a_compressed_wrapper_inside_a_compressed_wrapper_is_refused() -> None:
    import gzip

    inner = _legacy_set(1, 1, [1, 2, 3, 4])
    wrapper = encode_message(0, 1, 4, None, gzip.compress(inner), attributes=1)
    with pytest.raises(MessageSetError, match="nests"):
        up_convert(wrapper)


def test_a_partial_last_message_is_dropped_only_when_allowed() -> None:
    whole = _legacy_set(0, 0, [-1] * 4)
    assert len(read_message_set(whole[:-3], allow_partial=True)) == 3
    with pytest.raises(MessageSetError):
        read_message_set(whole[:-3])
