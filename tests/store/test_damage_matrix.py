"""The damage matrix: truncate, zero-fill, flip bytes in or delete each store file, with and without the checkpoint.

A pristine store (one topic, three partitions, several CommitLog segments, several ConsumeQueue files per
partition, IndexFiles) is built once; each case damages a copy, opens it, reads every partition as a consumer
would (from the log start, each fetch at the offset after the last record returned) and checks the oracle:

- every record whose CommitLog bytes are intact is served, at its offset, byte for byte;
- nothing damaged is served (every served batch is one of the pristine batches, its CRC-32C right);
- a consumer never stalls: a fetch below the high watermark always returns a record past its offset;
- every record not served is in the quarantine's ledger (by partition and offsets, or by CommitLog range),
  except a torn tail with no checkpoint: damage at the end of the log, with no valid record after it and
  nothing to say it was ever complete, is what a crash leaves and is cut quietly (docs/store-format.md);
- queries by key never fail and never name a record that is not there;
- the store stays appendable at its end, and a second open finds everything again with no new loss.

``bench/damage.py`` runs the same oracle over random damage, many more cases.
"""

from __future__ import annotations

import os
import shutil
import struct
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from rockafka.core_pyx.crc32c import crc32c
from rockafka.core_pyx.records import read_records
from rockafka.store import MessageStore, StoreConfig
from rockafka.store.quarantine import Loss, read_losses

from .helpers import append, build_batch, small_config

TOPIC = "m"
PARTITIONS = 3
BATCHES = 45
HEADER = 64
SEGMENT = 4096
_PREFIX = struct.Struct(">iI")


@dataclass(frozen=True)
class Stored:
    partition: int
    base: int
    count: int
    physical: int
    size: int
    batch: bytes  # the batch as stored (its base offset patched)


@dataclass
class Pristine:
    root: Path
    batches: list[Stored]  # in CommitLog order
    topic_id: bytes
    partitions: int


def _config(root: Path) -> StoreConfig:
    return small_config(root, commitlog_segment_bytes=SEGMENT, consume_queue_units_per_file=4)


def _value(partition: int, offset: int) -> bytes:
    return b"p%d-o%d-" % (partition, offset) + bytes([65 + offset % 26]) * (40 + offset * 7 % 90)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Pristine:
    found = build(tmp_path_factory.mktemp("pristine"), PARTITIONS, BATCHES)
    assert len(list((found.root / "commitlog").iterdir())) >= 4
    return found


