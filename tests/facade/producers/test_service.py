"""``ProducerService`` over a real store: ids across reopen, state rebuilt after a
clean close (snapshot + tail) and after a crash (no close), expiry, and topics deleted and made again."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from kafka.record.default_records import DefaultRecordBatchBuilder

from rockafka.core_pyx.recordbatch import validate_batches
from rockafka.facade.config import load_broker_config
from rockafka.facade.producers import Accepted, Duplicate, InitGranted, InitRefused, ProducerService, Refused
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import MessageStore

from ..group.helpers import open_store

NOW = 1_700_000_000_000


def idempotent_batch(producer_id: int, epoch: int, first_sequence: int, count: int, timestamp: int = NOW) -> bytes:
    builder = DefaultRecordBatchBuilder(
        magic=2, compression_type=0, is_transactional=0, producer_id=producer_id, producer_epoch=epoch,
        base_sequence=first_sequence, batch_size=1 << 20,
    )  # fmt: skip
    for delta in range(count):
        builder.append(delta, timestamp=timestamp, key=None, value=b"v%d" % delta, headers=[])
    return bytes(builder.build())


def service(store: MessageStore, clock_ms: int = NOW, **settings: str) -> ProducerService:
    config = load_broker_config(overrides=[f"{key}={value}" for key, value in settings.items()])
    producers = ProducerService(config, store, clock=lambda: clock_ms)
    producers.load()
    return producers


def produce(store: MessageStore, producers: ProducerService, batch: bytes, topic: str = "t") -> Any:
    """What the Produce handler does with one batch: the verdict, then the append and ``record`` if accepted."""
    header = validate_batches(batch)[0]
    verdict = producers.check(topic, 0, header)
    if not isinstance(verdict, Accepted):
        return verdict
    result = store.records.append(topic, 0, batch, [header])
    producers.record(topic, 0, header, result.base_offset)
    return result.base_offset


def granted(outcome: InitGranted | InitRefused) -> InitGranted:
    assert isinstance(outcome, InitGranted), outcome
    if outcome.durable is not None:
        outcome.durable.result(timeout=10)
    return outcome


def test_producer_ids_never_repeat_across_reopen_and_crash(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    producers = service(store)
    first = [granted(producers.init_idempotent()).producer_id for _ in range(3)]
    assert first == [0, 1, 2]
    store.close()
    crashed = open_store(tmp_path)
    second = granted(service(crashed).init_idempotent())
    assert (second.producer_id, second.epoch) == (1000, 0)
    # no close: as after kill -9
    crashed._lock.release()
    with open_store(tmp_path) as store:
        third = granted(service(store).init_idempotent()).producer_id
    assert third == 2000


def test_a_duplicate_is_answered_with_its_original_offset_and_not_written(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.topics.create("t", 1)
        producers = service(store)
        assert produce(store, producers, idempotent_batch(1, 0, 0, 3)) == 0
        assert produce(store, producers, idempotent_batch(2, 0, 0, 2)) == 3
        assert produce(store, producers, idempotent_batch(1, 0, 3, 1)) == 5
        assert produce(store, producers, idempotent_batch(1, 0, 0, 3)) == Duplicate(0, 2)
        assert store.records.partition_offsets("t", 0).high_watermark == 6
        gap = produce(store, producers, idempotent_batch(1, 0, 9, 1))
        assert isinstance(gap, Refused) and gap.error == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER


def fill(store: MessageStore, producers: ProducerService) -> None:
    store.topics.create("t", 1)
    for sequence in range(0, 12, 2):
        produce(store, producers, idempotent_batch(7, 0, sequence, 2))


def check_restored(store: MessageStore, producers: ProducerService) -> None:
    assert produce(store, producers, idempotent_batch(7, 0, 10, 2)) == Duplicate(10, 11)
    assert produce(store, producers, idempotent_batch(7, 0, 4, 2)) == Duplicate(4, 5)
    stale = produce(store, producers, idempotent_batch(7, 0, 13, 1))
    assert isinstance(stale, Refused) and stale.error == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    high_watermark = store.records.partition_offsets("t", 0).high_watermark
    assert produce(store, producers, idempotent_batch(7, 0, 12, 1)) == high_watermark


def test_state_is_rebuilt_from_the_snapshot_and_the_batches_after_it(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        producers = service(store)
        fill(store, producers)
        assert producers.snapshot() == 1
        produce(store, producers, idempotent_batch(8, 0, 0, 1))
    with open_store(tmp_path) as store:
        producers = service(store)
        table = producers.producers("t", 0)
        assert table is not None and sorted(table.entries) == [7, 8]
        check_restored(store, producers)


def test_state_is_rebuilt_from_the_log_alone_after_a_crash(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    fill(store, service(store))
    store.flush()
    store._lock.release()  # no close, no snapshot: as after kill -9
    with open_store(tmp_path) as reopened:
        check_restored(reopened, service(reopened))


def test_idle_producers_expire(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        producers = service(store)
        fill(store, producers)
    with open_store(tmp_path) as store:
        later = service(store, clock_ms=NOW + 1000, **{"producer.id.expiration.ms": "1000"})
        table = later.producers("t", 0)
        assert table is not None and table.entries == {}
        assert produce(store, later, idempotent_batch(7, 0, 40, 1)) == 12


def test_a_topic_made_again_starts_without_producers(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        producers = service(store)
        fill(store, producers)
        producers.snapshot()
        store.topics.delete("t")
        store.topics.create("t", 1)
        assert produce(store, producers, idempotent_batch(7, 0, 10, 2)) == 0
        produce(store, producers, idempotent_batch(7, 0, 12, 1))
    with open_store(tmp_path) as store:
        producers = service(store)
        assert produce(store, producers, idempotent_batch(7, 0, 12, 1)) == Duplicate(2, 2)


def test_brokers_of_a_cluster_allocate_producer_ids_in_their_own_ranges(tmp_path: Path) -> None:
    """Two coordinators of one cluster never hand out the same producer id; a single broker starts at 0."""
    allocated = {}
    for node, clustered in ((1, True), (2, True), (3, False)):
        store = open_store(tmp_path / f"broker-{node}")
        try:
            cluster = {"rockafka.cluster.etcd.endpoints": "127.0.0.1:1"} if clustered else {}
            settings = {"node.id": str(node), **cluster}
            producers = service(store, **settings)
            allocated[node] = [producers.allocate_producer_id().producer_id for _ in range(3)]
            reopened = service(store, **settings)  # and after a reopen, the next block of the same range
            allocated[node].append(reopened.allocate_producer_id().producer_id)
        finally:
            store.close()
    assert allocated[1][:3] == [1 << 44, (1 << 44) + 1, (1 << 44) + 2]
    assert allocated[2][:3] == [2 << 44, (2 << 44) + 1, (2 << 44) + 2]
    assert allocated[3][:3] == [0, 1, 2]
    for node in (1, 2, 3):
        assert allocated[node][3] > allocated[node][2] and allocated[node][3] >> 44 == allocated[node][0] >> 44


def copy(store: MessageStore, batch: bytes) -> None:
    """A batch appended as a follower's copy is: without ``record``."""
    store.records.append("t", 0, batch, validate_batches(batch))


