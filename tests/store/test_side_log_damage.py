"""Damage to the side logs (consumer offsets, group metadata, producer documents, transactions): every intact
frame's change survives, every loss is logged and in the quarantine ledger, the log is rewritten so the damage
is not met again, and a change made after the reopen survives another reopen.

The consumer offsets and group metadata logs are what earlier versions wrote: they are written here with their
unchanged writers (``OffsetStore``, ``GroupMetadataLog``), and the store reads them once, when it opens and
moves their content into ``__consumer_offsets`` (``coordinatorstate.py``); the change after the reopen goes there.

Each case records the log's size after every change (one frame each), damages a copy of the log, and compares
what a reopened store holds with a model that replays every change whose frame is intact (see
``framedlog.py``: frames set absolute values, so a damaged frame costs exactly its own change).
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from rockafka.store import MessageStore, OffsetCommit, StoreConfig, TopicPartition
from rockafka.store.framedlog import HEADER, scan
from rockafka.store.groups import Documents, GroupMetadataLog
from rockafka.store.offsets import OffsetStore
from rockafka.store.quarantine import Loss, Quarantine, read_losses

from .helpers import small_config
from .test_transaction_recovery import TXN_LOG, Pristine, _check, _crashed_copy, _operate
from .test_transaction_recovery import pristine as pristine  # the module fixture

OFFSETS_LOG = Path("config") / "consumerOffsets.log"

# --- a store with a known history of one-frame changes ---

Change = tuple[str, str, int, int | None]  # group, topic, partition, offset (None: delete the offset)


@dataclass
class History:
    config: StoreConfig
    log: Path
    changes: list[Change]
    bounds: list[tuple[int, int]]  # the byte range of each change's frame in the log

    def expected(self, damaged: set[int]) -> dict[str, dict[TopicPartition, int]]:
        """What the store holds when the changes of ``damaged`` frames are lost."""
        state: dict[str, dict[TopicPartition, int]] = {}
        for index, (group, topic, partition, offset) in enumerate(self.changes):
            if index in damaged:
                continue
            offsets = state.setdefault(group, {})
            if offset is None:
                offsets.pop(TopicPartition(topic, partition), None)
            else:
                offsets[TopicPartition(topic, partition)] = offset
        return {group: offsets for group, offsets in state.items() if offsets}

    def hit_by(self, start: int, end: int) -> set[int]:
        return {i for i, (first, last) in enumerate(self.bounds) if first < end and start < last}


def _history(root: Path, changes: list[Change]) -> History:
    config = small_config(root)
    log = root / OFFSETS_LOG
    bounds = []
    legacy = _legacy_offsets(config)
    for group, topic, partition, offset in changes:
        before = log.stat().st_size
        if offset is None:
            legacy.delete_offsets(group, [TopicPartition(topic, partition)])
        else:
            legacy.commit(group, [OffsetCommit(topic, partition, offset, None, f"m{offset}")], 7_000)
        bounds.append((before, log.stat().st_size))
    legacy.close()
    return History(config, log, changes, bounds)


def _legacy_offsets(config: StoreConfig) -> OffsetStore:
    """The offsets log as an earlier version wrote it, open for writing (close it before opening the store)."""
    legacy = OffsetStore(config.root_dir / "config", config.offsets_compact_bytes)
    legacy.load()
    return legacy


def _changes() -> list[Change]:
    """Two groups and a third, each partition committed several times, one offset deleted."""
    changes: list[Change] = []
    for step in range(1, 11):
        changes.append(("g1", "t", step % 2, step * 50))
        changes.append(("g2", "u", 0, step * 50))
        if step == 4:
            changes.append(("g3", "t", 0, 7))
        if step == 6:
            changes.append(("g1", "t", 1, None))
    return changes


def _state(store: MessageStore) -> dict[str, dict[TopicPartition, int]]:
    return {g: {tp: c.offset for tp, c in store.offsets.fetch(g).items()} for g in store.offsets.groups()}


def _reopen_and_check(history: History, damaged: set[int], losses: int, root: Path) -> None:
    """Reopen: the intact changes, ``losses`` new ledger entries; a commit then survives another reopen, which
    meets no damage."""
    with MessageStore.open(history.config) as store:
        assert _state(store) == history.expected(damaged)
        store.offsets.commit("g2", [OffsetCommit("u", 0, 9_999)])
    assert len(read_losses(root / "quarantine")) == losses
    with MessageStore.open(history.config) as store:
        expected = history.expected(damaged)
        expected.setdefault("g2", {})[TopicPartition("u", 0)] = 9_999
        assert _state(store) == expected
    assert len(read_losses(root / "quarantine")) == losses


def _flip(path: Path, position: int) -> None:
    data = bytearray(path.read_bytes())
    data[position] ^= 0x5A
    path.write_bytes(bytes(data))


# --- the consumer offsets log ---


def test_the_issue_one_flipped_byte_keeps_both_groups_at_their_latest_values(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    history = _history(tmp_path, _changes())
    victim = 4  # a commit of g1 in the middle of the log; its offset field is flipped
    start, _ = history.bounds[victim]
    _flip(history.log, start + HEADER.size + 1 + 2 + 2 + 2 + 1 + 4 + 7)
    damaged = history.log.read_bytes()
    caplog.set_level(logging.INFO, logger="rockafka.store")
    with MessageStore.open(history.config) as store:
        assert store.offsets.fetch("g1")[TopicPartition("t", 0)].offset == 500
        assert store.offsets.fetch("g2")[TopicPartition("u", 0)].offset == 500
        assert _state(store) == history.expected({victim})
    (loss,) = read_losses(tmp_path / "quarantine")
    assert (loss.source, loss.file, loss.start, loss.end) == (
        "consumerOffsets",
        "consumerOffsets.log",
        *history.bounds[victim],
    )
    assert "COMMIT group 'g1' t-1" in loss.reason and loss.kept is not None
    assert (tmp_path / "quarantine" / loss.kept).read_bytes() == damaged[loss.start : loss.end]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and "consumerOffsets" in r.getMessage()]
    assert len(warnings) == 1 and "COMMIT group 'g1'" in warnings[0].getMessage()
    _reopen_and_check(history, {victim}, 1, tmp_path)


@pytest.mark.parametrize("victims", [[0], [3], [7, 8], [2, 11, 20], [len(_changes()) - 1]])
def test_flipped_bytes_in_frames_cost_those_frames_only(tmp_path: Path, victims: list[int]) -> None:
    history = _history(tmp_path, _changes())
    for index, victim in enumerate(victims):
        start, end = history.bounds[victim]
        _flip(history.log, start + (index * 5 % (end - start)))  # the header too, for some
    # adjacent victims make one damaged range, so one loss
    ranges = 1 + sum(1 for a, b in itertools.pairwise(victims) if b != a + 1)
    _reopen_and_check(history, set(victims), ranges, tmp_path)


@pytest.mark.parametrize("span", [(100, 140), (60, 300), (1, 9)])
def test_a_zero_filled_range_costs_the_frames_it_touches(tmp_path: Path, span: tuple[int, int]) -> None:
    history = _history(tmp_path, _changes())
    data = bytearray(history.log.read_bytes())
    data[span[0] : span[1]] = bytes(span[1] - span[0])
    history.log.write_bytes(bytes(data))
    _reopen_and_check(history, history.hit_by(*span), 1, tmp_path)


def test_a_log_cut_mid_frame_is_a_torn_tail_cut_quietly(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    history = _history(tmp_path, _changes())
    last = len(history.changes) - 1
    os.truncate(history.log, history.bounds[last][0] + 11)
    caplog.set_level(logging.INFO, logger="rockafka.store")
    _reopen_and_check(history, {last}, 0, tmp_path)
    assert any("torn tail of 11 bytes" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_zeros_past_the_end_are_a_torn_tail(tmp_path: Path) -> None:
    history = _history(tmp_path, _changes())
    with history.log.open("ab") as file:
        file.write(bytes(4096))
    _reopen_and_check(history, set(), 0, tmp_path)


def test_garbage_appended_is_quarantined_and_every_frame_kept(tmp_path: Path) -> None:
    history = _history(tmp_path, _changes())
    garbage = b"\xff\xfe garbage that is no frame \x00\x01" * 3
    size = history.log.stat().st_size
    with history.log.open("ab") as file:
        file.write(garbage)
    _reopen_and_check(history, set(), 1, tmp_path)
    (loss,) = read_losses(tmp_path / "quarantine")
    assert (loss.start, loss.end) == (size, size + len(garbage)) and "at the end of the log" in loss.reason


def test_a_whole_last_frame_failing_its_crc_is_damage_not_a_torn_tail(tmp_path: Path) -> None:
    history = _history(tmp_path, _changes())
    last = len(history.changes) - 1
    _flip(history.log, history.bounds[last][1] - 1)
    _reopen_and_check(history, {last}, 1, tmp_path)


def test_the_log_deleted_leaves_the_snapshot(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    legacy = _legacy_offsets(config)
    legacy.commit("g1", [OffsetCommit("t", 0, 500)], 7_000)
    legacy.commit("g2", [OffsetCommit("t", 0, 300)], 7_000)
    legacy.compact()
    legacy.commit("g1", [OffsetCommit("t", 0, 600)], 7_000)
    legacy.close()
    (tmp_path / OFFSETS_LOG).unlink()
    with MessageStore.open(config) as store:
        assert _state(store) == {"g1": {TopicPartition("t", 0): 500}, "g2": {TopicPartition("t", 0): 300}}
        store.offsets.commit("g2", [OffsetCommit("t", 0, 301)])
    with MessageStore.open(config) as store:
        assert store.offsets.fetch("g2")[TopicPartition("t", 0)].offset == 301


def test_a_log_of_garbage_leaves_the_snapshot_and_is_quarantined(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    legacy = _legacy_offsets(config)
    legacy.commit("g1", [OffsetCommit("t", 0, 500)], 7_000)
    legacy.compact()
    legacy.commit("g1", [OffsetCommit("t", 0, 600)], 7_000)
    legacy.close()
    # seeded: some random bytes read as a torn append (a plausible frame header running past the end), which
    # is cut quietly, not quarantined; these are no frame at all
    (tmp_path / OFFSETS_LOG).write_bytes(random.Random(16).randbytes(1000).replace(b"\0", b"\1"))
    with MessageStore.open(config) as store:
        assert _state(store) == {"g1": {TopicPartition("t", 0): 500}}
    assert [loss.source for loss in read_losses(tmp_path / "quarantine")] == ["consumerOffsets"]


@pytest.mark.parametrize("damage", ["not json", "wrong shape"])
def test_a_damaged_snapshot_falls_back_to_its_bak_and_is_logged(tmp_path: Path, damage: str) -> None:
    config = small_config(tmp_path)
    snapshot = tmp_path / "config" / "consumerOffset.json"
    legacy = _legacy_offsets(config)
    legacy.commit("g1", [OffsetCommit("t", 0, 100)], 7_000)
    legacy.compact()  # the .bak-to-be
    legacy.commit("g1", [OffsetCommit("t", 0, 200)], 7_000)
    legacy.commit("g2", [OffsetCommit("t", 0, 5)], 7_000)
    legacy.compact()  # the snapshot that will be damaged (its changes have left the log)
    legacy.commit("g2", [OffsetCommit("t", 0, 6)], 7_000)
    legacy.close()
    if damage == "not json":
        snapshot.write_bytes(snapshot.read_bytes()[:-7])
    else:
        snapshot.write_text(json.dumps({"version": 1, "groups": {"g1": {"t": {"0": "x"}}}}))
    with MessageStore.open(config) as store:  # the .bak, then the log replayed over it
        assert _state(store) == {"g1": {TopicPartition("t", 0): 100}, "g2": {TopicPartition("t", 0): 6}}
        store.offsets.commit("g1", [OffsetCommit("t", 0, 300)])
    (loss,) = read_losses(tmp_path / "quarantine")
    assert loss.file == "consumerOffset.json" and "last compaction are lost" in loss.reason
    with MessageStore.open(config) as store:  # moved into __consumer_offsets: not met again
        assert _state(store) == {"g1": {TopicPartition("t", 0): 300}, "g2": {TopicPartition("t", 0): 6}}
    assert len(read_losses(tmp_path / "quarantine")) == 1


def test_a_snapshot_and_bak_both_damaged_leave_the_log(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    legacy = _legacy_offsets(config)
    legacy.commit("g1", [OffsetCommit("t", 0, 100)], 7_000)
    legacy.compact()
    legacy.compact()
    legacy.commit("g2", [OffsetCommit("t", 0, 6)], 7_000)
    legacy.close()
    for name in ("consumerOffset.json", "consumerOffset.json.bak"):
        (tmp_path / "config" / name).write_text("{")
    with MessageStore.open(config) as store:
        assert _state(store) == {"g2": {TopicPartition("t", 0): 6}}
    losses = read_losses(tmp_path / "quarantine")
    assert [loss.file for loss in losses] == ["consumerOffset.json", "consumerOffset.json.bak"]
    assert [(tmp_path / "quarantine" / str(loss.kept)).read_bytes() for loss in losses] == [b"{", b"{"]
    assert len({loss.kept for loss in losses}) == 2  # one file each, even within one millisecond


# --- the group metadata and producer documents' logs ---

#: The store's document service (``store.group_metadata``, ``store.producer_state``) and its log's file name.
DOCUMENT_LOGS: dict[str, tuple[Callable[[MessageStore], Documents], str]] = {
    "groupMetadata": (lambda store: store.group_metadata, "groupMetadata.log"),
    "producerState": (lambda store: store.producer_state, "producerState.log"),
}


@pytest.mark.parametrize("name", sorted(DOCUMENT_LOGS))
@pytest.mark.parametrize("damage", ["flip", "zero-fill", "garbage", "cut"])
def test_document_logs_keep_every_intact_frame(tmp_path: Path, name: str, damage: str) -> None:
    service, file_name = DOCUMENT_LOGS[name]
    config, log = small_config(tmp_path), tmp_path / "config" / file_name
    bounds, changes = [], []
    writer = GroupMetadataLog(config.root_dir / "config", config.offsets_compact_bytes, name=name)
    writer.load()  # the log as the store (producerState) or an earlier version (groupMetadata) writes it
    for step in range(12):
        key, before = f"k{step % 4}", log.stat().st_size
        if step == 9:
            writer.delete("k1")
            changes.append(("k1", None))
        else:
            writer.put(key, {"generation": step, "members": ["m"] * step})
            changes.append((key, {"generation": step, "members": ["m"] * step}))
        bounds.append((before, log.stat().st_size))
    writer.close()
    data = bytearray(log.read_bytes())
    lost, losses = {4}, 1
    if damage == "flip":
        data[bounds[4][0] + 12] ^= 0x01
    elif damage == "zero-fill":
        data[bounds[3][1] - 5 : bounds[5][0] + 3] = bytes(bounds[5][0] - bounds[3][1] + 8)
        lost = {3, 4, 5}
    elif damage == "garbage":
        data += b"\xee" * 40
        lost = set()
    else:
        del data[bounds[11][0] + 20 :]
        lost, losses = {11}, 0
    log.write_bytes(bytes(data))
    expected: dict[str, object] = {}
    for index, (key, document) in enumerate(changes):
        if index not in lost:
            expected.pop(key, None) if document is None else expected.__setitem__(key, document)
    with MessageStore.open(config) as store:
        assert service(store).documents() == expected
        service(store).save("new", {"after": True})
    assert [loss.source for loss in read_losses(tmp_path / "quarantine")] == [name] * losses
    with MessageStore.open(config) as store:
        assert service(store).documents() == {**expected, "new": {"after": True}}
    assert len(read_losses(tmp_path / "quarantine")) == losses


# --- the transaction log ---


def _txn_frames(path: Path) -> list[tuple[int, int]]:
    data, pos, frames = path.read_bytes(), 0, []
    while pos < len(data):
        length, _ = HEADER.unpack_from(data, pos)
        frames.append((pos, pos + HEADER.size + length))
        pos += HEADER.size + length
    return frames


@pytest.mark.parametrize("which", ["flip-one", "flip-two", "zero-fill"])
def test_transaction_log_damage_is_learnt_again_from_the_commitlog(
    pristine: Pristine,
    tmp_path: Path,
    which: str,
) -> None:
    root = tmp_path / "copy"
    shutil.copytree(pristine.root, root)
    (root / "lock").unlink()
    config = small_config(root)
    path = root / TXN_LOG
    frames = _txn_frames(path)
    assert len(frames) > 8
    data = bytearray(path.read_bytes())
    middle = len(frames) // 2
    if which == "flip-one":
        data[frames[middle][0] + 10] ^= 0xFF
    elif which == "flip-two":
        data[frames[2][0] + 9] ^= 0x10
        data[frames[middle][1] - 1] ^= 0x10
    else:
        data[frames[middle][0] + 3 : frames[middle + 2][1]] = bytes(frames[middle + 2][1] - frames[middle][0] - 3)
    path.write_bytes(bytes(data))
    _check(config, 40)  # the tracker matches a model of the CommitLog, then after a marker and a reopen
    losses = read_losses(root / "quarantine")
    assert losses and {loss.source for loss in losses} == {"transactions"}
    assert all("CommitLog records from physical offset" in loss.reason for loss in losses)
    count = len(losses)
    _check(config, None)
    assert len(read_losses(root / "quarantine")) == count


def test_crash_copy_with_a_damaged_transaction_log(pristine: Pristine, tmp_path: Path) -> None:
    """Damage and a crash at once: recovery re-dispatches past the early checkpoint as well."""
    config = _crashed_copy(pristine, tmp_path / "crash")
    path = config.root_dir / TXN_LOG
    frames = _txn_frames(path)
    _flip(path, frames[len(frames) // 3][0] + 12)
    _check(config, 40)
    assert len(read_losses(config.root_dir / "quarantine")) == 1


# --- a transaction log that was rewritten (compacted): its state frames, COVERS, then appended frames ---


COMPACTED_STEPS = 52  # the last rewrite (16 state frames and COVERS) is followed by 10 appended frames


@pytest.fixture(scope="module")
def compacted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("compacted")
    with MessageStore.open(small_config(root, offsets_compact_bytes=1024)) as store:
        store.topics.create("t", 2)
        for step in range(COMPACTED_STEPS):
            _operate(store, step)
    return root


def _copy_with(
    compacted: Path, target: Path, damage: Callable[[bytearray, list[tuple[int, int]], int], None]
) -> StoreConfig:
    shutil.copytree(compacted, target)
    (target / "lock").unlink(missing_ok=True)
    path = target / TXN_LOG
    frames = _txn_frames(path)
    data = bytearray(path.read_bytes())
    covers = next(i for i, (start, _) in enumerate(frames) if data[start + HEADER.size] == 3)
    assert 2 < covers < len(frames) - 3
    damage(data, frames, covers)
    path.write_bytes(bytes(data))
    return small_config(target, offsets_compact_bytes=1024)


def _tracker_state(config: StoreConfig) -> list[object]:
    with MessageStore.open(config) as store:
        return [
            (
                store.transactions.open("t", p),
                store.transactions.aborted("t", p, 0, 1 << 40),
                store.records.last_stable_offset("t", p),
            )
            for p in (0, 1)
        ]


def test_damage_past_a_rewrite_is_learnt_again(compacted: Path, tmp_path: Path) -> None:
    def flip_after(data: bytearray, frames: list[tuple[int, int]], covers: int) -> None:
        data[frames[covers + 2][0] + 20] ^= 0x08

    config = _copy_with(compacted, tmp_path / "after", flip_after)
    _check(config, COMPACTED_STEPS)
    assert len(read_losses(config.root_dir / "quarantine")) == 1


def test_damage_inside_a_rewritten_state_keeps_every_other_frame(compacted: Path, tmp_path: Path) -> None:
    """The rewritten state is no CommitLog order: nothing is learnt again, every intact frame is kept. Oracle: the
    same file with the damaged frame taken out whole."""
    victim: list[int] = []

    def flip_inside(data: bytearray, frames: list[tuple[int, int]], covers: int) -> None:
        victim.extend(frames[covers // 2])
        data[victim[0] + 12] ^= 0x01

    def cut_out(data: bytearray, frames: list[tuple[int, int]], covers: int) -> None:
        start, end = frames[covers // 2]
        del data[start:end]

    damaged = _copy_with(compacted, tmp_path / "inside", flip_inside)
    reference = _copy_with(compacted, tmp_path / "reference", cut_out)
    assert _tracker_state(damaged) == _tracker_state(reference)
    (loss,) = read_losses(damaged.root_dir / "quarantine")
    assert (loss.start, loss.end) == tuple(victim)
    assert _tracker_state(damaged) == _tracker_state(reference)  # rewritten: not met again
    assert len(read_losses(damaged.root_dir / "quarantine")) == 1


@pytest.mark.parametrize("name", sorted(DOCUMENT_LOGS))
def test_document_snapshot_damage_falls_back_to_the_bak(tmp_path: Path, name: str) -> None:
    service, _ = DOCUMENT_LOGS[name]
    config = small_config(tmp_path)
    writer = GroupMetadataLog(config.root_dir / "config", config.offsets_compact_bytes, name=name)
    writer.load()
    writer.put("a", {"v": 1})
    writer.compact()  # becomes the .bak
    writer.put("a", {"v": 2})
    writer.put("b", {"v": 1})
    writer.compact()  # the snapshot to damage
    writer.put("c", {"v": 1})
    writer.close()
    snapshot = tmp_path / "config" / f"{name}.json"
    snapshot.write_bytes(snapshot.read_bytes().replace(b'"groups"', b'"gr\xffups"'))
    with MessageStore.open(config) as store:
        assert service(store).documents() == {"a": {"v": 1}, "c": {"v": 1}}
    (loss,) = read_losses(tmp_path / "quarantine")
    assert (loss.source, loss.file) == (name, f"{name}.json")
    with MessageStore.open(config) as store:
        assert service(store).documents() == {"a": {"v": 1}, "c": {"v": 1}}
    assert len(read_losses(tmp_path / "quarantine")) == 1


def test_garbage_after_the_transaction_log_is_quarantined(pristine: Pristine, tmp_path: Path) -> None:
    root = tmp_path / "copy"
    shutil.copytree(pristine.root, root)
    (root / "lock").unlink()
    with (root / TXN_LOG).open("ab") as file:
        file.write(b"\x00\x00\x00\x37" + b"\x99" * 80)  # a plausible header, a body of garbage: no torn append
    _check(small_config(root), 40)
    (loss,) = read_losses(root / "quarantine")
    assert loss.source == "transactions" and loss.bytes == 84


# --- producer ids after the frame of the latest producer id block is lost ---


def test_a_lost_producer_id_block_hands_out_no_id_twice(tmp_path: Path) -> None:
    from kafka.record.default_records import DefaultRecordBatchBuilder

    from rockafka.core_pyx.recordbatch import validate_batches
    from rockafka.facade.config import load_broker_config
    from rockafka.facade.producers import Accepted, ProducerService
    from rockafka.store import groups

    def producers_of(store: MessageStore) -> ProducerService:
        service = ProducerService(load_broker_config(overrides=[]), store, clock=lambda: 1_700_000_000_000)
        service.load()
        return service

    def produce(store: MessageStore, service: ProducerService, producer_id: int) -> None:
        builder = DefaultRecordBatchBuilder(2, 0, 0, producer_id, 0, 0, batch_size=1 << 20)
        builder.append(0, timestamp=1_700_000_000_000, key=None, value=b"v", headers=[])
        batch = bytes(builder.build())
        header = validate_batches(batch)[0]
        assert isinstance(service.check("t", 0, header), Accepted)
        service.record("t", 0, header, store.records.append("t", 0, batch, [header]).base_offset)

    config = small_config(tmp_path)
    with MessageStore.open(config) as store:
        store.topics.create("t", 1)
        service = producers_of(store)
        ids = [service.allocate_producer_id().producer_id for _ in range(1001)]
        assert ids[-1] == 1000  # the second block was taken: its document is the latest PUT of the key
        produce(store, service, 1000)
        service.shutdown()
    log = tmp_path / "config" / "producerState.log"
    data = bytearray(log.read_bytes())
    result = scan(bytes(data), groups.RULES)
    last_block = max(i for i, (_, key, _) in enumerate(result.values) if key == "producer-id-block")
    data[result.ends[last_block] - 3] ^= 0x01  # inside {"next_block_start":2000,...}
    log.write_bytes(bytes(data))
    with MessageStore.open(config) as store:
        assert store.producer_state.documents()["producer-id-block"]["next_block_start"] == 1000  # the older PUT
        assert producers_of(store).allocate_producer_id().producer_id == 2000  # not 1000 again
    assert [loss.source for loss in read_losses(tmp_path / "quarantine")] == ["producerState"]


def test_two_losses_of_one_place_in_one_millisecond_keep_both_copies(tmp_path: Path) -> None:
    quarantine = Quarantine(tmp_path, clock=lambda: 5)
    for data in (b"first", b"second"):
        quarantine.keep(
            Loss(source="consumerOffsets", file="consumerOffset.json", start=0, end=len(data), reason="r"), data
        )
    assert [(tmp_path / str(loss.kept)).read_bytes() for loss in read_losses(tmp_path)] == [b"first", b"second"]
