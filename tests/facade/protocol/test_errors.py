"""Kafka's error codes and the codec's error family."""

from __future__ import annotations

import pytest

from rockafka.facade import protocol
from rockafka.facade.protocol import ErrorCode


def test_codes_are_kafkas_contiguous_list() -> None:
    assert [code.value for code in ErrorCode] == list(range(-1, 129))
    assert ErrorCode.INVALID_REGULAR_EXPRESSION == 128  # Kafka 4.0, KIP-848's broker-side regex subscriptions
    assert ErrorCode.NONE == 0 and ErrorCode.UNKNOWN_SERVER_ERROR == -1
    assert (ErrorCode.UNSUPPORTED_VERSION, ErrorCode.INVALID_REQUEST, ErrorCode.MEMBER_ID_REQUIRED) == (35, 42, 79)
    assert ErrorCode(6).name == "NOT_LEADER_OR_FOLLOWER"


@pytest.mark.parametrize(
    ("code", "retriable"),
    [
        (ErrorCode.NONE, False),
        (ErrorCode.CORRUPT_MESSAGE, True),
        (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, True),
        (ErrorCode.NOT_LEADER_OR_FOLLOWER, True),
        (ErrorCode.NOT_COORDINATOR, True),
        (ErrorCode.REBALANCE_IN_PROGRESS, False),
        (ErrorCode.UNSUPPORTED_VERSION, False),
        (ErrorCode.CONCURRENT_TRANSACTIONS, True),
        (ErrorCode.UNKNOWN_TOPIC_ID, True),
        (ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, False),
    ],
)
def test_retriable_flags(code: ErrorCode, retriable: bool) -> None:
    assert code.retriable is retriable


def test_unknown_codes_map_to_unknown_server_error() -> None:
    assert ErrorCode.of(3) is ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    assert ErrorCode.of(5000) is ErrorCode.UNKNOWN_SERVER_ERROR


def test_one_family_with_error_codes() -> None:
    family = [
        protocol.DecodeError,
        protocol.EncodeError,
        protocol.UnknownApiKeyError,
        protocol.UnsupportedVersionError,
        protocol.FrameError,
        protocol.TruncatedFrameError,
        protocol.NegativeFrameLengthError,
        protocol.FrameTooLargeError,
        protocol.MalformedHeaderError,
    ]
    for error in family:
        assert issubclass(error, protocol.ProtocolError)
        assert isinstance(error.error_code, ErrorCode)
    assert protocol.UnsupportedVersionError("X", 9, 0, 4).error_code == ErrorCode.UNSUPPORTED_VERSION
    assert protocol.UnknownApiKeyError(99).api_key == 99
    assert protocol.DecodeError("x").error_code == ErrorCode.INVALID_REQUEST
