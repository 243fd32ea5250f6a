"""Child process of the compaction crash test: appends keyed records to a compacted topic and runs cleaning passes
and retention between them, printing each acknowledgement, until it is killed.

Usage: python compaction_child.py STORE_DIR
Prints ``READY``, then ``A <key> <n>`` once record n (key ``k<key>``, at offset n) is durable (sync flush), and
``P`` after each pass. Record n is ``k<n % 10>`` = ``<n>`` padded to 200 bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rockafka.core_pyx.recordbatch import validate_batches
from rockafka.store import MessageStore, StoreConfig
from tests.store.helpers import build_batch

KEYS = 10
COMPACTED = {"cleanup.policy": "compact", "min.cleanable.dirty.ratio": "0.01", "delete.retention.ms": "0"}


def config(root: Path) -> StoreConfig:
    return StoreConfig(
        root, commitlog_segment_bytes=32 * 1024, consume_queue_units_per_file=64, flush_mode="sync",
        flush_interval_ms=5, checkpoint_interval_ms=50, index_enabled=False, preallocate=False,
    )  # fmt: skip


def value_of(number: int) -> bytes:
    return str(number).encode().ljust(200, b".")


def main() -> None:
    store = MessageStore.open(config(Path(sys.argv[1])))
    if not store.topics.list():
        store.topics.create("t", 1, COMPACTED)
    number = store.records.partition_bounds("t", 0).high_watermark
    print("READY", flush=True)
    while True:
        key = number % KEYS
        batch = build_batch([(b"k%d" % key, value_of(number))], timestamps=[number])
        result = store.records.append("t", 0, batch, validate_batches(batch))
        assert result.base_offset == number and result.durable is not None
        result.durable.result()
        print(f"A {key} {number}", flush=True)
        number += 1
        if number % 25 == 0:
            store.cleaner.clean("t", 0)
            store.retention.enforce()
            print("P", flush=True)


if __name__ == "__main__":
    main()
