"""The round-trip ceiling: aiokafka's ``send_and_wait`` against a responder that only answers.

A broker's round trip is the client's own work, two loopback wake-ups and the broker's work. This baseline
keeps the first two and takes the third away, so that "the client is the limit" is a measured figure: what
aiokafka reaches here bounds what a broker could reach with this client on this machine.

The responder (``python -m bench.suite.ceiling``, its port printed on its first line of output) runs one
blocking read-answer loop per connection. It answers ApiVersions with Rockafka's own answer
(``served_api_versions``, so the client picks the same request versions as against Rockafka), Metadata by
naming itself leader of the ``PARTITIONS`` partitions of every topic asked for, and Produce with success and
each partition's next offset (advanced by the batch's record count), Produce and Metadata through Rockafka's
compiled codec. Nothing is stored, validated or indexed; any other request closes
the connection. It is Python, so it is the ceiling of a Python broker: a native one would save part of its
user-mode time per answer (the ``broker_cpu_us_per_rt`` it reports includes its kernel time, which any
broker pays).

The scenario sends 100 B values one at a time, as ``rtt-aiokafka-acks1`` does (``-uvloop``: as
``rtt-aiokafka-acks1-uvloop``), and verifies that every answer carried the next offset.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

from bench.suite.payload import Payloads, VerificationError
from bench.suite.targets import stop_process

if TYPE_CHECKING:
    from bench.suite.context import Context, Measurement

PROJECT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 30.0
TOPIC = "ceiling"
PARTITIONS = 4  # of every topic
PRODUCE, METADATA, API_VERSIONS = 0, 3, 18


def ceiling_scenario(ctx: Context, client_loop: str = "asyncio") -> Measurement:
    # imported here: the responder and its tests need neither psutil nor the harness's clients
    from bench.suite.latency import round_trip_measurement, round_trips, run_client
    from bench.suite.meter import Meter

    with Responder() as responder:
        meter = Meter(responder.pid)
        payloads = Payloads.of(100)
        trips = round_trips(responder.bootstrap, TOPIC, payloads, 1, meter, ctx.seconds)
        latencies, usage = run_client(trips, client_loop)
    return round_trip_measurement(latencies, usage)


class Responder:
    """The responder process on a free loopback port, started on entering, stopped by its PID on leaving."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = None
        self.port = 0

    @property
    def pid(self) -> int:
        assert self._process is not None, "the responder is not running"
        return self._process.pid

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def __enter__(self) -> Responder:
        command = [sys.executable, "-m", "bench.suite.ceiling"]
        self._process = subprocess.Popen(command, cwd=PROJECT, stdout=subprocess.PIPE, text=True)
        line: list[str] = []
        reader = threading.Thread(target=lambda: line.append(self._first_line()), daemon=True)
        reader.start()
        reader.join(START_TIMEOUT_S)
        if not line or not line[0].strip().isdigit():
            self.__exit__()
            raise VerificationError(f"the ceiling responder did not start (it printed {line[:1]!r})")
        self.port = int(line[0])
        return self

    def _first_line(self) -> str:
        assert self._process is not None and self._process.stdout is not None
        return self._process.stdout.readline()

    def __exit__(self, *exc: object) -> None:
        process, self._process = self._process, None
        if process is not None:
            stop_process(process)


# --- the responder process ---


class _Answers:
    """Encoded answers to one connection's requests; offsets are shared by every connection."""

    def __init__(self, port: int, offsets: defaultdict[tuple[str, int], int], lock: threading.Lock) -> None:
        from rockafka.core_pyx import hotcodec as hot
        from rockafka.core_pyx.recordbatch import RECORD_COUNT_OFFSET
        from rockafka.facade.handlers.api_18_api_versions import served_api_versions
        from rockafka.facade.protocol.framing import encode_response, read_request_header

        self._hot, self._read_header, self._encode = hot, read_request_header, encode_response
        self._count_at = RECORD_COUNT_OFFSET  # a record batch's int32 record count
        self._port = port
        self._offsets, self._lock = offsets, lock
        self._api_versions = served_api_versions()

    def answer(self, frame: bytes) -> bytes | None:
        header = self._read_header(frame)
        key, version, correlation_id = header.api_key, header.api_version, header.correlation_id
        if key == PRODUCE:
            return self._produce(memoryview(frame)[header.body_offset :], version, correlation_id)
        if key == API_VERSIONS:
            return self._encode(header, self._api_versions)
        if key == METADATA:
            return self._metadata(frame, version, correlation_id)
        raise ValueError(f"the ceiling responder does not serve API {key}")

    def _produce(self, body: memoryview, version: int, correlation_id: int) -> bytes | None:
        hot, count_at = self._hot, self._count_at
        request = hot.decode_produce_request(body, version)
        topics = []
        with self._lock:
            for topic in request.topic_data:
                partitions = []
                for data in topic.partition_data:
                    records = data.records
                    count = int.from_bytes(records[count_at : count_at + 4]) if records else 0
                    base = self._offsets[(topic.name, data.partition_index)]
                    self._offsets[(topic.name, data.partition_index)] = base + count
                    partitions.append(hot.PartitionProduceResponse(data.partition_index, 0, base, -1, 0))
                topics.append(hot.TopicProduceResponse(topic.name, partitions))
        if request.acks == 0:
            return None
        return hot.encode_produce_response(version, hot.ProduceResponse(topics), correlation_id)

    def _metadata(self, frame: bytes, version: int, correlation_id: int) -> bytes:
        from rockafka.facade.protocol.framing import DecodedRequest, decode_request

        hot = self._hot
        decoded = decode_request(frame)
        if not isinstance(decoded, DecodedRequest):
            raise ValueError(f"unreadable Metadata request: {decoded.error}")
        asked = decoded.body.topics or []  # type: ignore[attr-defined]
        partitions = [hot.MetadataResponsePartition(0, index, 0, 0, [0], [0]) for index in range(PARTITIONS)]
        topics = [hot.MetadataResponseTopic(0, t.name, partitions=partitions) for t in asked]
        brokers = [hot.MetadataResponseBroker(0, "127.0.0.1", self._port)]
        response = hot.MetadataResponse(brokers=brokers, topics=topics, cluster_id="ceiling", controller_id=0)
        return hot.encode_metadata_response(version, response, correlation_id)


def _serve(connection: socket.socket, answers: _Answers) -> None:
    with connection, connection.makefile("rb", buffering=1 << 16) as incoming:
        while True:
            size = incoming.read(4)
            if len(size) < 4:
                return
            frame = incoming.read(int.from_bytes(size))
            try:
                answer = answers.answer(frame)
            except Exception as error:  # a request it cannot answer ends the connection
                print(f"ceiling responder: {error}", file=sys.stderr, flush=True)
                return
            if answer is not None:
                connection.sendall(answer)


def main() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    offsets: defaultdict[tuple[str, int], int] = defaultdict(int)
    lock = threading.Lock()
    print(port, flush=True)
    while True:
        connection, _ = server.accept()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        answers = _Answers(port, offsets, lock)
        threading.Thread(target=_serve, args=(connection, answers), daemon=True).start()


if __name__ == "__main__":
    main()
