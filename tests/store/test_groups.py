"""Group metadata documents: kept across close/reopen and crashes, torn tails cut, compaction, sync flush."""

from __future__ import annotations

from pathlib import Path

import pytest

from rockafka.store import MessageStore
from rockafka.store.groups import GroupMetadataLog

from .helpers import small_config

DOC_A = {"generation": 3, "members": [{"member_id": "m-1", "assignment": "AAE="}], "protocol": "range"}
DOC_B = {"generation": 1, "members": [], "protocol": None}


def test_documents_survive_a_clean_reopen(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:
        store.group_metadata.save("a", DOC_A)
        store.group_metadata.save("b", DOC_B)
        store.group_metadata.save("a", {**DOC_A, "generation": 4})
        assert store.group_metadata.delete("b") is True
        assert store.group_metadata.delete("b") is False
    with MessageStore.open(small_config(tmp_path)) as store:
        assert store.group_metadata.documents() == {"a": {**DOC_A, "generation": 4}}


def test_documents_survive_a_crash_without_close(tmp_path: Path) -> None:
    log = GroupMetadataLog(tmp_path, 1 << 20)
    log.load()
    log.put("g", DOC_A)
    log.put("unicode ✓", DOC_B)
    # no close: the file descriptor is simply abandoned, as after kill -9
    reopened = GroupMetadataLog(tmp_path, 1 << 20)
    reopened.load()
    assert reopened.documents() == {"g": DOC_A, "unicode ✓": DOC_B}
    reopened.close()
    log.close()


@pytest.mark.parametrize("cut", [1, 5, 9, 20])
def test_a_torn_tail_is_cut_and_earlier_documents_kept(tmp_path: Path, cut: int) -> None:
    log = GroupMetadataLog(tmp_path, 1 << 20)
    log.load()
    log.put("g", DOC_B)
    size_after_first = (tmp_path / "groupMetadata.log").stat().st_size
    log.put("g", DOC_A)
    log.close()
    path = tmp_path / "groupMetadata.log"
    path.write_bytes(path.read_bytes()[: size_after_first + cut])
    reopened = GroupMetadataLog(tmp_path, 1 << 20)
    reopened.load()
    assert reopened.documents() == {"g": DOC_B}
    assert path.stat().st_size == size_after_first
    reopened.put("h", DOC_A)  # appends after the cut point
    reopened.close()
    again = GroupMetadataLog(tmp_path, 1 << 20)
    again.load()
    assert again.documents() == {"g": DOC_B, "h": DOC_A}
    again.close()


def test_compaction_folds_the_log_into_the_snapshot(tmp_path: Path) -> None:
    log = GroupMetadataLog(tmp_path, compact_bytes=300)
    log.load()
    for generation in range(20):
        log.put(f"g{generation % 3}", {**DOC_A, "generation": generation})
    log.delete("g0")
    expected = log.documents()
    log.close()
    assert (tmp_path / "groupMetadata.json").exists()
    assert (tmp_path / "groupMetadata.log").stat().st_size < 300
    reopened = GroupMetadataLog(tmp_path, compact_bytes=300)
    reopened.load()
    assert reopened.documents() == expected and "g0" not in expected
    reopened.close()


def test_sync_flush_hands_out_a_future_completed_once_fsynced(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path, flush_mode="sync")) as store:
        durable = store.group_metadata.save("g", DOC_A)
        assert durable is not None
        assert durable.result(timeout=10) is None
        assert store.group_metadata.documents() == {"g": DOC_A}
    with MessageStore.open(small_config(tmp_path)) as store:
        assert store.group_metadata.save("g", DOC_B) is None
