"""The side logs on a file system that fills up part-way through an append (a real tmpfs, mounted as root).

A log append is whole frames or nothing: a short write is cut back and raised as ``ENOSPC``, the change is not
applied, and the next load finds neither a torn frame nor a loss. Before, ``os.write``'s count was ignored: a
commit whose frame was half stored was acknowledged, and the next load cut it as a torn tail.
"""

from __future__ import annotations

import errno
from collections.abc import Iterator
from pathlib import Path

import pytest

from compat_tests.mounts import fill, small_filesystem
from rockafka.store.groups import GroupMetadataLog
from rockafka.store.offsets import OffsetStore
from rockafka.store.quarantine import read_losses
from rockafka.store.results import OffsetCommit, TopicPartition

METADATA = "m" * 3000  # a frame spans pages, so the page that does not fit cuts it short


@pytest.fixture
def mount(tmp_path: Path) -> Iterator[Path]:
    with small_filesystem("tmpfs", 1, tmp_path) as mountpoint:
        yield mountpoint


def test_offset_commits_are_whole_or_refused_when_the_disk_fills(mount: Path) -> None:
    directory = mount / "config"
    directory.mkdir()
    store = OffsetStore(directory, compact_bytes=1 << 30)
    store.load()
    fill(mount, leave=64 << 10)
    acknowledged: list[int] = []
    refused = None
    for offset in range(1000):
        try:
            store.commit("g", [OffsetCommit("t", 0, offset, None, METADATA)], timestamp=offset)
        except OSError as exc:
            refused = exc
            break
        acknowledged.append(offset)
    assert refused is not None and refused.errno == errno.ENOSPC
    assert acknowledged, "some commits fit before the disk filled"
    assert store.fetch("g", None)[TopicPartition("t", 0)].offset == acknowledged[-1]
    log_size = (directory / "consumerOffsets.log").stat().st_size
    store.close()

    (mount / "filler").unlink()
    reopened = OffsetStore(directory, compact_bytes=1 << 30)
    reopened.load()
    assert reopened.fetch("g", None)[TopicPartition("t", 0)].offset == acknowledged[-1]
    assert (directory / "consumerOffsets.log").stat().st_size == log_size
    reopened.commit("g", [OffsetCommit("t", 0, 5000, None, METADATA)], timestamp=5000)
    reopened.close()
    again = OffsetStore(directory, compact_bytes=1 << 30)
    again.load()
    assert again.fetch("g", None)[TopicPartition("t", 0)].offset == 5000
    again.close()
    assert read_losses(mount / "quarantine") == []


def test_a_group_document_that_cannot_be_stored_is_not_kept(mount: Path) -> None:
    directory = mount / "config"
    directory.mkdir()
    documents = GroupMetadataLog(directory, compact_bytes=1 << 30)
    documents.load()
    fill(mount, leave=64 << 10)
    stored = 0
    with pytest.raises(OSError) as refused:
        for number in range(1000):
            documents.put(f"group-{number}", {"members": METADATA})
            stored += 1
    assert refused.value.errno == errno.ENOSPC
    assert f"group-{stored}" not in documents.documents()
    documents.close()
    (mount / "filler").unlink()
    reopened = GroupMetadataLog(directory, compact_bytes=1 << 30)
    reopened.load()
    assert sorted(reopened.documents()) == sorted(f"group-{number}" for number in range(stored))
    reopened.close()