def following(store: MessageStore) -> ProducerService:
    """A follower's service over topic ``t``."""
    store.topics.create("t", 1)
    producers = service(store)
    producers.follow()
    return producers


def test_a_follower_keeps_its_producers_up_and_its_promotion_replays_only_the_tail(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        producers = following(store)
        copy(store, idempotent_batch(7, 0, 0, 2))
        copy(store, idempotent_batch(7, 0, 2, 2))
        assert asyncio.run(producers.keep_up()) == 2
        assert asyncio.run(producers.keep_up()) == 0
        copy(store, idempotent_batch(7, 0, 4, 2))
        assert producers.lead() == 1
        assert produce(store, producers, idempotent_batch(7, 0, 4, 2)) == Duplicate(4, 5)
        assert produce(store, producers, idempotent_batch(7, 0, 0, 2)) == Duplicate(0, 1)
        assert produce(store, producers, idempotent_batch(7, 0, 6, 1)) == 6


def test_a_followers_snapshot_covers_only_what_it_replayed(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        producers = following(store)
        copy(store, idempotent_batch(7, 0, 0, 2))
        asyncio.run(producers.keep_up())
        copy(store, idempotent_batch(8, 0, 0, 3))  # copied after the last pass
        assert producers.snapshot() == 1
    with open_store(tmp_path) as store:
        table = service(store).producers("t", 0)
        assert table is not None and sorted(table.entries) == [7, 8]


def test_a_batch_copied_after_the_promotion_is_counted_before_its_next_batch_is_refused(tmp_path: Path) -> None:
    """The old leader's late frame: a copy stored after ``lead()`` replayed the log, which the old leader then
    acknowledged. The producer's next batch follows it in the log; the new leader must not answer
    OUT_OF_ORDER_SEQUENCE_NUMBER to it (nor to every later one) because its table missed the copy."""
    with open_store(tmp_path) as store:
        producers = following(store)
        copy(store, idempotent_batch(7, 0, 0, 2))
        asyncio.run(producers.keep_up())
        producers.lead()
        copy(store, idempotent_batch(7, 0, 2, 2))  # after the replay: never recorded
        assert produce(store, producers, idempotent_batch(8, 0, 0, 1)) == 4  # another producer, recorded
        assert produce(store, producers, idempotent_batch(7, 0, 4, 1)) == 5
        assert produce(store, producers, idempotent_batch(7, 0, 2, 2)) == Duplicate(2, 3)
        assert produce(store, producers, idempotent_batch(7, 0, 5, 1)) == 6
        assert produce(store, producers, idempotent_batch(8, 0, 1, 1)) == 7
        table = producers.producers("t", 0)
        assert table is not None and [b.first_sequence for b in table.entries[7].batches] == [0, 2, 4, 5]
        assert [b.first_sequence for b in table.entries[8].batches] == [0, 1]  # its batch at 4 counted once


def test_a_producer_that_skipped_a_sequence_is_still_refused_after_the_log_is_searched(tmp_path: Path) -> None:
    """aiokafka's gap (a batch it spent a sequence on was refused unwritten): nothing in the log fills it, so the
    answer stays OUT_OF_ORDER_SEQUENCE_NUMBER, as Kafka's, and the table is unchanged."""
    with open_store(tmp_path) as store:
        store.topics.create("t", 1)
        producers = service(store)
        assert produce(store, producers, idempotent_batch(7, 0, 0, 2)) == 0
        copy(store, idempotent_batch(-1, -1, -1, 1))  # another writer's record, without a producer id
        for _ in range(2):
            refused = produce(store, producers, idempotent_batch(7, 0, 3, 1))
            assert isinstance(refused, Refused) and refused.error is ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
        assert produce(store, producers, idempotent_batch(7, 0, 2, 1)) == 3


def marker(store: MessageStore, producers: ProducerService, producer_id: int, epoch: int) -> None:
    """What a partition leader does with a transaction marker: write it, then tell the producer state."""
    store.records.write_transaction_marker(
        "t", 0, producer_id=producer_id, producer_epoch=epoch, coordinator_epoch=0, commit=False
    )
    producers.transaction_ended("t", 0, producer_id, epoch)


def refusal(verdict: Any) -> ErrorCode:
    assert isinstance(verdict, Refused), verdict
    return verdict.error


def test_a_marker_of_a_bumped_epoch_fences_the_old_epochs_batches_here_and_after_a_restart(tmp_path: Path) -> None:
    """Kafka's appendEndTxnMarker: the coordinator fenced producer 7 (epoch 0 -> 1, its transaction aborted with
    markers of epoch 1). A zombie's batch of epoch 0 to a partition whose leader is not the coordinator is then
    refused (it would open a transaction no coordinator ever ends); epoch 1 starts again at sequence 0."""
    with open_store(tmp_path) as store:
        store.topics.create("t", 1)
        producers = service(store)
        assert produce(store, producers, idempotent_batch(7, 0, 0, 2)) == 0
        marker(store, producers, 7, 1)
        assert refusal(produce(store, producers, idempotent_batch(7, 0, 2, 1))) is ErrorCode.INVALID_PRODUCER_EPOCH
        out_of_order = produce(store, producers, idempotent_batch(7, 1, 3, 1))  # epoch 1 starts at 0
        assert refusal(out_of_order) is ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
        marker(store, producers, 7, 0)  # a lower epoch's marker changes nothing (written at 3)
        assert produce(store, producers, idempotent_batch(7, 1, 0, 1)) == 4
        marker(store, producers, 8, 2)  # a producer first seen by its marker
        assert refusal(produce(store, producers, idempotent_batch(8, 1, 0, 1))) is ErrorCode.INVALID_PRODUCER_EPOCH
        store.flush()
        store._lock.release()  # no close, no snapshot: the state comes back from the log (markers included)
    with open_store(tmp_path) as store:
        producers = service(store)
        assert refusal(produce(store, producers, idempotent_batch(8, 1, 0, 1))) is ErrorCode.INVALID_PRODUCER_EPOCH
        assert produce(store, producers, idempotent_batch(7, 1, 1, 1)) == 6
        assert producers.snapshot() == 1
    with open_store(tmp_path) as store:  # from the snapshot: an entry with no batch keeps its epoch
        producers = service(store)
        assert refusal(produce(store, producers, idempotent_batch(8, 1, 0, 1))) is ErrorCode.INVALID_PRODUCER_EPOCH
        assert produce(store, producers, idempotent_batch(8, 2, 0, 1)) == 7


def test_a_marker_of_the_same_epoch_keeps_the_producers_sequences_going(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.topics.create("t", 1)
        producers = service(store)
        assert produce(store, producers, idempotent_batch(7, 3, 0, 2)) == 0
        marker(store, producers, 7, 3)
        assert produce(store, producers, idempotent_batch(7, 3, 0, 2)) == Duplicate(0, 1)
        assert produce(store, producers, idempotent_batch(7, 3, 2, 1)) == 3
