"""Transaction state after crashes: the CommitLog cut at every record, the transaction log behind or torn, kill -9.

A pristine store runs a plan of transactional batches, plain batches and markers over two partitions, once per
module. Each case copies it, damages the copy as a crash would (an early checkpoint and the abort marker put
back, so recovery re-dispatches the tail), reopens it, and compares the tracker with a model computed from the
batches that survived (``txn_helpers.model_of_log``), then appends again and reopens once more.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from rockafka.store import MessageStore, StoreConfig

from .helpers import append, build_batch, small_config
from .txn_helpers import assert_tracker_matches, model_of_log, put, txn_batch

ROOT = Path(__file__).resolve().parents[2]
EARLY = 6  # the checkpoint kept for the crash cases is written after this many operations
TXN_LOG = Path("config") / "transactions.log"


@dataclass
class Pristine:
    root: Path
    positions: list[int]  # CommitLog write position before each operation, then the end
    txn_log_sizes: list[int]  # transactions.log size before each operation, then the end
    early_checkpoint: bytes


def _operate(store: MessageStore, step: int) -> None:
    """Operation ``step`` of the plan: every kind of batch, in an order that leaves transactions open."""
    partition, kind, pid = step % 2, step % 5, 100 + step % 3
    if kind in (0, 3):
        put(store, "t", partition, txn_batch(pid, 1 + step % 3, epoch=step // 10))
    elif kind == 1:
        append(store, "t", partition, build_batch([(b"plain", b"%d" % step)]))
    else:
        store.records.write_transaction_marker(
            "t", partition, producer_id=pid, producer_epoch=step // 10, coordinator_epoch=step, commit=kind == 2
        )


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Pristine:
    root = tmp_path_factory.mktemp("pristine")
    positions, sizes, early = [], [], b""
    with MessageStore.open(small_config(root)) as store:
        store.topics.create("t", 2)
        for step in range(40):
            if step == EARLY:
                store.flush()
                early = (root / "checkpoint").read_bytes()
            positions.append(store.records._commitlog.write_offset)
            sizes.append((root / TXN_LOG).stat().st_size)
            _operate(store, step)
        positions.append(store.records._commitlog.write_offset)
        sizes.append((root / TXN_LOG).stat().st_size)
    return Pristine(root, positions, sizes, early)


def _crashed_copy(pristine: Pristine, target: Path) -> StoreConfig:
    shutil.copytree(pristine.root, target)
    (target / "lock").unlink()
    (target / "checkpoint").write_bytes(pristine.early_checkpoint)
    (target / "abort").write_text("4242\n")
    return small_config(target)


def _cut_commitlog(root: Path, position: int) -> None:
    """Zero the CommitLog from ``position`` on and delete later segments, as a lost page cache would leave it."""
    for segment in sorted((root / "commitlog").iterdir()):
        start, size = int(segment.name), segment.stat().st_size
        if start >= position:
            segment.unlink()
        elif start + size > position:
            with segment.open("r+b") as file:
                file.seek(position - start)
                file.write(bytes(start + size - position))


def _check(config: StoreConfig, operations: int | None = None) -> None:
    """Reopen: the tracker matches the surviving batches; it still works after one more marker and a reopen."""
    with MessageStore.open(config) as store:
        if operations is not None:
            high_watermarks = sum(store.records.partition_offsets("t", p).high_watermark for p in (0, 1))
            assert high_watermarks == _offsets_used(operations)
        for partition in (0, 1):
            assert_tracker_matches(store, "t", partition, model_of_log(store, "t", partition))
        opened = store.transactions.open("t", 0)
        if opened:
            store.records.write_transaction_marker(
                "t", 0, producer_id=opened[0].producer_id, producer_epoch=9, coordinator_epoch=99, commit=False
            )
        put(store, "t", 1, txn_batch(777, 2))
        models = {p: model_of_log(store, "t", p) for p in (0, 1)}
    with MessageStore.open(config) as store:
        for partition in (0, 1):
            assert_tracker_matches(store, "t", partition, models[partition])


def _offsets_used(operations: int) -> int:
    total = 0
    for step in range(operations):
        kind = step % 5
        total += 1 + step % 3 if kind in (0, 3) else 1
    return total


def test_a_clean_copy_reopens_as_it_was(pristine: Pristine, tmp_path: Path) -> None:
    shutil.copytree(pristine.root, tmp_path / "s")
    (tmp_path / "s" / "lock").unlink()
    _check(small_config(tmp_path / "s"), 40)


def test_the_commitlog_cut_at_every_record_past_the_checkpoint(pristine: Pristine, tmp_path: Path) -> None:
    """The transaction log holds frames of records the crash lost: they are dropped, the rest rebuilt."""
    for kept in range(EARLY, 41):
        config = _crashed_copy(pristine, tmp_path / f"cut-{kept}")
        _cut_commitlog(config.root_dir, pristine.positions[kept])
        _check(config, kept)


def test_a_transaction_log_behind_the_commitlog_catches_up_on_redispatch(pristine: Pristine, tmp_path: Path) -> None:
    """A kill -9 between a record's append and its frame: re-dispatching the tail writes the missing frames."""
    for kept_frames in range(EARLY, 41, 3):
        config = _crashed_copy(pristine, tmp_path / f"behind-{kept_frames}")
        os.truncate(config.root_dir / TXN_LOG, pristine.txn_log_sizes[kept_frames])
        _check(config, 40)


