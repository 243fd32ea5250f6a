"""Batches copied at their own offsets (``keptoffsets.py``): gaps kept, transaction state followed, and what does
not continue the partition refused whole. The store's model test (``test_model.py``) mixes these copies with
appends, reads, DeleteRecords and restarts."""

from __future__ import annotations

from pathlib import Path

import pytest

from rockafka.store import MessageStore
from rockafka.store.keptoffsets import InvalidCopyError

from .helpers import build_batch, decoded, small_config, with_base_offset
from .txn_helpers import txn_batch


def test_copied_batches_keep_their_offsets_and_gaps_and_survive_a_restart(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    first = with_base_offset(build_batch([(b"a", b"1"), (b"b", b"2")]), 10)
    second = with_base_offset(build_batch([(b"c", b"3")]), 15)
    with MessageStore.open(config) as store:
        store.topics.create("t", 1)
        store.kept_offsets.start_at("t", 0, 10)
        assert store.kept_offsets.append("t", 0, first + second) == 16
        offsets = store.records.partition_offsets("t", 0)
        assert (offsets.log_start_offset, offsets.high_watermark) == (10, 16)
    with MessageStore.open(config) as store:
        assert [r[0] for r in decoded(store.records.read("t", 0, 10, 1 << 20).batches)] == [10, 11, 15]
        assert store.records.read("t", 0, 12, 1 << 20).batches[0][:8] == (15).to_bytes(8, "big")


def test_an_open_transaction_copied_in_holds_the_last_stable_offset(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:
        store.topics.create("t", 1)
        store.kept_offsets.append("t", 0, with_base_offset(txn_batch(7, 2), 4))
        assert store.records.last_stable_offset("t", 0) == 4


def test_what_does_not_continue_the_partition_is_refused_whole(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:
        store.topics.create("t", 1)
        store.kept_offsets.append("t", 0, with_base_offset(build_batch([(b"a", b"1")]), 5))
        late = with_base_offset(build_batch([(b"b", b"2")]), 6)
        behind = with_base_offset(build_batch([(b"c", b"3")]), 5)
        with pytest.raises(InvalidCopyError, match="starts at offset 5, below 7"):
            store.kept_offsets.append("t", 0, late + behind)
        with pytest.raises(InvalidCopyError, match="do not parse"):
            store.kept_offsets.append("t", 0, late[:-3])
        assert store.records.partition_offsets("t", 0).high_watermark == 6


def test_a_copy_whose_log_start_falls_inside_a_batch_takes_that_batch_whole(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:
        store.topics.create("t", 1)
        store.kept_offsets.start_at("t", 0, 1)
        batch = build_batch([(b"a", b"0"), (b"b", b"1"), (b"c", b"2")])
        assert store.kept_offsets.append("t", 0, batch) == 3
        offsets = store.records.partition_offsets("t", 0)
        assert (offsets.log_start_offset, offsets.high_watermark) == (1, 3)
        assert [r[0] for r in decoded(store.records.read("t", 0, 1, 1 << 20).batches)] == [0, 1, 2]
