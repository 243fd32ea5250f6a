"""IndexFile: lookups match a dictionary model, collisions forced with tiny slot counts; queries by key."""

from __future__ import annotations

import struct
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.core_pyx.compression import decompress
from rockafka.core_pyx.indexhash import key_hashes
from rockafka.core_pyx.logrecord import HEADER_SIZE as LOG_HEADER_SIZE
from rockafka.core_pyx.logrecord import scan_records
from rockafka.core_pyx.recordbatch import COMPRESSION_MASK, CONTROL_BIT
from rockafka.store import MessageStore
from rockafka.store.commitlog import StoredBatch
from rockafka.store.indexfile import HEADER_SIZE, IndexFile, file_name, file_size, key_hash, topic_seed
from rockafka.store.reader import StoreReader

from .helpers import CODECS, append, build_batch, small_config
from .txn_helpers import put, txn_batch

TOPIC_ID = bytes(range(16))


@settings(max_examples=60, deadline=None)
@given(
    slots=st.integers(1, 5),
    puts=st.lists(st.tuples(st.sampled_from([b"a", b"b", b"c", b"d", b"e"]), st.integers(0, 2500)), max_size=40),
    window=st.tuples(st.integers(0, 60_000), st.integers(0, 60_000)),
)
def test_lookups_match_a_dictionary_model(tmp_path_factory, slots: int, puts: list, window: tuple[int, int]) -> None:
    path = tmp_path_factory.mktemp("idx") / file_name(1_700_000_000_123)
    index_file = IndexFile.open(path, slots, 64)
    model: list[tuple[bytes, int, int]] = []
    stamp = 5_000
    for number, (key, step) in enumerate(puts):
        stamp += step
        index_file.put([key_hash(TOPIC_ID, key)], 1000 + number, stamp)
        model.append((key, 1000 + number, stamp))
    begin, end = min(window), max(window)
    for key in (b"a", b"b", b"c", b"d", b"e", b"zz"):
        expected = [
            physical
            for k, physical, stored in reversed(model)
            if k == key and begin - 1000 <= _second_resolution(stored, model[0][2]) <= end
        ]
        assert index_file.lookup(key_hash(TOPIC_ID, key), begin, end) == expected
    reopened = IndexFile.open(path, slots, 64)
    assert (reopened.index_count, reopened.end_physical_offset) == (len(puts) + 1, 1000 + len(puts) - 1 if puts else 0)
    index_file.close()
    reopened.delete()


def _second_resolution(stored: int, begin: int) -> int:
    return begin + (stored - begin) // 1000 * 1000


def test_file_geometry_follows_rocketmq() -> None:
    assert file_size(5_000_000, 20_000_000) == 420_000_040
    assert HEADER_SIZE == 40
    assert file_name(0) == "19700101000000000"


def test_query_by_key_matches_a_dictionary_model_with_every_key_in_one_slot(tmp_path: Path) -> None:
    config = small_config(tmp_path, index_slot_count=1, index_entry_count=16)
    expected: dict[bytes, list[tuple[int, int]]] = {}
    with MessageStore.open(config) as store:
        store.topics.create("t", 3)
        for number in range(40):
            keys = [b"key-%d" % (number * 7 % 5), b"key-%d" % (number % 3), None]
            batch = build_batch([(key, b"%d" % number) for key in keys])
            result = append(store, "t", number % 3, batch)
            for delta, key in enumerate(keys):
                if key is not None:
                    expected.setdefault(key, []).append((number % 3, result.base_offset + delta))
        deadline = time.monotonic() + 10
        while len(store.keys.query("t", b"key-0", limit=1000)) < len(expected[b"key-0"]):
            assert time.monotonic() < deadline, "the index thread did not catch up"
            time.sleep(0.01)
        for key, hits in expected.items():
            found = store.keys.query("t", key, limit=1000)
            assert [(r.partition, r.offset) for r in found] == _newest_first(hits)
            assert all(r.key == key for r in found)
    assert len(list((tmp_path / "index").iterdir())) > 3  # small files: the index rolled


