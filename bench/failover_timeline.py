"""Where a failover's time goes: the events between a leader's SIGKILL and the producer's first acknowledgement.

``bench.failover --breakdown`` records, on the bench's monotonic clock:

- **etcd** (:class:`EtcdTimeline`, a watch of the cluster's keys from the bench process): when the killed
  broker's registration vanished (its lease expired) and when the controller's election named another member;
- **the new leader** (:func:`role_taken`): its log line "this broker leads now" (wall clock, converted);
- **the surviving brokers' Metadata** (:class:`MetadataPoller`: each survivor asked directly every
  ``POLL_S``): when every survivor first named the new leader for the partition;
- **the producer** (:class:`ClientLog`, librdkafka's own ``metadata``/``broker``/``topic`` debug lines): when it
  asked for Metadata after the kill, and when it moved the partition to the new leader.

:func:`phases` turns one round's events into the phases of the table in bench/results/failover.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import re
import statistics
import threading
import time
from pathlib import Path
from typing import Final

from compat_tests.clients.wire import RawClient
from rockafka.cluster.etcd import Etcd
from rockafka.cluster.layout import KeyLayout
from rockafka.cluster.snapshot import ClusterSnapshot
from rockafka.cluster.view import ClusterView
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse

#: How often the Metadata poller asks each surviving broker.
POLL_S: Final = 0.05
#: librdkafka's line when a partition's leader moves, e.g. ``failover [0]: migrating from broker 1 to 2``
#: (also "delegate to broker ... /2"), and its Metadata request lines.
_DELEGATE = re.compile(r"\[(\d+)\].*(?:migrat\w* from broker -?\d+ to (\d+)|delegate to broker \S*?/(\d+))")
_ASKED = re.compile(r"[Rr]equest(?:ing)? metadata")
_LEADS = re.compile(r"^(\S+ \S+) WARNING .*this broker leads now")
_REBUILT = re.compile(r"^\S+ \S+ WARNING .*promoted: the idempotent producers .* in ([0-9.]+) s")


class EtcdTimeline:
    """Every change of the cluster's keys seen by a watch from the bench, as ``(monotonic time, snapshot)``."""

    def __init__(self, endpoint: str, cluster_name: str) -> None:
        self.events: list[tuple[float, ClusterSnapshot]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=asyncio.run, args=(self._watch(endpoint, cluster_name),), daemon=True)
        self._thread.start()

    async def _watch(self, endpoint: str, cluster_name: str) -> None:
        etcd = await Etcd.connect([endpoint])
        view = ClusterView(etcd, KeyLayout(cluster_name))
        view.add_listener(self._seen)
        try:
            await view.start()
            while not self._stop.is_set():
                await asyncio.sleep(0.1)
        finally:
            await view.stop()
            await etcd.close()

    def _seen(self, _old: ClusterSnapshot, new: ClusterSnapshot) -> None:
        with self._lock:
            self.events.append((time.monotonic(), new))

    def first(self, since: float, predicate: object) -> float | None:
        with self._lock:
            events = list(self.events)
        return next((t for t, snapshot in events if t >= since and predicate(snapshot)), None)  # type: ignore[operator]

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)


class MetadataPoller:
    """Asks each broker in ``addresses`` (node id -> its own port) for ``topic``'s Metadata every ``POLL_S`` on one
    connection each;
    ``answers`` holds ``(monotonic time, node asked, partition leader)``."""

    def __init__(self, addresses: dict[int, str], topic: str, partition: int) -> None:
        self.addresses, self.topic, self.partition = addresses, topic, partition
        self.answers: list[tuple[float, int, int]] = []
        self.down: set[int] = set()
        self._clients: dict[int, RawClient] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _ask(self, node: int) -> int:
        client = self._clients.get(node)
        if client is None:
            client = self._clients[node] = RawClient(self.addresses[node])
        request = MetadataRequest(topics=[MetadataRequestTopic(name=self.topic)], allow_auto_topic_creation=False)
        try:
            [described] = client.request(request, 12, MetadataResponse).topics
        except Exception:
            del self._clients[node]
            client.close()
            raise
        return next(p.leader_id for p in described.partitions if p.partition_index == self.partition)

    def _run(self) -> None:
        deadline = time.monotonic() + 24 * 3600
        while not self._stop.is_set() and time.monotonic() < deadline:
            for node in self.addresses:
                if node in self.down:
                    continue
                with contextlib.suppress(Exception):  # a broker being killed or started answers nothing
                    leader = self._ask(node)
                    with self._lock:
                        self.answers.append((time.monotonic(), node, leader))
            self._stop.wait(POLL_S)
        for client in self._clients.values():
            client.close()

    def all_name(self, since: float, leader: int, survivors: list[int]) -> float | None:
        """When every one of ``survivors`` had answered ``leader`` (each one's first such answer after ``since``)."""
        with self._lock:
            answers = list(self.answers)
        firsts = [next((t for t, n, led in answers if t >= since and n == node and led == leader), None)
                  for node in survivors]  # fmt: skip
        return None if None in firsts else max(t for t in firsts if t is not None)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)


