"""Partitions cost no file descriptors: ConsumeQueue files are mapped without keeping one open."""

from __future__ import annotations

import os
from pathlib import Path

from rockafka.core_pyx import NO_EXTENSIONS
from rockafka.store import MessageStore

from .helpers import append, build_batch, small_config

PARTITIONS = 2_000


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_thousands_of_partitions_hold_no_descriptor_each(tmp_path: Path) -> None:
    # The pure twin maps through Python's mmap, which keeps one duplicate descriptor per file; either way the
    # store's own descriptor is closed (keeping it would cost a second one per partition and fail this).
    allowance = PARTITIONS if NO_EXTENSIONS else 0
    with MessageStore.open(small_config(tmp_path)) as store:
        before = open_descriptors()
        store.topics.create("wide", PARTITIONS)
        for partition in range(0, PARTITIONS, 97):
            append(store, "wide", partition, build_batch([(b"k", b"v")]))
        assert open_descriptors() - before <= allowance + 8
        assert store.records.partition_offsets("wide", 97).high_watermark == 1
    with MessageStore.open(small_config(tmp_path)) as reopened:
        assert open_descriptors() - before <= allowance + 8
        assert [reopened.records.partition_offsets("wide", p).high_watermark for p in (0, 1, 97)] == [1, 0, 1]
