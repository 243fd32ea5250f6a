"""The one error family of the kernels. Callers in other layers translate these once, at their boundary."""

from __future__ import annotations


class KernelError(ValueError):
    """Base of every error a kernel raises for bad input."""


class CorruptBatchError(KernelError):
    """A RecordBatch is malformed: short, bad length, bad CRC-32C, or inconsistent counts."""


class UnsupportedMagicError(CorruptBatchError):
    """A batch (or legacy message set) whose magic byte is not 2."""

    def __init__(self, magic: int) -> None:
        super().__init__(f"record batch magic {magic} is not supported (only magic 2)")
        self.magic = magic


class InvalidBatchError(CorruptBatchError):
    """A batch with a valid CRC that breaks a rule Kafka enforces on produced batches (Kafka's INVALID_RECORD):
    a record count or last offset delta that disagree, an unknown compression codec."""


class MalformedMessageError(KernelError):
    """A hot-message body (Produce request, ...) that cannot be decoded: short, bad lengths, trailing bytes."""


class UnsupportedVersionError(KernelError):
    """A message version that a hot-message kernel does not handle."""

    def __init__(self, api: str, version: int) -> None:
        super().__init__(f"{api} version {version} is not handled by the hot-message codec")
        self.api = api
        self.version = version


class MalformedVarintError(KernelError):
    """A varint that ends early, runs past its maximum length (5 bytes, or 10 for a varlong), or a value
    out of range for its encoding."""


class FrameError(KernelError):
    """A length-prefixed frame that cannot be split or whose request header cannot be read."""


class NegativeFrameLengthError(FrameError):
    """A frame whose 4-byte length prefix is negative."""


class FrameTooLargeError(FrameError):
    """A frame whose length prefix exceeds the configured maximum request size."""


class MalformedHeaderError(FrameError):
    """A frame too short, or malformed, to hold its request header."""


class TruncatedFrameError(FrameError):
    """The input ended inside a frame (the peer closed the connection mid-request)."""