class ClientLog(logging.Handler):
    """librdkafka's debug lines for the producer (``"logger"`` in its config), as ``(monotonic time, text)``."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[tuple[float, str]] = []
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        with self._guard:
            self.lines.append((time.monotonic(), record.getMessage()))
            del self.lines[:-20000]

    def logger(self) -> logging.Logger:
        logger = logging.getLogger("bench.failover.librdkafka")
        logger.propagate = False
        logger.setLevel(logging.DEBUG)
        logger.addHandler(self)
        return logger

    def after(self, since: float) -> list[tuple[float, str]]:
        with self._guard:
            return [(t, text) for t, text in self.lines if t >= since]

    def first_asked(self, since: float) -> float | None:
        return next((t for t, text in self.after(since) if _ASKED.search(text)), None)

    def moved_to(self, since: float, partition: int, leader: int) -> float | None:
        for t, text in self.after(since):
            match = _DELEGATE.search(text)
            if match and int(match[1]) == partition and int(match[2] or match[3]) == leader:
                return t
        return None


def role_taken(log_path: Path, since_wall: float, wall_to_monotonic: float) -> float | None:
    """When the broker logging to ``log_path`` logged "this broker leads now" after ``since_wall`` (monotonic)."""
    with contextlib.suppress(OSError):
        for line in log_path.read_text(errors="replace").splitlines():
            match = _LEADS.match(line)
            if match:
                stamp = datetime.datetime.strptime(match[1], "%Y-%m-%d %H:%M:%S,%f").astimezone().timestamp()
                if stamp >= since_wall - 0.001:
                    return stamp - wall_to_monotonic
    return None


def rebuild_seconds(log_path: Path, since_wall: float) -> float | None:
    """How long the promoted broker's producer rebuild held its loop (its first such line after ``since_wall``)."""
    with contextlib.suppress(OSError):
        for line in log_path.read_text(errors="replace").splitlines():
            match = _REBUILT.match(line)
            if match:
                stamp = datetime.datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").astimezone().timestamp()
                if stamp >= since_wall - 0.001:
                    return float(match[1])
    return None


PHASES: Final = (
    ("kill -> lease expiry seen in etcd", "expired"),
    ("lease expiry -> election written", "elected"),
    ("election -> new leader takes the role (its log line)", "role"),
    ("the promoted leader's producer rebuild (its loop held)", "rebuild"),
    ("election -> every survivor's Metadata names it", "metadata"),
    ("election -> producer moves the partition to it", "client_moved"),
    ("producer moves -> first acknowledgement", "acked"),
)


def phases(t0: float, events: dict[str, float | None]) -> dict[str, float | None]:
    """Each phase's seconds (None when an end was not seen): differences of the round's event times."""
    starts = {"expired": "kill", "elected": "expired", "role": "elected", "metadata": "elected",
              "client_moved": "elected", "acked": "client_moved"}  # fmt: skip
    times = {"kill": t0, **events}
    out: dict[str, float | None] = {}
    for _, end in PHASES:
        if end == "rebuild":
            out[end] = events.get(end)
            continue
        start, stop = times.get(starts[end]), times.get(end)
        out[end] = None if start is None or stop is None else stop - start
    return out


def breakdown_rows(rounds: list[dict[str, float | None]]) -> list[list[str]]:
    """One row per phase: its median, p90 and max over the rounds that saw both ends."""
    rows = []
    for title, key in PHASES:
        values = sorted(v for r in rounds if (v := r.get(key)) is not None)
        if not values:
            rows.append([title, "0", "-", "-", "-"])
            continue
        p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
        rows.append([title, str(len(values)), f"{statistics.median(values):.2f}", f"{p90:.2f}", f"{values[-1]:.2f}"])
    return rows
