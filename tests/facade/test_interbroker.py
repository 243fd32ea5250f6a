"""The inter-broker client (``facade/interbroker.py``) against real brokers: one whose only listener asks SASL
(PLAIN and SCRAM-SHA-256 users) with ACLs on (a super user, and a user granted CLUSTER_ACTION), one whose listener
is SASL_SSL (SCRAM-SHA-512; certificates from the test PKI), one whose SSL listener requires client certificates.
The broker identities may send WriteTxnMarkers; a client's identity is refused CLUSTER_ACTION; a wrong password is
InterBrokerAuthError, never an answer; a certificate for another host fails the host name check unless
``ssl.endpoint.identification.algorithm`` is empty. And which listener, mechanism and identity a broker's settings
choose, as Kafka's do."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest

from compat_tests.tlscerts import KEY_PASSWORD, TestPki, make_pki
from rockafka.facade.config import BrokerConfig, InvalidConfigError, load_broker_config
from rockafka.facade.interbroker import (
    BrokerConnection,
    InterBrokerAuthError,
    InterBrokerError,
    InterBrokerSettings,
    Login,
    inter_broker_settings,
)
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.write_txn_markers import (
    WritableTxnMarker,
    WritableTxnMarkerTopic,
    WriteTxnMarkersRequest,
    WriteTxnMarkersResponse,
)
from rockafka.facade.security.acl import (
    AclBinding,
    AclEntry,
    AclOperation,
    AclPermission,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from rockafka.facade.security.acl_store import AclStore
from rockafka.facade.security.credentials import CredentialStore
from rockafka.facade.security.scram import ScramCredential, ScramMechanism
from rockafka.testing import Broker

JAAS = (
    'org.apache.kafka.common.security.plain.PlainLoginModule required username="broker" password="broker-secret" '
    'user_broker="broker-secret" user_alice="alice-secret";'
)
SCRAM_JAAS = 'org.apache.kafka.common.security.scram.ScramLoginModule required username="scram-broker" password="s3";'
SASL_SETTINGS = {
    "listener.security.protocol.map": "PLAINTEXT:SASL_PLAINTEXT",
    "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256",
    "sasl.jaas.config": JAAS,
    "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "super.users": "User:broker",
}
SCRAM_USERS = {"scram-broker": "s3", "carol": "carol-secret"}


def _seed_scram_users(data_dir: Path, mechanism: ScramMechanism) -> None:
    store = CredentialStore(data_dir)
    store.apply([(user, ScramCredential.from_password(mechanism, pw, 4096)) for user, pw in SCRAM_USERS.items()], [])


@pytest.fixture(scope="module")
def sasl_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    """``broker`` (PLAIN) is a super user; ``scram-broker`` (SCRAM) is granted CLUSTER_ACTION by an ACL."""
    data_dir = tmp_path_factory.mktemp("sasl-broker")
    _seed_scram_users(data_dir, ScramMechanism.SCRAM_SHA_256)
    cluster = ResourcePattern(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL)
    grant = AclEntry("User:scram-broker", "*", AclOperation.CLUSTER_ACTION, AclPermission.ALLOW)
    AclStore(data_dir).add([AclBinding(cluster, grant)])
    with Broker(settings=SASL_SETTINGS, data_dir=data_dir) as running:
        yield running


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> TestPki:
    return make_pki(tmp_path_factory.mktemp("pki"))


def _tls_settings(pki: TestPki) -> dict[str, str]:
    return {
        "listener.security.protocol.map": "PLAINTEXT:SASL_SSL",
        "ssl.keystore.location": str(pki.server_keystore),
        "ssl.key.password": KEY_PASSWORD,
        "ssl.truststore.location": str(pki.ca),
        "sasl.enabled.mechanisms": "SCRAM-SHA-512",
        "sasl.mechanism.inter.broker.protocol": "SCRAM-SHA-512",
        "listener.name.plaintext.scram-sha-512.sasl.jaas.config": SCRAM_JAAS,
    }


@pytest.fixture(scope="module")
def tls_broker(pki: TestPki, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    data_dir = tmp_path_factory.mktemp("tls-broker")
    _seed_scram_users(data_dir, ScramMechanism.SCRAM_SHA_512)
    with Broker(settings=_tls_settings(pki), data_dir=data_dir) as running:
        yield running


def _marker_answer(host: str, port: int, settings: InterBrokerSettings | None) -> ErrorCode:
    """WriteTxnMarkers for a topic the broker does not have, sent as ``settings`` say: the partition's answer."""
    marker = WritableTxnMarker(
        producer_id=5, producer_epoch=0, transaction_result=True,
        topics=[WritableTxnMarkerTopic(name="absent", partition_indexes=[0])],
    )  # fmt: skip

    async def send() -> WriteTxnMarkersResponse:
        connection = BrokerConnection(host, port, 10.0, settings)
        try:
            return await connection.request(WriteTxnMarkersRequest(markers=[marker]), 1, WriteTxnMarkersResponse)
        finally:
            connection.close()

    answer = asyncio.run(send())
    return ErrorCode.of(answer.markers[0].topics[0].partitions[0].error_code)


