"""Requests for fuzzing a live broker: Hypothesis strategies, byte-level mutations, and the oracle.

**Requests.** Every API and version the broker advertises gets requests drawn from the generated
message classes' ``FIELDS`` (as ``tests/facade/protocol/strategies.py`` draws them): random values,
nulls where the version allows them, arrays of 0-3 entries, unknown tagged fields in flexible versions.
A few fields are steered so a case exercises the broker instead of waiting on it or filling its disk:
names come mostly from a small pool (existing topics and groups, the empty name, illegal names), waits
and timeouts are at most a few hundred milliseconds (a Fetch of ``max_wait_ms`` 2^31 is a legitimate
park, not a hang), partition counts are small, and ``records`` are sometimes a valid record batch (of an idempotent or
transactional producer too, with a producer id the broker handed out).

**Mutations.** A valid request frame damaged on the wire: cut short (with its length prefix kept or
fixed to the cut), bits flipped, a wrong length prefix, bytes inserted, or its body replaced by noise.

**The oracle.** Each structured request is sent with an ApiVersions probe behind it on the same
connection. The broker must answer the request (a frame with its correlation id that decodes as the
API's response at that version) and then the probe, or answer nothing to a Produce with acks=0, or
close the connection cleanly; it must never leave the probe unanswered on an open connection. A
mutated frame is followed by the probe and the end of the client's output: whatever the broker sends
must be whole frames, and it must close the connection within the time limit. The broker's log must
show no traceback, no ERROR line and no response the broker failed to build (checked after every case
and at the end). Member ids, generations and producer ids the broker hands out are learned from its
answers and reused by later requests, so requests also get past the first identity check.
"""

from __future__ import annotations

import itertools
import socket
import struct
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from hypothesis import strategies as st
from kafka.record.default_records import DefaultRecordBatchBuilder

from rockafka.facade.protocol.framing import decode_response, encode_request
from rockafka.facade.protocol.message import ApiMessage, FieldInfo, Struct
from rockafka.facade.protocol.messages import api_spec
from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest, ApiVersionsResponse

from ..facade.protocol.strategies import INT_BOUNDS, carried_in, within

READ_TIMEOUT_S: Final = 10.0
PROBE_VERSION: Final = 3
PRODUCE_KEY: Final = 0

#: Names a request may carry: two topics and a group the fixture creates, names that do not exist,
#: the empty name, illegal names, an internal topic.
TOPICS: Final = ("fuzz-t0", "fuzz-t1", "fuzz-none", "", ".", "..", "bad/name", "x" * 250, "__consumer_offsets")
GROUPS: Final = ("fuzz-g0", "fuzz-g1", "", "fuzz-txn")
CONFIG_NAMES: Final = (
    "retention.ms",
    "cleanup.policy",
    "max.message.bytes",
    "message.timestamp.type",
    "segment.bytes",
    "log.retention.ms",
    "compression.type",
    "no.such.config",
)
#: Config values: numbers at and past the edges, the enumerations' members, and words of no meaning.
CONFIG_VALUES: Final = (
    "-1", "0", "1", "2147483648", "9223372036854775808", "1e3", " 5", "delete", "compact", "compact,delete",
    "CreateTime", "LogAppendTime", "gzip", "zstd", "producer", "true", "",
)  # fmt: skip
NAME_ATTRS: Final = frozenset({"name", "topic", "topic_name", "resource_name", "key"})
GROUP_ATTRS: Final = frozenset({"group_id", "group", "transactional_id", "member_id", "group_instance_id"})
SMALL_INT_ATTRS: Final = frozenset(
    {"num_partitions", "count", "partition_index", "partition", "partitions", "replication_factor", "throttle_time_ms"}
)


#: Values the broker handed out (member ids, generations, producer ids and epochs), learned from its
#: answers, so later requests can carry them and get past the first check: a JoinGroup's member id in a
#: SyncGroup, an InitProducerId's producer id in a Produce or AddPartitionsToTxn.
LEARNED: Final[dict[str, list[Any]]] = {"member_id": [], "generation_id": [], "producer_id": [], "producer_epoch": []}


