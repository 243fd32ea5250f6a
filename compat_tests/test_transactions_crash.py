"""kill -9 of the broker in the middle of transactions, then a restart on the same data directory.

Before the crash: a confluent-kafka producer has a transaction open over both partitions of a topic, holding
records and the consumed offset of a group; a second transactional producer (raw wire) has left a transaction
open and gone away. After the restart: the last stable offsets still stop at the open transactions; the
confluent producer commits its transaction (the coordinator kept it), which makes its records visible and its
group offset committed; the abandoned transaction is aborted at its timeout, its records visible to
read_uncommitted only (the aborted index); the producer goes on with another transaction (its sequence state
survived). A second kill -9 changes none of what read_committed and read_uncommitted see.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaException, Producer
from confluent_kafka import TopicPartition as ConfluentPartition
from kafka.record.default_records import DefaultRecordBatchBuilder

from rockafka.facade.protocol.messages import add_partitions_to_txn as ap
from rockafka.facade.protocol.messages import describe_transactions as dt
from rockafka.facade.protocol.messages import init_producer_id as ip
from rockafka.facade.protocol.messages import produce as pr

from .brokerproc import BrokerProcess
from .clients.fixtures import SMALL_STORE
from .clients.wire import RawClient
from .txnscenario import TXN_BROKER_SETTINGS, committed_offsets, create_topics, end_offsets, read_all

OUT, SOURCE, GROUP = "crash-out", "crash-in", "crash-group"
WAIT_S = 15.0


@pytest.fixture
def crashing_broker(tmp_path: Path) -> Iterator[BrokerProcess]:
    process = BrokerProcess(tmp_path / "broker", {**SMALL_STORE, **TXN_BROKER_SETTINGS}).start()
    try:
        yield process
    finally:
        process.kill()


def abandon_a_transaction(bootstrap: str, count: int) -> None:
    """Begin a transaction on partition 0 of OUT over the wire, write ``count`` records in it, and go away."""
    with RawClient(bootstrap) as client:
        init = client.request(ip.InitProducerIdRequest(transactional_id="abandoned", transaction_timeout_ms=3000), 4,
                              ip.InitProducerIdResponse)  # fmt: skip
        assert init.error_code == 0
        add = ap.AddPartitionsToTxnRequest(
            v3_and_below_transactional_id="abandoned", v3_and_below_producer_id=init.producer_id,
            v3_and_below_producer_epoch=init.producer_epoch,
            v3_and_below_topics=[ap.AddPartitionsToTxnTopic(name=OUT, partitions=[0])],
        )  # fmt: skip
        added = client.request(add, 3, ap.AddPartitionsToTxnResponse)
        assert added.results_by_topic_v3_and_below[0].results_by_partition[0].partition_error_code == 0
        builder = DefaultRecordBatchBuilder(
            magic=2, compression_type=0, is_transactional=1, producer_id=init.producer_id,
            producer_epoch=init.producer_epoch, base_sequence=0, batch_size=1 << 20,
        )  # fmt: skip
        for index in range(count):
            builder.append(
                index, timestamp=int(time.time() * 1000), key=None, value=b"abandoned-%d" % index, headers=[]
            )
        data = [
            pr.TopicProduceData(
                name=OUT, partition_data=[pr.PartitionProduceData(index=0, records=bytes(builder.build()))]
            )
        ]
        request = pr.ProduceRequest(transactional_id="abandoned", acks=-1, timeout_ms=5000, topic_data=data)
        produced = client.request(request, 9, pr.ProduceResponse)
        assert produced.responses[0].partition_responses[0].error_code == 0


def transaction_state(bootstrap: str, name: str) -> str:
    with RawClient(bootstrap) as client:
        answer = client.request(
            dt.DescribeTransactionsRequest(transactional_ids=[name]), 0, dt.DescribeTransactionsResponse
        )
    return answer.transaction_states[0].transaction_state


def wait_for(condition: object, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {WAIT_S}s: {what}")


def test_transactions_across_kill_9(crashing_broker: BrokerProcess) -> None:
    broker = crashing_broker
    bootstrap = broker.bootstrap
    create_topics(bootstrap, **{OUT: 2, SOURCE: 1})
    abandon_a_transaction(bootstrap, 4)
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": "survivor", "linger.ms": 5,
                         "transaction.timeout.ms": 60_000, "reconnect.backoff.max.ms": 500})  # fmt: skip
    group = Consumer({"bootstrap.servers": bootstrap, "group.id": GROUP, "enable.auto.commit": False})
    try:
        producer.init_transactions(20)
        producer.begin_transaction()
        for index in range(10):
            producer.produce(OUT, b"kept-%d" % index, partition=index % 2)
        producer.send_offsets_to_transaction([ConfluentPartition(SOURCE, 0, 42)], group.consumer_group_metadata(), 20)
        assert producer.flush(10) == 0
        assert end_offsets(bootstrap, OUT, 2, committed=True) == [0, 0]

        broker.restart(crash=True)

        assert end_offsets(bootstrap, OUT, 2, committed=False) == [9, 5]
        # partition 0 stops at the abandoned transaction (0) or, once its timeout aborted it, at the survivor's (4)
        assert end_offsets(bootstrap, OUT, 2, committed=True) in ([0, 0], [4, 0])
        assert transaction_state(bootstrap, "survivor") == "Ongoing"
        producer.commit_transaction(30)
        assert committed_offsets(bootstrap, GROUP, SOURCE, 1) == [42]
        wait_for(
            lambda: transaction_state(bootstrap, "abandoned") == "CompleteAbort", "the abandoned transaction aborted"
        )
        wait_for(lambda: end_offsets(bootstrap, OUT, 2, committed=True) == [11, 6], "the LSO past both markers")

        kept = sorted(b"kept-%d" % i for i in range(10))
        abandoned = sorted(b"abandoned-%d" % i for i in range(4))
        assert sorted(read_all(bootstrap, OUT, 2, committed=True)) == kept
        assert sorted(read_all(bootstrap, OUT, 2, committed=False)) == sorted(kept + abandoned)

        producer.begin_transaction()  # the producer goes on: its sequences are still in order on the broker
        for index in range(10, 14):
            producer.produce(OUT, b"kept-%d" % index, partition=index % 2)
        producer.commit_transaction(30)
        kept = sorted(b"kept-%d" % i for i in range(14))
        assert sorted(read_all(bootstrap, OUT, 2, committed=True)) == kept

        broker.restart(crash=True)

        assert sorted(read_all(bootstrap, OUT, 2, committed=True)) == kept
        assert sorted(read_all(bootstrap, OUT, 2, committed=False)) == sorted(kept + abandoned)
        assert end_offsets(bootstrap, OUT, 2, committed=True) == end_offsets(bootstrap, OUT, 2, committed=False)
        assert committed_offsets(bootstrap, GROUP, SOURCE, 1) == [42]
        assert (transaction_state(bootstrap, "survivor"), transaction_state(bootstrap, "abandoned")) == (
            "CompleteCommit", "CompleteAbort",
        )  # fmt: skip
    finally:
        group.close()
        with contextlib.suppress(KafkaException):
            producer.flush(1)
