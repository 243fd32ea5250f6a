"""Bad input over raw sockets: each gets Kafka's error code or a closed connection, and nothing else.

Frame-level garbage (random bytes, negative or oversized length prefixes, frames too short for a
header, unknown API keys, versions the broker does not serve, bodies that do not parse) closes that
connection only. Requests that parse but carry bad record batches (bad CRC, magic 0/1, wrong record
counts, zstd before Produce v7, compressed payloads that do not decompress) are answered with the
partition's error code and the connection stays usable. Clients that disconnect halfway through a
request, or while a fetch is parked, leave the broker unaffected. Every test then checks, on a
connection opened before the bad input, that the broker still produces and fetches, and that the
broker logged no traceback and no ERROR line.

Metadata naming a topic by a null name or an id is answered as Kafka's broker answers it: before v12
the whole request fails with INVALID_REQUEST (a null name echoed as ""); in v12 a topic with neither
name nor id is INVALID_TOPIC_EXCEPTION and an unknown id UNKNOWN_TOPIC_ID.
"""

from __future__ import annotations

import random
import socket
import struct
import threading
import time
import uuid
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from rockafka.facade.protocol.framing import decode_response
from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest, ApiVersionsResponse
from rockafka.facade.protocol.messages.fetch import FetchPartition, FetchRequest, FetchResponse, FetchTopic
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse
from rockafka.facade.protocol.messages.produce import (
    PartitionProduceData,
    ProduceRequest,
    ProduceResponse,
    TopicProduceData,
)

from .brokerproc import BrokerProcess
from .clients.driver import TIMEOUT_S
from .clients.fixtures import module_broker
from .clients.records import Rec, unique_topic
from .clients.scenarios import create_topic
from .clients.wire import (
    RawClient,
    legacy_message_set,
    record_batch,
    restamp_crc,
    with_declared_records,
    with_flipped_crc,
    with_magic,
    with_record_count,
)

MAX_REQUEST = 1 << 20  # socket.request.max.bytes of this module's broker
broker = module_broker(**{"socket.request.max.bytes": str(MAX_REQUEST), "auto.create.topics.enable": "true"})

NONE, CORRUPT_MESSAGE, UNKNOWN_TOPIC_OR_PARTITION, MESSAGE_TOO_LARGE = 0, 2, 3, 10
INVALID_TOPIC_EXCEPTION, INVALID_REQUEST, UNKNOWN_TOPIC_ID = 17, 42, 100
INVALID_REQUIRED_ACKS, UNSUPPORTED_VERSION, UNSUPPORTED_COMPRESSION_TYPE, INVALID_RECORD = 21, 35, 76, 87
RECORDS = [Rec(b"k1", b"value one", (("h", b"1"),), 1_700_000_000_000), Rec(None, b"value two", (), 1_700_000_000_005)]


class Bystander:
    """A well-behaved client on its own connection, opened before any bad input, used after it."""

    def __init__(self, bootstrap: str) -> None:
        self.client = RawClient(bootstrap, "bystander")
        self.topic = unique_topic("bystander")
        self.produced = 0
        for _ in range(20):
            request = MetadataRequest(topics=[MetadataRequestTopic(name=self.topic)])
            if self.client.request(request, 9, MetadataResponse).topics[0].error_code == NONE:
                break
            time.sleep(0.05)

    def check(self) -> None:
        """Produce a batch and fetch everything back on the same old connection."""
        base = produce(self.client, self.topic, record_batch(RECORDS), version=9)
        assert base == (NONE, self.produced)
        self.produced += len(RECORDS)
        fetched = fetch(self.client, self.topic, 0)
        assert fetched.error_code == NONE and fetched.high_watermark == self.produced


def produce_request(topic: str, records: bytes, *, acks: int = -1, partition: int = 0) -> ProduceRequest:
    data = TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=partition, records=records)])
    return ProduceRequest(acks=acks, timeout_ms=5000, topic_data=[data])


def produce(client: RawClient, topic: str, records: bytes, *, version: int = 9, acks: int = -1) -> tuple[int, int]:
    """(error code, base offset) of a one-partition Produce."""
    answer = client.request(produce_request(topic, records, acks=acks), version, ProduceResponse)
    part = answer.responses[0].partition_responses[0]
    return part.error_code, part.base_offset


def fetch_request(topic: str, offset: int, max_wait_ms: int = 0) -> FetchRequest:
    partition = FetchPartition(fetch_offset=offset, partition_max_bytes=1 << 20)
    return FetchRequest(
        max_wait_ms=max_wait_ms,
        min_bytes=1,
        max_bytes=1 << 20,
        topics=[FetchTopic(topic=topic, partitions=[partition])],
    )