def _sasl(mechanism: str, user: str, password: str) -> InterBrokerSettings:
    return InterBrokerSettings("PLAINTEXT", "SASL_PLAINTEXT", Login(mechanism, user, password))


def test_the_broker_identity_may_write_markers(sasl_broker: Broker) -> None:
    for settings in (_sasl("PLAIN", "broker", "broker-secret"), _sasl("SCRAM-SHA-256", "scram-broker", "s3")):
        answer = _marker_answer("127.0.0.1", sasl_broker.port, settings)
        assert answer == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION  # authorized, then looked up


def test_a_client_identity_may_not(sasl_broker: Broker) -> None:
    for settings in (_sasl("PLAIN", "alice", "alice-secret"), _sasl("SCRAM-SHA-256", "carol", "carol-secret")):
        assert _marker_answer("127.0.0.1", sasl_broker.port, settings) == ErrorCode.CLUSTER_AUTHORIZATION_FAILED


def test_a_wrong_password_or_mechanism_is_refused(sasl_broker: Broker) -> None:
    with pytest.raises(InterBrokerAuthError, match="authenticating as 'broker'"):
        _marker_answer("127.0.0.1", sasl_broker.port, _sasl("PLAIN", "broker", "wrong"))
    with pytest.raises(InterBrokerAuthError, match="authenticating as 'scram-broker'"):
        _marker_answer("127.0.0.1", sasl_broker.port, _sasl("SCRAM-SHA-256", "scram-broker", "wrong"))
    with pytest.raises(InterBrokerAuthError, match="SaslHandshake SCRAM-SHA-512 answered UNSUPPORTED_SASL_MECHANISM"):
        _marker_answer("127.0.0.1", sasl_broker.port, _sasl("SCRAM-SHA-512", "scram-broker", "s3"))


def test_sasl_ssl_with_scram_and_host_names_checked(tls_broker: Broker, pki: TestPki) -> None:
    config = _config(_tls_settings(pki))
    settings = inter_broker_settings(config)
    assert settings.describe() == "listener PLAINTEXT (SASL_SSL, SCRAM-SHA-512 as scram-broker)"
    assert _marker_answer("127.0.0.1", tls_broker.port, settings) == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    with pytest.raises(InterBrokerAuthError, match=r"TLS: .*(mismatch|not valid)"):  # names 127.0.0.1, not "127.1"
        _marker_answer("127.1", tls_broker.port, settings)
    unchecked = inter_broker_settings(_config({**_tls_settings(pki), "ssl.endpoint.identification.algorithm": ""}))
    assert _marker_answer("127.1", tls_broker.port, unchecked) == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION


def test_an_untrusted_broker_is_refused(tls_broker: Broker, pki: TestPki) -> None:
    untrusted = {**_tls_settings(pki), "ssl.truststore.location": str(pki.untrusted.cert)}
    with pytest.raises(InterBrokerAuthError, match=r"TLS: .*certificate"):
        _marker_answer("127.0.0.1", tls_broker.port, inter_broker_settings(_config(untrusted)))


