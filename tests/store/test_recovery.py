"""Recovery: torn tails, flipped bytes, damaged ConsumeQueues, lost IndexFiles, abort markers.

A pristine store is built once per test; each case copies it, damages the copy the way a crash (or a
disk) would, reopens it and compares it with the model: the appends up to the last valid record.
"""

from __future__ import annotations

import os
import shutil
import struct
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from rockafka.core_pyx.records import read_records
from rockafka.store import MessageStore, StoreConfig, TopicPartition
from rockafka.store.quarantine import read_losses

from .helpers import append, build_batch, small_config, with_base_offset

HEADER = 64
TOPICS = {"alpha": 2, "beta": 1}


@dataclass
class Pristine:
    root: Path
    config: StoreConfig
    appends: list[tuple[str, int, bytes]]  # in CommitLog order
    positions: list[int]  # CommitLog offset of each append's record
    early_checkpoint: bytes  # the checkpoint file as written after the first four appends


def _appends() -> list[tuple[str, int, bytes]]:
    plan = []
    for i in range(14):
        topic = "alpha" if i % 3 else "beta"
        partition = i % 2 if topic == "alpha" else 0
        records = [(b"key-%d" % (i % 4), b"value-%d-" % i + b"x" * (i * 37 % 300))] * (i % 3 + 1)
        plan.append((topic, partition, build_batch(records, timestamps=[10_000 * i + j for j in range(len(records))])))
    plan.append(("alpha", 1, build_batch([(b"k", b"tail")])))  # the last record: small
    return plan


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Pristine:
    root = tmp_path_factory.mktemp("pristine")
    config = _config(root)
    plan = _appends()
    positions = []
    with MessageStore.open(config) as store:
        for name, count in TOPICS.items():
            store.topics.create(name, count)
        for i, (topic, partition, batch) in enumerate(plan):
            positions.append(_next_position(root))
            append(store, topic, partition, batch)
            if i == 3:
                store.flush()
                early = (root / "checkpoint").read_bytes()
        store.flush()
        _settle_index(store)
    return Pristine(root, config, plan, positions, early)


def _next_position(root: Path) -> int:
    """Where the next record goes: after the last record of the newest segment (test-sized logs only)."""
    segments = sorted((root / "commitlog").iterdir())
    if not segments:
        return 0
    data, start = segments[-1].read_bytes(), int(segments[-1].name)
    pos = 0
    while pos + 8 <= len(data):
        size, magic = struct.unpack_from(">iI", data, pos)
        if size == 0:
            return start + pos
        if magic == 0x524B4342:
            return start + len(data)
        pos += size
    return start + len(data)


def _settle_index(store: MessageStore) -> None:
    deadline = time.monotonic() + 10
    while not store.keys.query("alpha", b"k"):
        assert time.monotonic() < deadline
        time.sleep(0.01)


def _copy(pristine: Pristine, target: Path, *, crashed: bool) -> StoreConfig:
    shutil.copytree(pristine.root, target)
    (target / "lock").unlink()
    if crashed:
        (target / "checkpoint").write_bytes(pristine.early_checkpoint)
        (target / "abort").write_text("4242\n")
    return _config(target)


def _config(root: Path) -> StoreConfig:
    return small_config(root, consume_queue_units_per_file=2)


def _expected(appends: list[tuple[str, int, bytes]]) -> dict[tuple[str, int], list[bytes]]:
    expected: dict[tuple[str, int], list[bytes]] = {(t, p): [] for t, n in TOPICS.items() for p in range(n)}
    next_offsets: dict[tuple[str, int], int] = {}
    for topic, partition, batch in appends:
        base = next_offsets.get((topic, partition), 0)
        expected[(topic, partition)].append(with_base_offset(batch, base))
        next_offsets[(topic, partition)] = base + struct.unpack_from(">i", batch, 23)[0] + 1
    return expected


