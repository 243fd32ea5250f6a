"""How a broker authenticates to another (``facade/interbroker.py``), against a real broker whose listener asks
SASL PLAIN with ACLs on: the broker identity of the JAAS line (a super user) may send WriteTxnMarkers; a client's
identity is refused CLUSTER_ACTION; a wrong password gets no answer at all. And which listeners a broker can use
to reach the others."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from rockafka.facade.config import load_broker_config
from rockafka.facade.interbroker import BrokerConnection, InterBrokerError, PlainLogin, inter_broker_login
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.write_txn_markers import (
    WritableTxnMarker,
    WritableTxnMarkerTopic,
    WriteTxnMarkersRequest,
    WriteTxnMarkersResponse,
)
from rockafka.testing import Broker

JAAS = (
    'org.apache.kafka.common.security.plain.PlainLoginModule required username="broker" password="broker-secret" '
    'user_broker="broker-secret" user_alice="alice-secret";'
)
SASL_SETTINGS = {
    "listener.security.protocol.map": "PLAINTEXT:SASL_PLAINTEXT",
    "sasl.enabled.mechanisms": "PLAIN",
    "sasl.jaas.config": JAAS,
    "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "super.users": "User:broker",
}


@pytest.fixture(scope="module")
def sasl_broker() -> Iterator[Broker]:
    with Broker(settings=SASL_SETTINGS) as running:
        yield running


def _marker_answer(broker: Broker, login: PlainLogin | None) -> ErrorCode:
    """WriteTxnMarkers for a topic the broker does not have, sent as ``login``: the partition's answer."""
    marker = WritableTxnMarker(
        producer_id=5, producer_epoch=0, transaction_result=True,
        topics=[WritableTxnMarkerTopic(name="absent", partition_indexes=[0])],
    )  # fmt: skip

    async def send() -> WriteTxnMarkersResponse:
        connection = BrokerConnection("127.0.0.1", broker.port, 10.0, login)
        try:
            return await connection.request(WriteTxnMarkersRequest(markers=[marker]), 1, WriteTxnMarkersResponse)
        finally:
            connection.close()

    answer = asyncio.run(send())
    return ErrorCode.of(answer.markers[0].topics[0].partitions[0].error_code)


def test_the_broker_identity_may_write_markers(sasl_broker: Broker) -> None:
    login = PlainLogin("broker", "broker-secret")
    assert _marker_answer(sasl_broker, login) == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION  # authorized, then looked up


def test_a_client_identity_may_not(sasl_broker: Broker) -> None:
    assert _marker_answer(sasl_broker, PlainLogin("alice", "alice-secret")) == ErrorCode.CLUSTER_AUTHORIZATION_FAILED


def test_a_wrong_password_is_no_answer(sasl_broker: Broker) -> None:
    with pytest.raises(InterBrokerError, match="authenticating as 'broker'"):
        _marker_answer(sasl_broker, PlainLogin("broker", "wrong"))


def test_the_login_comes_from_the_advertised_listener() -> None:
    assert inter_broker_login(load_broker_config(overrides=["listeners=PLAINTEXT://127.0.0.1:9092"])) is None
    sasl = load_broker_config(overrides=["listeners=PLAINTEXT://127.0.0.1:9092", *_pairs(SASL_SETTINGS)])
    assert inter_broker_login(sasl) == PlainLogin("broker", "broker-secret")
    without_identity = {**SASL_SETTINGS, "sasl.jaas.config": JAAS.replace('username="broker" ', "")}
    config = load_broker_config(overrides=["listeners=PLAINTEXT://127.0.0.1:9092", *_pairs(without_identity)])
    with pytest.raises(InterBrokerError, match="no username and password"):
        inter_broker_login(config)


def _pairs(settings: dict[str, str]) -> list[str]:
    return [f"{key}={value}" for key, value in settings.items()]
