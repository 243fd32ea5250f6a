"""The offset-map kernel, both twins: a compaction pass's key -> latest offset map, bounded in bytes, and the
records of a batch a pass keeps, checked against a dict of latest offsets over batches real clients built."""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.core_pyx import twins
from rockafka.core_pyx._offsetmap_py import footprint, slots
from rockafka.core_pyx.compression import decompress
from rockafka.core_pyx.errors import CorruptBatchError
from rockafka.core_pyx.recordbatch import RECORD_BATCH_OVERHEAD, read_batch_header
from rockafka.core_pyx.records import decode_records

from .batches import BUILDERS, CODECS, Rec, kafka_python_batch

TWINS = twins("_offsetmap")
BUDGET = 1 << 20


@pytest.fixture(params=sorted(TWINS), ids=lambda name: name)
def kernel(request: pytest.FixtureRequest) -> ModuleType:
    return TWINS[request.param]


def test_both_twins_are_here() -> None:
    assert sorted(TWINS) == ["compiled", "pure"]


def payload_of(batch: bytes) -> bytes:
    header = read_batch_header(batch)
    body = batch[RECORD_BATCH_OVERHEAD : header.size]
    return decompress(header.compression, body) if header.compression else body


def keyed(keys: list[bytes | None], values: list[bytes | None] | None = None) -> list[Rec]:
    values = values if values is not None else [b"v-%d" % i for i in range(len(keys))]
    return [Rec(key, value, [], 1_000 + i * 7) for i, (key, value) in enumerate(zip(keys, values, strict=True))]


def test_the_latest_offset_of_each_key_wins(kernel: ModuleType) -> None:
    offsets = kernel.OffsetMap(BUDGET)
    assert offsets.add(payload_of(kafka_python_batch(0, keyed([b"a", b"b", None, b"a"]))), 4, 100)
    assert offsets.add(payload_of(kafka_python_batch(0, keyed([b"b", b""]))), 2, 104)
    assert len(offsets) == 3
    assert (offsets.get(b"a"), offsets.get(b"b"), offsets.get(b""), offsets.get(b"zz")) == (103, 104, 105, None)


@pytest.mark.parametrize("codec", sorted(CODECS.values()), ids=sorted(CODECS, key=CODECS.__getitem__))
@pytest.mark.parametrize("client", sorted(BUILDERS))
def test_select_keeps_each_keys_last_record_as_stored(kernel: ModuleType, client: str, codec: int) -> None:
    x, y, z, w = (letter * 300 for letter in (b"x", b"y", b"z", b"w"))  # large enough to be compressed
    records = keyed([b"k1", b"k2", b"k1", None, b"k3", b"k2"], [x, None, y, z, None, w])
    batch = BUILDERS[client](codec, records)
    header = read_batch_header(batch)
    payload = payload_of(batch)
    offsets = kernel.OffsetMap(BUDGET)
    offsets.add(payload, 6, 50)
    selection = offsets.select(payload, 6, 50, False)
    kept = decode_records(selection.records, selection.kept, 50, header.base_timestamp)
    assert [(r.offset, r.key, r.value, r.timestamp) for r in kept] == [
        (52, b"k1", y, 1_014),
        (54, b"k3", None, 1_028),
        (55, b"k2", w, 1_035),
    ]
    assert (selection.kept, selection.tombstones) == (3, 1)
    assert header.base_timestamp + selection.max_timestamp_delta == 1_035
    dropped = offsets.select(payload, 6, 50, True)
    assert [r.key for r in decode_records(dropped.records, dropped.kept, 50, 0)] == [b"k1", b"k2"]


def test_keys_the_map_does_not_hold_are_kept(kernel: ModuleType) -> None:
    """The cleaned part before the map's range: a key the dirty part never wrote again stays."""
    offsets = kernel.OffsetMap(BUDGET)
    offsets.add(payload_of(kafka_python_batch(0, keyed([b"new"]))), 1, 10)
    clean = payload_of(kafka_python_batch(0, keyed([b"old", b"new"])))
    selection = offsets.select(clean, 2, 0, False)
    assert [r.key for r in decode_records(selection.records, selection.kept, 0, 0)] == [b"old"]


