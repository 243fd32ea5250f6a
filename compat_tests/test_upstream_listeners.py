"""The brokers the upstream-suite runner starts for TLS and SASL tests, checked where CI can run them.

CI has no clone of aiokafka or kafka-python, so it cannot run their suites (``compat_tests/upstream``).
This starts a broker with exactly the listeners, certificates, users and settings the runner gives each
suite (:mod:`compat_tests.upstream.suites`, :mod:`compat_tests.upstream.security`) and checks what those
suites rely on: every listener serves the fixture's login (kafka-python: ``alice`` on one listener per
mechanism, and only that mechanism; aiokafka: PLAIN users, the super user driving ``rockafka acls`` and
``rockafka users`` online, the SSL listener requiring a client certificate), and ``topic_names.py`` lists
topics as ``kafka-topics.sh --list`` would. The runner's ``--replicas 3`` brokers (:mod:`compat_tests.upstream.cluster`)
are one group of three, led by node 0, where a topic at replication factor 3 has nodes 0-2 as replicas.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaAdminClient
from kafka.admin import NewTopic

from rockafka.testing import TEST_SETTINGS
from rockafka.wire_client import WireClientError

from .brokerproc import BrokerProcess, free_port
from .tlscerts import make_pki
from .upstream import security
from .upstream.cluster import SuiteBrokers
from .upstream.suites import AIOKAFKA, KAFKA_PYTHON, KAFKA_PYTHON_USER, Suite, broker_settings
from .upstream.topic_names import topic_names

TOPIC = "listed-topic"


def _start(suite: Suite, workdir: Path, certs: Path) -> tuple[BrokerProcess, dict[str, str]]:
    port = free_port()
    ports = {name: free_port() for name, _ in suite.listeners}
    settings = broker_settings(suite, "127.0.0.1", port, ports, certs)
    broker = BrokerProcess(workdir / "broker", settings={**TEST_SETTINGS, **settings, "num.partitions": "1"}, port=port)
    security.add_scram_users(suite, broker.data_dir, workdir)
    admin = security.admin_config(suite, workdir / "admin.properties")
    env = security.environment(suite, "127.0.0.1", ports, certs, admin)
    return broker.start(), env


def _sasl(mechanism: str, user: str, password: str, protocol: str = "SASL_PLAINTEXT") -> dict[str, str]:
    return {
        "security.protocol": protocol,
        "sasl.mechanism": mechanism,
        "sasl.jaas.config": security.jaas_login(mechanism, user, password),
    }


@pytest.fixture(scope="module")
def kafka_python_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, str], Path]]:
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command line is needed to make test certificates")
    workdir = tmp_path_factory.mktemp("kafka-python")
    security.kafka_python_certificates(workdir / "ssl", dict(KAFKA_PYTHON.broker_settings)["ssl.key.password"])
    broker, env = _start(KAFKA_PYTHON, workdir, workdir / "ssl")
    try:
        listeners = json.loads(env["ROCKAFKA_LISTENERS"])
        user, password = KAFKA_PYTHON_USER
        admin = KafkaAdminClient(
            bootstrap_servers=listeners["SASL_PLAIN"], security_protocol="SASL_PLAINTEXT", sasl_mechanism="PLAIN",
            sasl_plain_username=user, sasl_plain_password=password,
        )  # fmt: skip
        try:
            admin.create_topics([NewTopic(TOPIC, 1, 1)])
        finally:
            admin.close()
        yield listeners, workdir / "ssl"
    finally:
        broker.stop()


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_kafka_python_listener_per_mechanism(kafka_python_broker: tuple[dict[str, str], Path], mechanism: str) -> None:
    listeners, _ = kafka_python_broker
    own = "SASL_" + mechanism.replace("-", "_")
    user, password = KAFKA_PYTHON_USER
    assert TOPIC in topic_names(listeners[own], _sasl(mechanism, user, password))
    with pytest.raises(WireClientError, match="SASL authentication failed"):
        topic_names(listeners[own], _sasl(mechanism, user, "wrong"))
    for other in {"SASL_PLAIN", "SASL_SCRAM_SHA_256", "SASL_SCRAM_SHA_512"} - {own}:
        with pytest.raises(WireClientError, match="UNSUPPORTED_SASL_MECHANISM"):
            topic_names(listeners[other], _sasl(mechanism, user, password))


def test_kafka_python_ssl_listener_trusts_ca_cert(kafka_python_broker: tuple[dict[str, str], Path]) -> None:
    listeners, certs = kafka_python_broker
    settings = {"security.protocol": "SSL", "ssl.truststore.location": str(certs / "ca-cert")}
    assert TOPIC in topic_names(listeners["SSL"].replace("127.0.0.1", "localhost"), settings)


def _aiokafka_certs(workdir: Path) -> Path:
    """gen-ssl-certs.sh's file names (ca.crt, server.key, server.crt, client.crt, client.key), made by tlscerts."""
    pki = make_pki(workdir / "pki")
    certs = workdir / "ssl_cert"
    certs.mkdir()
    for source, name in ((pki.ca, "ca.crt"), (pki.server_key, "server.key"), (pki.server_cert, "server.crt")):
        shutil.copy(source, certs / name)
    shutil.copy(pki.client.cert, certs / "client.crt")
    shutil.copy(pki.client.key, certs / "client.key")
    security.aiokafka_keystore(certs)
    return certs