def assert_matches(store: MessageStore, appends: list[tuple[str, int, bytes]], lost: int | None = None) -> None:
    """Every partition reads as ``appends`` made it, but for the append numbered ``lost`` (a gap in its offsets)."""
    expected = _expected(appends)
    if lost is not None:
        topic, partition, _ = appends[lost]
        gone = _expected(appends[: lost + 1])[(topic, partition)][-1]
        expected[(topic, partition)].remove(gone)
    for (topic, partition), batches in expected.items():
        read = store.records.read(topic, partition, 0, 1 << 30)
        assert [bytes(view) for view in read.batches] == batches, (topic, partition)
        assert read.high_watermark == read.next_offset


def _reopen_and_check(config: StoreConfig, appends: list[tuple[str, int, bytes]], lost: int | None = None) -> None:
    with MessageStore.open(config) as store:
        assert_matches(store, appends, lost)
        result = append(store, "alpha", 1, build_batch([(b"after", b"restart")]))
        assert result.base_offset == sum(
            struct.unpack_from(">i", b, 23)[0] + 1 for t, p, b in appends if (t, p) == ("alpha", 1)
        )
    with MessageStore.open(config) as store:
        assert_matches(store, [*appends, ("alpha", 1, build_batch([(b"after", b"restart")]))], lost)


def test_a_clean_reopen_changes_nothing(pristine: Pristine, tmp_path: Path) -> None:
    config = _copy(pristine, tmp_path / "s", crashed=False)
    with MessageStore.open(config) as store:
        report = store.recovery_report
        assert report is not None and report.clean_shutdown and report.redispatched_batches == 0
        assert report.corrupt_record is None and report.rebuilt_partitions == ()
        assert_matches(store, pristine.appends)


def test_a_torn_last_record_is_cut_at_every_byte(pristine: Pristine, tmp_path: Path) -> None:
    start = pristine.positions[-1]
    segment = max((pristine.root / "commitlog").iterdir())
    original = segment.read_bytes()
    size = HEADER + len(pristine.appends[-1][2])
    for keep in range(size + 1):
        config = _copy(pristine, tmp_path / str(keep), crashed=True)
        copy = config.root_dir / "commitlog" / segment.name
        os.truncate(copy, start - int(segment.name) + keep)
        local = start - int(segment.name)
        intact = original[local + keep : local + size] == bytes(size - keep)
        survivors = pristine.appends if intact else pristine.appends[:-1]
        with MessageStore.open(config) as store:
            assert_matches(store, survivors)
            report = store.recovery_report
            assert report is not None and not report.clean_shutdown
            assert report.end_offset == (start + size if intact else start)
        shutil.rmtree(config.root_dir)
    _reopen_and_check(_copy(pristine, tmp_path / "final", crashed=True), pristine.appends)


@pytest.mark.parametrize("where", ["header", "batch"])
@pytest.mark.parametrize("crashed", [True, False])
def test_a_flipped_byte_in_a_middle_record_loses_that_record_only(
    pristine: Pristine, tmp_path: Path, where: str, crashed: bool
) -> None:
    victim = 8  # after the early checkpoint (appends 0-3), so the scan verifies it
    config = _copy(pristine, tmp_path / "s", crashed=crashed)
    if not crashed:
        (config.root_dir / "checkpoint").unlink()  # the case: nothing known safe, the whole log scanned
    physical = pristine.positions[victim] + (20 if where == "header" else HEADER + 70)
    segment = max(p for p in (config.root_dir / "commitlog").iterdir() if int(p.name) <= physical)
    with open(segment, "r+b") as file:
        file.seek(physical - int(segment.name))
        byte = file.read(1)
        file.seek(physical - int(segment.name))
        file.write(bytes([byte[0] ^ 0x40]))
    topic, partition, batch = pristine.appends[victim]
    first = _expected(pristine.appends[:victim])[(topic, partition)]
    lost_first = sum(struct.unpack_from(">i", b, 23)[0] + 1 for b in first)
    lost_last = lost_first + struct.unpack_from(">i", batch, 23)[0]
    with MessageStore.open(config) as store:
        report = store.recovery_report
        assert report is not None and report.end_offset == pristine.positions[-1] + HEADER + len(
            pristine.appends[-1][2]
        )
        assert report.damaged_ranges == ((pristine.positions[victim], pristine.positions[victim + 1]),)
        assert_matches(store, pristine.appends, lost=victim)
    losses = read_losses(config.root_dir / "quarantine")
    assert [(loss.topic, loss.partition, loss.first_offset, loss.last_offset) for loss in losses] == [
        (topic, partition, lost_first, lost_last)
    ]
    assert losses[0].start == pristine.positions[victim] and losses[0].kept is not None
    assert (config.root_dir / "quarantine" / losses[0].kept).read_bytes()[HEADER + 8 :] == batch[8:] or where == "batch"
    _reopen_and_check(config, pristine.appends, lost=victim)
    assert len(read_losses(config.root_dir / "quarantine")) == 1, "a loss found again is not recorded twice"


