"""A run's results as a markdown table and a PNG chart: per scenario and target the median, min and max of
the verified repetitions, resources, and the per-repetition ratio ours/peer with its median; then where
each of issue 9's targets stands."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from bench.suite.runner import MACHINE, RunResult
from bench.suite.scenarios import SCENARIOS

__all__ = ["MACHINE", "OURS", "PEER", "Row", "pair_ratios", "rows"]

OURS, PEER = "rockafka", "tansu"


@dataclass(frozen=True, slots=True)
class Row:
    scenario: str
    target: str
    runs: list[RunResult]

    @property
    def ok(self) -> list[RunResult]:
        return [r for r in self.runs if r.status == "ok"]

    def median(self, metric: str | None = None) -> float | None:
        values = [r.primary if metric is None else r.metrics.get(metric) for r in self.ok]
        present = [v for v in values if v is not None]
        return statistics.median(present) if present else None


def rows(results: Iterable[RunResult]) -> dict[tuple[str, str], Row]:
    grouped: dict[tuple[str, str], list[RunResult]] = defaultdict(list)
    for result in results:
        grouped[(result.scenario, result.target)].append(result)
    return {key: Row(*key, runs) for key, runs in grouped.items()}


def pair_ratios(
    table: dict[tuple[str, str], Row], scenario: str, target: str = OURS, peer_scenario: str | None = None
) -> list[float]:
    """``target``/peer of the primary figure, repetition by repetition (both runs verified); the peer's run is
    of ``peer_scenario`` when given (a baseline set against the peer), else of ``scenario``."""
    ours, peer = table.get((scenario, target)), table.get((peer_scenario or scenario, PEER))
    if ours is None or peer is None:
        return []
    peer_by_rep = {r.rep: r.primary for r in peer.ok if r.primary}
    return [r.primary / peer_by_rep[r.rep] for r in ours.ok if r.rep in peer_by_rep and r.primary is not None]


def _fmt(value: float | None, digits: int | None = None) -> str:
    """Numbers for the table: ``digits`` decimals, or by default 2 below 100 and none above."""
    if value is None:
        return ""
    if digits is None:
        digits = 2 if abs(value) < 100 else 0
    return f"{value:,.{digits}f}"


def _cpu(row: Row) -> str:
    broker, loadgen, main = (row.median(m) for m in ("broker_cpu_pct", "loadgen_cpu_pct", "main_thread_cpu_pct"))
    return f"{_fmt(broker, 0) if broker is not None else '—'} | {_fmt(loadgen, 0)} ({_fmt(main, 0)})"


def _memory(row: Row) -> str:
    rss, heap = row.median("broker_rss_mb"), row.median("broker_anon_mb")
    return "" if rss is None else f"{rss:,.0f}" + ("" if heap is None else f" ({heap:,.0f})")


def table_markdown(table: dict[tuple[str, str], Row]) -> list[str]:
    lines = [
        "| scenario | unit | target | median | min | max | ok | broker CPU% | loadgen CPU% (main) | other CPU% "
        "| broker RSS (heap) MB | ours/peer per rep | ours/peer median |",
        "|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|---:|",
    ]
    order = {name: i for i, name in enumerate(SCENARIOS)}
    for (scenario, target), row in sorted(table.items(), key=lambda kv: (order.get(kv[0][0], 999), kv[0][1])):
        unit = SCENARIOS[scenario].unit if scenario in SCENARIOS else ""
        primaries = [r.primary for r in row.ok if r.primary is not None]
        failed = [r for r in row.runs if r.status != "ok"]
        median = _fmt(row.median()) if primaries else (failed[0].status if failed else "")
        ratios = pair_ratios(table, scenario) if target == OURS else []
        lines.append(
            f"| {scenario} | {unit} | {target} | {median} | {_fmt(min(primaries)) if primaries else ''} "
            f"| {_fmt(max(primaries)) if primaries else ''} | {len(row.ok)}/{len(row.runs)} | {_cpu(row)} "
            f"| {_fmt(row.median('other_cpu_pct'), 0)} | {_memory(row)} "
            f"| {' '.join(f'{r:.3g}' for r in ratios)} | {f'{statistics.median(ratios):.3g}' if ratios else ''} |"
        )
    return lines


def failures_markdown(results: Iterable[RunResult]) -> list[str]:
    lines = []
    for r in results:
        if r.status != "ok":
            lines.append(f"- rep {r.rep} {r.scenario} on {r.target}: **{r.status}** {r.reason[:400]}")
    return lines or ["- none"]


def secondary_markdown(table: dict[tuple[str, str], Row]) -> list[str]:
    """Medians of each scenario's secondary figures."""
    skip = {"wall_s", "loadgen_cpu_pct", "main_thread_cpu_pct", "other_cpu_pct", "broker_cpu_pct", "broker_cpu_s"}
    lines = []
    for (scenario, target), row in sorted(table.items()):
        names = sorted({k for r in row.ok for k in r.metrics} - skip)
        parts = [f"{k} {_fmt(row.median(k))}" for k in names if row.median(k) is not None]
        if parts:
            lines.append(f"- {scenario} / {target}: " + ", ".join(parts))
    return lines
