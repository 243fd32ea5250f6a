"""walk_records, both twins: the produce path's allocation-free walk agrees with the full
decoder (count, and the least and greatest timestamp deltas) and refuses what it refuses."""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.core_pyx import twins
from rockafka.core_pyx.compression import decompress
from rockafka.core_pyx.errors import CorruptBatchError
from rockafka.core_pyx.recordbatch import read_batch_header

from .batches import BUILDERS, CODECS, Rec, kafka_python_batch, sample_records

TWINS = twins("_records")


@pytest.fixture(params=sorted(TWINS), ids=lambda name: name)
def rec(request: pytest.FixtureRequest) -> ModuleType:
    return TWINS[request.param]


def payload_of(batch: bytes) -> bytes:
    header = read_batch_header(batch)
    body = batch[61 : header.size]
    return decompress(header.compression, body) if header.compression else body


@pytest.mark.parametrize("codec", sorted(CODECS.values()), ids=sorted(CODECS, key=CODECS.__getitem__))
@pytest.mark.parametrize("client", sorted(BUILDERS))
def test_counts_real_client_batches(rec: ModuleType, client: str, codec: int) -> None:
    records = sample_records(17, value_size=50)
    batch = BUILDERS[client](codec, records)
    assert rec.walk_records(payload_of(batch))[0] == 17
    assert rec.walk_records(payload_of(batch))[0] == len(rec.decode_records(payload_of(batch), 17, 0, 0))


@pytest.mark.parametrize("codec", sorted(CODECS.values()), ids=sorted(CODECS, key=CODECS.__getitem__))
@pytest.mark.parametrize("client", sorted(BUILDERS))
def test_walk_gives_the_timestamp_deltas_the_decoder_gives(rec: ModuleType, client: str, codec: int) -> None:
    stamps = [1_700_000_000_500, 1_700_000_000_000, 1_700_000_009_000, 1_700_000_000_100]  # the first is not least
    records = [r._replace(timestamp=t) for r, t in zip(sample_records(4, value_size=20), stamps, strict=True)]
    batch = BUILDERS[client](codec, records)
    base = read_batch_header(batch).base_timestamp
    decoded = [r.timestamp - base for r in rec.decode_records(payload_of(batch), 4, 0, base)]
    assert rec.walk_records(payload_of(batch)) == (4, min(decoded), max(decoded))
    assert (min(decoded), max(decoded)) == (min(stamps) - base, max(stamps) - base)


def test_empty_payload_has_no_records(rec: ModuleType) -> None:
    assert rec.walk_records(b"") == (0, 0, 0)


def test_every_truncation_is_refused(rec: ModuleType) -> None:
    payload = payload_of(kafka_python_batch(0, sample_records(3, value_size=10)))
    boundaries = set()
    for cut in range(len(payload)):
        try:
            boundaries.add((cut, rec.walk_records(payload[:cut])[0]))
        except CorruptBatchError:
            continue
    # Only cuts on record boundaries read as fewer, whole records.
    assert {count for _, count in boundaries} <= {0, 1, 2}
    assert len(boundaries) == 3


def test_wrong_offset_delta_and_trailing_bytes_are_refused(rec: ModuleType) -> None:
    one = payload_of(kafka_python_batch(0, [Rec(b"k", b"v", [], 1_700_000_000_000)]))
    with pytest.raises(CorruptBatchError, match="offset delta"):
        rec.walk_records(one + one)[0]  # the second record says offset delta 0 again
    longer = bytearray(one)
    longer[0] += 2  # zigzag: length one larger
    with pytest.raises(CorruptBatchError):
        rec.walk_records(bytes(longer) + b"\x00")[0]


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=64))
def test_twins_agree_on_garbage(data: bytes) -> None:
    outcomes = []
    for twin in TWINS.values():
        try:
            outcomes.append(twin.walk_records(data))
        except CorruptBatchError:
            outcomes.append("corrupt")
    assert len(set(outcomes)) == 1
