"""``FrameReceiver``: the follower's reading side of a replication connection once it streams (after the
handshake), reading the leader's frames straight into one preallocated buffer.

The transport reads into the buffer itself (``asyncio.BufferedProtocol``: no bytes object per read, no
StreamReader buffer, no gathering copy); the frames whole in it are decoded in place (``stream.whole_frames``:
a ``DATA`` frame's bytes are a memoryview of the buffer) and handed to ``on_messages`` in one call per read,
which must be done with them when it returns: the buffer is then reused. A frame that is not whole yet stays
where it is while the buffer has room after it; when the buffer ends inside a frame, the frame's bytes read so far
move to the buffer's start (or to a larger buffer, for a frame larger than it), so each frame is read into one
contiguous place and only the unfinished tail of one frame is ever moved.

``take_over`` switches a handshaken connection (a StreamReader and its decoder) to a receiver: it pauses reading,
sets the receiver as the transport's protocol, decodes the bytes those still held first, and resumes.
``closed`` completes with the reason the stream ended (``take_over`` raises none of them): an exception from
``on_messages`` or a frame that breaks the spec (the connection is then closed), or the connection's loss
(``EOFError`` when the leader closed it). Threads: the loop thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import cast

from .stream import DEFAULT_MAX_FRAME, Message, StreamDecoder, frame_size, whole_frames

CAPACITY = 8 << 20
"""The buffer's size: a few of the leader's 1 MiB frames, so that moving an unfinished frame's tail is rare."""
MIN_READ = 64 << 10
"""Less room than this after the data read, and the buffer is compacted before the next read."""


class FrameReceiver(asyncio.BufferedProtocol):
    def __init__(
        self, on_messages: Callable[[list[Message]], None], *, max_frame: int = DEFAULT_MAX_FRAME,
        capacity: int = CAPACITY, min_read: int = MIN_READ,
    ) -> None:  # fmt: skip
        self._on_messages = on_messages
        self._min_read = min_read
        self._max_frame = max_frame
        self._buffer = bytearray(capacity)
        self._start = 0  # the first byte not decoded yet
        self._end = 0  # the end of the bytes read
        self._transport: asyncio.BaseTransport | None = None
        self.closed: asyncio.Future[BaseException] = asyncio.get_running_loop().create_future()

    async def take_over(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, decoder: StreamDecoder
    ) -> None:
        """Read the rest of a handshaken connection; the bytes ``reader`` and ``decoder`` hold come first."""
        transport = cast(asyncio.Transport, writer.transport)
        self._transport = transport
        transport.pause_reading()
        reader.feed_eof()  # so that reading what it holds does not wait: it gets no more bytes
        held = decoder.held() + await reader.read()
        self._make_room(len(held))
        self._buffer[: len(held)] = held
        self._end = len(held)
        transport.set_protocol(self)
        self._decode_or_end()
        if transport.is_closing():  # lost before the take-over: its connection_lost went to the StreamReader
            self._finish(EOFError("the connection to the leader closed"))
        elif not self.closed.done():
            transport.resume_reading()  # a leader that closed already is seen again: the socket reads at its end

    # --- asyncio.BufferedProtocol ---

    def get_buffer(self, sizehint: int) -> memoryview:
        if len(self._buffer) - self._end < self._min_read:
            self._make_room(self._min_read)
        return memoryview(self._buffer)[self._end :]

    def buffer_updated(self, nbytes: int) -> None:
        self._end += nbytes
        if not self.closed.done():  # ended by a bad frame: what follows it is not read
            self._decode_or_end()

    def eof_received(self) -> bool | None:
        self._finish(EOFError("the leader closed the connection"))
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self._finish(exc or EOFError("the leader closed the connection"))

    # --- the buffer ---

    def _decode_or_end(self) -> None:
        try:
            self._decode()
        except Exception as exc:  # the spec broken or the data refused: this stream ends here
            self._finish(exc)
            if self._transport is not None:
                self._transport.close()

    def _decode(self) -> None:
        view = memoryview(self._buffer)[: self._end]
        messages, self._start = whole_frames(view, self._start, self._max_frame)
        if messages:
            self._on_messages(messages)
        if self._start == self._end:
            self._start = self._end = 0

    def _make_room(self, more: int) -> None:
        """Room for ``more`` bytes after the data read, and for the whole of the frame not decoded yet."""
        held = self._end - self._start
        frame = frame_size(memoryview(self._buffer)[: self._end], self._start, self._max_frame) or 0
        size = max(len(self._buffer), held + more, frame)
        if size > len(self._buffer):
            buffer = bytearray(size)
            buffer[:held] = memoryview(self._buffer)[self._start : self._end]
            self._buffer = buffer
        elif self._start:
            view = memoryview(self._buffer)
            view[:held] = view[self._start : self._end]  # overlapping ranges: memmove
        self._start, self._end = 0, held

    def _finish(self, reason: BaseException) -> None:
        if not self.closed.done():
            self.closed.set_result(reason)
