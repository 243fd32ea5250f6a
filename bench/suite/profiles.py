"""py-spy profiles of Rockafka's produce and fetch paths (``python -m bench.suite --profile``).

A fresh broker runs each scenario (``produce-1KiB-acks1-none``, ``produce-1KiB-acks1-lz4``, then
``consume-1KiB-assign`` for the fetch path, ``rtt-aiokafka-acks1`` for one request's round trip,
``e2e-100B-2k`` for low-rate produce and fetch; ``-s`` picks some by path or scenario name); py-spy
samples the broker process only during the scenario's timed window (never the prefill or the
read-back), with native frames so the Cython kernels show. Kept beside the results in
``results/profiles/``: the collapsed stacks (``<path>.collapsed.txt``, for speedscope or inferno) and
``<path>.md``, the functions with the most samples, self and inclusive.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from bench.suite.context import Context
from bench.suite.meter import Meter, Usage
from bench.suite.runner import measure
from bench.suite.scenarios import SCENARIOS
from bench.suite.targets import start_rockafka

PATHS = {
    "produce": "produce-1KiB-acks1-none",
    "produce-lz4": "produce-1KiB-acks1-lz4",
    "fetch": "consume-1KiB-assign",
    "roundtrip": "rtt-aiokafka-acks1",
    "latency": "e2e-100B-2k",
}
SAMPLE_RATE = 199
TOP = 25


def py_spy() -> str:
    found = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(found).exists():
        raise SystemExit("py-spy not found: pip install py-spy (the bench extra)")
    return found


class ProfilingMeter(Meter):
    """A meter that also runs py-spy on the broker for exactly the timed window."""

    def __init__(self, broker_pid: int | None, output: Path) -> None:
        super().__init__(broker_pid)
        self._pid, self._output = broker_pid, output
        self._spy: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [py_spy(), "record", "--pid", str(self._pid), "--rate", str(SAMPLE_RATE), "--native"]
        command += ["--format", "raw", "--output", str(self._output)]
        log = self._output.with_suffix(".log").open("wb")
        self._spy = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        super().start()

    def stop(self) -> Usage:
        usage = super().stop()
        if self._spy is not None and self._spy.poll() is None:
            os.kill(self._spy.pid, signal.SIGINT)
            try:
                self._spy.wait(60)
            except subprocess.TimeoutExpired:
                os.kill(self._spy.pid, signal.SIGKILL)
                self._spy.wait(10)
        return usage


WAITS = ("PyThread_acquire_lock_timed", "pthread_cond_timedwait", "pthread_cond_wait", "epoll_wait", "epoll_pwait")
"""Frames of a thread that is blocked, not running: py-spy's native mode samples them, the summary drops them."""


PROJECT = re.compile(r"\((facade|store|core_pyx|rockafka)/")
"""Frames of Rockafka's own code: the inclusive table lists only these."""


def _frame(frame: str) -> str:
    return re.sub(r":\d+\)$", ")", frame.strip())


def _leaf(frames: list[str]) -> str:
    """The sampled function; an unsymbolized libc address is named by its nearest named caller."""
    if not frames[-1].startswith("0x"):
        return frames[-1]
    library = frames[-1].partition(" ")[2]
    callers = [f for f in frames if not f.startswith("0x") and "(object.h)" not in f]
    return f"{library} in {callers[-1] if callers else '?'}"


def _thread(frames: list[str]) -> str:
    for index, frame in enumerate(frames[:-1]):
        if frame.startswith("Thread.run ("):
            return frames[index + 1]
    return "event loop (main thread)"


@dataclass(frozen=True, slots=True)
class Profile:
    running: int
    waiting: int
    own: Counter[str]
    inclusive: Counter[str]
    threads: Counter[str]


def summarize(collapsed: Path) -> Profile:
    """Samples of running threads: per function (self and inclusive) and per thread; blocked ones counted apart."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    threads: Counter[str] = Counter()
    running = waiting = 0
    for line in collapsed.read_text(errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [_frame(f) for f in stack.split(";")]
        if any(f.startswith(WAITS) for f in frames):
            waiting += count
            continue
        running += count
        own[_leaf(frames)] += count
        threads[_thread(frames)] += count
        for name in {f for f in frames if PROJECT.search(f)}:
            inclusive[name] += count
    return Profile(running, waiting, own, inclusive, threads)


def summary_markdown(path: str, scenario: str, collapsed: Path, figure: str) -> str:
    profile = summarize(collapsed)
    lines = [
        f"# py-spy profile: {path} path ({scenario})",
        "",
        f"- {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {SAMPLE_RATE} Hz, native frames, broker "
        f"process only, timed window only",
        f"- {profile.running} samples of running threads (percentages below are of these); {profile.waiting} "
        "samples of blocked threads (lock, condition or epoll waits) left out",
        f"- run while profiled (py-spy pauses the broker to sample, so slower than unprofiled): {figure}",
        f"- stacks: `{collapsed.name}` (collapsed; open in speedscope or inferno)",
        "",
    ]
    tables = (
        ("thread", profile.threads, 10),
        ("self", profile.own, TOP),
        ("inclusive (Rockafka's own functions)", profile.inclusive, TOP),
    )
    for title, counter, top in tables:
        lines += [f"## Top {top} by {title} samples", "", "| % | samples | function |", "|---:|---:|---|"]
        for name, count in counter.most_common(top):
            lines.append(f"| {100 * count / max(profile.running, 1):.1f} | {count} | `{name.replace('|', '/')}` |")
        lines.append("")
    return "\n".join(lines)


def _profiling_meter(pid: int | None, output: Path) -> Meter:
    return ProfilingMeter(pid, output)


def profile_main(args: argparse.Namespace) -> int:
    out = args.out / "profiles"
    out.mkdir(parents=True, exist_ok=True)
    status = 0
    chosen = args.scenario or list(PATHS)
    for path, name in PATHS.items():
        if path not in chosen and name not in chosen:
            continue
        collapsed = out / f"{path}.collapsed.txt"
        with tempfile.TemporaryDirectory(prefix="rockafka-profile-") as scratch:
            running = start_rockafka(Path(scratch))
            try:
                ctx = Context(
                    running.bootstrap,
                    running.pid,
                    args.seconds,
                    args.scale,
                    Path(scratch),
                    meter_factory=partial(_profiling_meter, output=collapsed),
                )
                result = measure(SCENARIOS[name], ctx)
            finally:
                running.stop()
        figure = f"{result.status} {result.primary or 0:,.0f} {SCENARIOS[name].unit} {result.reason}"
        print(f"{path}: {figure}", flush=True)
        if not collapsed.exists():
            print(f"py-spy wrote nothing: {collapsed.with_suffix('.log').read_text(errors='replace')[-500:]}")
            status = 1
            continue
        (out / f"{path}.md").write_text(summary_markdown(path, name, collapsed, figure))
        collapsed.with_suffix(".log").unlink(missing_ok=True)
        print(f"wrote {out / f'{path}.md'}")
    return status