def _queue_dir(root: Path, topic_id: bytes, partition: int) -> Path:
    return root / "consumequeue" / topic_id.hex() / str(partition)


@pytest.mark.parametrize(
    "damage", ["middle file deleted", "last file deleted", "all files deleted", "directory deleted", "file truncated"]
)
def test_a_damaged_consume_queue_is_rebuilt(pristine: Pristine, tmp_path: Path, damage: str) -> None:
    config = _copy(pristine, tmp_path / "s", crashed=False)
    with MessageStore.open(config) as store:
        topic_id = store.topics.describe("alpha").topic_id.bytes
    queue = _queue_dir(config.root_dir, topic_id, 1)
    files = sorted(queue.iterdir())
    assert len(files) >= 3, "the fixture must give alpha-1 several queue files"
    if damage == "middle file deleted":
        files[1].unlink()
    elif damage == "last file deleted":
        files[-1].unlink()
    elif damage == "all files deleted":
        for file in files:
            file.unlink()
    elif damage == "directory deleted":
        shutil.rmtree(queue)
    else:
        os.truncate(files[0], 100)
    with MessageStore.open(config) as store:
        report = store.recovery_report
        assert report is not None and TopicPartition("alpha", 1) in report.rebuilt_partitions
        assert_matches(store, pristine.appends)
    _reopen_and_check(config, pristine.appends)


def test_queue_units_past_the_checkpoint_are_dropped_and_redispatched(pristine: Pristine, tmp_path: Path) -> None:
    config = _copy(pristine, tmp_path / "s", crashed=True)
    with MessageStore.open(config) as store:
        report = store.recovery_report
        assert report is not None and report.redispatched_batches == len(pristine.appends) - 4
        assert_matches(store, pristine.appends)


def test_deleted_index_files_are_rebuilt(pristine: Pristine, tmp_path: Path) -> None:
    config = _copy(pristine, tmp_path / "s", crashed=False)
    for file in (config.root_dir / "index").iterdir():
        file.unlink()
    with MessageStore.open(config) as store:
        _settle_index(store)
        deadline = time.monotonic() + 10
        while len(store.keys.query("alpha", b"key-1")) < 4:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        found = [(r.partition, r.offset, r.value) for r in store.keys.query("alpha", b"key-1", limit=100)]
        assert found == _newest_first_with_key(pristine.appends, "alpha", b"key-1")


def _newest_first_with_key(
    appends: list[tuple[str, int, bytes]], topic: str, key: bytes
) -> list[tuple[int, int, bytes | None]]:
    found = []
    for (name, partition), batches in _expected(appends).items():
        if name == topic:
            for batch in batches:
                found += [(partition, r.offset, r.value, batch) for r in read_records(batch) if r.key == key]
    order = [batch for _, _, batch in appends]
    found.sort(key=lambda hit: (order.index(with_base_offset(hit[3], 0)), hit[1]), reverse=True)
    return [hit[:3] for hit in found]