def test_a_torn_transaction_log_frame_is_cut(pristine: Pristine, tmp_path: Path) -> None:
    sizes = pristine.txn_log_sizes
    growing = [i for i in range(EARLY, 40) if sizes[i + 1] > sizes[i]]
    for index, step in enumerate(growing[:6]):
        config = _crashed_copy(pristine, tmp_path / f"torn-{step}")
        os.truncate(config.root_dir / TXN_LOG, sizes[step] + 1 + index * 7)  # inside the frame
        cut_at = pristine.positions[step + 1 + index % 2]  # the record may or may not have survived
        _cut_commitlog(config.root_dir, cut_at)
        _check(config, step + 1 + index % 2)


def test_a_lost_transaction_log_starts_empty_and_learns_the_tail(pristine: Pristine, tmp_path: Path) -> None:
    config = _crashed_copy(pristine, tmp_path / "lost")
    (config.root_dir / TXN_LOG).unlink()
    with MessageStore.open(config) as store:  # only the re-dispatched tail (past the checkpoint) is learnt
        assert store.recovery_report is not None and store.recovery_report.redispatched_batches > 0
        tail = model_of_log(store, "t", 0)
        assert store.transactions.open("t", 0)
        assert {t.producer_id for t in store.transactions.open("t", 0)} <= set(tail.open)


# --- kill -9 of a process writing transactions ---

KILLS = 3


def _run_and_kill(store_dir: Path, rng: random.Random) -> int:
    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("txn_child.py")), str(store_dir), str(rng.randrange(1 << 30))],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == b"READY"
    time.sleep(rng.uniform(0.05, 0.4))
    child.send_signal(signal.SIGKILL)
    output = child.stdout.read().decode().split("\n")
    child.wait(timeout=10)
    acknowledged = [int(line[2:]) for line in output if line.startswith("A ")]
    return acknowledged[-1] if acknowledged else -1


def test_transaction_state_is_rebuilt_after_kill_9(tmp_path: Path) -> None:
    rng = random.Random(6)
    written = 0
    for _ in range(KILLS):
        acknowledged = _run_and_kill(tmp_path, rng)
        with MessageStore.open(small_config(tmp_path)) as store:
            report = store.recovery_report
            assert report is not None and not report.clean_shutdown
            high_watermark = sum(store.records.partition_offsets("t", p).high_watermark for p in (0, 1))
            assert high_watermark >= acknowledged + 1 and high_watermark >= written
            written = high_watermark
            for partition in (0, 1):
                assert_tracker_matches(store, "t", partition, model_of_log(store, "t", partition))
    assert written > 0, "the child never got to write"
