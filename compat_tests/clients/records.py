"""The records the compat tests send, and the byte-for-byte comparison of what comes back."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

_topic_numbers = itertools.count()


def unique_topic(prefix: str) -> str:
    """A topic name no other test of this run uses (auto-created on first produce)."""
    return f"{prefix}-{next(_topic_numbers)}-{random.randrange(1 << 30):08x}"


@dataclass(frozen=True, slots=True)
class Rec:
    """One Kafka record as produced or consumed: everything a client can see of it."""

    key: bytes | None
    value: bytes | None
    headers: tuple[tuple[str, bytes], ...] = ()
    timestamp: int | None = None  # CreateTime in ms; None: the producing client stamps it
    offset: int | None = None  # set on consumed records
    partition: int = 0

    def at(self, offset: int, timestamp: int | None = None) -> Rec:
        return replace(self, offset=offset, timestamp=self.timestamp if timestamp is None else timestamp)


def sample_records(
    count: int,
    *,
    seed: int,
    base_timestamp: int | None = None,
    printable: bool = False,
    nulls: bool = True,
) -> list[Rec]:
    """``count`` varied records: null and empty keys and values, binary bytes, repeated and unicode
    header keys. With ``base_timestamp`` record i carries ``base_timestamp + 10 * i``. ``printable``
    keeps keys, values and header values to ASCII letters (for kcat's text interface); ``nulls=False``
    leaves out null keys and values (for clients that cannot send them)."""
    rng = random.Random(seed)

    def blob(low: int, high: int) -> bytes:
        size = rng.randint(low, high)
        if printable:
            return "".join(
                rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(size)
            ).encode()
        return rng.randbytes(size)

    records: list[Rec] = []
    for i in range(count):
        key: bytes | None = blob(1, 24)
        value: bytes | None = blob(1, 300)
        headers: tuple[tuple[str, bytes], ...] = ()
        shape = i % 5
        if shape == 0 and nulls:
            key = None
        elif shape == 1:
            value = b"" if not printable else value
            headers = (("trace-id", blob(1, 16)), ("trace-id", blob(0, 3) or b"x"))
        elif shape == 2 and nulls:
            value = None
        elif shape == 3:
            headers = (("clé-ü", blob(1, 40)), ("empty", b"" if not printable else b"e"))
        timestamp = None if base_timestamp is None else base_timestamp + 10 * i
        records.append(Rec(key, value, headers, timestamp))
    return records


def assert_records(
    expected: Sequence[Rec],
    got: Sequence[Rec],
    *,
    first_offset: int,
    stamped_between: tuple[int, int] | None = None,
    check_headers: bool = True,
) -> None:
    """``got`` are ``expected`` in order at consecutive offsets from ``first_offset``, byte for byte.

    Records produced without a timestamp must carry one inside ``stamped_between`` (ms, inclusive).
    """
    assert len(got) == len(expected), f"expected {len(expected)} records, got {len(got)}: {got[:3]}..."
    for index, (want, have) in enumerate(zip(expected, got, strict=True)):
        where = f"record {index} (offset {first_offset + index})"
        assert have.offset == first_offset + index, f"{where}: offset {have.offset}"
        assert have.key == want.key, f"{where}: key {have.key!r} != {want.key!r}"
        assert have.value == want.value, f"{where}: value {_short(have.value)} != {_short(want.value)}"
        if check_headers:
            assert have.headers == want.headers, f"{where}: headers {have.headers} != {want.headers}"
        if want.timestamp is not None:
            assert have.timestamp == want.timestamp, f"{where}: timestamp {have.timestamp} != {want.timestamp}"
        else:
            assert stamped_between is not None, "records without timestamps need a window to check against"
            low, high = stamped_between
            assert have.timestamp is not None and low <= have.timestamp <= high, (
                f"{where}: timestamp {have.timestamp} outside [{low}, {high}]"
            )


def _short(value: bytes | None) -> str:
    if value is None or len(value) <= 40:
        return repr(value)
    return f"<{len(value)} bytes {value[:16]!r}...>"