def build(root: Path, partitions: int, batches: int) -> Pristine:
    """A store of one topic with ``partitions`` partitions and ``batches`` batches of 1-3 records, spread over them."""
    next_offsets = [0] * partitions
    with MessageStore.open(_config(root)) as store:
        store.topics.create(TOPIC, partitions)
        topic_id = store.topics.describe(TOPIC).topic_id.bytes
        for i in range(batches):
            partition = (i * 7 + i // 5) % partitions
            base = next_offsets[partition]
            count = i % 3 + 1
            records = [(b"k%d" % ((base + j) % 5), _value(partition, base + j)) for j in range(count)]
            batch = build_batch(records, timestamps=[1_000 * (base + j) for j in range(count)])
            append(store, TOPIC, partition, batch)
            next_offsets[partition] += count
        store.flush()
        _wait_for_the_index(store, last_record_size=HEADER + len(batch))
    stored = _walk(root)
    assert len(stored) == batches
    return Pristine(root, stored, topic_id, partitions)


def _wait_for_the_index(store: MessageStore, last_record_size: int) -> None:
    """The index thread follows the CommitLog on its own and stops where it is at close: wait until it has
    indexed the last record, so the damage targets (an IndexFile among them) exist whatever the machine's load."""
    index = store._files.index
    assert index is not None
    last_record = store.records._commitlog.published_offset - last_record_size
    deadline = time.monotonic() + 30
    while index.indexed_offset < last_record:
        assert time.monotonic() < deadline, f"indexed up to {index.indexed_offset}, not {last_record}, in 30 s"
        time.sleep(0.01)


def _walk(root: Path) -> list[Stored]:
    found = []
    for segment in sorted((root / "commitlog").iterdir()):
        data, start, pos = segment.read_bytes(), int(segment.name), 0
        while pos + 8 <= len(data):
            size, magic = _PREFIX.unpack_from(data, pos)
            if size == 0 or magic != 0x524B4331:
                break
            partition, base = struct.unpack_from(">iq", data, pos + 28)
            count = struct.unpack_from(">i", data, pos + 56)[0]
            found.append(Stored(partition, base, count, start + pos, size, data[pos + HEADER : pos + size]))
            pos += size
    return found


# --- the damage ---


def _segments(root: Path) -> list[Path]:
    return sorted(p for p in (root / "commitlog").iterdir() if p.stat().st_size)


def _data_length(pristine: Pristine, segment: Path) -> int:
    start = int(segment.name)
    return max(b.physical + b.size for b in pristine.batches if start <= b.physical < start + SEGMENT) - start


def _target(pristine: Pristine, root: Path, target: str) -> tuple[Path, int]:
    """The file a target names, and the length of the bytes that matter in it."""
    kind, _, which = target.partition(":")
    if kind == "segment":
        segment = _segments(root)[{"first": 0, "middle": 1, "last": -1}[which]]
        return segment, _data_length(pristine, segment)
    if kind == "queue":
        partition, position = which.split("/")
        files = sorted((root / "consumequeue" / pristine.topic_id.hex() / partition).iterdir())
        file = files[{"first": 0, "middle": 1}[position]]
        return file, file.stat().st_size
    if kind == "index":
        file = sorted((root / "index").iterdir())[0]
        return file, file.stat().st_size
    return root / "checkpoint", 36


def _damage(path: Path, length: int, how: str) -> None:
    if how == "delete":
        path.unlink()
    elif how == "truncate":
        os.truncate(path, length // 2 + 3)
    elif how == "zero":
        with open(path, "r+b") as file:
            file.seek(length // 3)
            file.write(bytes(min(700, length - length // 3)))
    else:
        with open(path, "r+b") as file:
            for at in (length // 4 + 5, length // 2 + 17, 3 * length // 4 + 33):
                at = min(at, length - 1)
                file.seek(at)
                byte = file.read(1)
                file.seek(at)
                file.write(bytes([byte[0] ^ 0x5A]))


TARGETS = [
    *(f"segment:{which}" for which in ("first", "middle", "last")),
    *(f"queue:{p}/{which}" for p in range(PARTITIONS) for which in ("first", "middle")),
    "index:first",
]
CASES = [
    pytest.param(target, how, checkpoint, id=f"{target}-{how}-{'ckpt' if checkpoint else 'nockpt'}")
    for target in TARGETS
    for how in ("truncate", "zero", "flip", "delete")
    for checkpoint in (True, False)
] + [pytest.param("checkpoint", how, True, id=f"checkpoint-{how}") for how in ("truncate", "zero", "flip", "delete")]


# --- the oracle ---


def intact(pristine: Pristine, original: Path, damaged: Path) -> set[int]:
    """Physical offsets of the records whose bytes are all still there, unchanged."""
    kept = set()
    for batch in pristine.batches:
        segment = damaged / "commitlog" / f"{batch.physical - batch.physical % SEGMENT:020d}"
        source = original / "commitlog" / segment.name
        if not segment.exists():
            continue
        with open(segment, "rb") as file, open(source, "rb") as clean:
            file.seek(batch.physical % SEGMENT)
            clean.seek(batch.physical % SEGMENT)
            if file.read(batch.size) == clean.read(batch.size):
                kept.add(batch.physical)
    return kept


def _consume(store: MessageStore, partition: int) -> list[bytes]:
    """Every batch a consumer reading from the log start gets, checking that it never stalls."""
    served: list[bytes] = []
    bounds = store.records.partition_bounds(TOPIC, partition)
    offset = bounds.log_start_offset
    while offset < bounds.high_watermark:
        read = store.records.read(TOPIC, partition, offset, 1 << 12)
        progress = [r.offset for view in read.batches for r in read_records(view) if r.offset >= offset]
        if not progress:  # a repair during the read may have found the partition's last batches lost
            bounds = store.records.partition_bounds(TOPIC, partition)
            assert offset >= bounds.high_watermark, f"partition {partition}: a fetch at {offset} returns nothing"
            break
        served.extend(bytes(view) for view in read.batches)
        offset = progress[-1] + 1
        bounds = store.records.partition_bounds(TOPIC, partition)
    return served


def _covered_bytes(batch: bytes) -> bytes:
    """A batch without its partitionLeaderEpoch (bytes 12-15), the one field that no checksum and no check
    covers (as in Kafka: brokers rewrite it); damage there is served (docs/store-format.md)."""
    return batch[:12] + batch[16:]


def _covered(batch: Stored, losses: list[Loss], *, by_range: bool = False) -> bool:
    last = batch.base + batch.count - 1
    for loss in losses:
        if by_range and loss.source == "commitlog" and loss.start <= batch.physical < loss.end:
            return True
        offsets = (loss.first_offset, loss.last_offset)
        if loss.partition == batch.partition and None not in offsets and offsets[0] <= batch.base <= last <= offsets[1]:
            return True
        if loss.partition is None and loss.start <= batch.physical < loss.end:
            return True
    return False


def check(
    pristine: Pristine, root: Path, kept: set[int], checkpoint: bool, *, by_range: bool = False,
    queue_tails: bool = False,
) -> None:  # fmt: skip
    """The oracle (the module's docstring) over the damaged store at ``root``; ``kept``: from ``intact``.
    ``by_range``: a loss may be named by its CommitLog range alone (damage to a record and to its partition's
    ConsumeQueue units at once leaves nothing that names its partition). ``queue_tails``: a partition may end
    early, its intact last batches unserved, when their ConsumeQueue units were zeroed whole at the queue's end
    (the one case recovery does not see, docs/store-format.md); everything before must be there."""
    by_bytes = {_covered_bytes(b.batch): b for b in pristine.batches}
    with MessageStore.open(_config(root)) as store:
        served = {p: _consume(store, p) for p in range(pristine.partitions)}
        for record in store.keys.query(TOPIC, b"k1", limit=1000):
            assert record.value == _value(record.partition, record.offset)
    losses = read_losses(root / "quarantine")
    got = set()
    for partition, batches in served.items():
        for data in map(_covered_bytes, batches):
            assert data in by_bytes, f"partition {partition}: a batch that was never stored is served"
            assert crc32c(data[17:]) == struct.unpack_from(">I", data, 13)[0]
            assert by_bytes[data].partition == partition
            got.add(by_bytes[data].physical)
        bases = [by_bytes[_covered_bytes(data)].base for data in batches]
        assert bases == sorted(set(bases)), f"partition {partition}: served out of order or twice"
    missing = [b for b in pristine.batches if b.physical not in got]
    if queue_tails:
        last_served = {p: max((by_bytes[_covered_bytes(d)].base for d in served[p]), default=-1) for p in served}
        missing = [b for b in missing if b.base < last_served[b.partition]]
    for batch in missing:
        assert batch.physical not in kept, f"an intact batch is not served: {batch.partition}@{batch.base}"
        later_intact = any(p > batch.physical for p in kept)
        torn_tail = not checkpoint and not later_intact
        assert _covered(batch, losses, by_range=by_range) or torn_tail, (
            f"lost without a ledger entry: {batch.partition}@{batch.base}"
        )


def append_and_reopen(pristine: Pristine, root: Path) -> None:
    ledger = len(read_losses(root / "quarantine"))
    with MessageStore.open(_config(root)) as store:
        ends = {p: store.records.partition_bounds(TOPIC, p).high_watermark for p in range(pristine.partitions)}
        for p in range(pristine.partitions):
            result = append(store, TOPIC, p, build_batch([(b"after", _value(p, 10_000))]))
            assert result.base_offset == ends[p]
    with MessageStore.open(_config(root)) as store:
        for p in range(pristine.partitions):
            read = store.records.read(TOPIC, p, ends[p], 1 << 20)
            assert [r.value for view in read.batches for r in read_records(view)] == [_value(p, 10_000)]
    assert len(read_losses(root / "quarantine")) == ledger, "a loss was recorded twice"


@pytest.mark.parametrize(("target", "how", "checkpoint"), CASES)
def test_damage(pristine: Pristine, tmp_path: Path, target: str, how: str, checkpoint: bool) -> None:
    root = tmp_path / "store"
    shutil.copytree(pristine.root, root)
    (root / "lock").unlink(missing_ok=True)
    path, length = _target(pristine, root, target)
    _damage(path, length, how)
    if not checkpoint:
        (root / "checkpoint").unlink(missing_ok=True)
    check(pristine, root, intact(pristine, pristine.root, root), checkpoint)
    append_and_reopen(pristine, root)
