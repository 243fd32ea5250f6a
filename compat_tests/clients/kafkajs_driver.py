"""kafkajs, driven through one long-lived Node process (``compat_tests/node/kafkajs_client.js``).

The Node process takes one JSON command per line and answers one JSON line; bytes travel as base64.
kafkajs produces uncompressed and gzip batches by itself (snappy, lz4 and zstd need codec plug-ins,
which are not installed). Its consumer always joins a group, so "manual assignment" here is kafkajs's
own ListOffsets (admin) and Fetch (the broker's fetch request and record batch decoder) without one.
"""

from __future__ import annotations

import base64
import json
import selectors
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .driver import TIMEOUT_S, Acks, Start
from .records import Rec

NODE_DIR = Path(__file__).resolve().parent.parent / "node"
SCRIPT = NODE_DIR / "kafkajs_client.js"
READ_COMMITTED = 1  # kafkajs consumers default to it (readUncommitted: false)


def kafkajs_missing() -> str | None:
    """Why kafkajs cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not (NODE_DIR / "node_modules" / "kafkajs").is_dir():
        return "kafkajs is not installed: run `make compat-deps`"
    return None


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode("ascii")


def _unb64(text: str | None) -> bytes | None:
    return None if text is None else base64.b64decode(text)


class KafkajsError(AssertionError):
    """kafkajs reported an error (its stack trace is the message)."""


class KafkajsDriver:
    name = "kafkajs"
    codecs = ("none", "gzip")
    stamps_records = True
    sends_nulls = True
    no_offset_is_end = True
    printable_only = False

    def __init__(self) -> None:
        self._process = subprocess.Popen(
            ["node", str(SCRIPT)], cwd=NODE_DIR, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self._selector = selectors.DefaultSelector()
        assert self._process.stdout is not None
        self._selector.register(self._process.stdout, selectors.EVENT_READ)

    def close(self) -> None:
        if self._process.poll() is None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            try:
                self._process.wait(5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(5)
        self._selector.close()

    def call(self, command: str, timeout_s: float = TIMEOUT_S + 5, **fields: Any) -> Any:
        """Run one command in the Node process; its result, or :class:`KafkajsError`."""
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps({"command": command, **fields}) + "\n")
        self._process.stdin.flush()
        if not self._selector.select(timeout_s):
            raise KafkajsError(f"kafkajs did not answer {command} within {timeout_s}s")
        line = self._process.stdout.readline()
        if not line:
            raise KafkajsError(f"the kafkajs process exited ({self._process.poll()})")
        reply = json.loads(line)
        if "error" in reply:
            raise KafkajsError(reply["error"])
        return reply["ok"]

    def produce(
        self,
        bootstrap: str,
        topic: str,
        records: Sequence[Rec],
        *,
        acks: Acks,
        codec: str = "none",
        settings: Mapping[str, object] | None = None,
    ) -> list[int]:
        messages = [
            {
                "key": _b64(r.key),
                "value": _b64(r.value),
                "headers": [[name, _b64(value)] for name, value in r.headers],
                "partition": r.partition,
                "timestamp": r.timestamp,
            }
            for r in records
        ]
        result = self.call("produce", bootstrap=bootstrap, topic=topic, acks=acks, codec=codec, messages=messages)
        return [int(offset) for offset in result["offsets"]]

    def list_offset(self, bootstrap: str, topic: str, partition: int, at: str | int) -> int:
        return int(self.call("listOffsets", bootstrap=bootstrap, topic=topic, partition=partition, at=at)["offset"])

    def consume(
        self,
        bootstrap: str,
        topic: str,
        partition: int,
        start: Start,
        count: int,
        *,
        then: Callable[[], None] | None = None,
        settings: Mapping[str, object] | None = None,
    ) -> list[Rec]:
        if start.kind == "offset":
            offset = start.value
        else:
            offset = self.list_offset(bootstrap, topic, partition, start.value if start.kind == "time" else start.kind)
            assert offset >= 0, f"kafkajs found no offset for {start}"
        if then is not None:
            then()
        result = self.call(
            "fetch",
            bootstrap=bootstrap,
            topic=topic,
            partition=partition,
            offset=offset,
            count=count,
            isolationLevel=dict(settings or {}).get("isolationLevel", READ_COMMITTED),
            timeoutMs=int(TIMEOUT_S * 1000),
        )
        return [
            Rec(
                _unb64(item["key"]),
                _unb64(item["value"]),
                tuple((name, _unb64(value)) for name, value in item["headers"]),
                item["timestamp"],
                item["offset"],
            )
            for item in result["records"]
        ]

    def partition_count(self, bootstrap: str, topic: str) -> int:
        (found,) = self.call("metadata", bootstrap=bootstrap, topics=[topic])["topics"]
        return int(found["partitions"])

    def offset_for_time(self, bootstrap: str, topic: str, partition: int, timestamp_ms: int) -> int | None:
        offset = self.list_offset(bootstrap, topic, partition, timestamp_ms)
        return None if offset < 0 else offset
