"""Runs the plan: repetitions, each running every chosen scenario on every target back to back, the
target order alternating between repetitions (A B, B A, ...), every broker run on a freshly started
broker with its own work directory, stopped by PID and cleaned up afterwards."""

from __future__ import annotations

import json
import shutil
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from confluent_kafka import KafkaException

from bench.suite.context import Context, Measurement, NotAvailable
from bench.suite.meter import Meter
from bench.suite.payload import VerificationError
from bench.suite.scenarios import Scenario
from bench.suite.targets import Running, TargetError

IDLE_SETTLE_S = 0.5
MACHINE = "machine"  # the target name of scenarios that run without a broker


@dataclass(slots=True)
class RunResult:
    scenario: str
    target: str
    rep: int
    status: str  # "ok", "FAIL" or "n/a"
    primary: float | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    reason: str = ""
    started: float = field(default_factory=time.time)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, line: str) -> RunResult:
        return cls(**json.loads(line))


@dataclass(frozen=True, slots=True)
class Plan:
    scenarios: list[Scenario]
    targets: dict[str, Callable[[Path], Running]]
    reps: int
    seconds: float
    scale: float
    workdir: Path

    def runs(self) -> Iterator[tuple[int, Scenario, str]]:
        names = list(self.targets)
        for rep in range(1, self.reps + 1):
            order = names if rep % 2 else names[::-1]
            for scenario in self.scenarios:
                for target in [MACHINE] if scenario.machine else order:
                    yield rep, scenario, target


def measure(scenario: Scenario, ctx: Context) -> RunResult:
    result = RunResult(scenario.name, "", 0, "ok")
    try:
        measured: Measurement = scenario.run(ctx)
    except NotAvailable as why:
        result.status, result.reason = "n/a", str(why)
        return result
    except (VerificationError, KafkaException, TargetError, OSError, TimeoutError) as why:
        result.status, result.reason = "FAIL", f"{type(why).__name__}: {why}"
        return result
    except Exception as why:  # a scenario bug is reported as a failure of that run, not of the suite
        result.status = "FAIL"
        result.reason = f"{type(why).__name__}: {why} | {traceback.format_exc(limit=3)[-600:]}"
        return result
    result.primary = measured.primary
    result.metrics = dict(measured.metrics)
    if measured.usage is not None:
        result.metrics |= measured.usage.figures()
    return result


def run_one(plan: Plan, rep: int, scenario: Scenario, target: str) -> RunResult:
    workdir = plan.workdir / f"r{rep}-{scenario.name}-{target}"
    idle_rss = idle_anon = None
    running: Running | None = None
    try:
        if scenario.machine:
            ctx = Context("", None, plan.seconds, plan.scale, workdir)
        else:
            running = plan.targets[target](workdir)
            time.sleep(IDLE_SETTLE_S)
            idle = Meter(running.pid)
            idle_rss, idle_anon = idle.broker_rss_mb(), idle.broker_anon_mb()
            ctx = Context(running.bootstrap, running.pid, plan.seconds, plan.scale, workdir)
        result = measure(scenario, ctx)
    except TargetError as why:
        result = RunResult(scenario.name, target, rep, "FAIL", reason=f"broker: {why}")
    finally:
        if running is not None:
            running.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    result.target, result.rep = target, rep
    if idle_rss is not None:
        result.metrics["idle_rss_mb"] = idle_rss
    if idle_anon is not None:
        result.metrics["idle_anon_mb"] = idle_anon
    return result


def execute(plan: Plan, results_path: Path, echo: Callable[[str], None]) -> list[RunResult]:
    results: list[RunResult] = []
    with results_path.open("a") as out:
        for rep, scenario, target in plan.runs():
            result = run_one(plan, rep, scenario, target)
            results.append(result)
            out.write(result.to_json() + "\n")
            out.flush()
            shown = f"{result.primary:,.2f} {scenario.unit}" if result.primary is not None else result.reason
            echo(f"rep {rep} {scenario.name:<36} {target:<9} {result.status:<4} {shown}")
    return results
