"""The run's PNG: for each scenario measured on both brokers, how many times better Rockafka did than the
peer (median of the per-repetition ratios; for lower-is-better figures the ratio is inverted), on a log
scale with 1x marked."""

from __future__ import annotations

import statistics
from pathlib import Path

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from bench.suite.report import Row, pair_ratios
from bench.suite.scenarios import SCENARIOS


def advantage(table: dict[tuple[str, str], Row]) -> list[tuple[str, float, int]]:
    """(scenario, ours-better-by factor, verified pairs) for every scenario with at least one verified pair."""
    out = []
    for name, scenario in SCENARIOS.items():
        ratios = pair_ratios(table, name)
        if ratios:
            ratio = statistics.median(ratios)
            out.append((name, ratio if scenario.higher_is_better else 1.0 / ratio, len(ratios)))
    return out


def write_chart(table: dict[tuple[str, str], Row], path: Path, title: str) -> bool:
    bars = advantage(table)
    if not bars:
        return False
    figure, axes = plt.subplots(figsize=(9, 0.38 * len(bars) + 1.6))
    names = [f"{name} (n={pairs})" for name, _, pairs in bars]
    values = [value for _, value, _ in bars]
    colours = ["tab:green" if v >= 1 else "tab:red" for v in values]
    axes.barh(names, values, color=colours)
    axes.axvline(1.0, color="black", linewidth=0.8)
    axes.set_xscale("log")
    axes.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _pos: f"{x:g}x"))
    axes.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    axes.invert_yaxis()
    axes.set_xlabel("Rockafka better than Tansu by (x, log scale; < 1 = worse)")
    axes.set_title(title, fontsize=9)
    for y, value in enumerate(values):
        axes.text(value, y, f" {value:.2f}x", va="center", fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return True
