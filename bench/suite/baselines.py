"""The machine's own limits, taken in the same run as the brokers (Python, no broker involved):

- ``seqwrite``: 256 MiB written in 1 MiB blocks to a file in the run's work directory, one fdatasync at
  the end (what an async-flush broker asks of the disk): MB/s.
- ``loopback``: 512 MiB sent over a loopback TCP connection in 1 MiB ``sendall`` calls into
  ``recv_into``: MB/s; plus a 100 B ping-pong for the run's seconds (round trips/s, ``rtt_p50_us``).
"""

from __future__ import annotations

import os
import socket
import threading
import time

from bench.suite.context import Context, Measurement
from bench.suite.payload import VerificationError

BLOCK = 1 << 20


def seqwrite_scenario(ctx: Context, mebibytes: int = 256) -> Measurement:
    ctx.workdir.mkdir(parents=True, exist_ok=True)
    path = ctx.workdir / "seqwrite.bin"
    block = os.urandom(BLOCK)
    meter = ctx.meter()
    meter.start()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for _ in range(mebibytes):
            os.write(fd, block)
        os.fdatasync(fd)
    finally:
        os.close(fd)
    usage = meter.stop()
    size = path.stat().st_size
    path.unlink()
    if size != mebibytes * BLOCK:
        raise VerificationError(f"wrote {size} bytes, expected {mebibytes * BLOCK}")
    return Measurement(size / 1e6 / usage.wall_s, {}, usage)


def _sink(server: socket.socket, expected: int, result: list[int]) -> None:
    conn, _ = server.accept()
    with conn:
        buf = bytearray(BLOCK)
        view = memoryview(buf)
        got = 0
        while got < expected:
            n = conn.recv_into(view)
            if not n:
                break
            got += n
        result.append(got)
        while True:  # then echo 100 B pings until the client closes
            ping = conn.recv(100)
            if not ping:
                return
            conn.sendall(ping)


def loopback_scenario(ctx: Context, mebibytes: int = 512) -> Measurement:
    server = socket.create_server(("127.0.0.1", 0))
    received: list[int] = []
    sink = threading.Thread(target=_sink, args=(server, mebibytes * BLOCK, received), daemon=True)
    sink.start()
    client = socket.create_connection(server.getsockname())
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    block = os.urandom(BLOCK)
    meter = ctx.meter()
    meter.start()
    for _ in range(mebibytes):
        client.sendall(block)
    while sink.is_alive() and not received:
        time.sleep(0.0005)
    usage = meter.stop()
    if received != [mebibytes * BLOCK]:
        client.close()
        raise VerificationError(f"loopback received {received} of {mebibytes * BLOCK} bytes")
    rtts = _ping_pong(client, min(ctx.seconds, 2.0))
    client.close()
    sink.join(5)
    server.close()
    metrics = {"pingpong_per_s": len(rtts) / sum(rtts), "rtt_p50_us": sorted(rtts)[len(rtts) // 2] * 1e6}
    return Measurement(mebibytes * BLOCK / 1e6 / usage.wall_s, metrics, usage)


def _ping_pong(client: socket.socket, seconds: float) -> list[float]:
    ping = b"p" * 100
    rtts: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline and len(rtts) < 1_000_000:
        sent = time.perf_counter()
        client.sendall(ping)
        got = 0
        while got < 100:
            chunk = client.recv(100 - got)
            if not chunk:
                raise VerificationError("loopback echo closed")
            got += len(chunk)
        rtts.append(time.perf_counter() - sent)
    return rtts
