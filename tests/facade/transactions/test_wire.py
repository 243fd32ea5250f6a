"""The transaction APIs over a real socket to an in-process broker, at every version: a whole transaction
(InitProducerId, AddPartitionsToTxn, Produce, AddOffsetsToTxn, TxnOffsetCommit, EndTxn) at each version level,
Kafka's per-partition errors, PRODUCER_FENCED versus INVALID_PRODUCER_EPOCH by version, a stale marker refused,
the batched v4+ AddPartitionsToTxn with verify_only, OffsetFetch require_stable, DescribeTransactions and
ListTransactions."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from rockafka.facade.handlers import HANDLERS
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages import add_offsets_to_txn as ao
from rockafka.facade.protocol.messages import add_partitions_to_txn as ap
from rockafka.facade.protocol.messages import create_topics as ct
from rockafka.facade.protocol.messages import describe_transactions as dt
from rockafka.facade.protocol.messages import end_txn as et
from rockafka.facade.protocol.messages import find_coordinator as fc
from rockafka.facade.protocol.messages import init_producer_id as ip
from rockafka.facade.protocol.messages import list_offsets as lo
from rockafka.facade.protocol.messages import list_transactions as lt
from rockafka.facade.protocol.messages import offset_fetch as of
from rockafka.facade.protocol.messages import produce as pr
from rockafka.facade.protocol.messages import txn_offset_commit as tc
from rockafka.facade.protocol.messages import write_txn_markers as wm
from rockafka.facade.topology import BrokerAddress
from rockafka.facade.transactions.markers import Marker, MarkerDelivery
from rockafka.store import TopicPartition
from rockafka.testing import Broker

from .helpers import txn_batch
from .wire import WireClient

RANGES = {22: (0, 5), 24: (0, 5), 25: (0, 4), 26: (0, 4), 28: (0, 4), 65: (0, 0), 66: (0, 1)}


@pytest.fixture(scope="module")
def bootstrap() -> Iterator[str]:
    with Broker() as broker:
        with WireClient(broker.bootstrap) as client:
            topics = [ct.CreatableTopic(name=name, num_partitions=2, replication_factor=1) for name in ("out", "in")]
            created = client.call(ct.CreateTopicsRequest(topics=topics, timeout_ms=5000), ct.CreateTopicsResponse, 5)
            assert [t.error_code for t in created.topics] == [0, 0]
        yield broker.bootstrap


def test_the_transaction_apis_are_advertised() -> None:
    assert {key: (HANDLERS[key].min_version, HANDLERS[key].max_version) for key in RANGES} == RANGES


def test_find_coordinator_answers_transaction_keys(bootstrap: str) -> None:
    with WireClient(bootstrap) as client:
        one = client.call(fc.FindCoordinatorRequest(key="tx", key_type=1), fc.FindCoordinatorResponse, 3)
        assert (one.error_code, one.node_id, f"{one.host}:{one.port}") == (0, 0, bootstrap)
        many = client.call(
            fc.FindCoordinatorRequest(key_type=1, coordinator_keys=["a", "b"]), fc.FindCoordinatorResponse, 4
        )
        assert [(c.key, c.error_code, c.node_id) for c in many.coordinators] == [("a", 0, 0), ("b", 0, 0)]


def init(client: WireClient, name: str, version: int = 4, timeout_ms: int = 60_000) -> tuple[int, int]:
    answer = client.call(
        ip.InitProducerIdRequest(transactional_id=name, transaction_timeout_ms=timeout_ms), ip.InitProducerIdResponse,
        version,
    )  # fmt: skip
    assert answer.error_code == 0
    return answer.producer_id, answer.producer_epoch


def add_partitions(
    client: WireClient, version: int, name: str, pid: int, epoch: int, topics: dict[str, list[int]]
) -> dict[tuple[str, int], int]:
    wanted = [ap.AddPartitionsToTxnTopic(name=topic, partitions=parts) for topic, parts in topics.items()]
    if version >= 4:
        txn = ap.AddPartitionsToTxnTransaction(
            transactional_id=name, producer_id=pid, producer_epoch=epoch, topics=wanted
        )
        answer = client.call(ap.AddPartitionsToTxnRequest(transactions=[txn]), ap.AddPartitionsToTxnResponse, version)
        assert answer.error_code == 0
        (result,) = answer.results_by_transaction
        results = result.topic_results
    else:
        request = ap.AddPartitionsToTxnRequest(
            v3_and_below_transactional_id=name, v3_and_below_producer_id=pid, v3_and_below_producer_epoch=epoch,
            v3_and_below_topics=wanted,
        )  # fmt: skip
        results = client.call(request, ap.AddPartitionsToTxnResponse, version).results_by_topic_v3_and_below
    return {(t.name, p.partition_index): p.partition_error_code for t in results for p in t.results_by_partition}


def produce(client: WireClient, name: str | None, topic: str, partition: int, batch: bytes) -> int:
    data = [pr.TopicProduceData(name=topic, partition_data=[pr.PartitionProduceData(index=partition, records=batch)])]
    answer = client.call(pr.ProduceRequest(transactional_id=name, acks=-1, timeout_ms=5000, topic_data=data),
                         pr.ProduceResponse, 9)  # fmt: skip
    return answer.responses[0].partition_responses[0].error_code


def fetch_offset(client: WireClient, group: str, topic: str, partition: int) -> tuple[int, int]:
    topics = [of.OffsetFetchRequestTopic(name=topic, partition_indexes=[partition])]
    answer = client.call(
        of.OffsetFetchRequest(group_id=group, topics=topics, require_stable=True), of.OffsetFetchResponse, 7
    )
    found = answer.topics[0].partitions[0]
    return found.error_code, found.committed_offset


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_a_whole_transaction_at_each_version(bootstrap: str, level: int) -> None:
    name, group = f"whole-{level}", f"group-{level}"
    with WireClient(bootstrap) as client:
        pid, epoch = init(client, name)
        assert add_partitions(client, min(level, 3), name, pid, epoch, {"out": [0, 1]}) == {
            ("out", 0): 0,
            ("out", 1): 0,
        }
        assert produce(client, name, "out", level % 2, txn_batch(pid, epoch, 0)) == 0
        added = client.call(ao.AddOffsetsToTxnRequest(transactional_id=name, producer_id=pid, producer_epoch=epoch,
                                                      group_id=group), ao.AddOffsetsToTxnResponse, level)  # fmt: skip
        assert added.error_code == 0
        held = tc.TxnOffsetCommitRequestPartition(
            partition_index=0, committed_offset=40 + level, committed_metadata=None
        )
        too_long = tc.TxnOffsetCommitRequestPartition(
            partition_index=9, committed_offset=1, committed_metadata="x" * 5000
        )
        nowhere = tc.TxnOffsetCommitRequestPartition(partition_index=0, committed_offset=1)
        commit = tc.TxnOffsetCommitRequest(
            transactional_id=name, group_id=group, producer_id=pid, producer_epoch=epoch,
            topics=[tc.TxnOffsetCommitRequestTopic(name="in", partitions=[held, too_long]),
                    tc.TxnOffsetCommitRequestTopic(name="missing", partitions=[nowhere])],
        )  # fmt: skip
        answer = client.call(commit, tc.TxnOffsetCommitResponse, level)
        assert [(t.name, [(p.partition_index, p.error_code) for p in t.partitions]) for t in answer.topics] == [
            ("in", [(0, 0), (9, ErrorCode.OFFSET_METADATA_TOO_LARGE)]),
            ("missing", [(0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)]),
        ]
        assert fetch_offset(client, group, "in", 0) == (ErrorCode.UNSTABLE_OFFSET_COMMIT, -1)
        end = et.EndTxnRequest(transactional_id=name, producer_id=pid, producer_epoch=epoch, committed=True)
        assert client.call(end, et.EndTxnResponse, level).error_code == 0
        assert fetch_offset(client, group, "in", 0) == (0, 40 + level)
        # a transactional batch after the commit belongs to no transaction
        assert produce(client, name, "out", 0, txn_batch(pid, epoch, 2)) == ErrorCode.INVALID_TXN_STATE


def test_unknown_partitions_fail_the_whole_add(bootstrap: str) -> None:
    with WireClient(bootstrap) as client:
        pid, epoch = init(client, "unknown-parts")
        assert add_partitions(client, 3, "unknown-parts", pid, epoch, {"out": [0, 7], "nope": [0]}) == {
            ("out", 0): ErrorCode.OPERATION_NOT_ATTEMPTED,
            ("out", 7): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
            ("nope", 0): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        }
        assert add_partitions(client, 3, "unknown-parts", pid + 1, epoch, {"out": [0]}) == {
            ("out", 0): ErrorCode.INVALID_PRODUCER_ID_MAPPING
        }
        assert produce(client, "unknown-parts", "out", 0, txn_batch(pid, epoch, 0)) == ErrorCode.INVALID_TXN_STATE


STALE = ErrorCode.INVALID_PRODUCER_EPOCH


@pytest.mark.parametrize(("version", "code"), [(0, STALE), (1, STALE), (2, ErrorCode.PRODUCER_FENCED),
                                               (4, ErrorCode.PRODUCER_FENCED)])  # fmt: skip
def test_a_fenced_producer_is_told_as_its_version_knows(bootstrap: str, version: int, code: ErrorCode) -> None:
    name = f"fenced-{version}"
    with WireClient(bootstrap) as client:
        pid, epoch = init(client, name)
        init(client, name)  # a newer producer takes the id: the epoch moves on
        end = et.EndTxnRequest(transactional_id=name, producer_id=pid, producer_epoch=epoch, committed=False)
        assert client.call(end, et.EndTxnResponse, version).error_code == code
        add = ao.AddOffsetsToTxnRequest(transactional_id=name, producer_id=pid, producer_epoch=epoch, group_id="g")
        assert client.call(add, ao.AddOffsetsToTxnResponse, version).error_code == code
        assert add_partitions(client, min(version, 3), name, pid, epoch, {"out": [0]}) == {("out", 0): code}


def test_init_producer_id_fences_an_ongoing_transaction(bootstrap: str) -> None:
    with WireClient(bootstrap) as client:
        pid, epoch = init(client, "zombie")
        assert add_partitions(client, 3, "zombie", pid, epoch, {"out": [1]}) == {("out", 1): 0}
        assert produce(client, "zombie", "out", 1, txn_batch(pid, epoch, 0)) == 0
        again = client.call(ip.InitProducerIdRequest(transactional_id="zombie", transaction_timeout_ms=60_000),
                            ip.InitProducerIdResponse, 4)  # fmt: skip
        assert again.error_code == ErrorCode.CONCURRENT_TRANSACTIONS
        assert init(client, "zombie") == (pid, epoch + 2)
        assert produce(client, "zombie", "out", 1, txn_batch(pid, epoch, 2)) == ErrorCode.INVALID_PRODUCER_EPOCH
        too_long = client.call(ip.InitProducerIdRequest(transactional_id="zombie", transaction_timeout_ms=900_001),
                               ip.InitProducerIdResponse, 4)  # fmt: skip
        assert too_long.error_code == ErrorCode.INVALID_TRANSACTION_TIMEOUT


def last_stable(client: WireClient, topic: str, partition: int) -> int:
    wanted = lo.ListOffsetsTopic(
        name=topic, partitions=[lo.ListOffsetsPartition(partition_index=partition, timestamp=-1)]
    )
    request = lo.ListOffsetsRequest(replica_id=-1, isolation_level=1, topics=[wanted])
    return int(client.call(request, lo.ListOffsetsResponse, 5).topics[0].partitions[0].offset)


def write_marker(client: WireClient, pid: int, epoch: int, topic: str, partition: int) -> int:
    topics = [wm.WritableTxnMarkerTopic(name=topic, partition_indexes=[partition])]
    marker = wm.WritableTxnMarker(producer_id=pid, producer_epoch=epoch, transaction_result=True, topics=topics)
    answer = client.call(wm.WriteTxnMarkersRequest(markers=[marker]), wm.WriteTxnMarkersResponse, 1)
    return answer.markers[0].topics[0].partitions[0].error_code


async def _deliver_once(bootstrap: str, marker: Marker, topic: str, partition: int) -> None:
    """A coordinator's delivery of ``marker`` to the broker at ``bootstrap``: it returns (it would retry a refusal
    it can act on for as long as it takes)."""
    host, _, port = bootstrap.rpartition(":")
    delivery = MarkerDelivery(lambda _tp: BrokerAddress(0, host, int(port)), lambda _m, _tp: True)
    try:
        await delivery.deliver(marker, [TopicPartition(topic, partition)])
    finally:
        delivery.close()


def test_a_marker_of_an_older_epoch_is_refused_and_ends_nothing(bootstrap: str) -> None:
    """A COMMIT marker of a fenced epoch (a deposed coordinator's, sent late) would end the newer epoch's open
    transaction: its records readable before their producer committed them. Refused as Kafka refuses it."""
    with WireClient(bootstrap) as client:
        pid, old = init(client, "stale-marker")
        assert init(client, "stale-marker") == (pid, old + 1)
        assert add_partitions(client, 3, "stale-marker", pid, old + 1, {"in": [1]}) == {("in", 1): 0}
        start = last_stable(client, "in", 1)
        assert produce(client, "stale-marker", "in", 1, txn_batch(pid, old + 1, 0)) == 0
        assert write_marker(client, pid, old, "in", 1) == ErrorCode.INVALID_PRODUCER_EPOCH
        assert last_stable(client, "in", 1) == start  # the transaction is still open
        asyncio.run(asyncio.wait_for(_deliver_once(bootstrap, Marker(pid, old, 0, True), "in", 1), 30))
        assert last_stable(client, "in", 1) == start
        end = et.EndTxnRequest(transactional_id="stale-marker", producer_id=pid, producer_epoch=old + 1, committed=True)
        assert client.call(end, et.EndTxnResponse, 3).error_code == 0
        assert last_stable(client, "in", 1) == start + 3  # its two records and the coordinator's COMMIT marker


def test_batched_add_partitions_and_verify_only(bootstrap: str) -> None:
    with WireClient(bootstrap) as client:
        pid, epoch = init(client, "batched")
        assert add_partitions(client, 5, "batched", pid, epoch, {"out": [0]}) == {("out", 0): 0}
        verify = ap.AddPartitionsToTxnTransaction(
            transactional_id="batched", producer_id=pid, producer_epoch=epoch, verify_only=True,
            topics=[ap.AddPartitionsToTxnTopic(name="out", partitions=[0, 1])],
        )  # fmt: skip
        stranger = ap.AddPartitionsToTxnTransaction(
            transactional_id="nobody", producer_id=1, producer_epoch=0, verify_only=True,
            topics=[ap.AddPartitionsToTxnTopic(name="out", partitions=[0])],
        )  # fmt: skip
        answer = client.call(
            ap.AddPartitionsToTxnRequest(transactions=[verify, stranger]), ap.AddPartitionsToTxnResponse, 4
        )
        assert [
            (
                r.transactional_id,
                [(p.partition_index, p.partition_error_code) for t in r.topic_results for p in t.results_by_partition],
            )
            for r in answer.results_by_transaction
        ] == [
            ("batched", [(0, 0), (1, ErrorCode.INVALID_TXN_STATE)]),
            ("nobody", [(0, ErrorCode.INVALID_PRODUCER_ID_MAPPING)]),
        ]


def test_transactional_batches_need_a_transactional_id(bootstrap: str) -> None:
    with WireClient(bootstrap) as client:
        pid, epoch = init(client, "anonymous")
        assert (
            produce(client, None, "out", 0, txn_batch(pid, epoch, 0)) == ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
        )


def test_describe_and_list_transactions(bootstrap: str) -> None:
    with WireClient(bootstrap) as client:
        pid, epoch = init(client, "described", timeout_ms=45_000)
        assert add_partitions(client, 3, "described", pid, epoch, {"out": [1, 0]}) == {("out", 1): 0, ("out", 0): 0}
        answer = client.call(dt.DescribeTransactionsRequest(transactional_ids=["described", "unheard-of"]),
                             dt.DescribeTransactionsResponse, 0)  # fmt: skip
        found, missing = answer.transaction_states
        assert (found.error_code, found.transaction_state, found.transaction_timeout_ms, found.producer_id,
                found.producer_epoch) == (0, "Ongoing", 45_000, pid, epoch)  # fmt: skip
        assert found.transaction_start_time_ms > 0
        assert [(t.topic, t.partitions) for t in found.topics] == [("out", [0, 1])]
        assert missing.error_code == ErrorCode.TRANSACTIONAL_ID_NOT_FOUND
        filters = lt.ListTransactionsRequest(state_filters=["Ongoing", "Nonsense"], producer_id_filters=[pid])
        listed = client.call(filters, lt.ListTransactionsResponse, 1)
        assert listed.unknown_state_filters == ["Nonsense"]
        assert [(t.transactional_id, t.producer_id, t.transaction_state) for t in listed.transaction_states] == [
            ("described", pid, "Ongoing")
        ]