def test_an_abort_marker_with_a_stale_checkpoint_rebuilds_index_files(pristine: Pristine, tmp_path: Path) -> None:
    config = _copy(pristine, tmp_path / "s", crashed=True)
    with MessageStore.open(config) as store:
        report = store.recovery_report
        assert report is not None and not report.clean_shutdown and report.removed_index_files >= 1
        _settle_index(store)
        assert [r.value for r in store.keys.query("alpha", b"k")] == [b"tail"]
    assert not (config.root_dir / "abort").exists()


def test_a_missing_checkpoint_scans_the_whole_log(pristine: Pristine, tmp_path: Path) -> None:
    config = _copy(pristine, tmp_path / "s", crashed=False)
    (config.root_dir / "checkpoint").unlink()
    with MessageStore.open(config) as store:
        report = store.recovery_report
        assert report is not None and report.scan_from == 0
        assert_matches(store, pristine.appends)


def test_a_partition_written_only_after_a_bad_batch_keeps_its_offsets(tmp_path: Path) -> None:
    """The batch CRC check runs beside the re-dispatch; when it fails, the queues are cut back to the bad batch
    and re-dispatched from it. A partition whose every unit lay past it must come back whole, at its offsets
    (it came back empty with its old high watermark)."""
    config = _config(tmp_path / "s")
    with MessageStore.open(config) as store:
        store.topics.create("early", 1)
        store.topics.create("late", 1)
        for i in range(6):
            append(store, "early", 0, build_batch([(b"e", b"early-%d" % i + b"x" * 200)]))
        store.flush()
        victim = _next_position(config.root_dir)
        append(store, "early", 0, build_batch([(b"e", b"victim" + b"x" * 200)]))
        late = [build_batch([(b"l", b"late-%d" % i + b"y" * 200)] * 2) for i in range(6)]
        for batch in late:
            append(store, "late", 0, batch)
        checkpoint = (config.root_dir / "checkpoint").read_bytes()
    (config.root_dir / "checkpoint").write_bytes(checkpoint)  # as if it crashed after the first flush
    segment = max(p for p in (config.root_dir / "commitlog").iterdir() if int(p.name) <= victim)
    with open(segment, "r+b") as file:
        file.seek(victim - int(segment.name) + HEADER + 100)
        byte = file.read(1)
        file.seek(victim - int(segment.name) + HEADER + 100)
        file.write(bytes([byte[0] ^ 1]))
    with MessageStore.open(config) as store:
        read = store.records.read("late", 0, 0, 1 << 20)
        assert [bytes(view) for view in read.batches] == [with_base_offset(b, 2 * i) for i, b in enumerate(late)]
        assert read.high_watermark == 12
        assert store.records.read("early", 0, 0, 1 << 20).high_watermark == 6
    assert [(loss.topic, loss.first_offset) for loss in read_losses(config.root_dir / "quarantine")] == [("early", 6)]


@pytest.mark.parametrize("damage", ["truncated", "header counts flipped", "header zeroed"])
def test_a_damaged_index_file_is_rebuilt(
    pristine: Pristine, tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    config = _copy(pristine, tmp_path / "s", crashed=False)
    files = sorted((config.root_dir / "index").iterdir())
    victim = files[0]
    if damage == "truncated":
        os.truncate(victim, 1000)
    else:
        with open(victim, "r+b") as file:
            if damage == "header counts flipped":
                file.seek(36)
                file.write(b"\x7f")
            else:
                file.write(bytes(40))
    with MessageStore.open(config) as store:
        report = store.recovery_report
        assert report is not None
        if damage != "header zeroed":  # a zeroed header reads as an empty file: indexed again over itself
            assert report.removed_index_files == len(files) and "rebuilt from the CommitLog" in caplog.text
        expected = _newest_first_with_key(pristine.appends, "alpha", b"key-1")
        deadline = time.monotonic() + 10
        while [(r.partition, r.offset, r.value) for r in store.keys.query("alpha", b"key-1", limit=100)] != expected:
            assert time.monotonic() < deadline
            time.sleep(0.01)
