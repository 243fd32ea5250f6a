"""kafka-python against every listener and mechanism: what gets through works, what must not is refused with
the error kafka-python reports, and nothing a refused client sends is written."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaConsumer, KafkaProducer
from kafka.errors import KafkaTimeoutError, TopicAuthorizationFailedError

from rockafka.wire_client import WireClient, WireClientError

from . import security_setup
from .security_setup import PASSWORDS, SECRETS, SecureBroker, end_offset

secure = security_setup.secure  # this module's broker
BLOCK_MS = 3000
WRONG_JAAS = (
    f'org.apache.kafka.common.security.plain.PlainLoginModule required username="bob" password="{SECRETS[0]}x";'
)


def client_settings(broker: SecureBroker, kind: str, user: str = "", password: str | None = None) -> dict[str, Any]:
    """kafka-python settings for one way in: plaintext, ssl (a certificate), plain, scram-sha-256/512."""
    pki = broker.pki
    tls = {"ssl_cafile": str(pki.ca)}
    sasl = {
        "sasl_plain_username": user,
        "sasl_plain_password": PASSWORDS.get(user, "") if password is None else password,
    }
    ways: dict[str, dict[str, Any]] = {
        "plaintext": {"bootstrap_servers": broker.bootstrap("PLAINTEXT")},
        "ssl": {"bootstrap_servers": broker.bootstrap("SSL"), "security_protocol": "SSL", **tls},
        "plain": {"bootstrap_servers": broker.bootstrap("SASL_PLAINTEXT"), "security_protocol": "SASL_PLAINTEXT",
                  "sasl_mechanism": "PLAIN", **sasl},
        "plain-ssl": {"bootstrap_servers": broker.bootstrap("SASL_SSL"), "security_protocol": "SASL_SSL",
                      "sasl_mechanism": "PLAIN", **tls, **sasl},
        "scram-sha-256": {"bootstrap_servers": broker.bootstrap("SASL_SSL"), "security_protocol": "SASL_SSL",
                          "sasl_mechanism": "SCRAM-SHA-256", **tls, **sasl},
        "scram-sha-512": {"bootstrap_servers": broker.bootstrap("SASL_SSL"), "security_protocol": "SASL_SSL",
                          "sasl_mechanism": "SCRAM-SHA-512", **tls, **sasl},
    }  # fmt: skip
    settings = ways[kind]
    if kind == "ssl":
        cert = {"": pki.client, "untrusted": pki.untrusted, "expired": pki.expired}[user]
        settings.update(ssl_certfile=str(cert.cert), ssl_keyfile=str(cert.key))
    return settings


WAYS_IN = [("plaintext", ""), ("ssl", ""), ("plain", "bob"), ("plain-ssl", "alice"),
           ("scram-sha-256", "alice"), ("scram-sha-512", "alice")]  # fmt: skip


@pytest.mark.parametrize(("kind", "user"), WAYS_IN)
def test_produce_and_consume_through_each_listener(secure: SecureBroker, kind: str, user: str) -> None:
    topic = f"sec-kp-{kind}"
    settings = client_settings(secure, kind, user)
    producer = KafkaProducer(**settings)
    try:
        for index in range(3):
            producer.send(topic, f"{kind}-{index}".encode()).get(timeout=15)
    finally:
        producer.close()
    consumer = KafkaConsumer(topic, group_id=f"sec-kp-{kind}", auto_offset_reset="earliest",
                             consumer_timeout_ms=10000, **settings)  # fmt: skip
    try:
        values = [message.value for _, message in zip(range(3), consumer, strict=False)]
    finally:
        consumer.close()
    assert values == [f"{kind}-{index}".encode() for index in range(3)]


REFUSED = [
    ("plain", "bob", "wrong-password", "Invalid username or password"),
    ("plain", "nobody", "whatever", "Invalid username or password"),
    ("scram-sha-256", "alice", "wrong-password", "invalid credentials with SASL mechanism SCRAM-SHA-256"),
    ("scram-sha-512", "nobody", "whatever", "invalid credentials with SASL mechanism SCRAM-SHA-512"),
]


@pytest.mark.parametrize(("kind", "user", "password", "reason"), REFUSED)
def test_bad_credentials_are_refused(
    secure: SecureBroker, caplog: pytest.LogCaptureFixture, kind: str, user: str, password: str, reason: str
) -> None:
    topic = f"sec-kp-refused-{kind}-{user}"
    caplog.set_level(logging.ERROR, logger="kafka")
    producer = KafkaProducer(api_version=(3, 9), max_block_ms=BLOCK_MS, reconnect_backoff_max_ms=500,
                             **client_settings(secure, kind, user, password))  # fmt: skip
    try:
        with pytest.raises(KafkaTimeoutError):
            producer.send(topic, b"must not be written").get(timeout=10)
    finally:
        producer.close()
    assert any("SaslAuthenticationFailedError" in r.getMessage() and reason in r.getMessage() for r in caplog.records)
    assert end_offset(secure, topic) == 0


@pytest.mark.parametrize("certificate", ["untrusted", "expired"])
def test_bad_client_certificates_are_refused(secure: SecureBroker, certificate: str) -> None:
    topic = f"sec-kp-cert-{certificate}"
    producer_settings = client_settings(secure, "ssl", certificate)
    with pytest.raises(KafkaTimeoutError):
        producer = KafkaProducer(api_version=(3, 9), max_block_ms=BLOCK_MS, reconnect_backoff_max_ms=500,
                                 **producer_settings)  # fmt: skip
        try:
            producer.send(topic, b"must not be written").get(timeout=10)
        finally:
            producer.close()
    assert end_offset(secure, topic) == 0


@pytest.mark.parametrize("kind", ["plain", "scram-sha-256"])
def test_a_principal_without_acls_is_refused_and_nothing_is_written(secure: SecureBroker, kind: str) -> None:
    topic = f"sec-kp-mallory-{kind}"
    producer = KafkaProducer(max_block_ms=BLOCK_MS, **client_settings(secure, kind, "mallory"))
    try:
        with pytest.raises(TopicAuthorizationFailedError):
            producer.send(topic, b"must not be written").get(timeout=10)
    finally:
        producer.close()
    assert end_offset(secure, topic) == 0
    consumer = KafkaConsumer(**client_settings(secure, kind, "mallory"))
    try:
        assert topic not in consumer.topics()
    finally:
        consumer.close()


def test_no_secret_in_the_broker_log(secure: SecureBroker) -> None:
    settings = {"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN", "sasl.jaas.config": WRONG_JAAS}
    with pytest.raises(WireClientError, match="Invalid username or password"):
        WireClient(secure.bootstrap("SASL_PLAINTEXT"), settings)
    text = Path(secure.process.log_path).read_text(errors="replace")
    assert "Invalid username or password" in text  # refusals are logged...
    assert [secret for secret in SECRETS if secret in text] == []  # ...without any password
