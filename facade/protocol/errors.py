"""The one error family of the protocol codec: :class:`ProtocolError` and its subclasses.

Each class carries the Kafka :class:`ErrorCode` a server answers with when the error concerns one
request. Frame errors (:class:`FrameError` and below) leave no request to answer: the connection is
closed. The compiled kernels raise their own family (``rockafka.core_pyx.errors``); the codec
translates those once, in :mod:`rockafka.facade.protocol.framing`.
"""

from __future__ import annotations

from typing import ClassVar

from .error_codes import ErrorCode


class ProtocolError(Exception):
    """Base of every error the protocol codec raises."""

    error_code: ClassVar[ErrorCode] = ErrorCode.INVALID_REQUEST


class DecodeError(ProtocolError):
    """Bytes that do not parse as the message and version they claim to be (short, bad length, bad UTF-8)."""


class EncodeError(ProtocolError):
    """A message that cannot be written at the requested version (a value out of range, a null where the
    version forbids it, a non-ignorable field set in a version that lacks it)."""

    error_code = ErrorCode.UNKNOWN_SERVER_ERROR


class UnknownApiKeyError(ProtocolError):
    """A request whose API key is not in the message specs."""

    def __init__(self, api_key: int) -> None:
        super().__init__(f"unknown API key {api_key}")
        self.api_key = api_key


class UnsupportedVersionError(ProtocolError):
    """A message version outside the valid range of its API."""

    error_code = ErrorCode.UNSUPPORTED_VERSION

    def __init__(self, name: str, version: int, min_version: int, max_version: int) -> None:
        super().__init__(f"{name} version {version} is not supported (valid versions {min_version}-{max_version})")
        self.name = name
        self.version = version
        self.min_version = min_version
        self.max_version = max_version


class FrameError(ProtocolError):
    """A frame that cannot be split or whose request header cannot be read: the connection must close."""


class TruncatedFrameError(FrameError):
    """The input ended inside a frame (the peer closed the connection mid-request)."""


class NegativeFrameLengthError(FrameError):
    """A 4-byte length prefix that is negative."""


class FrameTooLargeError(FrameError):
    """A length prefix above the configured maximum request size."""


class MalformedHeaderError(FrameError):
    """A frame too short, or malformed, to hold its request header (so there is no correlation id to answer)."""


__all__ = [
    "DecodeError",
    "EncodeError",
    "FrameError",
    "FrameTooLargeError",
    "MalformedHeaderError",
    "NegativeFrameLengthError",
    "ProtocolError",
    "TruncatedFrameError",
    "UnknownApiKeyError",
    "UnsupportedVersionError",
]
