"""Per-file outcome counts from a pytest junit XML file, and their Markdown table.

Outcomes follow pytest's terminal summary: a test with a ``<failure>`` failed; an ``<error>`` in
setup (or in the test's collection) is an error; a ``<skipped>`` is skipped; anything else passed.
An ``<error>`` raised in teardown of a test that passed or failed (aiokafka turns a leaked
client's ResourceWarning into one) is counted apart, as ``teardown_errors``, as pytest counts it
as an extra error next to the test's own outcome.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

OUTCOMES = ("passed", "failed", "errors", "skipped", "teardown_errors")


@dataclass(frozen=True, slots=True)
class CaseResult:
    file: str
    test_id: str
    outcome: str
    teardown_error: bool
    message: str


@dataclass(slots=True)
class FileCounts:
    counts: Counter[str] = field(default_factory=Counter)

    def total(self) -> int:
        return sum(self.counts[name] for name in ("passed", "failed", "errors", "skipped"))


def file_of(classname: str) -> str:
    """``tests.test_consumer.TestConsumerIntegration`` -> ``tests/test_consumer.py``."""
    parts = classname.split(".")
    modules = [index for index, part in enumerate(parts) if part.startswith("test_")]
    if not modules:
        return classname
    return "/".join(parts[: modules[-1] + 1]) + ".py"


def read_cases(junit: Path) -> list[CaseResult]:
    """One result per test; a failed test's teardown error (a second ``<testcase>`` of the same id) is folded in."""
    cases: dict[str, CaseResult] = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        classname = case.get("classname", "")
        test_id = f"{classname}::{case.get('name')}"
        failure, error, skipped = case.find("failure"), case.find("error"), case.find("skipped")
        error_message = "" if error is None else error.get("message", "")
        teardown = error is not None and "teardown" in error_message
        earlier = cases.get(test_id)
        if earlier is not None and teardown:
            cases[test_id] = replace(earlier, teardown_error=True)
            continue
        if failure is not None:
            outcome, message = "failed", failure.get("message", "")
        elif error is not None and not teardown:
            outcome, message = "errors", error_message
        elif skipped is not None:
            outcome, message = "skipped", skipped.get("message", "")
        else:
            outcome, message = "passed", error_message
        cases[test_id] = CaseResult(file_of(classname), test_id, outcome, teardown, message[:300])
    return list(cases.values())


def per_file(cases: list[CaseResult]) -> dict[str, FileCounts]:
    files: dict[str, FileCounts] = {}
    for case in cases:
        counts = files.setdefault(case.file, FileCounts()).counts
        counts[case.outcome] += 1
        if case.teardown_error:
            counts["teardown_errors"] += 1
    return dict(sorted(files.items()))


def markdown_table(files: dict[str, FileCounts]) -> str:
    lines = ["| file | tests | " + " | ".join(OUTCOMES) + " |", "|---|---|" + "---|" * len(OUTCOMES)]
    total = FileCounts()
    for name, counts in files.items():
        total.counts.update(counts.counts)
        lines.append(f"| {name} | {counts.total()} | " + " | ".join(str(counts.counts[o]) for o in OUTCOMES) + " |")
    lines.append(f"| **total** | {total.total()} | " + " | ".join(str(total.counts[o]) for o in OUTCOMES) + " |")
    return "\n".join(lines)


def not_passed(cases: list[CaseResult]) -> list[str]:
    """One line per failed or errored test (and per teardown error), with the start of its message."""
    lines = []
    for case in cases:
        if case.outcome in ("failed", "errors"):
            first_line = case.message.splitlines()[0] if case.message else ""
            lines.append(f"- {case.outcome.upper()} `{case.test_id}`: {first_line}")
        if case.teardown_error:
            lines.append(f"- TEARDOWN ERROR `{case.test_id}`")
    return lines
