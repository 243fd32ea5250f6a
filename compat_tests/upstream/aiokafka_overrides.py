"""Fixture overrides appended to the scratch copy of aiokafka's ``tests/conftest.py``.

The upstream conftest starts one Docker container (Kafka, ZooKeeper and a Kerberos KDC). Appended
after it, these later definitions replace the Docker ones (conftest fixtures beat ``-p`` plugins):
the broker is the external Rockafka at ``$ROCKAFKA_BOOTSTRAP`` with its SSL, SASL_PLAINTEXT and
SASL_SSL listeners at the addresses in ``$ROCKAFKA_LISTENERS`` (JSON, by listener name), no image is
pulled, the TLS certificates are the ones the runner made with ``gen-ssl-certs.sh`` in
``tests/ssl_cert``, and Kerberos is absent. ``--docker-image aiolibs/kafka:2.13_<version>`` is still passed, because the
suite takes the Kafka version its ``@kafka_versions`` gates compare against from that tag.
"""

import json as _json
import os as _os
import pathlib as _pathlib
import socket as _socket
import time as _time
from dataclasses import dataclass as _dataclass

import pytest as _pytest

_ROCKAFKA_HOST, _ROCKAFKA_PORT = _os.environ["ROCKAFKA_BOOTSTRAP"].rsplit(":", 1)
_ROCKAFKA_LISTENERS = _json.loads(_os.environ.get("ROCKAFKA_LISTENERS", "{}"))


def _listener_port(name: str) -> int | None:
    address = _ROCKAFKA_LISTENERS.get(name)
    return None if address is None else int(address.rsplit(":", 1)[1])


@_dataclass
class ExternalKafkaServer:
    """The fields the suite reads from upstream's ``KafkaServer``; no container."""

    host: str
    port: int
    ssl_port: int | None
    sasl_plain_port: int | None
    sasl_ssl_port: int | None
    container: None = None

    @property
    def hosts(self) -> list[str]:
        return [f"{self.host}:{self.port}"]


def _listening(host: str, port: int, timeout_s: float) -> bool:
    deadline = _time.monotonic() + timeout_s
    while _time.monotonic() < deadline:
        try:
            with _socket.create_connection((host, port), timeout=1.0):
                return True
        except OSError:
            _time.sleep(0.2)
    return False


@_pytest.fixture(scope="session")
def docker(request):
    yield None


@_pytest.fixture(scope="session")
def kafka_image(request):
    image = request.config.getoption("--docker-image")
    if not image:
        _pytest.skip("pass --docker-image aiolibs/kafka:2.13_<version> to run the broker tests")
    return image


@_pytest.fixture(scope="session")
def ssl_folder():
    return _pathlib.Path("tests/ssl_cert")


@_pytest.fixture(scope="session")
def kafka_server(kafka_image):
    if not _listening(_ROCKAFKA_HOST, int(_ROCKAFKA_PORT), timeout_s=30.0):
        _pytest.exit(f"no broker at {_ROCKAFKA_HOST}:{_ROCKAFKA_PORT}")
    yield ExternalKafkaServer(
        _ROCKAFKA_HOST,
        int(_ROCKAFKA_PORT),
        ssl_port=_listener_port("SSL"),
        sasl_plain_port=_listener_port("SASL_PLAINTEXT"),
        sasl_ssl_port=_listener_port("SASL_SSL"),
    )


@_pytest.fixture(scope="class")
def kerberos_utils():
    return None
