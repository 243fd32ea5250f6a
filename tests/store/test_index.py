"""IndexFile: lookups match a dictionary model, collisions forced with tiny slot counts; queries by key."""

from __future__ import annotations

import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rockafka.store import MessageStore
from rockafka.store.indexfile import HEADER_SIZE, IndexFile, file_name, file_size, key_hash

from .helpers import append, build_batch, small_config

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
        store.create_topic("t", 3)
        for number in range(40):
            keys = [b"key-%d" % (number * 7 % 5), b"key-%d" % (number % 3), None]
            batch = build_batch([(key, b"%d" % number) for key in keys])
            result = append(store, "t", number % 3, batch)
            for delta, key in enumerate(keys):
                if key is not None:
                    expected.setdefault(key, []).append((number % 3, result.base_offset + delta))
        deadline = time.monotonic() + 10
        while len(store.query_by_key("t", b"key-0", limit=1000)) < len(expected[b"key-0"]):
            assert time.monotonic() < deadline, "the index thread did not catch up"
            time.sleep(0.01)
        for key, hits in expected.items():
            found = store.query_by_key("t", key, limit=1000)
            assert [(r.partition, r.offset) for r in found] == _newest_first(hits)
            assert all(r.key == key for r in found)
    assert len(list((tmp_path / "index").iterdir())) > 3  # small files: the index rolled


def _newest_first(hits: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Appends happen in list order, records within a batch in offset order: reverse both."""
    return list(reversed(hits))
