"""aiokafka against every listener and mechanism: what gets through works, what must not is refused with the
error aiokafka reports (SaslAuthenticationFailed logged, KafkaConnectionError raised; a closed TLS connection
for a bad certificate; TopicAuthorizationFailedError without ACLs), and nothing refused is written."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from aiokafka.errors import KafkaConnectionError, TopicAuthorizationFailedError
from aiokafka.helpers import create_ssl_context

from . import security_setup
from .security_setup import PASSWORDS, SecureBroker, end_offset

secure = security_setup.secure  # this module's broker


def settings(broker: SecureBroker, kind: str, user: str = "", password: str | None = None) -> dict[str, Any]:
    pki = broker.pki
    secret = PASSWORDS.get(user, "") if password is None else password
    sasl = {"sasl_plain_username": user, "sasl_plain_password": secret}
    if kind == "plaintext":
        return {"bootstrap_servers": broker.bootstrap("PLAINTEXT")}
    if kind == "ssl":
        cert = {"": pki.client, "untrusted": pki.untrusted, "expired": pki.expired}[user]
        context = create_ssl_context(cafile=str(pki.ca), certfile=str(cert.cert), keyfile=str(cert.key))
        return {"bootstrap_servers": broker.bootstrap("SSL"), "security_protocol": "SSL", "ssl_context": context}
    if kind == "plain":
        return {"bootstrap_servers": broker.bootstrap("SASL_PLAINTEXT"), "security_protocol": "SASL_PLAINTEXT",
                "sasl_mechanism": "PLAIN", **sasl}  # fmt: skip
    return {"bootstrap_servers": broker.bootstrap("SASL_SSL"), "security_protocol": "SASL_SSL",
            "ssl_context": create_ssl_context(cafile=str(pki.ca)), "sasl_mechanism": kind.upper(), **sasl}  # fmt: skip


async def produce(config: dict[str, Any], topic: str, values: list[bytes]) -> None:
    producer = AIOKafkaProducer(request_timeout_ms=5000, **config)
    await producer.start()
    try:
        for value in values:
            await producer.send_and_wait(topic, value)
    finally:
        await producer.stop()


async def consume(config: dict[str, Any], topic: str, count: int) -> list[bytes]:
    consumer = AIOKafkaConsumer(topic, group_id=f"{topic}-group", auto_offset_reset="earliest", **config)
    await consumer.start()
    try:
        got: list[bytes] = []
        while len(got) < count:
            batch = await consumer.getmany(timeout_ms=1000)
            got += [message.value for messages in batch.values() for message in messages]
        return got
    finally:
        await consumer.stop()


@pytest.mark.parametrize(("kind", "user"), [("plaintext", ""), ("ssl", ""), ("plain", "bob"),
                                            ("scram-sha-256", "alice"), ("scram-sha-512", "alice")])  # fmt: skip
def test_produce_and_consume_through_each_listener(secure: SecureBroker, kind: str, user: str) -> None:
    topic = f"sec-aio-{kind}"
    values = [f"{kind}-{index}".encode() for index in range(3)]

    async def roundtrip() -> list[bytes]:
        await produce(settings(secure, kind, user), topic, values)
        return await asyncio.wait_for(consume(settings(secure, kind, user), topic, 3), 30)

    assert asyncio.run(roundtrip()) == values


@pytest.mark.parametrize(
    ("kind", "user", "password", "reason"),
    [
        ("plain", "bob", "wrong-password", "Invalid username or password"),
        ("plain", "nobody", "x", "Invalid username or password"),
        ("scram-sha-512", "alice", "wrong-password", "invalid credentials with SASL mechanism SCRAM-SHA-512"),
        ("scram-sha-256", "nobody", "x", "invalid credentials with SASL mechanism SCRAM-SHA-256"),
    ],
)
def test_bad_credentials_are_refused(
    secure: SecureBroker, caplog: pytest.LogCaptureFixture, kind: str, user: str, password: str, reason: str
) -> None:
    topic = f"sec-aio-refused-{kind}-{user}"
    caplog.set_level(logging.ERROR, logger="aiokafka")
    with pytest.raises(KafkaConnectionError):
        asyncio.run(produce(settings(secure, kind, user, password), topic, [b"must not be written"]))
    assert any("SaslAuthenticationFailed" in r.getMessage() and reason in r.getMessage() for r in caplog.records)
    assert end_offset(secure, topic) == 0


@pytest.mark.parametrize("certificate", ["untrusted", "expired"])
def test_bad_client_certificates_are_refused(secure: SecureBroker, certificate: str) -> None:
    topic = f"sec-aio-cert-{certificate}"
    with pytest.raises(KafkaConnectionError):
        asyncio.run(produce(settings(secure, "ssl", certificate), topic, [b"must not be written"]))
    assert end_offset(secure, topic) == 0


@pytest.mark.parametrize("kind", ["plain", "scram-sha-512"])
def test_a_principal_without_acls_is_refused_and_nothing_is_written(secure: SecureBroker, kind: str) -> None:
    topic = f"sec-aio-mallory-{kind}"
    with pytest.raises(TopicAuthorizationFailedError):
        asyncio.run(produce(settings(secure, kind, "mallory"), topic, [b"must not be written"]))
    assert end_offset(secure, topic) == 0
