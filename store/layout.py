"""Where each file of a store lives, and the manifest ``store.json`` that fixes the store's geometry.

::

    <root>/
      store.json            {"version": 1, "commitlog_segment_bytes": .., "consume_queue_units_per_file": ..,
                             "index_slot_count": .., "index_entry_count": ..}  written once, at creation
      lock  abort  checkpoint
      commitlog/<20-digit offset>
      consumequeue/<topic id hex>/<partition>/<20-digit byte position>
      index/<yyyyMMddHHmmssSSS>
      compacted/<topic id hex>/<partition>/manifest.json, <20-digit generation>.log   (compactedlog.py)
      config/topics.json  config/logStartOffsets.json  config/consumerOffset.json  config/consumerOffsets.log
      config/transactions.log  (and the group and producer documents' logs; each JSON file with its .bak)
      config/leaderEpochs.json  (epochfile.py)  config/truncate.json  (truncation.py: an unfinished cut only)
      quarantine/losses.jsonl  quarantine/<source>-<start>-<time>.bin   (damaged bytes, see quarantine.py)

The geometry recorded in ``store.json`` wins over ``StoreConfig`` on every later open: files already
written in one geometry cannot be addressed in another. A manifest that is not a JSON object of this
version with the four sizes as positive integers is unreadable (its ``.bak`` is tried, then
:class:`CorruptStoreError` names the file and what is wrong).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from .config import StoreConfig
from .errors import CorruptStoreError
from .jsonfile import read_json, write_json
from .results import StoreFile

FORMAT_VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class Geometry:
    commitlog_segment_bytes: int
    consume_queue_units_per_file: int
    index_slot_count: int
    index_entry_count: int


@dataclass(frozen=True, slots=True)
class StoreLayout:
    root: Path

    @property
    def manifest(self) -> Path:
        return self.root / "store.json"

    @property
    def commitlog(self) -> Path:
        return self.root / "commitlog"

    @property
    def consume_queues(self) -> Path:
        return self.root / "consumequeue"

    def consume_queue(self, topic_id: bytes, partition: int) -> Path:
        return self.consume_queues / topic_id.hex() / str(partition)

    @property
    def compacted_logs(self) -> Path:
        return self.root / "compacted"

    def compacted_log(self, topic_id: bytes, partition: int) -> Path:
        return self.compacted_logs / topic_id.hex() / str(partition)

    @property
    def index(self) -> Path:
        return self.root / "index"

    @property
    def config(self) -> Path:
        return self.root / "config"

    @property
    def quarantine(self) -> Path:
        return self.root / "quarantine"

    @property
    def checkpoint(self) -> Path:
        return self.root / "checkpoint"

    def geometry(self, config: StoreConfig) -> Geometry:
        """The recorded geometry, or the config's, recorded now for a new store."""
        recorded = read_json(self.manifest, _parse_manifest)
        if recorded is not None:
            return recorded
        geometry = Geometry(
            config.commitlog_segment_bytes,
            config.consume_queue_units_per_file,
            config.index_slot_count,
            config.index_entry_count,
        )
        write_json(self.manifest, {"version": FORMAT_VERSION, **_as_dict(geometry)})
        return geometry

    def geometry_readonly(self) -> Geometry:
        """The recorded geometry of an existing store."""
        recorded = read_json(self.manifest, _parse_manifest)
        if recorded is None:
            raise CorruptStoreError(f"{self.manifest} is missing")
        return recorded

    def list_files(self) -> list[StoreFile]:
        """The data files as the directories list them now (a file deleted meanwhile is skipped), each kind in
        path order: CommitLog segments, ConsumeQueue files, compacted log files, IndexFiles."""
        kinds = [("commitlog", self.commitlog, 0), ("consumequeue", self.consume_queues, 2)]
        kinds += [("compacted", self.compacted_logs, 2), ("index", self.index, 0)]
        found: list[StoreFile] = []
        for kind, directory, depth in kinds:
            for path in sorted(_files_under(directory, depth)):
                with contextlib.suppress(OSError):
                    found.append(StoreFile(kind, str(path.relative_to(self.root)), path.stat().st_size))
        return found

    def remove_orphan_queues(self, live: Iterable[tuple[bytes, int]]) -> None:
        """Delete queue directories of topics or partitions that no longer exist (a crash mid-delete)."""
        wanted: dict[str, set[str]] = {}
        for topic_id, partition in live:
            wanted.setdefault(topic_id.hex(), set()).add(str(partition))
        if not self.consume_queues.is_dir():
            return
        for topic_dir in self.consume_queues.iterdir():
            partitions = wanted.get(topic_dir.name)
            if partitions is None:
                shutil.rmtree(topic_dir, ignore_errors=True)
                continue
            for partition_dir in topic_dir.iterdir():
                if partition_dir.name not in partitions:
                    shutil.rmtree(partition_dir, ignore_errors=True)


def _files_under(directory: Path, depth: int) -> Iterable[Path]:
    """Regular files ``depth`` directory levels below ``directory`` (none when it does not exist)."""
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        if depth == 0 and entry.is_file():
            yield Path(entry.path)
        elif depth > 0 and entry.is_dir():
            yield from _files_under(Path(entry.path), depth - 1)


def _as_dict(geometry: Geometry) -> dict[str, int]:
    return {
        "commitlog_segment_bytes": geometry.commitlog_segment_bytes,
        "consume_queue_units_per_file": geometry.consume_queue_units_per_file,
        "index_slot_count": geometry.index_slot_count,
        "index_entry_count": geometry.index_entry_count,
    }


def _parse_manifest(document: Any) -> Geometry:
    if not isinstance(document, dict):
        raise CorruptStoreError(f"a JSON {type(document).__name__} where an object belongs")
    if document.get("version") != FORMAT_VERSION:
        raise CorruptStoreError(f"unknown store format version {document.get('version')!r}")
    sizes = {}
    for key in _as_dict(Geometry(0, 0, 0, 0)):
        value = document[key]
        if type(value) is not int or value <= 0:
            raise CorruptStoreError(f"{key} is {value!r}, not a positive integer")
        sizes[key] = value
    return Geometry(**sizes)
