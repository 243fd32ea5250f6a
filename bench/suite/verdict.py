"""Issue 9's targets, judged from one run's table: each is "met", "NOT met" or "not measured"; the round-trip
ceiling beside them is a "reference" line, not a target."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass

from bench.suite.report import MACHINE, OURS, PEER, Row, pair_ratios

Table = dict[tuple[str, str], Row]


@dataclass(frozen=True, slots=True)
class Verdict:
    target: str
    figure: str
    status: str


def _ratio(table: Table, scenario: str) -> float | None:
    ratios = pair_ratios(table, scenario)
    return statistics.median(ratios) if ratios else None


def _ours(table: Table, scenario: str, metric: str | None = None) -> float | None:
    row = table.get((scenario, OURS))
    return None if row is None else row.median(metric)


def _peer(table: Table, scenario: str, metric: str | None = None) -> float | None:
    row = table.get((scenario, PEER))
    return None if row is None else row.median(metric)


def _judge(name: str, value: float | None, ok: Callable[[float], bool], shown: str) -> Verdict:
    if value is None:
        return Verdict(name, "", "not measured")
    return Verdict(name, shown.format(value), "met" if ok(value) else "NOT met")


def _share(table: Table, scenario: str, reference: str) -> float | None:
    part, whole = _ours(table, scenario), _ours(table, reference)
    return None if part is None or not whole else part / whole


def _heap_growth(table: Table) -> float | None:
    row = table.get(("produce-1KiB-acks1-none", OURS))
    runs = row.ok if row is not None else []
    growth = [r.metrics["broker_anon_mb"] - r.metrics["idle_anon_mb"] for r in runs if "idle_anon_mb" in r.metrics]
    return statistics.median(growth) if growth else None


def _round_trip_references(table: Table) -> list[Verdict]:
    """Not targets: the responder that only answers (the ceiling), and both with the client on uvloop."""
    lines = [
        ("… a responder that only answers (baseline-rtt-ceiling)", "baseline-rtt-ceiling", MACHINE, ""),
        ("… with the client on uvloop: Rockafka", "rtt-aiokafka-acks1-uvloop", OURS, "-uvloop"),
        ("… with the client on uvloop: the responder", "baseline-rtt-ceiling-uvloop", MACHINE, "-uvloop"),
    ]
    out = []
    for name, scenario, target, suffix in lines:
        ratios = pair_ratios(table, scenario, target, f"rtt-aiokafka-acks1{suffix}")
        if ratios or not suffix:
            shown = f"{statistics.median(ratios):.2f}x peer" if ratios else ""
            out.append(Verdict(name, shown, "reference" if ratios else "not measured"))
    return out


def verdicts(table: Table) -> list[Verdict]:
    cpu_ours = _ours(table, "produce-1KiB-acks1-none", "broker_cpu_s_per_GB")
    cpu_peer = _peer(table, "produce-1KiB-acks1-none", "broker_cpu_s_per_GB")
    cpu_ratio = cpu_ours / cpu_peer if cpu_ours is not None and cpu_peer else None
    idle_rss = [
        r.metrics["idle_rss_mb"]
        for (s, t), row in table.items()
        if t == OURS
        for r in row.runs
        if "idle_rss_mb" in r.metrics
    ]
    consume = _ratio(table, "consume-1KiB")
    consume_name = "consume 1 KiB from earliest (group) ≥ 1.5x peer"
    out = [
        _judge(
            "produce 1 KiB acks=1 8p ≥ 1.2x peer",
            _ratio(table, "produce-1KiB-acks1-none"),
            lambda v: v >= 1.2,
            "{:.2f}x",
        ),
        _judge(
            "produce 100 B acks=1 ≥ 1.0x peer", _ratio(table, "produce-100B-acks1-none"), lambda v: v >= 1.0, "{:.2f}x"
        ),
        _judge(consume_name, consume, lambda v: v >= 1.5, "{:.2f}x"),
    ]
    if consume is None:
        out.append(
            _judge(
                "… by assign instead (groups unavailable)",
                _ratio(table, "consume-1KiB-assign"),
                lambda v: v >= 1.5,
                "{:.2f}x",
            )
        )
    out += [
        _judge("end-to-end p99 at 2,000 msg/s ≤ 5 ms", _ours(table, "e2e-100B-2k"), lambda v: v <= 5.0, "{:.1f} ms"),
        _judge(
            "aiokafka round trips (acks=1) ≥ 1.5x peer",
            _ratio(table, "rtt-aiokafka-acks1"),
            lambda v: v >= 1.5,
            "{:.2f}x",
        ),
        *_round_trip_references(table),
        _judge("broker CPU s per produced GB ≤ 0.7x peer", cpu_ratio, lambda v: v <= 0.7, "{:.2f}x"),
        _judge("idle RSS ≤ 80 MB", max(idle_rss) if idle_rss else None, lambda v: v <= 80, "{:.0f} MB (max at start)"),
        _judge(
            "heap does not grow with stored data (anon RSS after 1 KiB produce minus at start ≤ 64 MB)",
            _heap_growth(table),
            lambda v: v <= 64,
            "{:+.0f} MB",
        ),
        _judge(
            "1,000 idle connections cost ≤ 10% of produce",
            _share(table, "produce-1KiB-acks1-none-idle1000", "produce-1KiB-acks1-none"),
            lambda v: v >= 0.9,
            "{:.2f} of plain",
        ),
        _judge(
            "1,000 partitions ≥ 70% of 8 partitions",
            _share(table, "produce-1KiB-acks1-none-p1000", "produce-1KiB-acks1-none"),
            lambda v: v >= 0.7,
            "{:.2f} of 8p",
        ),
    ]
    return out


def verdicts_markdown(table: Table) -> list[str]:
    lines = ["| target | figure (median) | status |", "|---|---|---|"]
    lines += [f"| {v.target} | {v.figure} | {v.status} |" for v in verdicts(table)]
    return lines