def fetch(client: RawClient, topic: str, offset: int) -> Any:
    """The partition's part of a Fetch v11 answer."""
    return client.request(fetch_request(topic, offset), 11, FetchResponse).responses[0].partitions[0]


@pytest.fixture
def bystander(broker: BrokerProcess) -> Iterator[Bystander]:
    log_before = len(broker.log_path.read_bytes())
    watcher = Bystander(broker.bootstrap)
    yield watcher
    watcher.check()
    watcher.client.close()
    added = broker.log_path.read_bytes()[log_before:].decode(errors="replace")
    assert "Traceback" not in added and " ERROR " not in added, added[-4000:]  # a handler bug is one ERROR line


@pytest.fixture
def raw(broker: BrokerProcess, bystander: Bystander) -> Iterator[RawClient]:
    with RawClient(broker.bootstrap) as client:
        yield client


@pytest.fixture
def topic(raw: RawClient) -> str:
    name = unique_topic("bad-input")
    for _ in range(20):
        if (
            raw.request(MetadataRequest(topics=[MetadataRequestTopic(name=name)]), 9, MetadataResponse)
            .topics[0]
            .error_code
            == 0
        ):
            return name
        time.sleep(0.05)
    raise AssertionError("topic not created")


def header(api_key: int, version: int, correlation_id: int = 1, client_id: bytes = b"bad") -> bytes:
    return struct.pack(">hhih", api_key, version, correlation_id, len(client_id)) + client_id


