"""Cutting a store back to a CommitLog offset (``truncation.py``): every file cut consistently, the cut point
checked, and a kill -9 at any moment of the cut leaving the store as before it or as after it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rockafka.store import MessageStore
from rockafka.store.epochfile import EpochEntry
from rockafka.store.truncation import FILE_NAME, InvalidTruncationError, write_intent

from .helpers import append, build_batch, small_config
from .txn_helpers import put, txn_batch

WAIT_S = 30.0


def log_end(store: MessageStore) -> int:
    return store.stats().commitlog_bytes  # the CommitLog starts at 0 in these stores


def values(store: MessageStore, topic: str, partition: int) -> list[bytes | None]:
    from rockafka.core_pyx.records import read_records

    end = store.records.partition_offsets(topic, partition).high_watermark
    if end == 0:
        return []
    read = store.records.read(topic, partition, 0, 1 << 20)
    return [record.value for batch in read.batches for record in read_records(batch)]


def indexed(store: MessageStore, key: bytes, count: int) -> list[bytes]:
    """The values of topic ``t``'s records under ``key``, once the index thread has found ``count`` (or the wait
    ran out: the answer then shows what it found)."""
    deadline = time.monotonic() + WAIT_S
    while len(found := store.keys.query("t", key)) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    return sorted(hit.value or b"" for hit in found)


def diverged_store(root: Path) -> tuple[int, dict[str, object]]:
    """A store whose log holds an agreed part, then (from the returned offset on) a part a follower must drop:
    records of both partitions, a new epoch, and a transaction opened past the cut."""
    with MessageStore.open(small_config(root)) as store:
        store.topics.create("t", 2)
        append(store, "t", 0, build_batch([(b"a", b"kept-0"), (b"b", b"kept-1")]))
        append(store, "t", 1, build_batch([(b"a", b"kept-2")]))
        put(store, "t", 1, txn_batch(9, 1))  # a transaction open before the cut stays open
        cut = log_end(store)
        store.epochs.begin(3)
        append(store, "t", 0, build_batch([(b"a", b"gone-0")]))
        put(store, "t", 0, txn_batch(7, 2))
        append(store, "t", 1, build_batch([(b"b", b"gone-1")] * 3))
        before = snapshot(store)
        assert before["epochs"] == [EpochEntry(0, 0), EpochEntry(3, cut)]
    return cut, before


def snapshot(store: MessageStore) -> dict[str, object]:
    return {
        "values": [values(store, "t", p) for p in range(2)],
        "ends": [store.records.partition_offsets("t", p).high_watermark for p in range(2)],
        "lso": [store.records.last_stable_offset("t", p) for p in range(2)],
        "open": sorted(t.producer_id for p in range(2) for t in store.transactions.open("t", p)),
        "epochs": list(store.epochs.entries()),
    }


AFTER = {
    "values": [[b"kept-0", b"kept-1"], [b"kept-2", b"v-9-0"]],
    "ends": [2, 2],
    "lso": [2, 1],
    "open": [9],
}


def test_a_cut_drops_every_trace_of_what_lay_past_it(tmp_path: Path) -> None:
    cut, before = diverged_store(tmp_path)
    assert before["ends"] == [5, 5] and before["open"] == [7, 9]
    with MessageStore.open(small_config(tmp_path), truncate_to=cut) as store:
        state = snapshot(store)
        assert {key: state[key] for key in AFTER} == AFTER
        assert state["epochs"] == [EpochEntry(0, 0), EpochEntry(3, cut)]  # the epoch that began at the cut stays
        assert log_end(store) == cut
        assert indexed(store, b"a", 2) == [b"kept-0", b"kept-2"] and indexed(store, b"b", 1) == [b"kept-1"]
        # appends go on from the cut, at the offsets the dropped records had
        assert append(store, "t", 0, build_batch([(b"a", b"new")])).base_offset == 2
        assert store.recovery_report is not None and store.recovery_report.lost_bytes == 0
        assert store.recovery_report.damaged_ranges == ()
    assert not (tmp_path / "config" / FILE_NAME).exists()
    with MessageStore.open(small_config(tmp_path)) as store:  # and it all holds after a restart
        assert values(store, "t", 0) == [b"kept-0", b"kept-1", b"new"]
        assert store.recovery_report is not None and store.recovery_report.lost_bytes == 0


def test_a_cut_at_or_past_the_end_changes_nothing(tmp_path: Path) -> None:
    _, before = diverged_store(tmp_path)
    with MessageStore.open(small_config(tmp_path)) as store:
        end = log_end(store)
    with MessageStore.open(small_config(tmp_path), truncate_to=end) as store:
        assert snapshot(store) == before


def test_a_cut_inside_a_record_or_below_the_log_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    cut, before = diverged_store(tmp_path)
    for offset in (cut + 5, -1):
        with pytest.raises(InvalidTruncationError):
            MessageStore.open(small_config(tmp_path), truncate_to=offset)
        assert not (tmp_path / "config" / FILE_NAME).exists()
    with MessageStore.open(small_config(tmp_path)) as store:
        assert snapshot(store) == before


def test_an_intent_left_by_a_crash_is_carried_out_by_the_next_open(tmp_path: Path) -> None:
    cut, _ = diverged_store(tmp_path)
    write_intent(tmp_path / "config" / FILE_NAME, cut)
    with MessageStore.open(small_config(tmp_path)) as store:
        state = snapshot(store)
        assert {key: state[key] for key in AFTER} == AFTER
    assert not (tmp_path / "config" / FILE_NAME).exists()


CHILD = """
import sys
from pathlib import Path
from rockafka.store import MessageStore
from tests.store.helpers import small_config
print("GO", flush=True)
MessageStore.open(small_config(Path(sys.argv[1])), truncate_to=int(sys.argv[2])).close()
print("DONE", flush=True)
"""


@pytest.mark.parametrize("delay_ms", [0, 40, 80, 120, 160, 200, 260, 330])
def test_a_kill_during_the_cut_leaves_the_store_before_or_after_it(tmp_path: Path, delay_ms: int) -> None:
    cut, before = diverged_store(tmp_path)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path), str(cut)], stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    try:
        assert child.stdout is not None and child.stdout.readline() == b"GO\n"
        time.sleep(delay_ms / 1000)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(WAIT_S)
    intent = (tmp_path / "config" / FILE_NAME).exists()
    with MessageStore.open(small_config(tmp_path)) as store:
        state = snapshot(store)
        assert store.recovery_report is not None and store.recovery_report.lost_bytes == 0
    after = {**AFTER, "epochs": [EpochEntry(0, 0), EpochEntry(3, cut)]}
    if intent:  # the cut had begun: the open finished it
        assert state == after
    else:  # it had not begun, or it had finished
        assert state in (before, after), json.dumps(str(state))
