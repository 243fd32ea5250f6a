"""A data directory written by an earlier Rockafka keeps every committed offset, group and transactional id.

``golden/store-f1dc1b5/`` holds the side files that main at f1dc1b5 (the last version that kept coordinator state
in side files) wrote while real clients worked against it: kafka-python committed offsets of a simple consumer
(``g-simple``: 5 with metadata "five" and 7) and of a subscribed group that then left (``g-subscribed``: 10 and 10,
leader epoch 0), and a confluent-kafka transactional producer (``tx-upgraded``, producer id 1, epoch 0) committed
one transaction. A broker of this version that finds them in its data directory moves them into
``__consumer_offsets`` and ``__transaction_state`` once, renames the offsets and group files ``*.migrated`` and
drops the transactional id from the producer documents; clients see the same state before and after a restart.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, TopicPartition

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.describe_transactions import (
    DescribeTransactionsRequest,
    DescribeTransactionsResponse,
)
from rockafka.store.groups import GroupMetadataLog

from .brokerproc import BrokerProcess
from .clients.fixtures import QUIET_KAFKA_PYTHON
from .clients.wire import RawClient

pytestmark = [QUIET_KAFKA_PYTHON]

GOLDEN = Path(__file__).parent / "golden" / "store-f1dc1b5"
#: The golden commits are from November 2026: no retention or expiry pass may touch them during the test.
SETTINGS = {"offsets.retention.minutes": str(100 * 365 * 24 * 60), "transactional.id.expiration.ms": str(2**31 - 1)}


@pytest.fixture
def upgraded(tmp_path: Path) -> Iterator[BrokerProcess]:
    broker = BrokerProcess(tmp_path / "broker", dict(SETTINGS))
    config = broker.data_dir / "config"
    config.mkdir(parents=True)
    for name in ("consumerOffsets.log", "groupMetadata.log", "producerState.log"):
        shutil.copy(GOLDEN / name, config / name)
    broker.start()
    try:
        yield broker
    finally:
        broker.kill()


def _offsets(admin: KafkaAdminClient, group: str) -> dict[int, tuple[int, str, int]]:
    found = admin.list_group_offsets(group)[group]
    return {tp.partition: (meta.offset, meta.metadata, meta.leader_epoch) for tp, meta in found.items()}


def _check_state(broker: BrokerProcess) -> None:
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        assert _offsets(admin, "g-simple") == {0: (5, "five", -1), 1: (7, "", -1)}
        assert _offsets(admin, "g-subscribed") == {0: (10, "", 0), 1: (10, "", 0)}
        groups = {g["group_id"]: (g["group_state"], g["protocol_type"]) for g in admin.list_groups()}
        assert groups == {"g-simple": ("Empty", ""), "g-subscribed": ("Empty", "consumer")}
        assert admin.list_group_offsets("g-simple")["g-simple"][TopicPartition("upgraded", 0)].offset == 5
    finally:
        admin.close()
    with RawClient(broker.bootstrap) as raw:
        described = raw.request(
            DescribeTransactionsRequest(transactional_ids=["tx-upgraded"]), 0, DescribeTransactionsResponse
        )
    (state,) = described.transaction_states
    assert (state.error_code, state.transaction_state) == (ErrorCode.NONE, "CompleteCommit")
    assert (state.producer_id, state.producer_epoch) == (1, 0)


def test_a_store_of_main_keeps_offsets_groups_and_transactional_ids(upgraded: BrokerProcess) -> None:
    _check_state(upgraded)
    config = upgraded.data_dir / "config"
    assert sorted(path.name for path in config.glob("*.migrated")) == [
        "consumerOffsets.log.migrated",
        "groupMetadata.log.migrated",
    ]
    assert upgraded.stop() == 0
    producer_documents = GroupMetadataLog(config, 1 << 30, name="producerState")
    producer_documents.load()
    keys = set(producer_documents.documents())
    assert "producer-id-block" in keys and not {key for key in keys if key.startswith("txn:")}  # moved
    producer_documents.close()
    upgraded.start()  # the state comes from the internal topics alone now
    _check_state(upgraded)
