"""One broker with every kind of listener, its users and ACLs, for the security compat tests.

Listeners: PLAINTEXT, SSL (client certificates required), SASL_PLAINTEXT (PLAIN users from the broker-wide
JAAS line), SASL_SSL (PLAIN users from a listener-scoped JAAS line, SCRAM users from the credential file).
Users are made with ``rockafka users add`` and ACLs with ``rockafka acls add`` on the data directory before
the broker starts (the offline CLI, as an operator would). Authorization is on, ``super.users=User:admin``,
``allow.everyone.if.no.acl.found=false``. Each principal that should get through has ALL on topics and groups
prefixed ``sec-``; ``mallory`` authenticates but has no ACL at all.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from kafka import KafkaConsumer, TopicPartition

from .brokerproc import BrokerProcess, free_port
from .tlscerts import CLIENT_PRINCIPAL, KEY_PASSWORD, TestPki, make_pki

PASSWORDS = {"admin": "admin-secret-5J", "alice": "alice-secret-7Q", "bob": "bob-secret-3X", "mallory": "mallory-pw-9Z"}
PLAIN_JAAS = (
    "org.apache.kafka.common.security.plain.PlainLoginModule required "
    + " ".join(f'user_{user}="{password}"' for user, password in PASSWORDS.items())
    + ";"
)
PREFIX = "sec-"
GRANTED = ("User:ANONYMOUS", CLIENT_PRINCIPAL, "User:alice", "User:bob")
SECRETS = (*PASSWORDS.values(), KEY_PASSWORD)


@dataclass
class SecureBroker:
    process: BrokerProcess
    pki: TestPki
    ports: dict[str, int]

    def bootstrap(self, listener: str) -> str:
        return f"127.0.0.1:{self.ports[listener]}"


def rockafka(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "rockafka", *args], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def start_secure_broker(workdir: Path, **extra: str) -> SecureBroker:
    pki = make_pki(workdir / "pki")
    ports = {name: free_port() for name in ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")}
    data = workdir / "data"
    for user in ("admin", "alice", "mallory"):
        password_file = workdir / f"{user}.password"
        password_file.write_text(PASSWORDS[user] + "\n")
        rockafka("users", "add", user, "--password-file", str(password_file), "--data-dir", str(data))
    for principal in GRANTED:
        for kind in ("--topic", "--group"):
            rockafka("acls", "add", "--allow-principal", principal, "--operation", "All", kind, PREFIX,
                     "--resource-pattern-type", "prefixed", "--data-dir", str(data))  # fmt: skip
    settings = {
        "listeners": ",".join(f"{name}://127.0.0.1:{port}" for name, port in ports.items()),
        "ssl.keystore.type": "PEM",
        "ssl.keystore.location": str(pki.server_keystore),
        "ssl.key.password": KEY_PASSWORD,
        "ssl.truststore.type": "PEM",
        "ssl.truststore.location": str(pki.ca),
        "listener.name.ssl.ssl.client.auth": "required",
        "sasl.jaas.config": PLAIN_JAAS,
        "listener.name.sasl_ssl.plain.sasl.jaas.config": PLAIN_JAAS,
        "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        "super.users": "User:admin",
        "allow.everyone.if.no.acl.found": "false",
        "num.partitions": "1",
        "group.initial.rebalance.delay.ms": "0",
        **extra,
    }
    process = BrokerProcess(workdir, settings=settings, port=ports["PLAINTEXT"]).start()
    return SecureBroker(process, pki, ports)


def end_offset(broker: SecureBroker, topic: str) -> int:
    """The topic's end offset, read by the super user with kafka-python (0 when nothing was ever written)."""
    consumer = KafkaConsumer(
        bootstrap_servers=broker.bootstrap("SASL_SSL"), security_protocol="SASL_SSL", ssl_cafile=str(broker.pki.ca),
        sasl_mechanism="SCRAM-SHA-256", sasl_plain_username="admin", sasl_plain_password=PASSWORDS["admin"],
    )  # fmt: skip
    try:
        partition = TopicPartition(topic, 0)
        return int(consumer.end_offsets([partition])[partition])
    finally:
        consumer.close()


@pytest.fixture(scope="module")
def secure(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecureBroker]:
    """The secure broker of a test module (import this fixture into the module)."""
    broker = start_secure_broker(tmp_path_factory.mktemp("secure"))
    try:
        yield broker
    finally:
        broker.process.stop()
