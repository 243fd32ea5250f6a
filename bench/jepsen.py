"""``python -m bench.jepsen [--seed N] [--seeds 3] [--faults 15] [--groups 2] [--members M] [--no-transactions]
[--logs DIR]``: the long version of
the Jepsen-style fault suite (``compat_tests/test_jepsen.py`` runs one seed of 5 faults in CI).

For each of ``--seeds`` seeds (``--seed``, ``--seed``+1, ...), a fresh ``FaultCluster`` of ``--groups`` groups
of ``--members`` brokers (default: ``ROCKAFKA_JEPSEN_MEMBERS`` or 1) takes ``--faults`` faults of the seed's
schedule (kill -9 and restart, SIGSTOP/SIGCONT, isolation from clients and etcd or from etcd alone, etcd
restart; ``compat_tests/jepsen/nemesis.py``) ``--settle-s`` apart, under the suite's writers and readers, and
the checker judges the history (``compat_tests/jepsen/checker.py``). Every wait is bounded. Prints each seed,
schedule and verdict, writes ``bench/results/jepsen.md``; exit status 1 if any seed broke a rule. Replay one
seed with ``python -m bench.jepsen --seed N --seeds 1`` (or the CI test with ``ROCKAFKA_JEPSEN_SEED=N``).

(``bench/faults.py`` was taken: it measures the fault injector's cost on the request path.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench import write_table
from compat_tests.jepsen.run import Verdict, run
from compat_tests.jepsen.topology import MEMBERS, FaultCluster
from rockafka.testing import BrokerError


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.jepsen", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1900)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--faults", type=int, default=15)
    parser.add_argument("--groups", type=int, default=2)
    parser.add_argument("--members", type=int, default=MEMBERS)
    parser.add_argument("--settle-s", type=float, default=3.0)
    parser.add_argument("--rate", type=float, default=40.0, help="records a second per writer")
    parser.add_argument("--no-transactions", action="store_true", help="leave out the transactional writers")
    parser.add_argument("--logs", type=Path, help="keep every broker's and etcd's log in LOGS/seed-N")
    args = parser.parse_args(argv)
    rows = []
    for seed in range(args.seed, args.seed + args.seeds):
        logs = None if args.logs is None else args.logs / f"seed-{seed}"
        verdict, error = None, ""
        try:  # a broker that fails to start or to stop is this seed's finding; the next seeds still run
            with FaultCluster(groups=args.groups, members=args.members, logs_to=logs) as cluster:
                verdict = run(cluster, seed, args.faults, settle_s=args.settle_s, rate=args.rate,
                              transactions=not args.no_transactions)  # fmt: skip
        except BrokerError as exc:
            error = str(exc).splitlines()[0]
            print(f"jepsen: seed {seed}: {error}", flush=True)
        rows.append(_row(seed, verdict, error))
    note = (
        f"`python -m bench.jepsen {' '.join(argv)}`: {args.groups} groups of {args.members} member(s), "
        f"{args.faults} faults per seed {args.settle_s} s apart, 4 writers at {args.rate}/s each."
    )
    header = ["seed", "faults", "acknowledged", "unacknowledged", "reads", "verdict"]
    write_table("jepsen", "Jepsen-style fault suite", note, header, rows)
    failed = sum(row[-1] != "OK" for row in rows)
    print(f"jepsen: {len(rows) - failed} of {len(rows)} seeds clean", flush=True)
    return 1 if failed else 0


def _row(seed: int, verdict: Verdict | None, error: str) -> list[str]:
    """The table's row of a seed: its verdict's figures, and the first violation or the broker's failure."""
    if verdict is None:
        return [str(seed), "-", "-", "-", "-", error]
    history = verdict.history
    outcome = "OK" if not verdict.problems else f"{len(verdict.problems)} violations: {verdict.problems[0]}"
    if error:
        outcome = error if outcome == "OK" else f"{outcome}; {error}"
    unacked = sum(history.unacknowledged.values())
    return [str(seed), str(len(verdict.faults)), str(len(history.acks)), str(unacked), str(len(history.reads)), outcome]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
