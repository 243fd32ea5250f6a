"""What a measured window cost: wall time, broker CPU, RSS and heap (anonymous RSS), load-generator CPU
(whole process and its main thread) and the CPU that neither used (other work on the machine), by psutil.

CPU figures are in % of one core (a 2-core machine tops out at 200%).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import psutil


@dataclass(frozen=True, slots=True)
class Usage:
    wall_s: float
    loadgen_cpu_s: float
    main_thread_cpu_s: float
    machine_busy_s: float
    broker_cpu_s: float | None
    broker_rss_mb: float | None
    broker_anon_mb: float | None

    def pct(self, cpu_s: float | None) -> float | None:
        return None if cpu_s is None or self.wall_s <= 0 else 100.0 * cpu_s / self.wall_s

    @property
    def other_cpu_s(self) -> float:
        """CPU used during the window by neither the broker nor this process (noise from the machine)."""
        return max(0.0, self.machine_busy_s - self.loadgen_cpu_s - (self.broker_cpu_s or 0.0))

    def figures(self) -> dict[str, float]:
        out = {
            "wall_s": self.wall_s,
            "loadgen_cpu_pct": self.pct(self.loadgen_cpu_s) or 0.0,
            "main_thread_cpu_pct": self.pct(self.main_thread_cpu_s) or 0.0,
            "other_cpu_pct": self.pct(self.other_cpu_s) or 0.0,
        }
        if self.broker_cpu_s is not None:
            out["broker_cpu_s"] = self.broker_cpu_s
            out["broker_cpu_pct"] = self.pct(self.broker_cpu_s) or 0.0
        if self.broker_rss_mb is not None:
            out["broker_rss_mb"] = self.broker_rss_mb
        if self.broker_anon_mb is not None:
            out["broker_anon_mb"] = self.broker_anon_mb
        return out


def _busy_s() -> float:
    times = psutil.cpu_times()
    return float(sum(times) - times.idle - getattr(times, "iowait", 0.0))


def _cpu_s(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


class Meter:
    """``start()`` then ``stop()`` in the load generator's main thread; ``stop()`` returns the :class:`Usage`."""

    def __init__(self, broker_pid: int | None) -> None:
        self._self = psutil.Process()
        self._broker = psutil.Process(broker_pid) if broker_pid is not None else None
        self._start: tuple[float, float, float, float, float | None] | None = None

    def _broker_cpu(self) -> float | None:
        return None if self._broker is None else _cpu_s(self._broker)

    def start(self) -> None:
        self._start = (time.perf_counter(), _cpu_s(self._self), time.thread_time(), _busy_s(), self._broker_cpu())

    def stop(self) -> Usage:
        if self._start is None:
            raise RuntimeError("Meter.stop() before start()")
        wall, loadgen, main, busy, broker = self._start
        broker_now = self._broker_cpu()
        return Usage(
            wall_s=time.perf_counter() - wall,
            loadgen_cpu_s=_cpu_s(self._self) - loadgen,
            main_thread_cpu_s=time.thread_time() - main,
            machine_busy_s=_busy_s() - busy,
            broker_cpu_s=None if broker is None or broker_now is None else broker_now - broker,
            broker_rss_mb=self.broker_rss_mb(),
            broker_anon_mb=self.broker_anon_mb(),
        )

    def broker_rss_mb(self) -> float | None:
        """Resident set: heap plus the pages of mapped files (the CommitLog) that are in memory."""
        return None if self._broker is None else self._broker.memory_info().rss / 1e6

    def broker_anon_mb(self) -> float | None:
        """Anonymous resident memory (``RssAnon``, Linux): the heap, without mapped files."""
        if self._broker is None:
            return None
        try:
            with open(f"/proc/{self._broker.pid}/status") as status:
                for line in status:
                    if line.startswith("RssAnon:"):
                        return int(line.split()[1]) * 1024 / 1e6
        except OSError:
            pass
        return None
