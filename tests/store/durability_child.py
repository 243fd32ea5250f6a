"""Child process of the durability test: appends and commits offsets, printing each acknowledgement.

Usage: python durability_child.py STORE_DIR async|sync
Prints ``READY``, then ``A <n>`` once the record numbered n is acknowledged (append returned, and under
sync flush its future completed) and ``C <n>`` once a commit of offset n is acknowledged. Runs until killed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rockafka.core_pyx.recordbatch import validate_batches
from rockafka.store import MessageStore, OffsetCommit, StoreConfig, TopicPartition
from tests.store.helpers import build_batch


def main() -> None:
    root, mode = Path(sys.argv[1]), sys.argv[2]
    config = StoreConfig(
        root, commitlog_segment_bytes=64 * 1024, consume_queue_units_per_file=16, flush_mode=mode,  # type: ignore[arg-type]
        flush_interval_ms=20, checkpoint_interval_ms=50, index_slot_count=64, index_entry_count=256,
    )  # fmt: skip
    store = MessageStore.open(config)
    if not store.topics.list():
        store.topics.create("d", 2)
    number = sum(store.records.partition_offsets("d", p).high_watermark for p in range(2))
    committed = store.offsets.fetch("g").get(TopicPartition("d", 0))
    print("READY", flush=True)
    commit = committed.offset if committed else 0
    while True:
        batch = build_batch([(b"k%d" % (number % 7), b"%d" % number)], timestamps=[number])
        result = store.records.append("d", number % 2, batch, validate_batches(batch))
        if result.durable is not None:
            result.durable.result()
        print(f"A {number}", flush=True)
        number += 1
        if number % 5 == 0:
            commit += 1
            waiter = store.offsets.commit("g", [OffsetCommit("d", 0, commit, None, "meta")])
            if waiter is not None:
                waiter.result()
            print(f"C {commit}", flush=True)


if __name__ == "__main__":
    main()
