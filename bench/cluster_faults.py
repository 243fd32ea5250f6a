"""``python -m bench.cluster_faults [--seed N] [--seeds 3] [--rounds 4]``: the long version of the cluster fault
test (``compat_tests/test_cluster_faults.py`` runs one round of one seed in CI).

For each of ``--seeds`` seeds (``--seed``, ``--seed``+1, ...), a fresh 3-group ``rockafka.testing.Cluster`` (2 s
leases) and a 6-partition topic take ``--rounds`` rounds of every fault of ``compat_tests/clusterfaults.py``
(SIGKILL and restart of a broker and of the controller, SIGSTOP past the lease and SIGCONT of a broker, an etcd
restart), in the order each seed draws, ``--settle-s`` apart, under an idempotent acks=all confluent-kafka
producer and a 2-member consumer group. The checker's rules are in that module's docstring. Every loop is
bounded (the schedule is finite; every wait has a deadline). Prints each seed, schedule and verdict; exit
status 1 if any seed found a problem.
"""

from __future__ import annotations

import argparse
import sys
import time

from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]

from compat_tests import clusterfaults
from rockafka.testing import Cluster

PARTITIONS = 6


def one_seed(seed: int, rounds: int, settle_s: float) -> list[str]:
    with Cluster(groups=3, lease_ttl_ms=2000) as cluster:
        topic = f"faults-{seed}"
        admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
        admin.create_topics([NewTopic(topic, PARTITIONS, 1)])[topic].result(timeout=clusterfaults.WAIT_S)
        time.sleep(1.0)  # every broker's watch brings the topic
        return clusterfaults.run(cluster, topic, PARTITIONS, seed=seed, rounds=rounds, settle_s=settle_s)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cluster_faults", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1800)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--settle-s", type=float, default=3.0)
    args = parser.parse_args(argv)
    failed = 0
    for seed in range(args.seed, args.seed + args.seeds):
        problems = one_seed(seed, args.rounds, args.settle_s)
        print(f"seed {seed}: {'OK' if not problems else '; '.join(problems)}", flush=True)
        failed += bool(problems)
    print(f"cluster faults: {args.seeds - failed} of {args.seeds} seeds clean", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
