"""Pure-Python twin of the frame splitter: Kafka's size-delimited frames out of any chunking of a byte stream.

Every Kafka request and response travels as one frame::

    +----------------------+-------------------------------------+
    | size: int32, big-end | payload: `size` bytes               |
    +----------------------+-------------------------------------+
      4 bytes                request header + body (or response)

A negative size, or one above the configured maximum (Kafka's ``socket.request.max.bytes``, 100 MiB by
default), is rejected as soon as its 4 prefix bytes have arrived, before any payload is buffered. After
such an error the splitter is broken for good: the connection must be closed, and every later call
raises the same error again. Frames completed earlier in the same ``feed`` are dropped with it.

Cost: in this twin each input byte is copied at most twice (into the pending buffer, then out as its
frame's ``bytes``). The compiled twin copies each byte once: a frame that continues past its input chunk
gets its ``bytes`` allocated at full size when its prefix is known, and later chunks are copied into it.
"""

from __future__ import annotations

from struct import Struct
from typing import TYPE_CHECKING, Final

from .errors import FrameError, FrameTooLargeError, NegativeFrameLengthError, TruncatedFrameError

if TYPE_CHECKING:
    from typing_extensions import Buffer

DEFAULT_MAX_FRAME_SIZE: Final[int] = 100 * 1024 * 1024
PREFIX_SIZE: Final[int] = 4
_SIZE = Struct(">i")


class FrameSplitter:
    """Feed it bytes as they arrive; it returns the payloads of the frames completed so far."""

    __slots__ = ("_buf", "_failed", "_max_frame_size")

    def __init__(self, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        if max_frame_size < 0:
            raise ValueError(f"max_frame_size must be >= 0, not {max_frame_size}")
        self._max_frame_size = max_frame_size
        self._buf = bytearray()
        self._failed: FrameError | None = None

    @property
    def max_frame_size(self) -> int:
        """The largest payload accepted, in bytes."""
        return self._max_frame_size

    @property
    def pending(self) -> int:
        """Bytes received but not yet returned: a partial frame (or a partial size prefix)."""
        return len(self._buf)

    def feed(self, data: Buffer) -> list[bytes]:
        """Add ``data``; return the payloads (without their size prefix) of every frame it completes."""
        if self._failed is not None:
            raise self._failed
        buf = self._buf
        if not buf:
            with memoryview(data) as view, view.cast("B") as chunk:
                frames, used = self._split(chunk)
                buf += chunk[used:]
            return frames
        buf += data
        with memoryview(buf) as view:
            frames, used = self._split(view)
        del buf[:used]
        return frames

    def finish(self) -> None:
        """The input has ended: raise :class:`TruncatedFrameError` if a partial frame is pending."""
        if self._failed is not None:
            raise self._failed
        if self._buf:
            raise TruncatedFrameError(f"input ended inside a frame ({len(self._buf)} bytes pending)")

    def _split(self, view: memoryview) -> tuple[list[bytes], int]:
        frames: list[bytes] = []
        pos = 0
        end = len(view)
        while end - pos >= PREFIX_SIZE:
            size: int = _SIZE.unpack_from(view, pos)[0]
            if size < 0:
                self._failed = NegativeFrameLengthError(f"negative frame size {size}")
                raise self._failed
            if size > self._max_frame_size:
                self._failed = FrameTooLargeError(
                    f"frame of {size} bytes exceeds the maximum of {self._max_frame_size}"
                )
                raise self._failed
            start = pos + PREFIX_SIZE
            if end - start < size:
                break
            frames.append(view[start : start + size].tobytes())
            pos = start + size
        return frames, pos
