"""kcat (Debian's, on librdkafka 2.0.2) driven through its command line.

Producing: one message per line on stdin, ``key:value`` (``-K:``), the same headers (``-H``) on every
message of one call, no per-message timestamps (the client stamps them). The offsets a produce got
are read with kcat's own offset query (``-Q``) before and after. Consuming: a binary-safe output
format that gives the key and value lengths before their bytes. For ``latest``, kcat's fetch debug
log tells when it is positioned.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence

from .driver import CODECS, TIMEOUT_S, Acks, Start
from .records import Rec

FORMAT = "%o\t%T\t%K\t%S\t%h\t%k%s\n"


def kcat_missing() -> str | None:
    if shutil.which("kcat") is None:
        return "kcat is not installed (Debian package kcat; `make compat-deps` installs it when run as root)"
    return None


def _settings_args(settings: Mapping[str, object] | None) -> list[str]:
    args: list[str] = []
    for key, value in (settings or {}).items():
        args += ["-X", f"{key}={value}"]
    return args


class KcatDriver:
    name = "kcat"
    codecs = CODECS
    stamps_records = False
    sends_nulls = False
    no_offset_is_end = False
    printable_only = True

    def run(self, args: Sequence[str], stdin: bytes = b"") -> bytes:
        done = subprocess.run(["kcat", *args], input=stdin, capture_output=True, timeout=TIMEOUT_S, check=False)
        assert done.returncode == 0, f"kcat {' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-2000:]}"
        return done.stdout

    def end_offset(self, bootstrap: str, topic: str, partition: int) -> int:
        return self.query(bootstrap, topic, partition, -1)

    def end_offset_or_zero(self, bootstrap: str, topic: str, partition: int) -> int:
        """The end offset, or 0 for a topic that does not exist yet (kcat's -Q does not create it)."""
        listing = self.run(["-L", "-b", bootstrap, "-t", topic]).decode()
        return self.end_offset(bootstrap, topic, partition) if f"partition {partition}," in listing else 0

    def query(self, bootstrap: str, topic: str, partition: int, timestamp: int) -> int:
        """kcat's ``-Q``: ListOffsets for one partition (-1 latest, -2 earliest, else a time)."""
        out = self.run(["-Q", "-b", bootstrap, "-t", f"{topic}:{partition}:{timestamp}"]).decode()
        return int(out.rsplit("offset", 1)[1].split()[0])

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
        headers = records[0].headers
        partition = records[0].partition
        assert all(r.headers == headers and r.partition == partition for r in records), "one header set per call"
        assert all(r.timestamp is None for r in records), "kcat cannot set record timestamps"
        lines = b"".join(_line(r) for r in records)
        before = self.end_offset_or_zero(bootstrap, topic, partition) if acks != 0 else 0
        args = ["-P", "-b", bootstrap, "-t", topic, "-p", str(partition), "-K:", "-X", f"acks={acks}"]
        args += ["-z", codec] if codec != "none" else []
        for name, value in headers:
            args += ["-H", f"{name}={value.decode()}"]
        self.run(args + _settings_args(settings), lines)
        if acks == 0:
            return []
        after = self.end_offset(bootstrap, topic, partition)
        assert after - before == len(records), f"offsets moved {before} -> {after} for {len(records)} records"
        return list(range(before, after))

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
        offset = {"earliest": "beginning", "latest": "end", "time": f"s@{start.value}"}.get(
            start.kind, str(start.value)
        )
        args = ["-C", "-b", bootstrap, "-t", topic, "-p", str(partition), "-o", offset, "-c", str(count), "-q"]
        args += ["-f", FORMAT, "-d", "fetch", *_settings_args(settings)]
        process = subprocess.Popen(["kcat", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        positioned = threading.Event()
        log: list[bytes] = []
        watcher = threading.Thread(target=_watch_fetch_log, args=(process, topic, positioned, log), daemon=True)
        watcher.start()
        try:
            if then is not None:
                assert positioned.wait(TIMEOUT_S), f"kcat never fetched: {b''.join(log)[-2000:]!r}"
                then()
            out, _ = process.communicate(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            out, _ = process.communicate()
        watcher.join(5)
        return _parse(out, partition)

    def partition_count(self, bootstrap: str, topic: str) -> int:
        listing = self.run(["-L", "-b", bootstrap, "-t", topic]).decode()
        return listing.count("\n    partition ")

    def offset_for_time(self, bootstrap: str, topic: str, partition: int, timestamp_ms: int) -> int | None:
        offset = self.query(bootstrap, topic, partition, timestamp_ms)
        return None if offset < 0 else offset


def _line(record: Rec) -> bytes:
    assert record.value and b"\n" not in record.value, "kcat takes one non-empty line per message"
    key = b"" if record.key is None else record.key + b":"
    assert b":" not in (record.key or b"") and b"\n" not in key
    return key + record.value + b"\n"


def _watch_fetch_log(
    process: subprocess.Popen[bytes], topic: str, positioned: threading.Event, log: list[bytes]
) -> None:
    assert process.stderr is not None
    marker = f"Fetch topic {topic} [".encode()
    for line in process.stderr:
        log.append(line)
        if marker in line:
            positioned.set()
    log.append(b"(stderr closed)")


def _parse(out: bytes, partition: int) -> list[Rec]:
    """Records printed with :data:`FORMAT`: tab-separated fields, then key and value by their lengths."""
    records: list[Rec] = []
    pos = 0
    while pos < len(out):
        fields = []
        for _ in range(5):
            end = out.index(b"\t", pos)
            fields.append(out[pos:end])
            pos = end + 1
        key_len, value_len = int(fields[2]), int(fields[3])
        key = None if key_len < 0 else out[pos : pos + key_len]
        pos += max(key_len, 0)
        value = None if value_len < 0 else out[pos : pos + value_len]
        pos += max(value_len, 0)
        assert out[pos : pos + 1] == b"\n", f"kcat output out of step at byte {pos}"
        pos += 1
        headers = tuple(_header(item) for item in fields[4].decode().split(",") if item)
        records.append(Rec(key, value, headers, int(fields[1]), int(fields[0]), partition))
    return records


def _header(item: str) -> tuple[str, bytes]:
    name, _, value = item.partition("=")
    return name, value.encode()
