"""ReusableDecompressor: the same bytes as ``decompress`` for every codec, through one reused output buffer."""

from __future__ import annotations

import gzip
import os

import cramjam
import pytest

from rockafka.core_pyx.compression import (
    CODEC_GZIP,
    CODEC_LZ4,
    CODEC_NONE,
    CODEC_SNAPPY,
    CODEC_ZSTD,
    ReusableDecompressor,
    decompress,
)
from rockafka.core_pyx.errors import CorruptBatchError, InvalidBatchError

PLAIN = (os.urandom(200) + b"record " * 50) * 40


def compressed(codec: int, data: bytes) -> bytes:
    if codec == CODEC_GZIP:
        return gzip.compress(data)
    if codec == CODEC_SNAPPY:
        return bytes(cramjam.snappy.compress_raw(data))
    if codec == CODEC_LZ4:
        return bytes(cramjam.lz4.compress(data))
    return bytes(cramjam.zstd.compress(data))


@pytest.mark.parametrize("codec", [CODEC_GZIP, CODEC_SNAPPY, CODEC_LZ4, CODEC_ZSTD])
def test_same_bytes_as_decompress(codec: int) -> None:
    reusable = ReusableDecompressor(initial_size=1024)  # smaller than the output: grows once
    payload = compressed(codec, PLAIN)
    for _ in range(3):
        assert bytes(reusable.decompress(codec, payload)) == decompress(codec, payload) == PLAIN


@pytest.mark.parametrize("codec", [CODEC_LZ4, CODEC_ZSTD])
def test_the_output_buffer_is_reused_and_grows_for_a_larger_batch(codec: int) -> None:
    reusable = ReusableDecompressor(initial_size=len(PLAIN))
    first = reusable.decompress(codec, compressed(codec, b"a" * 1000))
    second = reusable.decompress(codec, compressed(codec, b"b" * 1000))
    assert isinstance(first, memoryview) and isinstance(second, memoryview)
    assert first.obj is second.obj  # the same buffer: the first output is overwritten, as documented
    assert bytes(second) == b"b" * 1000
    bigger = PLAIN * 3
    assert bytes(reusable.decompress(codec, compressed(codec, bigger))) == bigger  # too small: plain path
    grown = reusable.decompress(codec, compressed(codec, bigger))
    assert bytes(grown) == bigger and isinstance(grown, memoryview)
    assert grown.obj is not first.obj  # replaced, never resized: a caller's live view raises no BufferError


@pytest.mark.parametrize("codec", [CODEC_GZIP, CODEC_SNAPPY, CODEC_LZ4, CODEC_ZSTD])
def test_damage_is_corrupt_batch(codec: int) -> None:
    damaged = compressed(codec, PLAIN)[:40] + b"\x00" * 40
    with pytest.raises(CorruptBatchError, match="cannot decompress"):
        ReusableDecompressor().decompress(codec, damaged)


def test_unknown_codec_and_no_codec() -> None:
    reusable = ReusableDecompressor()
    with pytest.raises(InvalidBatchError, match="unknown"):
        reusable.decompress(6, b"xx")
    assert bytes(reusable.decompress(CODEC_NONE, b"as is")) == b"as is"
