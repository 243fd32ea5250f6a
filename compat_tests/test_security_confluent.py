"""confluent-kafka (librdkafka) against every listener and mechanism: what gets through works, what must not is
refused with the error librdkafka reports (_AUTHENTICATION with the broker's reason; all brokers down for a
rejected certificate; TOPIC_AUTHORIZATION_FAILED without ACLs), and nothing refused is written."""

from __future__ import annotations

from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaError, Producer

from . import security_setup
from .security_setup import PASSWORDS, SecureBroker, end_offset

secure = security_setup.secure  # this module's broker
QUIET = {"log_level": 3, "reconnect.backoff.ms": 500, "reconnect.backoff.max.ms": 2000}


def config(broker: SecureBroker, kind: str, user: str = "", password: str | None = None) -> dict[str, Any]:
    pki = broker.pki
    secret = PASSWORDS.get(user, "") if password is None else password
    sasl = {"sasl.username": user, "sasl.password": secret}
    ways: dict[str, dict[str, Any]] = {
        "plaintext": {"bootstrap.servers": broker.bootstrap("PLAINTEXT")},
        "ssl": {"bootstrap.servers": broker.bootstrap("SSL"), "security.protocol": "SSL",
                "ssl.ca.location": str(pki.ca)},
        "plain": {"bootstrap.servers": broker.bootstrap("SASL_PLAINTEXT"), "security.protocol": "SASL_PLAINTEXT",
                  "sasl.mechanism": "PLAIN", **sasl},
        "plain-ssl": {"bootstrap.servers": broker.bootstrap("SASL_SSL"), "security.protocol": "SASL_SSL",
                      "ssl.ca.location": str(pki.ca), "sasl.mechanism": "PLAIN", **sasl},
        "scram-sha-256": {"bootstrap.servers": broker.bootstrap("SASL_SSL"), "security.protocol": "SASL_SSL",
                          "ssl.ca.location": str(pki.ca), "sasl.mechanism": "SCRAM-SHA-256", **sasl},
        "scram-sha-512": {"bootstrap.servers": broker.bootstrap("SASL_SSL"), "security.protocol": "SASL_SSL",
                          "ssl.ca.location": str(pki.ca), "sasl.mechanism": "SCRAM-SHA-512", **sasl},
    }  # fmt: skip
    settings = {**QUIET, **ways[kind]}
    if kind == "ssl":
        cert = {"": pki.client, "untrusted": pki.untrusted, "expired": pki.expired}[user]
        settings.update({"ssl.certificate.location": str(cert.cert), "ssl.key.location": str(cert.key)})
    return settings


def produce(
    settings: dict[str, Any], topic: str, values: list[bytes]
) -> tuple[list[KafkaError | None], list[KafkaError]]:
    """Produce and wait (bounded): the delivery errors (None for delivered) and the client errors reported."""
    reported: list[KafkaError] = []
    producer = Producer({**settings, "message.timeout.ms": 4000, "error_cb": reported.append})
    delivered: list[KafkaError | None] = []
    for value in values:
        producer.produce(topic, value, on_delivery=lambda error, _message: delivered.append(error))
    producer.flush(10)
    return delivered, reported


@pytest.mark.parametrize(("kind", "user"), [("plaintext", ""), ("ssl", ""), ("plain", "bob"), ("plain-ssl", "alice"),
                                            ("scram-sha-256", "alice"), ("scram-sha-512", "alice")])  # fmt: skip
def test_produce_and_consume_through_each_listener(secure: SecureBroker, kind: str, user: str) -> None:
    topic = f"sec-ck-{kind}"
    values = [f"{kind}-{index}".encode() for index in range(3)]
    delivered, reported = produce(config(secure, kind, user), topic, values)
    assert delivered == [None, None, None], reported
    consumer = Consumer({**config(secure, kind, user), "group.id": f"sec-ck-{kind}", "auto.offset.reset": "earliest"})
    try:
        consumer.subscribe([topic])
        got: list[bytes] = []
        for _ in range(60):
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                got.append(message.value())
            if len(got) == 3:
                break
    finally:
        consumer.close()
    assert got == values


@pytest.mark.parametrize(
    ("kind", "user", "password", "reason"),
    [
        ("plain", "bob", "wrong-password", "Invalid username or password"),
        ("plain-ssl", "nobody", "x", "Invalid username or password"),
        ("scram-sha-256", "alice", "wrong-password", "invalid credentials with SASL mechanism SCRAM-SHA-256"),
        ("scram-sha-512", "nobody", "x", "invalid credentials with SASL mechanism SCRAM-SHA-512"),
    ],
)
def test_bad_credentials_are_refused(secure: SecureBroker, kind: str, user: str, password: str, reason: str) -> None:
    topic = f"sec-ck-refused-{kind}-{user}"
    delivered, reported = produce(config(secure, kind, user, password), topic, [b"must not be written"])
    assert [error.code() for error in delivered if error is not None] == [KafkaError._MSG_TIMED_OUT]
    authentication = [e for e in reported if e.code() == KafkaError._AUTHENTICATION]
    assert authentication and reason in authentication[0].str()
    assert end_offset(secure, topic) == 0


@pytest.mark.parametrize("certificate", ["untrusted", "expired"])
def test_bad_client_certificates_are_refused(secure: SecureBroker, certificate: str) -> None:
    topic = f"sec-ck-cert-{certificate}"
    delivered, reported = produce(config(secure, "ssl", certificate), topic, [b"must not be written"])
    assert [error.code() for error in delivered if error is not None] == [KafkaError._MSG_TIMED_OUT]
    assert KafkaError._ALL_BROKERS_DOWN in {e.code() for e in reported}
    assert end_offset(secure, topic) == 0


@pytest.mark.parametrize("kind", ["plain", "scram-sha-256"])
def test_a_principal_without_acls_is_refused_and_nothing_is_written(secure: SecureBroker, kind: str) -> None:
    topic = f"sec-ck-mallory-{kind}"
    delivered, _ = produce(config(secure, kind, "mallory"), topic, [b"must not be written"])
    assert [error.code() for error in delivered if error is not None] == [KafkaError.TOPIC_AUTHORIZATION_FAILED]
    assert end_offset(secure, topic) == 0