def test_an_ssl_listener_requiring_certificates_takes_the_brokers_own(pki: TestPki) -> None:
    """Client certificates required: the broker presents its keystore's certificate, as Kafka's brokers do."""
    settings = {
        "listener.security.protocol.map": "PLAINTEXT:SSL",
        "ssl.keystore.location": str(pki.server_keystore),
        "ssl.key.password": KEY_PASSWORD,
        "ssl.truststore.location": str(pki.ca),
        "ssl.client.auth": "required",
    }
    with Broker(settings=settings) as broker:
        interbroker = inter_broker_settings(_config(settings))
        assert _marker_answer("127.0.0.1", broker.port, interbroker) == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        without_keystore = InterBrokerSettings("PLAINTEXT", "SSL", None, ssl.create_default_context(cafile=pki.ca))
        with pytest.raises(InterBrokerError):  # the handshake fails without a certificate
            _marker_answer("127.0.0.1", broker.port, without_keystore)


def test_the_listener_mechanism_and_identity_follow_kafkas_settings() -> None:
    assert inter_broker_settings(_config({})) == InterBrokerSettings("PLAINTEXT", "PLAINTEXT")
    assert inter_broker_settings(_config(SASL_SETTINGS)).login == Login("PLAIN", "broker", "broker-secret")
    two = {
        "listeners": "CLIENTS://127.0.0.1:9092,INTERNAL://127.0.0.1:9093",
        "listener.security.protocol.map": "CLIENTS:PLAINTEXT,INTERNAL:SASL_PLAINTEXT",
        "sasl.mechanism.inter.broker.protocol": "SCRAM-SHA-256",
        "listener.name.internal.scram-sha-256.sasl.jaas.config": SCRAM_JAAS,
    }
    chosen = inter_broker_settings(_config({**two, "inter.broker.listener.name": "INTERNAL"}))
    assert chosen == InterBrokerSettings("INTERNAL", "SASL_PLAINTEXT", Login("SCRAM-SHA-256", "scram-broker", "s3"))
    assert inter_broker_settings(_config(two)).listener == "CLIENTS"  # neither setting: the first listener
    by_protocol = {**two, "listeners": "CLIENTS://127.0.0.1:9092,SASL_PLAINTEXT://127.0.0.1:9093",
                   "listener.security.protocol.map": "CLIENTS:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT",
                   "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config": SCRAM_JAAS,
                   "security.inter.broker.protocol": "SASL_PLAINTEXT"}  # fmt: skip
    assert inter_broker_settings(_config(by_protocol)).listener == "SASL_PLAINTEXT"


def test_settings_that_cannot_work_are_one_line() -> None:
    with pytest.raises(InvalidConfigError, match="names no advertised listener"):
        _config({"inter.broker.listener.name": "INTERNAL"})
    with pytest.raises(InvalidConfigError, match=r"only one of it and security\.inter\.broker\.protocol"):
        _config({"inter.broker.listener.name": "PLAINTEXT", "security.inter.broker.protocol": "PLAINTEXT"})
    without_identity = {**SASL_SETTINGS, "sasl.jaas.config": JAAS.replace('username="broker" ', "")}
    with pytest.raises(InterBrokerError, match="no PlainLoginModule with a username and password"):
        inter_broker_settings(_config(without_identity))
    not_offered = {**SASL_SETTINGS, "sasl.mechanism.inter.broker.protocol": "SCRAM-SHA-512"}
    with pytest.raises(InterBrokerError, match=r"SCRAM-SHA-512 is not in its sasl\.enabled\.mechanisms"):
        inter_broker_settings(_config(not_offered))
    no_truststore = {"listener.security.protocol.map": "PLAINTEXT:SSL", "ssl.truststore.location": "/nonexistent.pem"}
    with pytest.raises(InterBrokerError, match="cannot load the truststore"):
        inter_broker_settings(_config(no_truststore))


def _config(settings: dict[str, str]) -> BrokerConfig:
    values = {"listeners": "PLAINTEXT://127.0.0.1:9092", **settings}
    return load_broker_config(overrides=[f"{key}={value}" for key, value in values.items()])
