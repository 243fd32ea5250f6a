"""What every client driver offers, and where a consumer starts."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from .records import Rec

Acks = Literal[0, 1, -1]
CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
TIMEOUT_S = 20.0  # the longest any one client operation may take before the test fails


@dataclass(frozen=True, slots=True)
class Start:
    """Where a manually assigned consumer starts: ``earliest``, ``latest``, the first record at or after
    ``time`` (ms), or ``offset``."""

    kind: Literal["earliest", "latest", "time", "offset"]
    value: int = 0


EARLIEST = Start("earliest")
LATEST = Start("latest")


def at_time(timestamp_ms: int) -> Start:
    return Start("time", timestamp_ms)


def at_offset(offset: int) -> Start:
    return Start("offset", offset)


class Driver(Protocol):
    """One client, made to produce and consume the same way as every other."""

    name: str
    codecs: tuple[str, ...]  # the codecs this client can produce with
    stamps_records: bool  # the client can give each record its own CreateTime
    sends_nulls: bool  # the client can send null keys and values
    printable_only: bool  # keys and values go through a text interface
    no_offset_is_end: bool  # offsets-for-times past the last record gives the end offset, not "none"

    def produce(
        self,
        bootstrap: str,
        topic: str,
        records: Sequence[Rec],
        *,
        acks: Acks,
        codec: str = "none",
        settings: Mapping[str, object] | None = None,
    ) -> list[int]:
        """Send ``records`` (to each one's partition) and wait for them; their offsets, or [] for acks=0."""
        ...

    def consume(
        self,
        bootstrap: str,
        topic: str,
        partition: int,
        start: Start,
        count: int,
        *,
        then: Callable[[], None] | None = None,
        settings: Mapping[str, object] | None = None,
    ) -> list[Rec]:
        """Assign ``partition`` (no group), position at ``start``, call ``then`` once positioned, and
        return the first ``count`` records read (fewer if they do not come within the timeout)."""
        ...

    def offset_for_time(self, bootstrap: str, topic: str, partition: int, timestamp_ms: int) -> int | None:
        """The client's own offsets-for-times lookup: the first offset at or after the time, or None."""
        ...

    def partition_count(self, bootstrap: str, topic: str) -> int:
        """How many partitions the client's metadata shows for ``topic``."""
        ...