def framed(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


# --- frames that cannot be read: the connection closes ---


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_bytes_close_the_connection(raw: RawClient, seed: int) -> None:
    """Random bytes after a plausible length prefix: an unknown API key or an unreadable header."""
    rng = random.Random(seed)
    body = rng.randbytes(64)
    raw.send(framed(struct.pack(">h", 1000 + seed) + body))
    assert raw.closed_by_broker()


def test_random_stream_closes_the_connection(raw: RawClient) -> None:
    raw.send(random.Random(7).randbytes(4096))
    assert raw.closed_by_broker()


@pytest.mark.parametrize("prefix", [-1, -(1 << 31)])
def test_negative_length_prefix_closes(raw: RawClient, prefix: int) -> None:
    raw.send(struct.pack(">i", prefix) + b"\0" * 16)
    assert raw.closed_by_broker()


def test_length_prefix_over_socket_request_max_bytes_closes_at_once(raw: RawClient) -> None:
    """Only the 4-byte prefix is sent: the broker refuses before reading (or buffering) the body."""
    raw.send(struct.pack(">i", MAX_REQUEST + 1))
    assert raw.closed_by_broker()


def test_length_prefix_at_the_limit_is_read(raw: RawClient) -> None:
    """A frame of exactly socket.request.max.bytes is accepted (then refused as an unknown API)."""
    raw.send(struct.pack(">i", MAX_REQUEST) + header(999, 0))
    assert not raw.closed_by_broker(0.3), "a frame within the limit must be waited for"
    raw.send(b"\0" * (MAX_REQUEST - len(header(999, 0))))
    assert raw.closed_by_broker()


@pytest.mark.parametrize("size", [0, 1, 7])
def test_frame_too_short_for_a_header_closes(raw: RawClient, size: int) -> None:
    raw.send(framed(header(18, 0)[:size]))
    assert raw.closed_by_broker()


@pytest.mark.parametrize("api_key", [-1, 999, 32767])
def test_unknown_api_key_closes(raw: RawClient, api_key: int) -> None:
    raw.send(framed(header(api_key, 0)))
    assert raw.closed_by_broker()


def test_known_but_unserved_api_closes(raw: RawClient) -> None:
    """LeaderAndIsr (4) is in Kafka's specs but inter-broker only: not advertised, and refused."""
    advertised = raw.request(ApiVersionsRequest(), 0, ApiVersionsResponse)
    assert 4 not in {entry.api_key for entry in advertised.api_keys}
    raw.send(framed(header(4, 0) + struct.pack(">ii", 0, 0)))
    assert raw.closed_by_broker()


@pytest.mark.parametrize("version", [0, 2, 12, 99])
def test_produce_version_outside_the_served_range_closes(raw: RawClient, version: int) -> None:
    raw.send(framed(header(0, version) + b"\0" * 16))
    assert raw.closed_by_broker()


def test_body_that_does_not_parse_closes(raw: RawClient) -> None:
    """A Metadata v1 request whose topic array claims 5 entries and holds none."""
    raw.send(framed(header(3, 1) + struct.pack(">i", 5)))
    assert raw.closed_by_broker()


# --- ApiVersions too new: answered, and the connection stays usable ---


@pytest.mark.parametrize("version", [5, 127])
def test_api_versions_too_new_gets_error_35_with_a_v0_body(raw: RawClient, version: int) -> None:
    """Kafka's answer: UNSUPPORTED_VERSION, a v0 body (header v0) naming the ApiVersions range; the
    client retries at a version from that range on the same connection."""
    raw.send(framed(header(18, version, correlation_id=77) + b"\0" + b"\x05rawc\x021\x00"))
    payload = raw.read_frame()
    assert struct.unpack_from(">ih", payload) == (77, UNSUPPORTED_VERSION)
    (count,) = struct.unpack_from(">i", payload, 6)
    entries = [struct.unpack_from(">hhh", payload, 10 + 6 * i) for i in range(count)]
    assert (18, 0, 4) in entries and len(payload) == 10 + 6 * count
    retried = raw.request(ApiVersionsRequest(client_software_name="rawc", client_software_version="1"), 3)
    assert retried.error_code == NONE and len(retried.api_keys) > 5


# --- Metadata by null name or topic id: answered with Kafka's codes, the connection stays ---

ZERO_ID, SOME_ID = uuid.UUID(int=0), uuid.UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")


@pytest.mark.parametrize("version", [10, 11])
@pytest.mark.parametrize("topic_id", [ZERO_ID, SOME_ID], ids=["no-id", "an-id"])
def test_metadata_null_name_before_v12_is_invalid_request(raw: RawClient, version: int, topic_id: uuid.UUID) -> None:
    request = MetadataRequest(topics=[MetadataRequestTopic(name=None, topic_id=topic_id)])
    answer = raw.request(request, version, MetadataResponse)
    assert [(t.error_code, t.name, t.topic_id) for t in answer.topics] == [(INVALID_REQUEST, "", topic_id)]
    assert raw.request(MetadataRequest(topics=[]), version, MetadataResponse).topics == []


@pytest.mark.parametrize("version", [10, 11])
def test_metadata_topic_id_before_v12_is_invalid_request(raw: RawClient, topic: str, version: int) -> None:
    request = MetadataRequest(topics=[MetadataRequestTopic(name=topic, topic_id=SOME_ID)])
    answer = raw.request(request, version, MetadataResponse)
    assert [(t.error_code, t.name) for t in answer.topics] == [(INVALID_REQUEST, topic)]


@pytest.mark.parametrize(
    ("topic_id", "code"), [(ZERO_ID, INVALID_TOPIC_EXCEPTION), (SOME_ID, UNKNOWN_TOPIC_ID)], ids=["no-id", "unknown-id"]
)
def test_metadata_v12_null_name(raw: RawClient, topic_id: uuid.UUID, code: int) -> None:
    request = MetadataRequest(topics=[MetadataRequestTopic(name=None, topic_id=topic_id)])
    answer = raw.request(request, 12, MetadataResponse)
    assert [(t.error_code, t.name, t.topic_id) for t in answer.topics] == [(code, None, topic_id)]


# --- record batches that are wrong: the partition's error code, the connection stays ---


def test_bad_crc_is_corrupt_message(raw: RawClient, topic: str) -> None:
    assert produce(raw, topic, with_flipped_crc(record_batch(RECORDS)))[0] == CORRUPT_MESSAGE
    assert produce(raw, topic, record_batch(RECORDS)) == (NONE, 0)


@pytest.mark.parametrize("version", [3, 7, 8, 11])
def test_magic_0_and_1_are_refused(raw: RawClient, topic: str, version: int) -> None:
    """Old message formats inside Produce v3+: INVALID_RECORD from v8 (CORRUPT_MESSAGE for older clients)."""
    expected = INVALID_RECORD if version >= 8 else CORRUPT_MESSAGE
    for magic in (0, 1):
        assert produce(raw, topic, legacy_message_set(RECORDS, magic=magic), version=version)[0] == expected
    assert produce(raw, topic, with_magic(record_batch(RECORDS), 1), version=version)[0] == expected
    assert fetch(raw, topic, 0).high_watermark == 0


@pytest.mark.parametrize("version", [0, 1, 2])
def test_produce_v0_to_v2_refuse_a_bad_message_set_as_corrupt(raw: RawClient, topic: str, version: int) -> None:
    """A MessageSet whose CRC-32 is wrong, that is cut short, or that is a RecordBatch v2: CORRUPT_MESSAGE, as
    Kafka answers these versions; nothing is appended and the connection stays."""
    good = legacy_message_set(RECORDS, magic=1 if version == 2 else 0)
    flipped = good[:-1] + bytes([good[-1] ^ 0xFF])  # the last value byte: covered by the message's CRC-32
    for bad in (flipped, good[:-3], record_batch(RECORDS)):
        assert produce(raw, topic, bad, version=version)[0] == CORRUPT_MESSAGE
    zstd = legacy_message_set([Rec(None, b"inner")], magic=1)  # any bytes: the codec is refused before reading
    assert produce(raw, topic, with_legacy_codec(zstd, 4), version=version)[0] == UNSUPPORTED_COMPRESSION_TYPE
    assert fetch(raw, topic, 0).high_watermark == 0
    assert produce(raw, topic, good, version=version) == (NONE, 0)


def with_legacy_codec(message_set: bytes, codec: int) -> bytes:
    """One magic-1 message with its attributes' codec bits set to ``codec`` and its CRC-32 made right again."""
    body = bytearray(message_set[16:])
    body[1] = codec
    return message_set[:12] + struct.pack(">I", zlib.crc32(body)) + bytes(body)


@pytest.mark.parametrize("codec", ["none", "gzip"])
@pytest.mark.parametrize("count", [1, 3, 0])
def test_wrong_record_count_is_refused(raw: RawClient, topic: str, codec: str, count: int) -> None:
    """recordsCount says ``count``, lastOffsetDelta and the records say 2 (CRC kept valid)."""
    batch = with_record_count(record_batch(RECORDS, codec=codec), count)
    assert produce(raw, topic, batch)[0] == INVALID_RECORD
    assert produce(raw, topic, batch, version=7)[0] == CORRUPT_MESSAGE
    assert fetch(raw, topic, 0).high_watermark == 0


@pytest.mark.parametrize("codec", ["none", "gzip", "lz4"])
@pytest.mark.parametrize("count", [1, 3])
def test_consistent_header_over_other_records_is_refused(raw: RawClient, topic: str, codec: str, count: int) -> None:
    """The header declares ``count`` records throughout, the batch holds 2: an uncompressed batch like
    this was once stored, giving its records wrong offsets."""
    batch = with_declared_records(record_batch(RECORDS, codec=codec), count)
    assert produce(raw, topic, batch)[0] == INVALID_RECORD
    assert fetch(raw, topic, 0).high_watermark == 0


@pytest.mark.parametrize("version", [3, 6])
def test_zstd_before_produce_v7_is_unsupported_compression(raw: RawClient, topic: str, version: int) -> None:
    assert produce(raw, topic, record_batch(RECORDS, codec="zstd"), version=version)[0] == UNSUPPORTED_COMPRESSION_TYPE
    assert produce(raw, topic, record_batch(RECORDS, codec="zstd"), version=7) == (NONE, 0)


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_compressed_payload_that_does_not_decompress(raw: RawClient, topic: str, codec: str) -> None:
    batch = bytearray(record_batch(RECORDS * 20, codec=codec))
    batch[70:90] = b"\xa5" * 20  # inside the compressed payload
    assert produce(raw, topic, restamp_crc(bytes(batch)))[0] == INVALID_RECORD
    assert produce(raw, topic, restamp_crc(bytes(batch)), version=7)[0] == CORRUPT_MESSAGE


def test_two_batches_in_one_partition_are_refused(raw: RawClient, topic: str) -> None:
    assert produce(raw, topic, record_batch(RECORDS) + record_batch(RECORDS))[0] == INVALID_RECORD


def test_truncated_batch_is_corrupt(raw: RawClient, topic: str) -> None:
    assert produce(raw, topic, record_batch(RECORDS)[:-5])[0] == CORRUPT_MESSAGE


def test_invalid_acks(raw: RawClient, topic: str) -> None:
    assert produce(raw, topic, record_batch(RECORDS), acks=2)[0] == INVALID_REQUIRED_ACKS


def test_unknown_partition(raw: RawClient, topic: str) -> None:
    answer = raw.request(produce_request(topic, record_batch(RECORDS), partition=7), 9, ProduceResponse)
    assert answer.responses[0].partition_responses[0].error_code == UNKNOWN_TOPIC_OR_PARTITION


def test_batch_over_max_message_bytes(broker: BrokerProcess, raw: RawClient) -> None:
    name = unique_topic("bad-input-small")
    create_topic(broker.bootstrap, name, configs={"max.message.bytes": "1000"})
    assert produce(raw, name, record_batch([Rec(b"k", b"x" * 2000, (), None)]))[0] == MESSAGE_TOO_LARGE
    assert produce(raw, name, record_batch([Rec(b"k", b"x" * 500, (), None)])) == (NONE, 0)


def test_bad_batch_with_acks_0_closes_the_connection(raw: RawClient, topic: str) -> None:
    """acks=0 has no response to carry an error, so Kafka closes the connection."""
    _, data = raw.frame(produce_request(topic, with_flipped_crc(record_batch(RECORDS)), acks=0), 9)
    raw.send(data)
    assert raw.closed_by_broker()


# --- clients that go away mid-request ---


def test_half_a_frame_then_close(broker: BrokerProcess, bystander: Bystander, topic: str) -> None:
    for how in ("fin", "reset"):
        with RawClient(broker.bootstrap) as client:
            _, data = client.frame(produce_request(topic, record_batch(RECORDS)), 9)
            client.send(data[: len(data) // 2])
            if how == "reset":
                client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        time.sleep(0.1)
    bystander.check()
    with RawClient(broker.bootstrap) as client:
        assert fetch(client, topic, 0).high_watermark == 0  # nothing half-received was appended


def test_frame_split_into_pieces_is_answered(raw: RawClient, topic: str) -> None:
    _, data = raw.frame(produce_request(topic, record_batch(RECORDS), acks=1), 9)
    for start in range(0, len(data), 7):
        raw.send(data[start : start + 7])
    _, decoded = decode_response(raw.read_frame(), ProduceResponse, 9)  # once the last piece is in
    assert decoded.responses[0].partition_responses[0].error_code == NONE


def test_disconnect_while_a_fetch_is_parked(broker: BrokerProcess, bystander: Bystander, topic: str) -> None:
    with RawClient(broker.bootstrap) as client:
        client.send(client.frame(fetch_request(topic, 0, max_wait_ms=5000), 11)[1])
        time.sleep(0.2)
    with RawClient(broker.bootstrap) as client:
        assert produce(client, topic, record_batch(RECORDS)) == (NONE, 0)  # wakes the parked fetch: its socket is gone


def test_produce_then_disconnect_before_the_answer(broker: BrokerProcess, topic: str) -> None:
    """A whole produce request sent, the connection closed at once: Kafka still appends it."""
    with RawClient(broker.bootstrap) as client:
        client.send(client.frame(produce_request(topic, record_batch(RECORDS)), 9)[1])
    deadline = time.monotonic() + 5
    with RawClient(broker.bootstrap) as client:
        while fetch(client, topic, 0).high_watermark != 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert fetch(client, topic, 0).high_watermark == 2


# --- a real client keeps working while bad connections come and go ---


def test_real_client_unaffected_by_concurrent_garbage(broker: BrokerProcess, bystander: Bystander) -> None:
    topic = unique_topic("bad-input-real-client")
    stop = threading.Event()
    garbage_sent = [0]

    def spam() -> None:
        rng = random.Random(3)
        while not stop.is_set() and garbage_sent[0] < 300:
            try:
                with socket.create_connection(("127.0.0.1", broker.port), timeout=2) as sock:
                    sock.sendall(rng.choice([rng.randbytes(64), struct.pack(">i", -5), framed(header(999, 0))]))
            except OSError:
                pass
            garbage_sent[0] += 1

    spammer = threading.Thread(target=spam, daemon=True)
    spammer.start()
    try:
        producer = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 1})
        delivered: list[int] = []
        for i in range(200):
            producer.produce(
                topic, f"v{i}".encode(), on_delivery=lambda e, m: delivered.append(-1 if e else m.offset())
            )
            producer.poll(0)
        assert producer.flush(TIMEOUT_S) == 0
        assert sorted(delivered) == list(range(200))
        consumer = Consumer(
            {"bootstrap.servers": broker.bootstrap, "group.id": "bad-input", "enable.auto.commit": False}
        )
        try:
            consumer.assign([TopicPartition(topic, 0, 0)])
            got: list[bytes] = []
            deadline = time.monotonic() + TIMEOUT_S
            while len(got) < 200 and time.monotonic() < deadline:
                got += [m.value() for m in consumer.consume(200, 0.2) if m.error() is None]
        finally:
            consumer.close()
        assert got == [f"v{i}".encode() for i in range(200)]
    finally:
        stop.set()
        spammer.join(10)
    assert garbage_sent[0] > 0
