"""A TCP relay between a follower and its leader for the replication tests (real sockets both ways)."""

from __future__ import annotations

import asyncio


class Relay:
    """A TCP relay on 127.0.0.1 between a follower and its leader (real sockets both ways); ``mute`` stops passing
    the leader's bytes on while keeping every connection open: a leader gone silent without closing."""

    def __init__(self, target_port: int) -> None:
        self._target_port = target_port
        self.muted = False
        self.connections = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self._target_port)
        for source, sink, from_leader in ((reader, upstream_writer, False), (upstream_reader, writer, True)):
            task = asyncio.create_task(self._pipe(source, sink, from_leader))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, from_leader: bool) -> None:
        try:
            while data := await source.read(1 << 16):
                if not (from_leader and self.muted):
                    sink.write(data)
        except OSError:
            pass
        finally:
            sink.close()

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._server is not None:
            self._server.close()
