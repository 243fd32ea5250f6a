"""Bad input on an SSL listener: random bytes, a TLS record header over junk, a plaintext Kafka frame,
random bytes inside an established TLS session, client certificates that are untrusted or expired.
Each connection ends (the broker closes it or the handshake fails); the broker logs no traceback and
no ERROR line, and still answers on the same listener afterwards."""

from __future__ import annotations

import random
import socket
import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest

from compat_tests import tlscerts
from compat_tests.brokerproc import BrokerProcess, free_port

from .requests import BUG_SIGNS
from .test_fuzz_requests import SETTINGS

CASES = 80


@pytest.fixture(scope="module")
def tls_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[BrokerProcess, int, tlscerts.TestPki]]:
    workdir = tmp_path_factory.mktemp("tls-fuzz")
    pki = tlscerts.make_pki(workdir / "pki")
    plain, tls = free_port(), free_port()
    settings = {
        **SETTINGS,
        "listeners": f"PLAINTEXT://127.0.0.1:{plain},SSL://127.0.0.1:{tls}",
        "ssl.keystore.type": "PEM",
        "ssl.keystore.location": str(pki.server_keystore),
        "ssl.key.password": tlscerts.KEY_PASSWORD,
        "ssl.truststore.type": "PEM",
        "ssl.truststore.location": str(pki.ca),
        "listener.name.ssl.ssl.client.auth": "required",
    }
    process = BrokerProcess(workdir, settings, port=plain).start()
    try:
        yield process, tls, pki
    finally:
        process.stop()


def _context(pki: tlscerts.TestPki, cert: Path | None = None, key: Path | None = None) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(pki.ca))
    context.check_hostname = False
    if cert is not None and key is not None:
        context.load_cert_chain(str(cert), str(key))
    return context


def _drain(sock: socket.socket) -> None:
    """Read until the broker closes (or 5 s pass, which fails the test: a connection left hanging)."""
    sock.settimeout(5)
    try:
        while sock.recv(4096):
            pass
    except (ConnectionResetError, ssl.SSLError, OSError) as exc:
        if isinstance(exc, TimeoutError):
            raise AssertionError("the broker neither answered nor closed within 5 s") from None


def test_garbage_on_an_ssl_listener(tls_broker: tuple[BrokerProcess, int, tlscerts.TestPki]) -> None:
    process, port, pki = tls_broker
    before = process.log_path.read_bytes()
    rng = random.Random(16)
    for case in range(CASES):
        raw = socket.create_connection(("127.0.0.1", port), timeout=5)
        kind = case % 3
        try:
            if kind == 0:
                raw.sendall(rng.randbytes(rng.randrange(1, 600)))
            elif kind == 1:
                raw.sendall(b"\x16\x03\x01\x02\x00" + rng.randbytes(rng.randrange(0, 80)))
            else:
                raw.sendall(b"\x00\x00\x00\x10" + bytes(16))  # a plaintext Kafka frame
            raw.shutdown(socket.SHUT_WR)
            _drain(raw)
        finally:
            raw.close()
    for cert in (pki.client, pki.untrusted, pki.expired):
        try:
            with _context(pki, cert.cert, cert.key).wrap_socket(
                socket.create_connection(("127.0.0.1", port), timeout=5)
            ) as tls:
                tls.sendall(rng.randbytes(200))  # noise inside the session
                _drain(tls)
        except (ssl.SSLError, ConnectionResetError, BrokenPipeError):
            pass  # refused at the handshake: the untrusted and expired certificates
    added = process.log_path.read_bytes()[len(before) :].decode(errors="replace")
    assert not [sign for sign in BUG_SIGNS if sign in added], added[-4000:]
    with _context(pki, pki.client.cert, pki.client.key).wrap_socket(
        socket.create_connection(("127.0.0.1", port), timeout=5)
    ) as tls:
        tls.sendall(b"\x00\x00\x00\x0a\x00\x12\x00\x00\x00\x00\x00\x07\xff\xff")  # ApiVersions v0, null client id
        assert tls.recv(8)[4:8] == b"\x00\x00\x00\x07"
