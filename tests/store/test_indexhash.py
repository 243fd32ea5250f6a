"""The IndexFile kernel: both twins agree with each other and with a straightforward model."""

from __future__ import annotations

import struct
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.core_pyx import is_compiled, twins
from rockafka.core_pyx.crc32c import crc32c
from rockafka.core_pyx.errors import CorruptBatchError
from rockafka.core_pyx.recordbatch import RECORD_BATCH_OVERHEAD

from .helpers import build_batch

TWINS = twins("_indexhash")
SEED = crc32c(bytes(range(16)))


@pytest.fixture(params=sorted(TWINS), ids=lambda name: name)
def impl(request: pytest.FixtureRequest) -> ModuleType:
    return TWINS[request.param]


def test_compiled_twin_is_present() -> None:
    assert "compiled" in TWINS and is_compiled(TWINS["compiled"])


def _payload(keys: list[bytes | None]) -> bytes:
    return build_batch([(key, b"value") for key in keys])[RECORD_BATCH_OVERHEAD:]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(st.none(), st.binary(max_size=40)), min_size=1, max_size=12))
def test_key_hashes_are_the_distinct_masked_crcs_of_the_keys(keys: list[bytes | None]) -> None:
    expected: list[int] = []
    for key in keys:
        if key is not None and (crc32c(key, SEED) & 0x7FFFFFFF) not in expected:
            expected.append(crc32c(key, SEED) & 0x7FFFFFFF)
    for impl in TWINS.values():
        assert impl.key_hashes(_payload(keys), len(keys), SEED) == expected


@pytest.mark.parametrize("cut", [1, 5, 9])
def test_truncated_records_are_refused(impl: ModuleType, cut: int) -> None:
    payload = _payload([b"a-key", b"another"])
    with pytest.raises(CorruptBatchError):
        impl.key_hashes(payload[:-cut], 2, SEED)


def test_a_key_longer_than_its_record_is_refused(impl: ModuleType) -> None:
    payload = bytearray(_payload([b"k"]))
    # record: length, attributes, timestampDelta, offsetDelta, keyLength (zigzag 1 = 0x02) -> claim 60 bytes
    payload[4] = 120
    with pytest.raises(CorruptBatchError):
        impl.key_hashes(bytes(payload), 1, SEED)


@settings(max_examples=60, deadline=None)
@given(
    slots=st.integers(1, 4),
    writes=st.lists(st.tuples(st.lists(st.integers(0, 2**31 - 1), max_size=4), st.integers(0, 5000)), max_size=10),
)
def test_put_entries_twins_write_the_same_bytes(slots: int, writes: list[tuple[list[int], int]]) -> None:
    size = 40 + slots * 4 + 64 * 20
    buffers = {name: bytearray(size) for name in TWINS}
    counts = {name: (1, 0) for name in TWINS}
    for physical, (hashes, step) in enumerate(writes):
        for name, impl in TWINS.items():
            index_count, used = counts[name]
            written = impl.put_entries(buffers[name], slots, index_count, used, 1000, physical, 1000 + step, hashes)
            counts[name] = written
    assert len(set(counts.values())) == 1 and len({bytes(b) for b in buffers.values()}) == 1
    # every slot heads a chain of entries whose hashes fall in it, newest first
    data = bytes(buffers["pure"])
    for slot in range(slots):
        number = struct.unpack_from(">i", data, 40 + slot * 4)[0]
        seen = []
        while number:
            value, _, _, previous = struct.unpack_from(">iqii", data, 40 + slots * 4 + number * 20)
            assert value % slots == slot and (not seen or number < seen[-1])
            seen.append(number)
            number = previous


def test_put_entries_refuses_to_run_past_the_file(impl: ModuleType) -> None:
    with pytest.raises(ValueError):
        impl.put_entries(bytearray(40 + 4 + 2 * 20), 1, 1, 0, 0, 0, 0, [1, 2])
