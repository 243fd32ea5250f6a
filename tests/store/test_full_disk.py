"""A full disk, on a real small file system (ext4 on a loop device, and tmpfs) the test mounts as root.

Oracle: appends are refused with ``StorageFullError`` (and nothing torn is written) while reads, offset
fetches and topic changes go on (an offset commit is a record of ``__consumer_offsets``: it goes on from the
free-space reserve while the CommitLog's segment has room, and is refused like an append when the CommitLog
would have to grow into the reserve, as Kafka's commits fail with its log directory full); every acknowledged
record stays readable; appends resume by themselves once space returns; each change of state is one WARNING; a
segment that cannot be allocated is an error, never a sparse file; reopening a full store refuses cleanly or
recovers, and never dies of SIGBUS.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from compat_tests.mounts import KINDS, fill, free_bytes, small_filesystem
from rockafka.store import MessageStore, OffsetCommit, StorageError, StorageFullError, TopicPartition
from rockafka.store.layout import StoreLayout
from rockafka.store.mappedfile import MappedFile
from rockafka.store.space import RECHECK_S

from .helpers import append, build_batch, decoded, small_config

MIB = 1 << 20
RESERVE = 2 * MIB
VALUE = b"v" * 2000


@pytest.fixture(params=KINDS)
def mount(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path]:
    with small_filesystem(request.param, 24, tmp_path) as mountpoint:
        yield mountpoint


def _config(root: Path, **overrides: object):  # type: ignore[no-untyped-def]
    settings: dict[str, object] = {
        "commitlog_segment_bytes": 256 * 1024,
        "consume_queue_units_per_file": 1024,
        "preallocate": True,
        "free_space_reserve_bytes": RESERVE,
    }
    settings.update(overrides)
    return small_config(root, **settings)


def _produce_until_full(store: MessageStore, topic: str, limit: int = 100_000, first: int = 0) -> list[int]:
    """Append one-record batches (keys counting from ``first``) until the store refuses; the acknowledged offsets."""
    acked: list[int] = []
    for number in range(first, first + limit):
        try:
            result = append(store, topic, 0, build_batch([(str(number).encode(), VALUE)]))
        except StorageFullError:
            return acked
        acked.append(result.base_offset)
    raise AssertionError(f"{limit} appends and the disk is not full")


def _read_all(store: MessageStore, topic: str) -> list[bytes | None]:
    """Every record key of partition 0, read back batch by batch (each batch's CRC checked)."""
    keys: list[bytes | None] = []
    offset = store.records.partition_offsets(topic, 0).log_start_offset
    while True:
        result = store.records.read(topic, 0, offset, 1 << 20)
        if not result.batches:
            return keys
        keys.extend(record[2] for record in decoded(result.batches))
        offset = result.next_offset


def _keys(count: int) -> list[bytes | None]:
    return [str(number).encode() for number in range(count)]


def test_full_store_refuses_appends_serves_the_rest_and_resumes(mount: Path, caplog: pytest.LogCaptureFixture) -> None:
    data = mount / "data"
    store = MessageStore.open(_config(data))
    try:
        store.topics.create("t", 1)
        filler = fill(mount, leave=RESERVE + 4 * MIB)
        with caplog.at_level(logging.WARNING, logger="rockafka.store"):
            acked = _produce_until_full(store, "t")
            assert acked == list(range(len(acked))) and acked
            with pytest.raises(StorageFullError):  # refused again at once, no second WARNING
                append(store, "t", 0, build_batch([(b"x", b"x")]))
            # everything else goes on
            assert _read_all(store, "t") == _keys(len(acked))
            assert store.records.partition_offsets("t", 0).high_watermark == len(acked)
            with pytest.raises(StorageFullError):  # the CommitLog cannot grow for the commit's record
                store.offsets.commit("g", [OffsetCommit("t", 0, len(acked))])
            assert store.offsets.fetch("g") == {}
            store.topics.create("other", 1)
            assert {t.name for t in store.topics.list()} == {"t", "other"}
            store.flush()
            # space returns: appends resume by themselves
            filler.unlink()
            time.sleep(RECHECK_S * 1.5)
            resumed = append(store, "t", 0, build_batch([(str(len(acked)).encode(), VALUE)]))
            assert resumed.base_offset == len(acked)
            store.offsets.commit("g", [OffsetCommit("t", 0, len(acked))])
            assert store.offsets.fetch("g")[TopicPartition("t", 0)].offset == len(acked)
        changes = [
            r.getMessage()
            for r in caplog.records
            if r.levelno >= logging.WARNING and r.name.startswith("rockafka.store")
        ]
        assert len(changes) == 2, changes
        assert "appends are refused" in changes[0] and "appends resume" in changes[1]
        assert not any(r.exc_info for r in caplog.records)
    finally:
        store.close()
    with MessageStore.open(_config(data)) as reopened:
        assert _read_all(reopened, "t") == _keys(len(acked) + 1)


def test_enospc_without_a_reserve_is_a_full_store_not_an_offline_one(mount: Path) -> None:
    """No reserve: the real ENOSPC of a segment allocation (or a write) refuses the append; reads go on."""
    data = mount / "data"
    with MessageStore.open(_config(data, free_space_reserve_bytes=0)) as store:
        store.topics.create("t", 1)
        filler = fill(mount, leave=3 * MIB)
        acked = _produce_until_full(store, "t")
        assert _read_all(store, "t") == _keys(len(acked))
        assert store.records.partition_offsets("t", 0).high_watermark == len(acked)
        filler.unlink()
        time.sleep(RECHECK_S * 1.5)
        assert append(store, "t", 0, build_batch([(str(len(acked)).encode(), VALUE)])).base_offset == len(acked)


def test_a_segment_that_cannot_be_allocated_is_an_error_not_a_sparse_file(mount: Path) -> None:
    fill(mount, leave=MIB)
    path = mount / "segment"
    with pytest.raises(OSError) as failure:
        MappedFile.open(path, 0, 4 * MIB, reserve=True, keep_fd=True)
    assert failure.value.errno == errno.ENOSPC
    assert not path.exists()
    with pytest.raises(OSError) as refused:  # it would fit, but not with the reserve kept free
        MappedFile.open(path, 0, MIB // 2, reserve=True, keep_fd=True, keep_free=MIB // 2 + 64 * 1024)
    assert refused.value.errno == errno.ENOSPC and "reserve" in str(refused.value)
    assert not path.exists()
    segment = MappedFile.open(path, 0, MIB // 4, reserve=True, keep_fd=True)
    try:
        assert os.stat(path).st_blocks * 512 >= MIB // 4  # allocated, not sparse
    finally:
        segment.close()


_REOPEN = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from rockafka.store import MessageStore, StorageError, StoreConfig
    config = StoreConfig(Path(sys.argv[1]), commitlog_segment_bytes=256 * 1024, consume_queue_units_per_file=1024,
                         index_slot_count=16, index_entry_count=64, free_space_reserve_bytes=int(sys.argv[2]))
    try:
        store = MessageStore.open(config)
    except StorageError as exc:
        print("refused:", exc)
        sys.exit(3)
    high = store.records.partition_offsets("t", 0).high_watermark
    store.close()
    print("recovered:", high)
    """
)


def _reopen(data: Path, reserve: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _REOPEN, str(data), str(reserve)], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("crash", [False, True], ids=["clean", "crash"])
def test_reopen_on_a_full_file_system_refuses_or_recovers_never_sigbus(mount: Path, crash: bool) -> None:
    data = mount / "data"
    store = MessageStore.open(_config(data, consume_queue_units_per_file=300_000))  # 19 MB files, mostly holes
    store.topics.create("t", 4)
    for number in range(200):
        append(store, "t", 0, build_batch([(str(number).encode(), VALUE)]))
        append(store, "t", 1 + number % 3, build_batch([(b"x", VALUE)]))
    store.flush()
    if crash:  # no clean shutdown: the abort marker stays and recovery scans from the checkpoint
        store._flusher.stop()
        store._files.index.stop()  # type: ignore[union-attr]
        store._lock.release()
    else:
        store.close()
    filler = fill(mount)  # completely full
    assert free_bytes(mount) < 64 * 1024
    refused = _reopen(data, RESERVE)
    assert refused.returncode == 3, (refused.returncode, refused.stdout, refused.stderr)
    assert "free some space" in refused.stdout and "Traceback" not in refused.stderr
    # no reserve, so no refusal up front: recovery fails cleanly or succeeds, reading no hole through a mapping
    # (on the full tmpfs a crashed store's ConsumeQueue checks died of SIGBUS, -7)
    refused = _reopen(data, 0)
    assert refused.returncode in (0, 3), (refused.returncode, refused.stdout, refused.stderr)
    assert "Traceback" not in refused.stderr
    filler.unlink()
    fill(mount, leave=RESERVE)  # nearly full, but the reserve is there: recovery works
    recovered = _reopen(data, RESERVE)
    assert recovered.returncode == 0, (recovered.returncode, recovered.stdout, recovered.stderr)
    assert recovered.stdout.split() == ["recovered:", "200"]


def test_a_record_whose_unit_cannot_be_written_is_taken_back(mount: Path) -> None:
    """The CommitLog segment has room (pre-allocated) but the ConsumeQueue cannot allocate its next blocks: the
    append is refused, and the record written for it is taken back: the next append takes its place, also for a
    recovery that rebuilds the queue from the CommitLog (else it would find the refused record there)."""
    data = mount / "data"
    config = _config(data, free_space_reserve_bytes=0, commitlog_segment_bytes=4 * MIB, index_enabled=False)
    store = MessageStore.open(config)
    try:
        store.topics.create("t", 1)
        append(store, "t", 0, build_batch([(b"0", VALUE)]))  # the first segment, and the next, are allocated
        filler = fill(mount)
        acked = [0, *_produce_until_full(store, "t", first=1)]
        assert len(acked) >= 1024  # the queue's first 64 KiB of units were allocated before the disk filled
        assert store.records.partition_offsets("t", 0).high_watermark == len(acked)
        filler.unlink()
        time.sleep(RECHECK_S * 1.5)
        assert append(store, "t", 0, build_batch([(b"after", VALUE)])).base_offset == len(acked)
    finally:
        store.close()
    shutil.rmtree(StoreLayout(data).consume_queues)  # recovery rebuilds the queue from the CommitLog
    with MessageStore.open(config) as reopened:
        assert _read_all(reopened, "t") == [*_keys(len(acked)), b"after"]


_INDEX_ON_A_FULL_DISK = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from compat_tests.mounts import fill
    from rockafka.store import MessageStore, StoreConfig
    from tests.store.helpers import append, build_batch
    mount = Path(sys.argv[1])
    config = StoreConfig(mount / "data", commitlog_segment_bytes=4 << 20, consume_queue_units_per_file=1024,
                         index_slot_count=1024, index_entry_count=int(sys.argv[2]), free_space_reserve_bytes=0)
    store = MessageStore.open(config)
    store.topics.create("t", 1)
    append(store, "t", 0, build_batch([(b"first", b"")]))
    while not store.keys.query("t", b"first"):
        time.sleep(0.01)
    store.flush()  # the checkpoint file has its block before the disk fills
    filler = fill(mount)
    batches = [build_batch([(f"{n}-{i}".encode(), None) for i in range(1000)]) for n in range(60)]
    append(store, "t", 0, *batches)  # one run of the index thread: 60,000 entries, past what it has allocated
    time.sleep(1.5)
    print("alive")
    filler.unlink()
    deadline = time.monotonic() + 30
    while not store.keys.query("t", b"59-999") and time.monotonic() < deadline:
        time.sleep(0.05)
    print("indexed", len(store.keys.query("t", b"59-999")), len(store.keys.query("t", b"0-0")))
    store.close()
    """
)


@pytest.mark.parametrize("entries", [1 << 20, 4096], ids=["one-file", "rolls"])
def test_the_index_thread_on_a_full_disk_waits_and_goes_on(mount: Path, entries: int) -> None:
    """IndexFile entries are written through the mapping: past the blocks allocated ahead, on a full disk, that
    was SIGBUS; so was reading the header of a fresh file (a hole) on a full tmpfs. The index thread stops
    where its allocated blocks end, waits while the disk is full, and goes on."""
    child = subprocess.run(
        [sys.executable, "-c", _INDEX_ON_A_FULL_DISK, str(mount), str(entries)],
        capture_output=True, text=True, timeout=120, cwd=Path(__file__).parents[2],
    )  # fmt: skip
    assert child.returncode == 0, (child.returncode, child.stdout, child.stderr[-3000:])
    assert child.stdout.split() == ["alive", "indexed", "1", "1"], child.stdout


def test_other_io_errors_still_take_the_store_offline(mount: Path) -> None:
    """Only a full disk is recoverable: a write the file system refuses for another reason (an immutable
    CommitLog directory: EPERM for the next segment) takes the store offline."""
    data = mount / "data"
    with MessageStore.open(_config(data)) as store:
        store.topics.create("t", 1)
        append(store, "t", 0, build_batch([(b"0", VALUE)]))
        subprocess.run(["chattr", "+i", str(data / "commitlog")], check=True, capture_output=True, timeout=60)
        try:
            with pytest.raises(StorageError) as refused:
                for number in range(1, 400):  # on to the segment after the pre-allocated one
                    append(store, "t", 0, build_batch([(str(number).encode(), VALUE)]))
            assert not isinstance(refused.value, StorageFullError), refused.value
            with pytest.raises(StorageError, match="offline"):
                store.records.read("t", 0, 0, 1 << 20)
        finally:
            subprocess.run(["chattr", "-i", str(data / "commitlog")], check=True, capture_output=True, timeout=60)
