"""Write-behind under async flush: between fsync rounds the flusher starts the disk writing what was appended,
and after a pause with nothing appended it starts again with the next append, not at the next round."""

from __future__ import annotations

import time
from pathlib import Path

from rockafka.store import MessageStore
from rockafka.store.flusher import WRITE_BEHIND_MIN_BYTES

from .helpers import append, build_batch, small_config

MIB = 1 << 20


def fill(store: MessageStore, megabytes: int) -> None:
    for number in range(megabytes * 4):
        append(store, "t", 0, build_batch([(None, number.to_bytes(4, "big") * (64 * 1024 - 16))]))


def unwritten_after(store: MessageStore, deadline_s: float) -> int:
    """Bytes appended but not yet handed to the disk, once below the write-behind step's minimum or at the deadline."""
    deadline = time.monotonic() + deadline_s
    while store.records._commitlog.unwritten_bytes >= WRITE_BEHIND_MIN_BYTES and time.monotonic() < deadline:
        time.sleep(0.01)
    return store.records._commitlog.unwritten_bytes


def test_appends_after_a_pause_are_written_behind_before_the_next_round(tmp_path: Path) -> None:
    store = MessageStore.open(small_config(tmp_path, commitlog_segment_bytes=16 * MIB, flush_interval_ms=600_000))
    try:
        store.topics.create("t", 1)
        fill(store, 2)
        assert unwritten_after(store, 5.0) < WRITE_BEHIND_MIN_BYTES
        store.flush()
        for _ in range(500):  # bounded: 5 s
            if not store._flusher.writing_behind:  # a step found nothing new: no more until an append
                break
            time.sleep(0.01)
        assert not store._flusher.writing_behind  # and the next round is ten minutes away
        fill(store, 3)
        assert store.records._commitlog.unwritten_bytes > 0
        assert unwritten_after(store, 5.0) < WRITE_BEHIND_MIN_BYTES
    finally:
        store.close()
