"""The soak (``bench.soak``), run short: a broker under produce/consume load with a churning group.

What CI checks is that the soak really ran: every message sent was acknowledged, read back once, in
order and intact by the reader, and seen by the group; members came and went; the samples, verdicts
and report files carry their fields. No figure is asserted (the verdicts are for the long run).
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from bench.soak import Sample, SoakConfig, SoakResult, parse, render, run, verdicts, write

pytestmark = pytest.mark.slow

CONFIG = SoakConfig(minutes=0.75, rate=400, partitions=4, members=3, churn_s=5.0, interval_s=3.0, drain_s=60.0)


@pytest.fixture(scope="module")
def soaked(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    workdir = tmp_path_factory.mktemp("soak")
    result = run(CONFIG, workdir)
    return result, write(result, workdir / "results")


def test_every_message_came_back_once_intact_and_the_group_saw_them_all(soaked) -> None:  # type: ignore[no-untyped-def]
    result, _ = soaked
    assert result.produced >= CONFIG.rate * CONFIG.seconds * 0.5  # it really produced
    assert result.delivery_failures == 0
    assert (result.read_error, result.lost) == ("", 0)
    assert result.read == result.produced
    assert (result.group_seen, result.group_damaged) == (result.produced, [])
    assert result.broker_tracebacks == 0
    assert result.intact


def test_the_group_churned(soaked) -> None:  # type: ignore[no-untyped-def]
    result, _ = soaked
    assert result.churns >= int(CONFIG.seconds / CONFIG.churn_s) - 1
    assert result.kills >= result.churns // 2 - 1  # members killed without a word, noticed by their session
    assert result.assignments > CONFIG.members + result.churns  # every change rebalanced the members


def test_samples_verdicts_and_report_have_their_fields(soaked) -> None:  # type: ignore[no-untyped-def]
    result, (markdown, data) = soaked
    assert len(result.samples) >= CONFIG.seconds / CONFIG.interval_s - 1
    for sample in result.samples:
        assert sample.rss_mb > 0 and sample.anon_mb > 0 and sample.fds > 0 and sample.threads > 0
    assert result.read - 1 <= sum(s.latency_count for s in result.samples) <= result.read  # the last may race
    assert [v.name for v in result.verdicts] == ["heap flat", "descriptors flat", "p99 steady"]
    saved = json.loads(data.read_text())
    assert {f.name for f in fields(Sample)} == set(saved["samples"][0])
    assert saved["produced"] == result.produced and saved["intact"] is True
    assert {v["name"] for v in saved["verdicts"]} == {"heap flat", "descriptors flat", "p99 steady"}
    text = markdown.read_text()
    assert "intact: yes" in text and "heap flat" in text and "p99 steady" in text


def _sample(t_s: float, anon_mb: float, fds: int, p99_ms: float) -> Sample:
    return Sample(t_s, 100.0, anon_mb, fds, 8, 10.0, 0, 0, 0, 3, 0, 100, 1.0, p99_ms, p99_ms)


def test_verdicts_compare_the_last_third_with_the_first_after_warm_up() -> None:
    flat = [_sample(t, 30.0, 40, 5.0) for t in range(10, 100, 10)]
    assert all(v.ok for v in verdicts(flat, 90))
    growing = [_sample(t, 30.0 + t, 40 + t // 10, 5.0 + t) for t in range(10, 100, 10)]
    assert [v.ok for v in verdicts(growing, 90)] == [False, False, False]
    warm_up_spike = [_sample(5, 500.0, 400, 900.0), *flat]  # within the first 10%: not counted
    assert all(v.ok for v in verdicts(warm_up_spike, 90))
    assert verdicts(flat[:2], 90) == []


def test_the_command_line_defaults_to_thirty_minutes_sampled_every_thirty_seconds(tmp_path: Path) -> None:
    config, out = parse([])
    assert (config.minutes, config.interval_s) == (30.0, 30.0)
    config, out = parse(["--minutes", "1", "--out", str(tmp_path)])
    assert (config.minutes, config.interval_s, out) == (1.0, 2.0, tmp_path)
    assert "intact: NO" in render(SoakResult(config, "now"))  # nothing produced is not a pass
