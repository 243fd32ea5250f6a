"""``rockafka serve --aiolibs-env``: the aiolibs/kafka image's variables, as aiokafka's docker fixture passes them,
become the settings its start script gives Kafka; a broker started with them serves every listener."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaProducer

from rockafka.aiolibs_env import aiolibs_settings
from rockafka.facade.config import ConfigError, load_broker_config

from .facade.ops.helpers import free_port

SCRIPTS = Path(sys.executable).parent

FIXTURE_ENV = {
    "ADVERTISED_HOST": "127.0.0.1",
    "ADVERTISED_PORT": "19092",
    "ADVERTISED_SSL_PORT": "19093",
    "ADVERTISED_SASL_PLAINTEXT_PORT": "19094",
    "ADVERTISED_SASL_SSL_PORT": "19095",
    "NUM_PARTITIONS": "2",
    "SASL_MECHANISMS": "PLAIN,GSSAPI,SCRAM-SHA-256,SCRAM-SHA-512",
    "SASL_JAAS_FILE": "kafka_server_jaas.conf",
}


def make_certificates(folder: Path) -> None:
    """A CA and a server certificate it signed, with openssl, where gen-ssl-certs.sh leaves them."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True, timeout=120)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
            "-subj", "/CN=CA")  # fmt: skip
    openssl("req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
            "-subj", "/CN=server")  # fmt: skip
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "server.crt", "-days", "2")  # fmt: skip


def test_the_fixture_variables_become_the_start_script_settings(tmp_path: Path) -> None:
    make_certificates(tmp_path)
    settings = aiolibs_settings(FIXTURE_ENV, tmp_path)
    assert settings["listeners"] == (
        "PLAINTEXT://0.0.0.0:19092,SSL://0.0.0.0:19093,SASL_PLAINTEXT://0.0.0.0:19094,SASL_SSL://0.0.0.0:19095"
    )
    assert settings["advertised.listeners"].split(",")[0] == "PLAINTEXT://127.0.0.1:19092"
    assert settings["num.partitions"] == "2"
    assert settings["sasl.enabled.mechanisms"] == "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512"  # no GSSAPI here
    assert settings["super.users"] == "User:admin"
    assert settings["ssl.keystore.key"] == (tmp_path / "server.key").read_text()
    config = load_broker_config(None, [f"{k}={v}" for k, v in settings.items()], {})
    assert [listener.security_protocol for listener in config.listeners] == [
        "PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL",
    ]  # fmt: skip


def test_plaintext_only_needs_no_certificates(tmp_path: Path) -> None:
    settings = aiolibs_settings({"ADVERTISED_PORT": "19092"}, tmp_path)
    assert settings["listeners"] == "PLAINTEXT://0.0.0.0:19092"
    assert settings["advertised.listeners"] == "PLAINTEXT://127.0.0.1:19092"
    assert "ssl.keystore.key" not in settings and "sasl.enabled.mechanisms" not in settings


@pytest.mark.parametrize(
    ("environ", "fragment"),
    [
        ({}, "ADVERTISED_PORT is not set"),
        ({"ADVERTISED_PORT": "port"}, "is not a port number"),
        ({"ADVERTISED_PORT": "19092", "ADVERTISED_SSL_PORT": "19093"}, "gen-ssl-certs.sh's files"),
    ],
)
def test_missing_or_bad_variables_are_one_line(tmp_path: Path, environ: dict[str, str], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        aiolibs_settings(environ, tmp_path)


def test_serve_with_the_fixture_variables_answers_plaintext_and_sasl_plain(tmp_path: Path) -> None:
    plain, sasl = free_port(), free_port()
    environ = {
        "PATH": os.environ["PATH"], "ADVERTISED_HOST": "127.0.0.1", "ADVERTISED_PORT": str(plain),
        "ADVERTISED_SASL_PLAINTEXT_PORT": str(sasl), "SASL_MECHANISMS": "PLAIN,GSSAPI,SCRAM-SHA-256",
        "NUM_PARTITIONS": "2", "ROCKAFKA_LOG_DIRS": str(tmp_path / "data"), "ROCKAFKA_LOG_SEGMENT_BYTES": str(16 << 20),
    }  # fmt: skip
    broker = subprocess.Popen([str(SCRIPTS / "rockafka"), "serve", "--aiolibs-env"], env=environ,
                              stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        for _ in range(120):  # the probe waits up to 5 s for an answer; at most 120 tries
            probe = subprocess.run([str(SCRIPTS / "rockafka"), "probe", "--aiolibs-env"], env=environ,
                                   capture_output=True, timeout=30, check=False)  # fmt: skip
            if probe.returncode == 0 or broker.poll() is not None:
                break
            time.sleep(0.25)
        assert probe.returncode == 0, probe.stderr
        producer = KafkaProducer(bootstrap_servers=f"127.0.0.1:{plain}")
        producer.send("aiolibs-auto", b"created by the first produce").get(timeout=30)
        producer.close()
        admin = KafkaAdminClient(
            bootstrap_servers=f"127.0.0.1:{sasl}", security_protocol="SASL_PLAINTEXT", sasl_mechanism="PLAIN",
            sasl_plain_username="admin", sasl_plain_password="admin",
        )  # fmt: skip
        try:
            (described,) = admin.describe_topics(["aiolibs-auto"])
        finally:
            admin.close()
        assert len(described["partitions"]) == 2  # NUM_PARTITIONS
    finally:
        broker.terminate()
        _, log = broker.communicate(timeout=60)
    assert broker.returncode == 0, log
