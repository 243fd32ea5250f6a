"""Child process of the transaction kill -9 test: random transactional batches, plain batches and markers.

Usage: python txn_child.py STORE_DIR SEED
Prints ``READY``, then ``A <n>`` after each append returns, n being the total of offsets written so far on both
partitions (so the parent can check the high watermarks). Runs until killed.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from rockafka.store import MessageStore
from tests.store.helpers import append, build_batch, small_config
from tests.store.txn_helpers import put, txn_batch


def main() -> None:
    root, rng = Path(sys.argv[1]), random.Random(int(sys.argv[2]))
    store = MessageStore.open(small_config(root, commitlog_segment_bytes=64 * 1024, checkpoint_interval_ms=30))
    if not store.topics.list():
        store.topics.create("t", 2)
    written = sum(store.records.partition_offsets("t", p).high_watermark for p in (0, 1))
    print("READY", flush=True)
    while True:
        partition, pid, roll = rng.randrange(2), rng.randrange(1, 6), rng.random()
        if roll < 0.5:
            result = put(store, "t", partition, txn_batch(pid, rng.randrange(1, 4)))
        elif roll < 0.6:
            result = append(store, "t", partition, build_batch([(b"plain", b"x")]))
        else:
            result = store.records.write_transaction_marker(
                "t", partition, producer_id=pid, producer_epoch=0, coordinator_epoch=1, commit=roll < 0.8
            )
        written += result.last_offset - result.base_offset + 1
        print(f"A {written - 1}", flush=True)


if __name__ == "__main__":
    main()
