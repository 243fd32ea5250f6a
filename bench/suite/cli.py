"""``python -m bench.suite``: run broker scenarios against Rockafka and the peer (or any bootstrap address)
and write the results (markdown table, PNG chart, raw JSON lines) to ``bench/results/``.

    python -m bench.suite                                  # everything, rockafka vs tansu, 3 repetitions
    python -m bench.suite --list                           # the scenarios
    python -m bench.suite -s 'produce-1KiB-*' --reps 1 --seconds 2 --no-write
    python -m bench.suite --bootstrap 127.0.0.1:9092 -s produce-100B-acks1-none   # a broker you run
    python -m bench.suite --profile                        # py-spy profiles of Rockafka's produce and fetch paths
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import os
import platform
import resource
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.suite import targets as target_module
from bench.suite.chart import write_chart
from bench.suite.report import failures_markdown, rows, secondary_markdown, table_markdown
from bench.suite.runner import Plan, RunResult, execute
from bench.suite.scenarios import SCENARIOS, Scenario
from bench.suite.verdict import verdicts_markdown

FILE_LIMIT = 100_000
RESULTS = Path(__file__).resolve().parent.parent / "results"


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.suite", description=__doc__.split("\n")[0])
    parser.add_argument("-s", "--scenario", action="append", help="name or glob; repeatable (default: all)")
    parser.add_argument("--targets", default="rockafka,tansu", help="comma list of rockafka, tansu")
    parser.add_argument("--bootstrap", help="measure this already running broker instead (target 'external')")
    parser.add_argument("--external-pid", type=int, help="PID of the --bootstrap broker, for its CPU and RSS")
    parser.add_argument("--reps", type=int, default=3, help="repetitions (default 3)")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each timed window (default 5)")
    parser.add_argument("--scale", type=float, default=1.0, help="factor on prefilled message counts (default 1)")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"results folder (default {RESULTS})")
    parser.add_argument("--no-write", action="store_true", help="print only; write no results files")
    parser.add_argument("--list", action="store_true", help="list the scenarios and exit")
    parser.add_argument("--profile", action="store_true", help="py-spy profiles of Rockafka instead of a run")
    return parser.parse_args(argv)


def chosen(patterns: list[str] | None) -> list[Scenario]:
    if not patterns:
        return list(SCENARIOS.values())
    names = [n for n in SCENARIOS if any(fnmatch.fnmatchcase(n, p) for p in patterns)]
    unknown = [p for p in patterns if not any(fnmatch.fnmatchcase(n, p) for n in SCENARIOS)]
    if unknown:
        raise SystemExit(f"no scenario matches {unknown}; see --list")
    return [SCENARIOS[n] for n in names]


def _command(argv: list[str]) -> str:
    return shlex.join(["python", "-m", "bench.suite", *argv])


def _sh(*command: str) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=10, check=False).stdout.strip()
    except OSError:
        return "?"


def header(argv: list[str], plan: Plan, load_before: str) -> list[str]:
    commit = _sh("git", "rev-parse", "--short", "HEAD")
    dirty = (
        " (working tree has uncommitted changes)" if _sh("git", "status", "--porcelain", "--untracked-files=no") else ""
    )
    return [
        f"# Broker benchmark, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        "",
        f"- command: `{_command(argv)}`",
        f"- rockafka commit: {commit}{dirty}",
        f"- machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Linux {platform.release()}, "
        f"Python {platform.python_version()}",
        f"- targets: {', '.join(plan.targets)}; {plan.reps} repetition(s), {plan.seconds:g} s windows, "
        f"scale {plan.scale:g}",
        f"- open-file limit of the brokers: {resource.getrlimit(resource.RLIMIT_NOFILE)[0]:,}",
        f"- load before: `{load_before}`",
    ]


def write_report(argv: list[str], plan: Plan, results: list[RunResult], load_before: str, out: Path) -> Path:
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M")
    out.mkdir(parents=True, exist_ok=True)
    table = rows(results)
    chart = out / f"suite-{stamp}.png"
    lines = header(argv, plan, load_before)
    lines.append(f"- load after: `{_sh('uptime')}`")
    lines.append("- CPU in % of one core (max 200%); other = used by neither broker nor load generator (noise)")
    lines += ["", "## Results", "", *table_markdown(table), "", "## Targets (issue 9)", "", *verdicts_markdown(table)]
    lines += ["", "## Secondary figures (medians)", "", *secondary_markdown(table)]
    lines += ["", "## Failures and unavailable scenarios", "", *failures_markdown(results)]
    if write_chart(table, chart, f"Rockafka vs Tansu (memory), {stamp} UTC"):
        lines += ["", f"![ratios]({chart.name})"]
    report = out / f"suite-{stamp}.md"
    report.write_text("\n".join(lines) + "\n")
    return report


def make_plan(args: argparse.Namespace, workdir: Path) -> Plan:
    if args.bootstrap:
        starters = {"external": target_module.external(args.bootstrap, args.external_pid)}
    else:
        names = [n.strip() for n in args.targets.split(",") if n.strip()]
        starters = {n: target_module.STARTERS[n] for n in names}
    return Plan(chosen(args.scenario), starters, args.reps, args.seconds, args.scale, workdir)


def raise_file_limit(wanted: int = FILE_LIMIT) -> int:
    """Raise this process's open-file limit (the brokers it starts inherit it), as Kafka's operations guide
    asks for brokers: 10,000 partitions and 1,000 connections need more than common defaults. Returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for limit in ((max(soft, wanted), max(hard, wanted)), (hard, hard)):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, limit)
            return limit[0]
        except (ValueError, OSError):
            continue
    return soft


def main(argv: list[str]) -> int:
    args = parse(argv)
    raise_file_limit()
    if args.list:
        for scenario in SCENARIOS.values():
            print(f"{scenario.name:<36} {scenario.unit:<7} {scenario.summary}")
        return 0
    if args.profile:
        from bench.suite.profiles import profile_main

        return profile_main(args)
    with tempfile.TemporaryDirectory(prefix="rockafka-bench-") as scratch:
        plan = make_plan(args, Path(scratch))
        load_before = _sh("uptime")
        raw = Path(scratch) / "results.jsonl" if args.no_write else args.out / "suite-latest.jsonl"
        raw.parent.mkdir(parents=True, exist_ok=True)
        raw.unlink(missing_ok=True)
        results = execute(plan, raw, lambda line: print(line, flush=True))
        if not args.no_write:
            report = write_report(argv, plan, results, load_before, args.out)
            raw.rename(report.with_suffix(".jsonl"))
            print(f"wrote {report}")
    return 1 if any(r.status == "FAIL" for r in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
