"""The quarantine: damaged bytes kept aside for forensics, and the ledger of every loss the store accepted.

When recovery or a load finds bytes it cannot use (a CommitLog record that fails its checks, a
ConsumeQueue unit that points at garbage, a log frame that fails its CRC), it keeps every intact record
it can find and hands the damaged range here. Nothing is ever silently dropped: each loss is logged once
at WARNING, appended to the ledger, and its bytes are copied into a file of their own.

Files in ``<root>/quarantine/``::

    losses.jsonl                     one JSON object a line, appended and fsynced:
        {"time_ms": int, "source": str, "file": str, "start": int, "end": int, "bytes": int,
         "reason": str, "topic": str|null, "partition": int|null,
         "first_offset": int|null, "last_offset": int|null, "kept": str|null}
    <source>-<20-digit start>-<time_ms>[-<n>].bin   the damaged bytes [start, end) of ``file`` as they were

``source`` names the kind of file (``commitlog``, ``consumequeue``, ``consumerOffsets``, ``transactions``,
``groupMetadata``, ...); ``start``/``end`` are byte positions in the file's own address space (global
physical offsets for the CommitLog, offsets within the file for the others). ``first_offset`` and
``last_offset`` are the Kafka offsets lost, where they are known. ``kept`` is the name of the ``.bin``
file, or null when the bytes could not be copied (a full disk: the loss is still logged and, if the
ledger can be written, recorded).

The quarantine only ever grows; an operator deletes it by hand once it has been looked at.
``rockafka store inspect`` counts its entries.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

log = logging.getLogger("rockafka.store")

LEDGER = "losses.jsonl"


@dataclass(frozen=True, slots=True)
class Loss:
    """One damaged range the store gave up, and what it cost."""

    source: str
    file: str
    start: int
    end: int
    reason: str
    topic: str | None = None
    partition: int | None = None
    first_offset: int | None = None
    last_offset: int | None = None
    kept: str | None = None
    time_ms: int = 0

    @property
    def bytes(self) -> int:
        return self.end - self.start

    def describe(self) -> str:
        where = f"{self.source} {self.file} bytes [{self.start}, {self.end}) ({self.bytes} bytes)"
        if self.topic is not None:
            where += f", {self.topic}-{self.partition}"
            if self.first_offset is not None:
                where += f" offsets {self.first_offset}..{self.last_offset}"
        return f"{where}: {self.reason}"


class Quarantine:
    """Keeps damaged bytes and records each loss; never raises for its own I/O failures (it logs them)."""

    def __init__(self, directory: Path, clock: Callable[[], int] | None = None) -> None:
        self.directory = directory
        self._clock = clock or (lambda: time.time_ns() // 1_000_000)

    def keep(self, loss: Loss, data: bytes | memoryview | None) -> Loss:
        """Record ``loss`` (with ``data``, the damaged bytes, when there are any) and log it at WARNING."""
        loss = replace(loss, time_ms=self._clock())
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            if data is not None and len(data):
                name = self._fresh_name(loss)
                _write_synced(self.directory / name, bytes(data), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
                loss = replace(loss, kept=name)
            line = json.dumps({**asdict(loss), "bytes": loss.bytes}, sort_keys=True).encode() + b"\n"
            _write_synced(self.directory / LEDGER, line, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        except OSError as exc:
            log.warning("store damage: %s (not recorded in the quarantine: %s)", loss.describe(), exc)
            return loss
        log.warning("store damage: %s; kept in %s", loss.describe(), loss.kept or LEDGER)
        return loss

    def _fresh_name(self, loss: Loss) -> str:
        """``<source>-<start>-<time_ms>.bin``, with ``-<n>`` before ``.bin`` when that name is taken (two losses
        of the same source and start in one millisecond: a snapshot and its ``.bak``)."""
        base = f"{loss.source}-{loss.start:020d}-{loss.time_ms}"
        name, number = f"{base}.bin", 1
        while (self.directory / name).exists():
            name, number = f"{base}-{number}.bin", number + 1
        return name

    def losses(self) -> list[Loss]:
        """Every loss in the ledger, oldest first (a torn last line is ignored)."""
        return read_losses(self.directory)


def read_losses(directory: Path) -> list[Loss]:
    try:
        text = (directory / LEDGER).read_bytes()
    except FileNotFoundError:
        return []
    losses = []
    fields = set(Loss.__dataclass_fields__)
    for line in text.splitlines():
        try:
            document = json.loads(line)
            losses.append(Loss(**{key: value for key, value in document.items() if key in fields}))
        except (ValueError, TypeError):
            continue
    return losses


def _write_synced(path: Path, data: bytes, flags: int) -> None:
    fd = os.open(path, flags, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)
