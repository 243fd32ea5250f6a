"""The soak's clients (``bench.soak``): a paced producer, a reader that checks every message and takes its
latency, and a churning consumer group with a member that is killed rather than closed. All of them are
librdkafka (confluent-kafka) clients in threads of the soak's process, except the killed member, which
runs in a child process so that it can die without a word to the broker.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, Message, Producer, TopicPartition

from bench.suite.payload import FILLERS, Ledger, Payloads, VerificationError

CONSUMER_SETTINGS = {"enable.auto.commit": False, "auto.offset.reset": "earliest", "enable.partition.eof": False}
MEMBER_SETTINGS = {
    "enable.auto.commit": True,
    "auto.commit.interval.ms": 1000,
    "fetch.wait.max.ms": 100,
    "session.timeout.ms": 6000,
    "heartbeat.interval.ms": 1000,
}


def consumer(bootstrap: str, **settings: object) -> Consumer:
    return Consumer(
        {"bootstrap.servers": bootstrap, "group.id": f"soak-{uuid.uuid4().hex[:8]}", **CONSUMER_SETTINGS, **settings}
    )


class Sender(threading.Thread):
    """Sends ``rate`` stamped messages a second until stopped (or out of sequence numbers)."""

    def __init__(
        self, bootstrap: str, topic: str, payloads: Payloads, rate: int, partitions: int, capacity: int
    ) -> None:
        super().__init__(daemon=True, name="soak-producer")
        self.client = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 2})
        self.topic, self.payloads = topic, payloads
        self.rate, self.partitions, self.capacity = rate, partitions, capacity
        self.sent = 0
        self.failures = 0
        self.stopping = threading.Event()

    def _delivered(self, error: KafkaError | None, _message: Message) -> None:
        if error is not None:
            self.failures += 1

    def run(self) -> None:
        start = time.monotonic()
        partitions, capacity = self.partitions, self.capacity
        while not self.stopping.is_set() and self.sent < capacity:
            due = min(capacity, int((time.monotonic() - start) * self.rate))
            while self.sent < due:
                seq = self.sent
                value = self.payloads.stamped(seq, time.perf_counter_ns())
                try:
                    self.client.produce(self.topic, value, partition=seq % partitions, on_delivery=self._delivered)
                except BufferError:
                    self.client.poll(0.05)
                    continue
                self.sent += 1
            self.client.poll(0.005)
        self.client.flush(60)


class Reader(threading.Thread):
    """Reads every partition from the start: each message once, in order, intact; notes its latency."""

    def __init__(self, bootstrap: str, topic: str, ledger: Ledger) -> None:
        super().__init__(daemon=True, name="soak-reader")
        self.client = consumer(bootstrap, **{"fetch.wait.max.ms": 100})
        self.client.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(ledger.partitions)])
        self.ledger = ledger
        self.latencies_ns: list[int] = []
        self.error = ""
        self.stopping = threading.Event()

    def take_latencies(self) -> list[int]:
        taken, self.latencies_ns = self.latencies_ns, []
        return taken

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                message = self.client.poll(0.05)  # one at a time: a batch call would hold early arrivals
                if message is None:
                    continue
                arrived = time.perf_counter_ns()
                if message.error() is not None:
                    raise VerificationError(f"reader: {message.error()}")
                value = message.value() or b""
                self.ledger.add(message.partition(), message.offset(), value)
                self.latencies_ns.append(arrived - int.from_bytes(value[8:16], "big"))
        except (VerificationError, ValueError) as error:
            self.error = str(error)
        finally:
            self.client.close()


@dataclass(slots=True)
class GroupTally:
    """What the churning group saw: each sequence number at least once, each value intact."""

    payloads: Payloads
    partitions: int
    seen: bytearray
    distinct: int = 0
    redelivered: int = 0
    assignments: int = 0
    damaged: list[str] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, partition: int, value: bytes) -> None:
        seq = int.from_bytes(value[:8], "big")
        fill = self.payloads.fill[seq % FILLERS]
        with self.lock:
            if (
                len(value) != self.payloads.value_size
                or seq >= len(self.seen)
                or seq % self.partitions != partition
                or value[self.payloads.header_size :] != fill
            ):
                self.damaged.append(f"p{partition}: seq {seq}, {len(value)} bytes")
            elif self.seen[seq]:
                self.redelivered += 1
            else:
                self.seen[seq] = 1
                self.distinct += 1

    def error(self, text: str) -> None:
        with self.lock:
            self.errors[text] = self.errors.get(text, 0) + 1


class Member(threading.Thread):
    """One group member: subscribes, consumes until told to leave, then closes (LeaveGroup)."""

    def __init__(self, bootstrap: str, topic: str, group: str, tally: GroupTally, number: int) -> None:
        super().__init__(daemon=True, name=f"soak-member-{number}")
        self.client = consumer(bootstrap, **{"group.id": group, **MEMBER_SETTINGS})
        self.topic, self.tally = topic, tally
        self.leaving = threading.Event()

    def _assigned(self, _client: object, _partitions: list[TopicPartition]) -> None:
        with self.tally.lock:
            self.tally.assignments += 1

    def run(self) -> None:
        try:
            self.client.subscribe([self.topic], on_assign=self._assigned)
            while not self.leaving.is_set():
                for message in self.client.consume(500, 0.1):
                    error = message.error()
                    if error is not None:
                        self.tally.error(str(error))
                    else:
                        self.tally.add(message.partition() or 0, message.value() or b"")
        finally:
            self.client.close()


#: A group member in a child process that consumes without committing until it is killed (SIGKILL: no
#: LeaveGroup, no close). What it consumed is redelivered to the others after its session expires.
GHOST = """
import json, sys, time
from confluent_kafka import Consumer
consumer = Consumer(json.loads(sys.argv[1]))
consumer.subscribe([sys.argv[2]])
deadline = time.monotonic() + 3600
while time.monotonic() < deadline:
    consumer.poll(0.1)
"""


class Group:
    """The churning group: ``replace()`` sends the oldest member away (LeaveGroup) and brings in a new
    one; every second time it also kills the ghost member's process (SIGKILL) and starts another."""

    def __init__(self, bootstrap: str, topic: str, tally: GroupTally, size: int) -> None:
        self.bootstrap, self.topic, self.tally = bootstrap, topic, tally
        self.name = f"soak-{topic}"
        self.started = 0
        self.members: list[Member] = []
        self.departed: list[Member] = []
        self.ghost: subprocess.Popen[bytes] | None = None
        self.kills = 0
        for _ in range(size):
            self._join()

    def _join(self) -> None:
        member = Member(self.bootstrap, self.topic, self.name, self.tally, self.started)
        self.started += 1
        member.start()
        self.members.append(member)

    def replace(self) -> None:
        leaving = self.members.pop(0)
        leaving.leaving.set()
        self.departed.append(leaving)
        self._join()
        if self.churns % 2 == 1:
            self.kill_ghost()
            settings = {"bootstrap.servers": self.bootstrap, "group.id": self.name, **MEMBER_SETTINGS}
            settings["enable.auto.commit"] = False
            command = [sys.executable, "-c", GHOST, json.dumps(settings), self.topic]
            self.ghost = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def kill_ghost(self) -> None:
        if self.ghost is not None and self.ghost.poll() is None:
            self.ghost.kill()
            self.ghost.wait(30)
            self.kills += 1
        self.ghost = None

    @property
    def churns(self) -> int:
        return len(self.departed)

    def stop(self) -> None:
        self.kill_ghost()
        for member in self.members + self.departed:
            member.leaving.set()
        for member in self.members + self.departed:
            member.join(30)
