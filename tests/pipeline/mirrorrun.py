"""Running ``rockafka pipeline mirror`` as a child process in the mirror tests: its status file, bounded waits on
it, and records compared per partition without offsets (the target's offsets differ: each transaction adds a
marker)."""

from __future__ import annotations

import json
import subprocess
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .kafkadata import consume_all

WAIT_S = 600  # Spark starts in 10-20 s on a quiet machine, minutes on a saturated one


def status(tmp_path: Path) -> dict[str, Any]:
    try:
        document: dict[str, Any] = json.loads((tmp_path / "status.json").read_text())
    except (FileNotFoundError, ValueError):
        return {}
    return document


def wait_for(what: str, condition: Callable[[], bool], child: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline and child.poll() is None:
        if condition():
            return
        time.sleep(0.5)
    if child.poll() is not None:
        out, err = child.communicate()
        raise AssertionError(f"the mirror ended while waiting for {what}: {out or ''}{err or ''}")
    raise AssertionError(f"no {what} within {WAIT_S} s")


def records(bootstrap: str, topic: str, **client: Any) -> dict[int, list[tuple[Any, ...]]]:
    """Per partition, every record read_committed without its offset."""
    found: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for partition, _, *record in consume_all(bootstrap, topic, "read_committed", **client):
        found[partition].append(tuple(record))
    return dict(found)


def values(read: list[tuple[int, int, bytes]]) -> dict[int, list[bytes]]:
    """Per partition, the values of (partition, offset, value) rows, in order."""
    found: dict[int, list[bytes]] = defaultdict(list)
    for partition, _, value in read:
        found[partition].append(value)
    return dict(found)


def stop(child: subprocess.Popen[str]) -> None:
    """Kill a child still running (a test that failed before it stopped it)."""
    if child.poll() is None:
        child.kill()
        child.wait()
