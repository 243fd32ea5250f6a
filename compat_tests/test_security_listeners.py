"""Listeners named as Kafka names them, each advertised to the clients that came through it; TLS from PEM text;
the online ``rockafka users``/``acls`` commands through a SASL_SSL listener; SASL re-authentication with
librdkafka; one-line startup errors for unusable TLS settings."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Producer

from rockafka.facade.protocol.messages.describe_cluster import DescribeClusterRequest, DescribeClusterResponse
from rockafka.facade.protocol.messages.find_coordinator import FindCoordinatorRequest, FindCoordinatorResponse
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataResponse
from rockafka.facade.security.plain import SCRAM_LOGIN_MODULE
from rockafka.wire_client import WireClient, WireClientError

from .brokerproc import BrokerProcess, free_port
from .security_setup import PASSWORDS, SecureBroker, rockafka, start_secure_broker
from .tlscerts import KEY_PASSWORD, make_pki


def scram_settings(broker: SecureBroker, user: str, password: str, mechanism: str = "SCRAM-SHA-256") -> dict[str, str]:
    return {
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": mechanism,
        "sasl.jaas.config": f'{SCRAM_LOGIN_MODULE} required username="{user}" password="{password}";',
        "ssl.truststore.location": str(broker.pki.ca),
    }


@pytest.fixture(scope="module")
def named(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecureBroker]:
    """The secure broker plus two more listeners named INTERNAL and EXTERNAL (PLAINTEXT), the latter advertised
    under another port, as behind a port forward."""
    internal, external, forwarded = free_port(), free_port(), free_port()
    broker = start_secure_broker(
        tmp_path_factory.mktemp("named"),
        **{"connections.max.reauth.ms": "2000"},
    )
    broker.process.stop()
    settings = broker.process.settings
    settings["listeners"] += f",INTERNAL://127.0.0.1:{internal},EXTERNAL://127.0.0.1:{external}"
    settings["listener.security.protocol.map"] = (
        "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL,"
        "INTERNAL:PLAINTEXT,EXTERNAL:PLAINTEXT"
    )
    ports = {**broker.ports, "INTERNAL": internal, "EXTERNAL": external}
    settings["advertised.listeners"] = ",".join(
        f"{name}://127.0.0.1:{forwarded if name == 'EXTERNAL' else port}" for name, port in ports.items()
    )
    broker.ports.update(INTERNAL=internal, EXTERNAL=external, FORWARDED=forwarded)
    broker.process.start()
    try:
        yield broker
    finally:
        broker.process.stop()


@pytest.mark.parametrize("listener", ["PLAINTEXT", "INTERNAL", "EXTERNAL", "SASL_SSL"])
def test_each_listener_advertises_itself(named: SecureBroker, listener: str) -> None:
    settings = scram_settings(named, "admin", PASSWORDS["admin"]) if listener == "SASL_SSL" else {}
    expected = named.ports["FORWARDED" if listener == "EXTERNAL" else listener]
    with WireClient(named.bootstrap(listener), settings) as client:
        metadata = client.request(MetadataRequest(topics=[]), 9, MetadataResponse)
        coordinator = client.request(FindCoordinatorRequest(key="sec-g", key_type=0), 3, FindCoordinatorResponse)
        cluster = client.request(DescribeClusterRequest(), 0, DescribeClusterResponse)
    assert [(b.host, b.port) for b in metadata.brokers] == [("127.0.0.1", expected)]
    assert (coordinator.host, coordinator.port) == ("127.0.0.1", expected)
    assert [(b.host, b.port) for b in cluster.brokers] == [("127.0.0.1", expected)]


def test_online_user_and_acl_commands(named: SecureBroker, tmp_path: Path) -> None:
    admin_config = tmp_path / "admin.properties"
    admin_config.write_text(
        "".join(f"{k}={v}\n" for k, v in scram_settings(named, "admin", PASSWORDS["admin"], "SCRAM-SHA-512").items())
    )
    online = ("--bootstrap-server", named.bootstrap("SASL_SSL"), "--command-config", str(admin_config))
    password_file = tmp_path / "carol.password"
    password_file.write_text("carol-secret-2W\n")
    rockafka("users", "add", "carol", "--mechanism", "SCRAM-SHA-256", "--password-file", str(password_file), *online)
    assert "carol\tSCRAM-SHA-256 (4096 iterations)" in rockafka("users", "list", "carol", *online)
    with WireClient(named.bootstrap("SASL_SSL"), scram_settings(named, "carol", "carol-secret-2W")) as client:
        assert client.request(MetadataRequest(topics=None), 9, MetadataResponse).topics == []  # no ACL: sees nothing
    rockafka("acls", "add", "--allow-principal", "User:carol", "--operation", "Describe", "--topic", "sec-carol",
             *online)  # fmt: skip
    assert "TOPIC:LITERAL:sec-carol ALLOW User:carol DESCRIBE" in rockafka("acls", "list", "--principal", "User:carol",
                                                                          *online)  # fmt: skip
    assert "removed" in rockafka("acls", "remove", "--allow-principal", "User:carol", "--topic", "sec-carol", *online)
    assert "deleted" in rockafka("users", "delete", "carol", *online)
    with pytest.raises(WireClientError, match="invalid credentials"):
        WireClient(named.bootstrap("SASL_SSL"), scram_settings(named, "carol", "carol-secret-2W"))
    mallory_config = tmp_path / "mallory.properties"
    mallory_config.write_text(
        "".join(f"{k}={v}\n" for k, v in scram_settings(named, "mallory", PASSWORDS["mallory"]).items())
    )
    refused = subprocess.run(
        [sys.executable, "-m", "rockafka", "users", "list", "--bootstrap-server", named.bootstrap("SASL_SSL"),
         "--command-config", str(mallory_config)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert refused.returncode == 2 and "CLUSTER_AUTHORIZATION_FAILED" in refused.stderr
    assert "carol-secret-2W" not in Path(named.process.log_path).read_text(errors="replace")


def test_librdkafka_reauthenticates_before_the_session_expires(named: SecureBroker) -> None:
    reported: list[object] = []
    producer = Producer({
        "bootstrap.servers": named.bootstrap("SASL_SSL"), "security.protocol": "SASL_SSL",
        "ssl.ca.location": str(named.pki.ca), "sasl.mechanism": "SCRAM-SHA-512", "sasl.username": "alice",
        "sasl.password": PASSWORDS["alice"], "error_cb": reported.append, "log_level": 3,
    })  # fmt: skip
    delivered: list[object] = []
    deadline = time.monotonic() + 5  # more than two session lifetimes (connections.max.reauth.ms=2000)
    sent = 0
    while time.monotonic() < deadline:
        producer.produce("sec-reauth", b"x", on_delivery=lambda error, _m: delivered.append(error))
        sent += 1
        producer.poll(0.25)
    producer.flush(10)
    assert delivered == [None] * sent, reported
    assert "SASL session expired" not in Path(named.process.log_path).read_text(errors="replace")


def test_tls_key_and_chain_given_as_pem_text(tmp_path: Path) -> None:
    pki = make_pki(tmp_path / "pki")
    port, plaintext = free_port(), free_port()
    settings = {
        "listeners": f"PLAINTEXT://127.0.0.1:{plaintext},SSL://127.0.0.1:{port}",
        "ssl.keystore.certificate.chain": pki.server_cert.read_text() + pki.ca.read_text(),
        "ssl.keystore.key": pki.server_key.read_text(),
        "listener.name.ssl.ssl.truststore.certificates": pki.ca.read_text(),
        "listener.name.ssl.ssl.client.auth": "requested",
    }
    process = BrokerProcess(tmp_path / "broker", settings=settings, port=plaintext).start()
    try:
        # the PLAINTEXT port is what BrokerProcess waits on; requested client auth lets a client without one in
        tls = {"security.protocol": "SSL", "ssl.truststore.location": str(pki.ca)}
        with WireClient(f"127.0.0.1:{port}", tls) as client:
            assert client.request(MetadataRequest(topics=[]), 9, MetadataResponse).brokers[0].port == port
    finally:
        process.stop()
    assert "PRIVATE KEY" not in process.log_text()


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"ssl.keystore.type": "JKS", "ssl.keystore.location": "/a.jks"}, "ssl.keystore.type=JKS is not supported"),
        ({"ssl.keystore.location": "/nonexistent.pem"}, "cannot load the broker's key and certificate"),
        ({}, "TLS needs ssl.keystore.location"),
        ({"ssl.keystore.location": "KEYSTORE", "ssl.key.password": "wrong", "ssl.truststore.location": "CA"},
         "cannot load the broker's key and certificate"),
        ({"ssl.keystore.location": "KEYSTORE", "ssl.key.password": KEY_PASSWORD, "ssl.client.auth": "required"},
         "needs a truststore"),
    ],
)  # fmt: skip
def test_unusable_tls_settings_stop_the_broker_with_one_line(
    tmp_path: Path, settings: dict[str, str], message: str
) -> None:
    pki = make_pki(tmp_path / "pki")
    replaced = {k: {"KEYSTORE": str(pki.server_keystore), "CA": str(pki.ca)}.get(v, v) for k, v in settings.items()}
    args = [sys.executable, "-m", "rockafka", "serve", "--override", f"log.dirs={tmp_path / 'data'}",
            "--override", f"listeners=SSL://127.0.0.1:{free_port()}"]  # fmt: skip
    for key, value in replaced.items():
        args += ["--override", f"{key}={value}"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr and "wrong" not in done.stderr and KEY_PASSWORD not in done.stderr


def test_principal_mapping_rules_name_certificate_clients(tmp_path: Path) -> None:
    """SSL names the client cert User:client by a rule (its ACL lets it ALTER the cluster); STRICT has a rule
    the certificate does not match, so its connection is refused, as Kafka refuses it."""
    pki = make_pki(tmp_path / "pki")
    plaintext, mapped, strict = free_port(), free_port(), free_port()
    data = tmp_path / "broker" / "data"
    rockafka("acls", "add", "--allow-principal", "User:client", "--operation", "Alter", "--cluster",
             "--data-dir", str(data))  # fmt: skip
    settings = {
        "listeners": f"PLAINTEXT://127.0.0.1:{plaintext},SSL://127.0.0.1:{mapped},STRICT://127.0.0.1:{strict}",
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,SSL:SSL,STRICT:SSL",
        "ssl.keystore.location": str(pki.server_keystore),
        "ssl.key.password": KEY_PASSWORD,
        "ssl.truststore.location": str(pki.ca),
        "ssl.client.auth": "required",
        "listener.name.ssl.ssl.principal.mapping.rules": r"RULE:^CN=([^,]*),OU=Test,.*$/$1/L,DEFAULT",
        "listener.name.strict.ssl.principal.mapping.rules": "RULE:^CN=admin$/admin/",
        "authorizer.class.name": "kafka.security.authorizer.AclAuthorizer",
    }
    keystore = tmp_path / "client.keystore.pem"
    keystore.write_text(pki.client.key.read_text() + pki.client.cert.read_text())
    tls = {"security.protocol": "SSL", "ssl.truststore.location": str(pki.ca), "ssl.keystore.location": str(keystore)}
    process = BrokerProcess(tmp_path / "broker", settings=settings, port=plaintext).start()
    try:
        with WireClient(f"127.0.0.1:{mapped}", tls) as client:
            asked = MetadataRequest(topics=[], include_cluster_authorized_operations=True)
            operations = client.request(asked, 9, MetadataResponse).cluster_authorized_operations
        assert operations == (1 << 7) | (1 << 8)  # ALTER, and the DESCRIBE it implies
        with pytest.raises(WireClientError), WireClient(f"127.0.0.1:{strict}", tls) as refused:
            refused.request(MetadataRequest(topics=[]), 9, MetadataResponse)
    finally:
        process.stop()
    assert "no ssl.principal.mapping.rules entry applies to CN=client,OU=Test,O=Rockafka,C=US" in process.log_text()
