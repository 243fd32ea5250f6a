"""Durability: a child process appends and commits offsets and is SIGKILLed at random moments; every append
and commit it had acknowledged is there after reopening, with no gap and no duplicate (both flush policies)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rockafka.store import MessageStore, StoreConfig, TopicPartition

from .helpers import decoded

ROOT = Path(__file__).resolve().parents[2]
KILLS_PER_MODE = 3


def _run_and_kill(store_dir: Path, mode: str, rng: random.Random) -> tuple[int, int]:
    """Start the child, kill it at a random moment; (last acknowledged record, last acknowledged commit)."""
    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("durability_child.py")), str(store_dir), mode],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == b"READY"
    time.sleep(rng.uniform(0.02, 0.4))
    child.send_signal(signal.SIGKILL)
    output = child.stdout.read().decode().split("\n")
    child.wait(timeout=10)
    appends = [int(line[2:]) for line in output if line.startswith("A ")]
    commits = [int(line[2:]) for line in output if line.startswith("C ")]
    return (appends[-1] if appends else -1), (commits[-1] if commits else -1)


@pytest.mark.parametrize("mode", ["async", "sync"])
def test_acknowledged_appends_and_commits_survive_sigkill(tmp_path: Path, mode: str) -> None:
    rng = random.Random(mode)
    last_append, last_commit = -1, -1
    for _ in range(KILLS_PER_MODE):
        acked_append, acked_commit = _run_and_kill(tmp_path, mode, rng)
        last_append, last_commit = max(last_append, acked_append), max(last_commit, acked_commit)
        with MessageStore.open(StoreConfig(tmp_path, index_slot_count=64, index_entry_count=256)) as store:
            values = sorted(
                int(value)
                for partition in range(2)
                for _, _, _, value in decoded(store.records.read("d", partition, 0, 1 << 30).batches)
                if value is not None
            )
            assert values == list(range(len(values))), "a gap or a duplicate"
            assert len(values) > last_append
            committed = store.offsets.fetch("g").get(TopicPartition("d", 0))
            assert (committed.offset if committed else -1) >= last_commit
    assert last_append > 0, "the child never got to append"
