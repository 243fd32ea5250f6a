"""Messages whose value says what it must be, and the check that every one came back once, in order, intact.

A value is ``seq`` (8 bytes, big-endian; in latency runs then the send time, 8 bytes) followed by a
filler chosen by ``seq`` from a fixed set of word-like texts (mildly compressible, like real payloads),
so the whole value is known from its first 8 bytes. Producers send ``seq`` to partition
``seq % partitions``; within a partition the seqs therefore rise and the offsets run 0, 1, 2, ... on a
fresh topic. :class:`Ledger` checks exactly that: no message missing, none twice, none out of place,
every byte as sent.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

FILLERS = 61
_VOCABULARY = (
    "broker commit log segment offset partition replica leader fetch produce batch record header key value "
    "topic consumer group member assignment heartbeat session index queue flush page cache memory disk"
)
WORDS = tuple(_VOCABULARY.split())


def fillers(value_size: int, header_size: int = 8) -> tuple[bytes, ...]:
    """``FILLERS`` distinct fillers of ``value_size - header_size`` bytes (same for every run and broker)."""
    rng = random.Random(value_size)
    size = value_size - header_size
    out = []
    for _ in range(FILLERS):
        text = " ".join(rng.choice(WORDS) for _ in range(size // 3 + 2)).encode()
        out.append(text[:size])
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Payloads:
    """The values of one run: ``value(seq)`` is what the producer sends for message ``seq``."""

    value_size: int
    header_size: int
    fill: tuple[bytes, ...]

    @classmethod
    def of(cls, value_size: int, *, stamped: bool = False) -> Payloads:
        """Plain values carry ``seq``; stamped ones carry ``seq`` and a send time (8 bytes, ns) after it."""
        header_size = 16 if stamped else 8
        return cls(value_size, header_size, fillers(value_size, header_size))

    def value(self, seq: int) -> bytes:
        return seq.to_bytes(8, "big") + self.fill[seq % FILLERS]

    def stamped(self, seq: int, sent_ns: int) -> bytes:
        return seq.to_bytes(8, "big") + sent_ns.to_bytes(8, "big") + self.fill[seq % FILLERS]


class VerificationError(Exception):
    """What was read back is not what was sent: the measurement does not count."""


@dataclass(slots=True)
class Ledger:
    """Checks a read-back of messages ``0 .. expected-1`` spread ``seq % partitions`` over a fresh topic."""

    payloads: Payloads
    expected: int
    partitions: int
    seen: bytearray = field(init=False)
    next_offset: list[int] = field(init=False)
    last_seq: list[int] = field(init=False)
    count: int = 0

    sent: list[list[bytes]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.seen = bytearray(self.expected)
        self.next_offset = [0] * self.partitions
        self.last_seq = [-1] * self.partitions

    def keep_sent(self) -> None:
        """Build every value sent, by partition and offset, for :meth:`add_run` (and :meth:`sent_value`)."""
        value, count, partitions = self.payloads.value, self.expected, self.partitions
        self.sent = [[value(seq) for seq in range(partition, count, partitions)] for partition in range(partitions)]

    def sent_value(self, seq: int) -> bytes:
        """The value of message ``seq``, as kept by :meth:`keep_sent`."""
        return self.sent[seq % self.partitions][seq // self.partitions]

    def add_run(self, partition: int | None, offsets: list[int | None], values: list[bytes | None]) -> None:
        """Messages read back one after another from one partition: the same check as :meth:`add` for each,
        done as two list comparisons (offsets against the next ones due, values against those sent there),
        so that checking costs the reading client little per message. Needs :meth:`keep_sent` first."""
        if partition is None or not 0 <= partition < self.partitions:
            raise VerificationError(f"a message from partition {partition} of a {self.partitions}-partition topic")
        start = self.next_offset[partition]
        end = start + len(values)
        if offsets != list(range(start, end)) or values != self.sent[partition][start:end]:
            self._explain(partition, offsets, values)
        self.seen[start * self.partitions + partition : end * self.partitions + partition : self.partitions] = b"\1" * (
            end - start
        )
        self.next_offset[partition] = end
        self.last_seq[partition] = (end - 1) * self.partitions + partition
        self.count += end - start

    def _explain(self, partition: int, offsets: list[int | None], values: list[bytes | None]) -> None:
        """Raise for the first message of a run that :meth:`add_run` refused, saying what is wrong with it."""
        for offset, value in zip(offsets, values, strict=True):
            self.add(partition, offset, value)  # raises for most faults; the rest is a seq out of its place
            seq = int.from_bytes((value or b"")[:8], "big")
            due = (offset or 0) * self.partitions + partition
            if seq != due:
                raise VerificationError(f"p{partition}@{offset}: seq {seq} where {due} was sent")
        raise VerificationError(f"p{partition}: a run of {len(values)} messages differs from what was sent")

    def add(self, partition: int | None, offset: int | None, value: bytes | None) -> None:
        """One message read back; raises :class:`VerificationError` at the first thing wrong."""
        if partition is None or offset is None:
            raise VerificationError("a message without partition or offset")
        if value is None or len(value) != self.payloads.value_size:
            raise VerificationError(f"p{partition}@{offset}: value of {None if value is None else len(value)} bytes")
        seq = int.from_bytes(value[:8], "big")
        if seq >= self.expected:
            raise VerificationError(f"p{partition}@{offset}: seq {seq} was never sent (sent {self.expected})")
        if self.seen[seq]:
            raise VerificationError(f"p{partition}@{offset}: seq {seq} read twice")
        if seq % self.partitions != partition:
            raise VerificationError(f"p{partition}@{offset}: seq {seq} belongs to partition {seq % self.partitions}")
        if offset != self.next_offset[partition]:
            raise VerificationError(f"p{partition}: offset {offset} where {self.next_offset[partition]} was next")
        if seq <= self.last_seq[partition]:
            raise VerificationError(f"p{partition}@{offset}: seq {seq} after {self.last_seq[partition]}")
        if value[self.payloads.header_size :] != self.payloads.fill[seq % FILLERS]:
            raise VerificationError(f"p{partition}@{offset}: seq {seq} content differs from what was sent")
        self.seen[seq] = 1
        self.next_offset[partition] = offset + 1
        self.last_seq[partition] = seq
        self.count += 1

    @property
    def complete(self) -> bool:
        return self.count == self.expected

    def missing(self) -> str:
        """A short account of what has not been read back."""
        lost = self.expected - self.count
        first = self.seen.find(0)
        return f"{lost} of {self.expected} messages not read back (first missing seq {first})"
