"""Share group throughput: 4 share consumers on one partition against one classic consumer on it.

``python -m bench.share_groups`` writes ``--records`` records of 100 bytes into a 1-partition topic on one broker,
then, in the same run, reads them all: once with one classic confluent-kafka ``Consumer`` (its own group, from
the earliest offset), once with 4 confluent-kafka ``ShareConsumer`` threads of one share group (implicit
acknowledgement: a poll accepts the previous poll's records; ``share.auto.offset.reset=earliest``). It reports
each scene's records per second from subscribing to its last record (joining included: the classic group's
initial rebalance delay is 0 here; timed from the first record, librdkafka's prefetch during the join made the
classic figure swing by 10x between runs), the ratio of the two, and for the share group the records
delivered more than once and the share each consumer took. A share group does per-record work a classic
consumer does not (acquisition, acknowledgement, a saved window per acknowledgement), and its consumers fetch
in parallel. Results: ``bench/results/share_groups.md``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from confluent_kafka import Consumer, Producer, ShareConsumer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic

from bench import write_table
from compat_tests.brokerproc import BrokerProcess

TOPIC = "share-bench"
SHARE_CONSUMERS = 4
VALUE = b"v" * 100
LIMIT_S = 300.0


def fill(broker: BrokerProcess, records: int) -> None:
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(TOPIC, 1, 1)])[TOPIC].result(30)
    entry = ConfigEntry("share.auto.offset.reset", "earliest", incremental_operation=AlterConfigOpType.SET)
    resource = ConfigResource(ConfigResource.Type.GROUP, "share-bench-group", incremental_configs=[entry])
    for future in admin.incremental_alter_configs([resource]).values():
        future.result(30)
    producer = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 20, "batch.size": 256 * 1024})
    for _ in range(records):
        while True:
            try:
                producer.produce(TOPIC, VALUE)
                break
            except BufferError:
                producer.poll(0.05)
    if producer.flush(120) != 0:
        raise RuntimeError("the producer did not deliver every record")


def classic(broker: BrokerProcess, records: int) -> float:
    """Records per second of one classic consumer reading the whole partition."""
    consumer = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "classic-bench-group",
                         "auto.offset.reset": "earliest", "enable.auto.commit": True})  # fmt: skip
    started = time.monotonic()
    consumer.subscribe([TOPIC])
    seen = 0
    deadline = started + LIMIT_S
    while seen < records and time.monotonic() < deadline:
        batch = consumer.consume(num_messages=1000, timeout=0.5)
        seen += sum(1 for m in batch if m.error() is None)
    elapsed = time.monotonic() - started
    consumer.close()
    if seen < records:
        raise RuntimeError(f"the classic consumer read {seen} of {records} records in {LIMIT_S} s")
    return records / elapsed


def shared(broker: BrokerProcess, records: int) -> tuple[float, int, list[int]]:
    """Records per second of 4 share consumers reading the partition together; the redeliveries, and how many
    distinct records each consumer took."""
    offsets: Counter[int] = Counter()
    per_consumer = [0] * SHARE_CONSUMERS
    lock = threading.Lock()
    done = threading.Event()

    def consume(index: int) -> None:
        consumer = ShareConsumer({"bootstrap.servers": broker.bootstrap, "group.id": "share-bench-group",
                                  "max.poll.records": "500"})  # fmt: skip
        consumer.subscribe([TOPIC])
        deadline = time.monotonic() + LIMIT_S
        try:
            while not done.is_set() and time.monotonic() < deadline:
                batch = consumer.poll(0.5) or []
                got = [m.offset() for m in batch if m.error() is None]
                with lock:
                    if done.is_set():  # released by a consumer closing already: not counted as delivered twice
                        break
                    offsets.update(got)
                    per_consumer[index] += len(got)
                    if len(offsets) >= records:
                        done.set()
        finally:
            consumer.close()

    threads = [threading.Thread(target=consume, args=(i,), daemon=True) for i in range(SHARE_CONSUMERS)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    if not done.wait(LIMIT_S):
        raise RuntimeError(f"the share consumers read {len(offsets)} of {records} records in {LIMIT_S} s")
    elapsed = time.monotonic() - started
    for thread in threads:
        thread.join(60)
    return records / elapsed, sum(offsets.values()) - len(offsets), per_consumer


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.share_groups", description=__doc__)
    parser.add_argument("--records", type=int, default=200_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-share-") as work:
        settings = {"log.segment.bytes": str(32 << 20), "group.initial.rebalance.delay.ms": "0"}
        broker = BrokerProcess(Path(work), settings=settings).start()
        try:
            fill(broker, args.records)
            classic_rate = classic(broker, args.records)
            share_rate, redelivered, split = shared(broker, args.records)
        finally:
            broker.stop()
    rows = [
        ["1 classic consumer", f"{classic_rate:,.0f}", "1.00x", "-", "-"],
        [f"{SHARE_CONSUMERS} share consumers", f"{share_rate:,.0f}", f"{share_rate / classic_rate:.2f}x",
         str(redelivered), " / ".join(str(n) for n in split)],
    ]  # fmt: skip
    header = ["consumers of one partition", "records/s", "vs classic", "delivered twice", "records per consumer"]
    note = (
        f"One run of `python -m bench.share_groups --records {args.records}`: one broker, confluent-kafka "
        f"(librdkafka's share consumer, implicit acknowledgement), a 1-partition topic of {args.records} records of "
        f"{len(VALUE)} bytes, both scenes in the same run."
    )
    write_table("share_groups", "Share group throughput on one partition", note, header, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
