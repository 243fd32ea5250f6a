"""Readers of compacted partitions: the IndexFile key query (the broker's and StoreReader's), the ``rockafka store``
tools, and a pass whose offset map (``log.cleaner.dedupe.buffer.size``) holds only part of the dirty keys."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from rockafka.cli import main
from rockafka.core_pyx.offsetmap import footprint
from rockafka.store import MessageStore
from rockafka.store.reader import StoreReader

from .helpers import append, build_batch, small_config
from .test_cleaner import read_all

COMPACTED = {"cleanup.policy": "compact", "min.cleanable.dirty.ratio": "0.01", "delete.retention.ms": "0"}
KEYS, ROUNDS = 6, 15


def fill(
    store: MessageStore, rounds: int = ROUNDS, first_round: int = 0, key_pad: bytes = b""
) -> dict[bytes, tuple[int, bytes]]:
    """``rounds`` updates of every key, one batch each; the latest (offset, value) of each key."""
    latest: dict[bytes, tuple[int, bytes]] = {}
    for round_ in range(first_round, first_round + rounds):
        for key in range(KEYS):
            name, value = b"k%d" % key + key_pad, b"v%d-%d;" % (round_, key) * 30
            latest[name] = (append(store, "t", 0, build_batch([(name, value)])).base_offset, value)
    return latest


def wait_indexed(store: MessageStore, key: bytes, at_least: int) -> None:
    deadline = time.monotonic() + 10
    while len(store.keys.query("t", key, limit=1000)) < at_least:
        assert time.monotonic() < deadline, "the index thread did not index the records"
        time.sleep(0.01)


def open_store(root: Path, **overrides: int) -> MessageStore:
    return MessageStore.open(small_config(root, commitlog_segment_bytes=16384, **overrides))


def test_the_key_query_answers_a_compacted_partition_as_a_read_does(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.topics.create("t", 1, COMPACTED)
        cleaned = fill(store)[b"k2"]
        wait_indexed(store, b"k2", ROUNDS)
        store.cleaner.clean("t", 0)
        offsets = [offset for offset, _, _ in read_all(store)]
        newer = [KEYS * ROUNDS + 2, KEYS * ROUNDS + KEYS + 2]
        latest = fill(store, 2, first_round=ROUNDS)[b"k2"]  # two newer versions, dirty in the CommitLog
        wait_indexed(store, b"k2", 3)
        found = store.keys.query("t", b"k2", limit=100)
        assert [(record.offset, record.value) for record in found] == [latest, (newer[0], found[1].value), cleaned]
        assert found[2].offset in offsets  # what a fetch reads
        assert [record.offset for record in store.keys.query("t", b"k2", limit=2)] == newer[::-1]
        store.cleaner.clean("t", 0)
        assert [(record.offset, record.value) for record in store.keys.query("t", b"k2", limit=100)] == [latest]
        assert store.retention.enforce().deleted_segments > 0  # the CommitLog below the compacted log goes
        after = store.keys.query("t", b"k2", limit=100)
        assert [(record.offset, record.value) for record in after] == [latest]
    with StoreReader(tmp_path) as reader:
        assert [(r.offset, r.value) for r in reader.query_by_key("t", b"k2", limit=100)] == [latest]


def test_no_superseded_version_comes_back_from_the_commitlog(tmp_path: Path) -> None:
    """Before retention deletes it, the CommitLog below the compacted end still holds every old version: the key
    query must answer with the compacted log's one version, as a fetch would."""
    with open_store(tmp_path) as store:
        store.topics.create("t", 1, COMPACTED)
        latest = fill(store)
        wait_indexed(store, b"k4", ROUNDS)
        store.cleaner.clean("t", 0)
        found = store.keys.query("t", b"k4", limit=100)
        assert [(record.offset, record.value) for record in found] == [latest[b"k4"]]


def test_store_tools_dump_and_query_a_compacted_partition(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(tmp_path) as store:
        store.topics.create("t", 1, COMPACTED)
        latest = fill(store)
        wait_indexed(store, b"k1", ROUNDS)
        store.cleaner.clean("t", 0)
        store.retention.enforce()
    assert main(["store", "dump", str(tmp_path), "--topic", "t", "--partition", "0", "--offset", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    dumped = [int(line.split()[0]) for line in lines]
    newest = KEYS * ROUNDS - 1  # the newest batch stays dirty: its key's cleaned version is there too
    assert dumped == sorted({offset for offset, _ in latest.values()} | {newest - KEYS})
    assert main(["store", "query", str(tmp_path), "--topic", "t", "--key", "k1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [f"t-0@{latest[b'k1'][0]}"]
    assert main(["store", "inspect", str(tmp_path)]) == 0
    assert "t-0" in capsys.readouterr().out


def test_a_pass_whose_keys_do_not_fit_its_offset_map_cleans_a_prefix_and_the_next_goes_on(tmp_path: Path) -> None:
    pad = b"-" * 100
    budget = footprint(0, 0) + 600  # 100-byte keys, 320-byte batches: about three batches a pass
    with open_store(tmp_path, cleaner_dedupe_buffer_bytes=budget) as store:
        store.topics.create("t", 1, COMPACTED)
        latest = fill(store, key_pad=pad)
        first = store.cleaner.clean("t", 0)
        assert first is not None and 0 < first.end_offset < KEYS * ROUNDS - 1
        ends = [first.end_offset]
        for _ in range(KEYS * ROUNDS):
            report = store.cleaner.clean("t", 0)
            if report is None:
                break
            assert report.end_offset > ends[-1]
            ends.append(report.end_offset)
        assert len(ends) > 10 and ends[-1] == KEYS * ROUNDS - 1  # the newest batch stays dirty
        read = read_all(store)
        assert {key: (offset, value) for offset, key, value in read} == latest
        assert len(read) == KEYS + 1  # and the newest batch, still dirty


def test_max_timestamp_is_found_in_the_compacted_log_after_retention(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        store.topics.create("t", 1, COMPACTED)
        stamps = {b"late": 9_000_000, b"early": 1_000}
        for round_ in range(ROUNDS):
            for key, stamp in stamps.items():
                batch = build_batch([(key, b"%d;" % round_ * 500)], timestamps=[stamp + round_])
                append(store, "t", 0, batch)
        newest = append(store, "t", 0, build_batch([(b"early", b"x")], timestamps=[5_000])).base_offset
        last_late = newest - 2
        assert store.records.max_timestamp("t", 0).offset == last_late  # type: ignore[union-attr]
        store.cleaner.clean("t", 0)
        assert store.retention.enforce().deleted_segments > 0  # the late key's last version is in the compacted log
        found = store.records.max_timestamp("t", 0)
        assert found is not None and (found.offset, found.timestamp) == (last_late, 9_000_000 + ROUNDS - 1)
