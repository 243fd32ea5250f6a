"""Authorization of the transaction APIs through the broker's dispatcher, as Kafka authorizes them: WRITE on the
transactional id, WRITE on the topics added, READ on the group and its topics for offsets, CLUSTER_ACTION for the
batched AddPartitionsToTxn, DESCRIBE to describe or list; a refused request changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rockafka.facade.dispatch import RequestDispatcher
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages import add_offsets_to_txn as ao
from rockafka.facade.protocol.messages import add_partitions_to_txn as ap
from rockafka.facade.protocol.messages import describe_transactions as dt
from rockafka.facade.protocol.messages import end_txn as et
from rockafka.facade.protocol.messages import init_producer_id as ip
from rockafka.facade.protocol.messages import list_offsets as lo
from rockafka.facade.protocol.messages import list_transactions as lt
from rockafka.facade.protocol.messages import produce as pr
from rockafka.facade.protocol.messages import txn_offset_commit as tc
from rockafka.facade.protocol.messages import write_txn_markers as wm
from rockafka.facade.security import AclOperation, AclPermission, PatternType, ResourceType, binding

from ..security.wire import Conn, broker, connect
from .helpers import txn_batch

Op, T = AclOperation, ResourceType
SETTINGS = ("authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer", "super.users=User:admin")
ACLS = [  # alice may run transaction "tx-alice" over topic "out", with the offsets of group "g" on topic "in"
    (T.TRANSACTIONAL_ID, "tx-alice", "User:alice", Op.WRITE),
    (T.TOPIC, "out", "User:alice", Op.WRITE),
    (T.TOPIC, "in", "User:alice", Op.READ),
    (T.GROUP, "g", "User:alice", Op.READ),
]


@pytest.fixture
def dispatcher(tmp_path: Path) -> Iterator[RequestDispatcher]:
    with broker(tmp_path, *SETTINGS) as (instance, dispatcher):
        for name in ("out", "in", "secret"):
            instance.store.topics.create(name, 1)
        assert dispatcher.security is not None
        dispatcher.security.acls.add(
            [
                binding(kind, name, PatternType.LITERAL, who, "*", op, AclPermission.ALLOW)
                for kind, name, who, op in ACLS
            ]
        )
        yield dispatcher


def begin(alice: Conn) -> tuple[int, int]:
    init = alice.call(ip.InitProducerIdRequest(transactional_id="tx-alice", transaction_timeout_ms=60_000), 4)
    assert init.error_code == ErrorCode.NONE
    return init.producer_id, init.producer_epoch


def add(conn: Conn, version: int, pid: int, epoch: int, *topics: str) -> dict[str, int]:
    wanted = [ap.AddPartitionsToTxnTopic(name=topic, partitions=[0]) for topic in topics]
    request = ap.AddPartitionsToTxnRequest(
        v3_and_below_transactional_id="tx-alice", v3_and_below_producer_id=pid, v3_and_below_producer_epoch=epoch,
        v3_and_below_topics=wanted,
    )  # fmt: skip
    answer = conn.call(request, version, ap.AddPartitionsToTxnResponse)
    return {t.name: t.results_by_partition[0].partition_error_code for t in answer.results_by_topic_v3_and_below}


def test_the_transactional_id_needs_write(dispatcher: RequestDispatcher) -> None:
    bob, alice = connect(dispatcher, "User:bob"), connect(dispatcher, "User:alice")
    refused = bob.call(ip.InitProducerIdRequest(transactional_id="tx-alice", transaction_timeout_ms=60_000), 4)
    assert refused.error_code == ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    pid, epoch = begin(alice)
    assert add(bob, 3, pid, epoch, "out") == {"out": ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED}
    end = et.EndTxnRequest(transactional_id="tx-alice", producer_id=pid, producer_epoch=epoch, committed=True)
    assert bob.call(end, 3).error_code == ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    assert alice.call(end, 3).error_code == ErrorCode.INVALID_TXN_STATE  # allowed, but nothing began
    data = [
        pr.TopicProduceData(
            name="out", partition_data=[pr.PartitionProduceData(index=0, records=txn_batch(pid, epoch, 0))]
        )
    ]
    produce = pr.ProduceRequest(transactional_id="tx-alice", acks=-1, timeout_ms=5000, topic_data=data)
    assert bob.call(produce, 9).responses[0].partition_responses[0].error_code == (
        ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    )


def test_added_topics_need_write_and_a_refusal_adds_nothing(dispatcher: RequestDispatcher) -> None:
    alice = connect(dispatcher, "User:alice")
    pid, epoch = begin(alice)
    assert add(alice, 3, pid, epoch, "out", "secret") == {
        "out": ErrorCode.OPERATION_NOT_ATTEMPTED,
        "secret": ErrorCode.TOPIC_AUTHORIZATION_FAILED,
    }
    described = alice.call(dt.DescribeTransactionsRequest(transactional_ids=["tx-alice"]), 0).transaction_states[0]
    assert (described.transaction_state, described.topics) == ("Empty", [])
    assert add(alice, 3, pid, epoch, "out") == {"out": ErrorCode.NONE}
    batched = ap.AddPartitionsToTxnRequest(transactions=[ap.AddPartitionsToTxnTransaction(
        transactional_id="tx-alice", producer_id=pid, producer_epoch=epoch, verify_only=True,
        topics=[ap.AddPartitionsToTxnTopic(name="out", partitions=[0])])])  # fmt: skip
    assert alice.call(batched, 4).error_code == ErrorCode.CLUSTER_AUTHORIZATION_FAILED
    admin = connect(dispatcher, "User:admin").call(batched, 4)
    (verified,) = admin.results_by_transaction[0].topic_results[0].results_by_partition
    assert (admin.error_code, verified.partition_error_code) == (ErrorCode.NONE, ErrorCode.NONE)


def test_offsets_need_the_group_and_the_topics(dispatcher: RequestDispatcher) -> None:
    alice = connect(dispatcher, "User:alice")
    pid, epoch = begin(alice)
    other = ao.AddOffsetsToTxnRequest(transactional_id="tx-alice", producer_id=pid, producer_epoch=epoch, group_id="h")
    assert alice.call(other, 3).error_code == ErrorCode.GROUP_AUTHORIZATION_FAILED
    mine = ao.AddOffsetsToTxnRequest(transactional_id="tx-alice", producer_id=pid, producer_epoch=epoch, group_id="g")
    assert alice.call(mine, 3).error_code == ErrorCode.NONE
    topics = [tc.TxnOffsetCommitRequestTopic(name=name, partitions=[tc.TxnOffsetCommitRequestPartition(
        partition_index=0, committed_offset=3)]) for name in ("in", "secret")]  # fmt: skip
    commit = tc.TxnOffsetCommitRequest(transactional_id="tx-alice", group_id="g", producer_id=pid, producer_epoch=epoch,
                                       topics=topics)  # fmt: skip
    answer = alice.call(commit, 3)
    assert {t.name: t.partitions[0].error_code for t in answer.topics} == {
        "in": ErrorCode.NONE,
        "secret": ErrorCode.TOPIC_AUTHORIZATION_FAILED,
    }
    elsewhere = tc.TxnOffsetCommitRequest(transactional_id="tx-alice", group_id="h", producer_id=pid,
                                          producer_epoch=epoch, topics=topics[:1])  # fmt: skip
    assert alice.call(elsewhere, 3).topics[0].partitions[0].error_code == ErrorCode.GROUP_AUTHORIZATION_FAILED


def test_describe_and_list_show_only_what_may_be_described(dispatcher: RequestDispatcher) -> None:
    alice, bob = connect(dispatcher, "User:alice"), connect(dispatcher, "User:bob")
    begin(alice)
    described = bob.call(dt.DescribeTransactionsRequest(transactional_ids=["tx-alice"]), 0).transaction_states
    assert [d.error_code for d in described] == [ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED]
    assert [t.transactional_id for t in bob.call(lt.ListTransactionsRequest(), 1).transaction_states] == []
    assert [t.transactional_id for t in alice.call(lt.ListTransactionsRequest(), 1).transaction_states] == ["tx-alice"]


def test_write_txn_markers_needs_cluster_action(dispatcher: RequestDispatcher) -> None:
    """Only a broker's principal (CLUSTER_ACTION on the cluster, or a super user) may end a transaction on a
    partition with WriteTxnMarkers; anyone else's request writes nothing."""
    assert dispatcher.security is not None
    dispatcher.security.acls.add(
        [binding(T.CLUSTER, "kafka-cluster", PatternType.LITERAL, "User:broker", "*", Op.CLUSTER_ACTION,
                 AclPermission.ALLOW)]
    )  # fmt: skip
    alice = connect(dispatcher, "User:alice")
    pid, epoch = begin(alice)
    assert add(alice, 3, pid, epoch, "out") == {"out": ErrorCode.NONE}
    data = [
        pr.TopicProduceData(
            name="out", partition_data=[pr.PartitionProduceData(index=0, records=txn_batch(pid, epoch, 0))]
        )
    ]
    produce = pr.ProduceRequest(transactional_id="tx-alice", acks=-1, timeout_ms=5000, topic_data=data)
    assert alice.call(produce, 9).responses[0].partition_responses[0].error_code == ErrorCode.NONE
    marker = wm.WritableTxnMarker(
        producer_id=pid, producer_epoch=epoch, transaction_result=True,
        topics=[wm.WritableTxnMarkerTopic(name="out", partition_indexes=[0])],
    )  # fmt: skip
    request = wm.WriteTxnMarkersRequest(markers=[marker])

    def answer(principal: str) -> int:
        response = connect(dispatcher, principal).call(request, 1, wm.WriteTxnMarkersResponse)
        return response.markers[0].topics[0].partitions[0].error_code

    def last_stable() -> int:
        wanted = lo.ListOffsetsTopic(name="out", partitions=[lo.ListOffsetsPartition(partition_index=0, timestamp=-1)])
        request = lo.ListOffsetsRequest(replica_id=-1, isolation_level=1, topics=[wanted])
        return int(connect(dispatcher, "User:admin").call(request, 5).topics[0].partitions[0].offset)

    assert answer("User:alice") == ErrorCode.CLUSTER_AUTHORIZATION_FAILED
    assert last_stable() == 0  # nothing written: the transaction is still open
    assert answer("User:broker") == ErrorCode.NONE
    assert last_stable() == 3  # two records and the COMMIT marker