def _cli(env: dict[str, str], *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    admin = ["--bootstrap-server", env["ROCKAFKA_ADMIN_BOOTSTRAP"], "--command-config", env["ROCKAFKA_ADMIN_CONFIG"]]
    command = [*json.loads(env["ROCKAFKA_CLI"]), *args, *admin]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=60, check=False)


def test_aiokafka_listeners_users_and_admin(tmp_path: Path) -> None:
    certs = _aiokafka_certs(tmp_path)
    broker, env = _start(AIOKAFKA, tmp_path, certs)
    try:
        listeners = json.loads(env["ROCKAFKA_LISTENERS"])
        topic_names(listeners["SASL_PLAINTEXT"], _sasl("PLAIN", "test", "test"))
        topic_names(listeners["SASL_SSL"], {**_sasl("PLAIN", "test2", "test2", "SASL_SSL"), **_tls(certs)})
        with_cert = {**_tls(certs), "ssl.keystore.location": str(tmp_path / "client.pem")}
        (tmp_path / "client.pem").write_text((certs / "client.key").read_text() + (certs / "client.crt").read_text())
        topic_names(listeners["SSL"], {"security.protocol": "SSL", **with_cert})
        with pytest.raises(WireClientError):
            topic_names(listeners["SSL"], {"security.protocol": "SSL", **_tls(certs)})
        # the ACL fixture's calls: kafka-acls.sh --add/--list/--remove as the super user
        acl = ["--deny-principal", "User:test", "--operation", "WRITE", "--topic", "t1"]
        assert _cli(env, "acls", "add", *acl).returncode == 0
        assert "User:test" in _cli(env, "acls", "list", "--principal", "User:test").stdout
        assert _cli(env, "acls", "remove", *acl).returncode == 0
        # the SCRAM-user fixture's call, then that user logs in with SCRAM
        assert _cli(env, "users", "add", "scram-user", stdin="scram-pw\n").returncode == 0
        topic_names(listeners["SASL_PLAINTEXT"], _sasl("SCRAM-SHA-256", "scram-user", "scram-pw"))
    finally:
        broker.stop()


def _tls(certs: Path) -> dict[str, str]:
    return {"ssl.truststore.location": str(certs / "ca.crt"), "ssl.endpoint.identification.algorithm": ""}