def _learned(attr: str, fallback: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    if attr not in LEARNED:
        return fallback
    seen = LEARNED[attr]
    return fallback | st.integers(0, 15).map(
        lambda i: seen[-1 - i % len(seen)] if seen else 0 if attr != "member_id" else ""
    )


def learn(response: Any) -> None:
    """Keep the values of ``LEARNED`` that a decoded response carries at its top level (at most 16 each)."""
    for attr, seen in LEARNED.items():
        value = getattr(response, attr, None)
        if value not in (None, "", -1) and value not in seen:
            seen.append(value)
            del seen[:-16]


@st.composite
def producer_batches(draw: st.DrawFn) -> bytes:
    """A valid record batch of an idempotent or transactional producer: a learned producer id and epoch
    (or a made-up one), a drawn first sequence, one to three records, plain or gzip."""

    def learned_or(attr: str, made_up: st.SearchStrategy[int]) -> int:
        seen = LEARNED[attr]
        if seen and draw(st.booleans()):
            return int(seen[-1 - draw(st.integers(0, 15)) % len(seen)])
        return draw(made_up)

    builder = DefaultRecordBatchBuilder(
        magic=2,
        compression_type=draw(st.sampled_from([0, 1])),
        is_transactional=draw(st.booleans()),
        producer_id=learned_or("producer_id", st.integers(-1, 5)),
        producer_epoch=learned_or("producer_epoch", st.integers(-1, 3)),
        base_sequence=draw(st.integers(-1, 12) | st.just(2**31 - 1)),
        batch_size=1 << 20,
    )
    now = int(time.time() * 1000)
    for index in range(draw(st.integers(1, 3))):
        builder.append(index, timestamp=now, key=None, value=b"fuzz", headers=[])
    return bytes(builder.build())


def _waits(info: FieldInfo) -> bool:
    return "timeout" in info.attr or "wait" in info.attr


def _scalar(info: FieldInfo, type_name: str, records: st.SearchStrategy[bytes]) -> st.SearchStrategy[Any]:
    return _learned(info.attr, _drawn(info, type_name, records))


def _drawn(info: FieldInfo, type_name: str, records: st.SearchStrategy[bytes]) -> st.SearchStrategy[Any]:
    attr = info.attr
    if type_name in INT_BOUNDS:
        low, high = INT_BOUNDS[type_name]
        wide = st.integers(low, high)
        if _waits(info):
            return st.integers(max(low, -2), min(high, 200))
        if attr in SMALL_INT_ATTRS or attr.endswith("_partitions"):
            return st.integers(max(low, -2), min(high, 3)) | st.sampled_from([low, high])
        if attr == "acks":
            return st.sampled_from([-1, 0, 1, 2, -2])
        return st.integers(max(low, -2), min(high, 3)) | wide
    if type_name == "string":
        text = st.text(max_size=12)
        if attr in NAME_ATTRS or "topic" in attr:
            return st.sampled_from(TOPICS + CONFIG_NAMES) | text
        if attr == "value":
            return st.sampled_from(CONFIG_VALUES) | text
        if attr in GROUP_ATTRS:
            return st.sampled_from(GROUPS) | text
        return st.sampled_from(["", "PLAIN", "SCRAM-SHA-256", "consumer", "range"]) | text
    if type_name == "records":
        return records
    simple: dict[str, st.SearchStrategy[Any]] = {
        "float64": st.floats(allow_nan=True),
        "bool": st.booleans(),
        "uuid": st.uuids() | st.just(uuid.UUID(int=0)),
        "bytes": st.binary(max_size=16),
    }
    return simple[type_name]


def _field(info: FieldInfo, version: int, flexible: bool, depth: int, records: st.SearchStrategy[bytes]) -> Any:
    is_array = info.kafka_type.startswith("[]")
    base = info.kafka_type[2:] if is_array else info.kafka_type
    if info.struct is not None:
        element: st.SearchStrategy[Any] = _struct(info.struct, version, flexible, depth + 1, records)
    else:
        element = _scalar(info, base, records)
    values = st.lists(element, max_size=3 if depth < 2 else 1) if is_array else element
    if within(version, info.nullable):
        values = st.none() | values
    return values


def _struct(
    cls: type[Struct], version: int, flexible: bool, depth: int, records: st.SearchStrategy[bytes]
) -> st.SearchStrategy[Struct]:
    kwargs: dict[str, st.SearchStrategy[Any]] = {
        info.attr: _field(info, version, flexible, depth, records)
        for info in cls.FIELDS
        if carried_in(info, version, flexible)
    }
    if flexible:
        known = {info.tag for info in cls.FIELDS if within(version, info.tagged)}
        tags = st.integers(0, 40).filter(lambda tag: tag not in known)
        kwargs["unknown_tagged_fields"] = st.dictionaries(tags, st.binary(max_size=6), max_size=1)
    return st.builds(cls, **kwargs)


def requests(api_key: int, version: int, records: st.SearchStrategy[bytes]) -> st.SearchStrategy[ApiMessage]:
    """Requests of ``api_key`` at ``version``, steered as the module docstring says."""
    cls = api_spec(api_key).request
    return _struct(cls, version, cls.is_flexible(version), 0, records)  # type: ignore[return-value]


# --- byte-level mutations of a valid frame ---


@dataclass(frozen=True)
class Mutation:
    kind: str
    position: int
    value: int

    def apply(self, frame: bytes) -> bytes:
        payload = frame[4:]
        at = self.position % (len(payload) + 1)
        if self.kind == "cut-fixed":
            return struct.pack(">i", at) + payload[:at]
        if self.kind == "cut-kept":
            return frame[: 4 + at]
        if self.kind == "flip":
            flipped = bytearray(payload)
            for step in range(1 + self.value % 4):
                index = (at + step * 7) % max(len(flipped), 1)
                if flipped:
                    flipped[index] ^= 1 << ((self.value >> step) % 8)
            return frame[:4] + bytes(flipped)
        if self.kind == "length":
            return struct.pack(">i", self.value) + payload
        if self.kind == "insert":
            noise = self.value.to_bytes(4, "big", signed=True)
            body = payload[:at] + noise + payload[at:]
            return struct.pack(">i", len(body)) + body
        body = payload[:8] + bytes((self.value + i) & 0xFF for i in range(max(len(payload) - 8, 0)))
        return struct.pack(">i", len(body)) + body  # "noise": the header kept, the body replaced


MUTATIONS: Final = st.builds(
    Mutation,
    st.sampled_from(["cut-fixed", "cut-kept", "flip", "length", "insert", "noise"]),
    st.integers(0, 1 << 16),
    st.integers(-(2**31), 2**31 - 1),
)


# --- the client side of the oracle ---


class Failure(AssertionError):
    """The broker broke the oracle for one case."""


class FuzzClient:
    """One connection at a time to the broker; reconnects after the broker closes one."""

    def __init__(self, host: str, port: int) -> None:
        self.address = (host, port)
        self.sock: socket.socket | None = None
        self._ids = itertools.count(1)
        self.answered = 0
        self.closed = 0

    def _connect(self) -> socket.socket:
        if self.sock is None:
            self.sock = socket.create_connection(self.address, timeout=READ_TIMEOUT_S)
        return self.sock

    def drop(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def request(self, body: ApiMessage, version: int, *, probe: bool = True) -> str:
        """Send ``body`` and a probe; check the answers. Returns "answered", "silent" or "closed".

        Without ``probe`` (a SASL step, after which the exchange admits nothing else) the first frame must
        be the answer, or the broker must close."""
        correlation_id, probe_id = next(self._ids) & 0x7FFFFFFF, next(self._ids) & 0x7FFFFFFF
        frame = encode_request(body, version, correlation_id, "fuzz")
        sock = self._connect()
        if not probe:
            answer = _exchange(sock, frame, until=None, first=True)
            if answer is None:
                self.drop()
                self.closed += 1
                return "closed"
            _check_answer(answer[0], correlation_id, body, version)
            self.answered += 1
            return "answered"
        probe_frame = encode_request(ApiVersionsRequest(), PROBE_VERSION, probe_id, "fuzz-probe")
        frames = _exchange(sock, frame + probe_frame, until=probe_id)
        if frames is None or (frames and _correlation(frames[-1]) != probe_id):
            self.drop()
            self.closed += 1
            for payload in frames or []:
                _check_answer(payload, correlation_id, body, version)
            return "closed"
        answers = frames[:-1]
        if not answers:
            if body.API_KEY == PRODUCE_KEY and getattr(body, "acks", None) == 0:
                return "silent"
            raise Failure(f"no answer to {type(body).__name__} v{version} before the probe's: {body!r}")
        if len(answers) > 1:
            raise Failure(f"{len(answers)} answers to one {type(body).__name__} v{version}: {body!r}")
        _check_answer(answers[0], correlation_id, body, version)
        decode_response(frames[-1], ApiVersionsResponse, PROBE_VERSION)
        self.answered += 1
        return "answered"

    def raw_token(self, token: bytes) -> str:
        """A SASL token after SaslHandshake v0 (size-prefixed, no request header): "answered" or "closed"."""
        frames = _exchange(self._connect(), struct.pack(">i", len(token)) + token, until=None, first=True)
        if frames is None:
            self.drop()
            self.closed += 1
            return "closed"
        return "answered"

    def api_versions(self) -> dict[int, tuple[int, int]]:
        """What the broker advertises: API key -> (min version, max version)."""
        correlation_id = next(self._ids) & 0x7FFFFFFF
        frames = _exchange(self._connect(), encode_request(ApiVersionsRequest(), 3, correlation_id), correlation_id)
        self.drop()
        if not frames:
            raise Failure("the broker closed the connection on ApiVersions")
        _, answer = decode_response(frames[-1], ApiVersionsResponse, 3)
        return {entry.api_key: (entry.min_version, entry.max_version) for entry in answer.api_keys}

    def mutated(self, frame: bytes) -> None:
        """Send a damaged frame, a probe and the end of output; the broker must close, sending whole frames."""
        self.drop()
        probe = encode_request(ApiVersionsRequest(), PROBE_VERSION, next(self._ids) & 0x7FFFFFFF, "fuzz-probe")
        sock = self._connect()
        try:
            sock.sendall(frame + probe)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            self.drop()
            return
        _exchange(sock, b"", until=None)
        self.drop()
        self.closed += 1


def _correlation(payload: bytes) -> int:
    return int(struct.unpack_from(">i", payload)[0]) if len(payload) >= 4 else -1


def _check_answer(payload: bytes, correlation_id: int, body: ApiMessage, version: int) -> None:
    name = f"{type(body).__name__} v{version}"
    if _correlation(payload) != correlation_id:
        raise Failure(f"an answer to {name} carries correlation id {_correlation(payload)}, not {correlation_id}")
    try:
        _, response = decode_response(payload, api_spec(body.API_KEY).response, version)
    except Exception as exc:
        raise Failure(f"the answer to {name} does not decode ({exc}): {body!r}") from None
    learn(response)


def _exchange(sock: socket.socket, data: bytes, until: int | None, first: bool = False) -> list[bytes] | None:
    """Send ``data``; read whole frames until one carries ``until`` (returned last; with ``first``, until
    the first frame) or the broker closes (None when it closed before any frame, else the frames read).
    A hang raises :class:`Failure`."""
    frames: list[bytes] = []
    buffer = b""
    deadline = time.monotonic() + READ_TIMEOUT_S
    try:
        if data:
            sock.sendall(data)
        while True:
            while len(buffer) >= 4 and len(buffer) >= 4 + struct.unpack_from(">i", buffer)[0]:
                size = struct.unpack_from(">i", buffer)[0]
                frames.append(buffer[4 : 4 + size])
                buffer = buffer[4 + size :]
                if first or (until is not None and _correlation(frames[-1]) == until):
                    return frames
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Failure(f"no answer and no close within {READ_TIMEOUT_S}s ({len(frames)} frames read)")
            sock.settimeout(remaining)
            chunk = sock.recv(1 << 16)
            if not chunk:
                break
            buffer += chunk
    except (ConnectionResetError, BrokenPipeError):
        pass
    except TimeoutError:
        raise Failure(f"no answer and no close within {READ_TIMEOUT_S}s ({len(frames)} frames read)") from None
    if buffer:
        raise Failure(f"the broker closed after {len(buffer)} bytes of a partial frame")
    return frames or None


#: What the broker logs only for a bug: a traceback, an ERROR line, a response that could not be answered.
BUG_SIGNS: Final = ("Traceback", " ERROR ", "no response encodes", "its error response")


class BrokerLog:
    """The broker's log file, read from where the last check stopped: tracebacks and ERROR lines are failures."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = path.stat().st_size if path.exists() else 0
        self.problems: list[str] = []

    def check(self, case: str) -> None:
        with self.path.open("rb") as log:
            log.seek(self.offset)
            data = log.read()
        self.offset += len(data)
        text = data.decode(errors="replace")
        if any(sign in text for sign in BUG_SIGNS):
            self.problems.append(f"after {case}:\n{text[-4000:]}")
            raise Failure(f"the broker logged a traceback or an error after {case}:\n{text[-4000:]}")
