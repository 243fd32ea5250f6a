"""Fuzz the SASL door and the authorizer: a SASL_PLAINTEXT listener with ACLs on, the same oracle as
``test_fuzz_requests.py`` (an answer or a clean close, no traceback, no ERROR line).

Each case opens a connection and walks the exchange with drawn steps: a SaslHandshake (v0 or v1) naming
a drawn mechanism, then a token (right or wrong PLAIN credentials, a SCRAM first message, random bytes)
as a raw v0 token or a SaslAuthenticate, then any request of any advertised API. Requests before
authentication, refused mechanisms and failed exchanges close the connection, as Kafka does; whatever
gets through runs under the authorizer (``allow.everyone.if.no.acl.found=true``, so random ACLs the
fuzz creates decide what is refused).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compat_tests.brokerproc import BrokerProcess, free_port
from rockafka.facade.protocol.messages.metadata import MetadataRequest
from rockafka.facade.protocol.messages.sasl_authenticate import SaslAuthenticateRequest
from rockafka.facade.protocol.messages.sasl_handshake import SaslHandshakeRequest

from .requests import BrokerLog, FuzzClient, requests
from .test_fuzz_requests import API_KEYS, FUZZ, RECORDS, SETTINGS

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "100")) * 4
PASSWORD = "alice-secret-1"
JAAS = f'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="{PASSWORD}" user_admin="a";'
MECHANISMS = st.sampled_from(["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "GSSAPI", "", "plain"])
TOKENS = st.sampled_from(
    [f"\0alice\0{PASSWORD}".encode(), b"\0alice\0wrong", b"admin\0alice\0x", b"", b"n,,n=alice,r=abcdef"]
) | st.binary(max_size=64)


@pytest.fixture(scope="module")
def sasl_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[BrokerProcess, int]]:
    plain, sasl = free_port(), free_port()
    process = BrokerProcess(
        tmp_path_factory.mktemp("sasl-fuzz"),
        {
            **SETTINGS,
            "listeners": f"PLAINTEXT://127.0.0.1:{plain},SASL_PLAINTEXT://127.0.0.1:{sasl}",
            "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256",
            "sasl.jaas.config": JAAS,
            "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "allow.everyone.if.no.acl.found": "true",
            "super.users": "User:admin",
        },
        port=plain,
    ).start()
    try:
        yield process, sasl
    finally:
        process.stop()


@pytest.fixture
def sasl_log(sasl_broker: tuple[BrokerProcess, int]) -> BrokerLog:
    return BrokerLog(sasl_broker[0].log_path)


@settings(FUZZ, max_examples=EXAMPLES)
@given(data=st.data())
def test_sasl_exchanges(sasl_broker: tuple[BrokerProcess, int], sasl_log: BrokerLog, data: Any) -> None:
    client = FuzzClient("127.0.0.1", sasl_broker[1])
    advertised = _advertised(client)
    try:
        steps = _walk(client, data, advertised)
    finally:
        client.drop()
    sasl_log.check(" -> ".join(steps))


def _walk(client: FuzzClient, data: Any, advertised: dict[int, tuple[int, int]]) -> list[str]:
    """The drawn exchange, step by step, until the broker closes; the steps taken (for the failure report)."""
    steps: list[str] = []
    if data.draw(st.booleans(), label="handshake"):
        version = data.draw(st.integers(0, 1), label="handshake version")
        mechanism = data.draw(MECHANISMS, label="mechanism")
        steps.append(f"SaslHandshake v{version} {mechanism!r}")
        if client.request(SaslHandshakeRequest(mechanism=mechanism), version, probe=False) == "closed":
            return steps
        token = data.draw(TOKENS, label="token")
        if version == 0:
            steps.append(f"raw token {token!r}")
            if client.raw_token(token) == "closed":
                return steps
        else:
            auth_version = data.draw(st.integers(*advertised[36]), label="authenticate version")
            steps.append(f"SaslAuthenticate v{auth_version} {token!r}")
            if client.request(SaslAuthenticateRequest(auth_bytes=token), auth_version, probe=False) == "closed":
                return steps
    api_key = data.draw(st.sampled_from(API_KEYS), label="api")
    version = data.draw(st.integers(*advertised[api_key]), label="version")
    body = data.draw(requests(api_key, version, RECORDS), label="request")
    steps.append(f"{body!r} v{version}")
    client.request(body, version)
    return steps


_ADVERTISED: dict[int, tuple[int, int]] = {}


def _advertised(client: FuzzClient) -> dict[int, tuple[int, int]]:
    """What the SASL listener advertises (ApiVersions is admitted before authentication), asked once."""
    if not _ADVERTISED:
        _ADVERTISED.update(client.api_versions())
    return _ADVERTISED


def test_the_sasl_listener_admits_alice(sasl_broker: tuple[BrokerProcess, int]) -> None:
    """The fuzz's right credentials are right: a handshake and PLAIN exchange authenticate."""
    client = FuzzClient("127.0.0.1", sasl_broker[1])
    try:
        assert client.request(SaslHandshakeRequest(mechanism="PLAIN"), 1, probe=False) == "answered"
        token = f"\0alice\0{PASSWORD}".encode()
        assert client.request(SaslAuthenticateRequest(auth_bytes=token), 2, probe=False) == "answered"
        assert client.request(MetadataRequest(topics=None), 12) == "answered"  # refused before authentication
    finally:
        client.drop()