def _newest_first(hits: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Appends happen in list order, records within a batch in offset order: reverse both."""
    return list(reversed(hits))


def _put_path_files(root: Path, slots: int, entries: int, scratch: Path) -> list[bytes]:
    """The IndexFiles the per-record put path builds from the CommitLog under ``root``: each record decompressed
    and its distinct key hashes put, control batches skipped, a new file when a record's entries do not fit
    (a fresh file takes the first ones that fit)."""
    scratch.mkdir()
    files: list[IndexFile] = []
    for path in sorted((root / "commitlog").iterdir()):
        data = path.read_bytes()
        records, _, _, _ = scan_records(data, 0, int(path.name), 1 << 62, 1 << 30)
        for record in map(StoredBatch._make, records):
            at = record.physical_offset - int(path.name)
            batch = data[at + LOG_HEADER_SIZE : at + record.size]
            codec = record.attributes & COMPRESSION_MASK
            payload = decompress(codec, batch[61:]) if codec else batch[61:]
            hashes = key_hashes(payload, struct.unpack_from(">i", batch, 57)[0], topic_seed(record.topic_id))
            if record.attributes & CONTROL_BIT or not hashes:
                continue
            if not files or (files[-1].room() < len(hashes) and files[-1].index_count > 1):
                files.append(IndexFile.open(scratch / file_name(len(files)), slots, entries))
            files[-1].put(hashes[: files[-1].room()], record.physical_offset, record.store_timestamp)
    for index_file in files:
        index_file.close()
    return [(scratch / file_name(number)).read_bytes() for number in range(len(files))]


def test_the_index_thread_writes_what_the_put_path_writes(tmp_path: Path) -> None:
    config = small_config(tmp_path / "store", index_slot_count=4, index_entry_count=12)
    many_keys = [(b"many-%d" % i, b"v") for i in range(20)]  # more distinct keys than a file holds (11)
    with MessageStore.open(config) as store:
        store.topics.create("t", 2)
        store.topics.create("u", 1)
        for number in range(30):
            keys = [b"key-%d" % (number % 7), b"key-%d" % (number % 3), None, b"key-%d" % (number % 7)]
            codec = CODECS["gzip"] if number % 4 == 1 else 0
            append(store, "t", number % 2, build_batch([(key, b"value" * 30) for key in keys], codec=codec))
            if number % 5 == 0:
                put(store, "u", 0, txn_batch(9, epoch=0, sequence=number // 5))
                store.records.write_transaction_marker("u", 0, producer_id=9, producer_epoch=0, coordinator_epoch=0,
                                               commit=True)  # fmt: skip
            if number == 20:
                append(store, "t", 0, build_batch(many_keys))
        append(store, "u", 0, build_batch([(b"last", b"v")]))
        deadline = time.monotonic() + 10
        while not store.keys.query("u", b"last"):
            assert time.monotonic() < deadline, "the index thread did not catch up"
            time.sleep(0.01)
        assert [r.value for r in store.keys.query("t", b"many-0")] == [b"v"]
        assert store.keys.query("t", b"many-19") == []  # past what one file holds: not indexed
        hits = 2 * len(range(1, 30, 7)) + len(range(1, 30, 3))  # key-1: twice in 5 batches, once in 10
        assert len(store.keys.query("t", b"key-1", limit=100)) == hits
    built = [path.read_bytes() for path in sorted((tmp_path / "store" / "index").iterdir())]
    assert len(built) > 3 and built == _put_path_files(tmp_path / "store", 4, 12, tmp_path / "reference")


def test_blocks_are_reserved_ahead_of_the_puts_and_a_reopened_file_keeps_its_entries(tmp_path: Path) -> None:
    slots, entries = 4096, 200_000  # 16 KiB of slots, 4 MB of entries
    path = tmp_path / file_name(1_000)
    first = IndexFile.open(path, slots, entries)
    first.put([11, 12], 100, 5_000)
    # the slot table and 1 MiB of entries hold blocks already: the mapping's writes fault on no hole
    assert path.stat().st_blocks * 512 >= HEADER_SIZE + slots * 4 + (1 << 20)
    first.close()
    again = IndexFile.open(path, slots, entries)
    again.put([11, 13], 200, 6_000)  # reserving ahead of these must not zero what is written
    assert again.lookup(11, 0, 10_000) == [200, 100]
    assert again.lookup(12, 0, 10_000) == [100]
    assert again.lookup(13, 0, 10_000) == [200]
    again.close()


def test_a_close_right_after_appends_leaves_every_key_indexed_for_the_read_only_tools(tmp_path: Path) -> None:
    root = tmp_path / "store"
    with MessageStore.open(small_config(root)) as store:
        store.topics.create("orders", 1, {"retention.ms": "-1"})
        for number in range(200):
            append(store, "orders", 0, build_batch([(b"k%d" % (number % 4), b"v%d" % number)]))
    with StoreReader(root) as reader:  # no index thread: only what the close left on disk
        found = {key: len(reader.query_by_key("orders", key)) for key in (b"k0", b"k1", b"k2", b"k3")}
    assert found == {b"k0": 50, b"k1": 50, b"k2": 50, b"k3": 50}


def test_the_index_lag_reaches_zero_once_the_thread_has_caught_up(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path / "store")) as store:
        store.topics.create("orders", 1, {"retention.ms": "-1"})
        for number in range(50):
            append(store, "orders", 0, build_batch([(b"k%d" % number, b"v")]))
        assert store.stats().commitlog_published_offset > 0
        deadline = time.monotonic() + 30
        while store.stats().index_lag_bytes > 0:
            assert time.monotonic() < deadline, store.stats()
            time.sleep(0.01)
        assert len(store.keys.query("orders", b"k49", limit=10)) == 1
