"""Compaction under kill -9: a child appends to a compacted topic and runs cleaning passes and retention, and is
SIGKILLed at random moments (in a pass, between a pass's file and its manifest, in retention, in an append).
After every kill the store opens, every acknowledged record's key still reads its latest value (or a later one),
every record read sits at the offset it was written at, and passes go on from there."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from kafka.record.default_records import DefaultRecordBatch

from rockafka.store import MessageStore

from .compaction_child import COMPACTED, KEYS, config, value_of

ROOT = Path(__file__).resolve().parents[2]
KILLS = 4


def _run_and_kill(store_dir: Path, rng: random.Random) -> tuple[dict[int, int], int]:
    """Start the child, kill it at a random moment: (each key's last acknowledged number, passes completed)."""
    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("compaction_child.py")), str(store_dir)],
        stdout=subprocess.PIPE, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert child.stdout is not None
    assert child.stdout.readline().strip() == b"READY"
    time.sleep(rng.uniform(0.3, 1.5))
    child.send_signal(signal.SIGKILL)
    output = child.stdout.read().decode().split("\n")
    child.wait(timeout=30)
    acked: dict[int, int] = {}
    for line in output:
        if line.startswith("A "):
            _, key, number = line.split()
            acked[int(key)] = int(number)
    return acked, sum(line == "P" for line in output)


def _read_all(store: MessageStore) -> list[tuple[int, bytes | None, bytes | None]]:
    bounds = store.records.partition_bounds("t", 0)
    offset, found = bounds.log_start_offset, []
    for _ in range(100_000):
        if offset >= bounds.high_watermark:
            break
        result = store.records.read("t", 0, offset, 1 << 20)
        assert result.batches, f"nothing read at {offset}, below the high watermark {bounds.high_watermark}"
        for view in result.batches:
            batch = DefaultRecordBatch(bytearray(view))
            assert batch.validate_crc()
            found.extend((record.offset, record.key, record.value) for record in batch)
        offset = result.next_offset
    return found


def test_compaction_survives_sigkill_at_any_moment(tmp_path: Path) -> None:
    rng = random.Random(23)
    last: dict[int, int] = {}
    passes = 0
    for _ in range(KILLS):
        acked, completed = _run_and_kill(tmp_path, rng)
        last.update(acked)
        passes += completed
        with MessageStore.open(config(tmp_path)) as store:
            assert store.topics.describe("t").configs == COMPACTED
            records = _read_all(store)
            assert store.records.partition_bounds("t", 0).log_start_offset == 0
        offsets = [offset for offset, _, _ in records]
        assert offsets == sorted(set(offsets))
        for offset, key, value in records:
            assert (key, value) == (b"k%d" % (offset % KEYS), value_of(offset)), f"offset {offset} changed"
        latest = {int(key[1:]): offset for offset, key, _ in records if key is not None}
        for key, number in last.items():
            assert latest.get(key, -1) >= number, f"k{key}'s acknowledged value {number} is gone"
    assert passes > 0, "the child never completed a pass"
    assert len(records) < 4 * KEYS + 60, "passes never compacted anything"
    leftovers = [p.name for p in (tmp_path / "compacted").rglob("*.log")]
    assert len(leftovers) == 1, leftovers
