"""The fault suite's parts that need no broker: the seeded schedule, and the proxy that cuts a link
(real sockets on 127.0.0.1)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from .jepsen.nemesis import KINDS, Fault, schedule
from .jepsen.netproxy import CuttableProxy

GROUPS = ["group-1", "group-2"]


def test_the_schedule_is_a_function_of_the_seed_and_every_round_holds_every_fault() -> None:
    first = schedule(7, 10, GROUPS, members=3)
    assert first == schedule(7, 10, GROUPS, members=3)
    assert first != schedule(8, 10, GROUPS, members=3)
    assert {f.kind for f in first[:5]} == {f.kind for f in first[5:]} == set(KINDS)
    assert all(f.group in GROUPS for f in first if f.kind != "restart-etcd")


def test_with_one_member_per_group_every_fault_hits_a_leader() -> None:
    faults = schedule(3, 50, GROUPS, members=1)
    assert all(f.follower == -1 for f in faults)
    assert any(f.follower >= 0 for f in schedule(3, 50, GROUPS, members=3))
    assert str(Fault("pause", "group-2")) == "pause leader of group-2"
    assert str(Fault("kill", "group-1", 0)) == "kill follower #0 of group-1"


@pytest.fixture
def echo() -> Iterator[str]:
    """An echo server on a free loopback port: ``host:port``."""
    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            threading.Thread(target=lambda c=conn: [c.sendall(d) for d in iter(lambda: c.recv(4096), b"")]).start()

    threading.Thread(target=serve, daemon=True).start()
    yield f"127.0.0.1:{server.getsockname()[1]}"
    server.close()


def _connect(proxy: CuttableProxy) -> socket.socket:
    host, port = proxy.address.split(":")
    client = socket.create_connection((host, int(port)), timeout=5)
    return client


def test_a_cut_link_holds_every_byte_until_healed_then_delivers_them_in_order(echo: str) -> None:
    proxy = CuttableProxy(echo, "test")
    try:
        client = _connect(proxy)
        client.sendall(b"before")
        assert client.recv(100) == b"before"
        proxy.cut_link()
        client.sendall(b"during")
        client.settimeout(1.0)
        with pytest.raises(TimeoutError):
            client.recv(100)  # nothing passes while cut
        late = _connect(proxy)  # a connection made while cut is accepted and hears nothing
        late.sendall(b"late")
        late.settimeout(1.0)
        with pytest.raises(TimeoutError):
            late.recv(100)
        proxy.heal()
        client.settimeout(5)
        late.settimeout(5)
        assert client.recv(100) == b"during"
        assert late.recv(100) == b"late"
        client.close()
        late.close()
    finally:
        proxy.close()


def test_a_connection_to_a_dead_upstream_is_closed(echo: str) -> None:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        dead = f"127.0.0.1:{probe.getsockname()[1]}"
    proxy = CuttableProxy(dead, "dead")
    try:
        client = _connect(proxy)
        assert client.recv(100) == b""
    finally:
        proxy.close()