def test_topic_names_command_lists_topics(kafka_python_broker: tuple[dict[str, str], Path], tmp_path: Path) -> None:
    listeners, _ = kafka_python_broker
    config = tmp_path / "client.properties"
    config.write_text("".join(f"{k}={v}\n" for k, v in _sasl("PLAIN", *KAFKA_PYTHON_USER).items()))
    script = Path(security.HERE / "topic_names.py")
    done = subprocess.run(
        [sys.executable, str(script), "--bootstrap-server", listeners["SASL_PLAIN"], "--command-config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert TOPIC in done.stdout.splitlines()
    wrong = config.read_text().replace('password="alice-secret"', 'password="nope"')
    config.write_text(wrong)
    refused = subprocess.run(
        [sys.executable, str(script), "--bootstrap-server", listeners["SASL_PLAIN"], "--command-config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode == 2 and "SASL authentication failed" in refused.stderr


def test_sasl_ssl_takes_client_auth_only_from_its_listener(tmp_path: Path) -> None:
    """KIP-684, as aiokafka's start-kafka.sh relies on: a broker-wide ssl.client.auth=required binds the SSL
    listener, not SASL_SSL listeners (SASL logs those clients in); listener.name.<l>.ssl.client.auth does."""
    certs = _aiokafka_certs(tmp_path)
    plaintext, ssl_port, sasl_ssl, strict = free_port(), free_port(), free_port(), free_port()
    settings = {
        "listeners": f"PLAINTEXT://127.0.0.1:{plaintext},SSL://127.0.0.1:{ssl_port},"
        f"SASL_SSL://127.0.0.1:{sasl_ssl},STRICT://127.0.0.1:{strict}",
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_SSL:SASL_SSL,STRICT:SASL_SSL",
        "ssl.keystore.location": str(certs / "server.keystore.pem"),
        "ssl.truststore.location": str(certs / "ca.crt"),
        "ssl.client.auth": "required",
        "listener.name.strict.ssl.client.auth": "required",
        "sasl.jaas.config": 'org.apache.kafka.common.security.plain.PlainLoginModule required user_test="test";',
    }
    broker = BrokerProcess(tmp_path / "broker", settings=settings, port=plaintext).start()
    login = {**_sasl("PLAIN", "test", "test", "SASL_SSL"), **_tls(certs)}
    try:
        assert isinstance(topic_names(f"127.0.0.1:{sasl_ssl}", login), list)
        for refused, settings_used in ((strict, login), (ssl_port, {"security.protocol": "SSL", **_tls(certs)})):
            with pytest.raises(WireClientError):
                topic_names(f"127.0.0.1:{refused}", settings_used)
        keystore = tmp_path / "client.pem"
        keystore.write_text((certs / "client.key").read_text() + (certs / "client.crt").read_text())
        assert isinstance(topic_names(f"127.0.0.1:{strict}", {**login, "ssl.keystore.location": str(keystore)}), list)
    finally:
        broker.stop()


def test_replicas_3_starts_one_group_of_three_led_by_node_0(tmp_path: Path) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command line is needed to make test certificates")
    certs = tmp_path / "ssl"
    security.kafka_python_certificates(certs, dict(KAFKA_PYTHON.broker_settings)["ssl.key.password"])
    brokers = SuiteBrokers(
        KAFKA_PYTHON,
        tmp_path,
        1,
        lambda _node, port, ports: broker_settings(KAFKA_PYTHON, "127.0.0.1", port, ports, certs),
        free_port,
        replicas=3,
    )
    assert [settings["rockafka.cluster.group"] for settings in brokers.settings] == ["group-0"] * 3
    try:
        brokers.start()  # inside: a member that fails to start leaves the others to stop
        assert "1 broker group of 3 brokers" in brokers.describe()
        admin = KafkaAdminClient(bootstrap_servers=brokers.first.bootstrap)
        try:
            admin.create_topics([NewTopic("rf3", 2, 3)])
            (topic,) = admin.describe_topics(["rf3"])
        finally:
            admin.close()
        assert {p["partition_index"]: (p["leader_id"], sorted(p["replica_nodes"])) for p in topic["partitions"]} == {
            0: (0, [0, 1, 2]),
            1: (0, [0, 1, 2]),
        }
    finally:
        brokers.stop()