def test_a_batch_that_may_not_fit_is_refused_whole_unless_forced(kernel: ModuleType) -> None:
    budget = footprint(0, 0) + 100
    offsets = kernel.OffsetMap(budget)
    first = payload_of(kafka_python_batch(0, keyed([b"key-%03d" % i for i in range(5)])))
    assert offsets.add(first, 5, 0)
    assert offsets.footprint == footprint(5, 35) <= budget
    second = payload_of(kafka_python_batch(0, keyed([b"key-%03d" % i for i in range(5, 10)])))
    assert footprint(10, 35 + len(second)) > budget
    assert not offsets.add(second, 5, 5)
    assert (len(offsets), offsets.get(b"key-005")) == (5, None)
    assert offsets.add(second, 5, 5, force=True)
    assert (len(offsets), offsets.get(b"key-009")) == (10, 9)


def test_the_table_grows_past_its_first_slots(kernel: ModuleType) -> None:
    offsets = kernel.OffsetMap(64 << 20)
    count = slots(0)  # twice what the first table holds at half load
    for first in range(0, count, 100):
        keys = [b"k%d" % i for i in range(first, min(first + 100, count))]
        assert offsets.add(payload_of(kafka_python_batch(0, keyed(keys))), len(keys), first)
    assert len(offsets) == count
    assert all(offsets.get(b"k%d" % i) == i for i in range(count))
    assert offsets.footprint == footprint(count, sum(len(b"k%d" % i) for i in range(count)))


def test_too_small_a_budget_is_refused(kernel: ModuleType) -> None:
    with pytest.raises(ValueError, match="at least"):
        kernel.OffsetMap(footprint(0, 0) - 1)


@pytest.mark.parametrize(
    ("payload", "count"),
    [
        (b"\x7f", 1),  # a record length past the payload
        (b"\x0c\x00\x00\x00\x7f\x01\x02", 1),  # a key longer than its record
        (b"\x08\x00\x00\x00\x00\x7f", 1),  # a value longer than its record
        (b"\x08\x00\x00\x00\x00\x01\x00\x00", 1),  # a byte after the one record
        (b"\x80\x80\x80\x80\x80\x80", 1),  # a varint too long
    ],
)
def test_a_damaged_payload_raises(kernel: ModuleType, payload: bytes, count: int) -> None:
    offsets = kernel.OffsetMap(BUDGET)
    with pytest.raises(CorruptBatchError):
        offsets.add(payload, count, 0)
    with pytest.raises(CorruptBatchError):
        offsets.select(payload, count, 0, False)


KEYS = st.one_of(st.none(), st.sampled_from([b"a", b"b", b"c", b"", b"long-key-" * 20]))
VALUES = st.one_of(st.none(), st.binary(max_size=20))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(KEYS, VALUES), min_size=1, max_size=8), min_size=1, max_size=6), st.booleans())
def test_twins_agree_with_a_dict_of_latest_offsets(
    batches: list[list[tuple[bytes | None, bytes | None]]], drop: bool
) -> None:
    payloads, latest, base = [], {}, 0
    for records in batches:
        keys, values = [key for key, _ in records], [value for _, value in records]
        payloads.append((payload_of(kafka_python_batch(0, keyed(keys, values))), len(records), base))
        for delta, key in enumerate(keys):
            if key is not None:
                latest[key] = base + delta
        base += len(records) + 3
    selections = {}
    for name, twin in TWINS.items():
        offsets = twin.OffsetMap(BUDGET)
        for payload, count, first in payloads:
            assert offsets.add(payload, count, first)
        assert {key: offsets.get(key) for key in latest} == latest
        selections[name] = [offsets.select(payload, count, first, drop) for payload, count, first in payloads]
        for (payload, count, first), selection in zip(payloads, selections[name], strict=True):
            expected = [
                r for r in decode_records(payload, count, first, 0)
                if r.key is not None and latest[r.key] == r.offset and not (drop and r.value is None)
            ]  # fmt: skip
            assert decode_records(selection.records, selection.kept, first, 0) == expected
    assert selections["pure"] == selections["compiled"]
