"""CRC-32C: both twins agree with the published check value and with each other."""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rockafka.core_pyx import is_compiled, twins

TWINS = twins("_crc32c")


@pytest.fixture(params=sorted(TWINS), ids=lambda name: name)
def impl(request: pytest.FixtureRequest) -> ModuleType:
    return TWINS[request.param]


def test_compiled_twin_is_present() -> None:
    assert "compiled" in TWINS and is_compiled(TWINS["compiled"])


def test_check_value(impl: ModuleType) -> None:
    # The CRC-32C check value of the ASCII digits 1..9 (RFC 3720, iSCSI).
    assert impl.crc32c(b"123456789") == 0xE3069283


def test_empty_input_keeps_the_running_value(impl: ModuleType) -> None:
    assert impl.crc32c(b"") == 0
    assert impl.crc32c(b"", 0x1234) == 0x1234


@given(st.binary(max_size=300), st.integers(min_value=0, max_value=300))
def test_twins_agree_and_chain(data: bytes, cut: int) -> None:
    cut = min(cut, len(data))
    compiled, pure = TWINS["compiled"], TWINS["pure"]
    whole = pure.crc32c(data)
    assert compiled.crc32c(data) == whole
    assert compiled.crc32c(data[cut:], compiled.crc32c(data[:cut])) == whole
    assert compiled.crc32c(memoryview(bytearray(data))) == whole
