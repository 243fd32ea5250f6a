"""``python -m bench.fuzz [--minutes 10] [--seed N] [--clients N] [--set KEY=VALUE ...]``: the fuzz, long.

``tests/fuzz`` runs a fixed, derandomized set of cases in CI; this runs fresh random cases against one
broker subprocess until the time is up: rounds over every advertised API (structured requests of every
version), each followed by a round of frames damaged on the wire. The oracle is the tests' (an answer
or a clean close for each request, only a failed acks=0 Produce closing on a request that parses, no
traceback and no ERROR line in the broker log). It prints the count of cases by outcome and exits 1 at
the first failure, with the failing case (shrunk by Hypothesis) and the broker log's tail. ``--set``
runs the broker with other settings (LogAppendTime topics, small message limits, no auto-creation, ...),
whose paths the default broker does not take; ``--clients`` fuzzes from several processes at once.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import random
import sys
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from rockafka.facade.protocol.framing import encode_request
from rockafka.facade.protocol.messages.create_topics import CreatableTopic, CreateTopicsRequest
from rockafka.testing import Broker
from tests.fuzz.requests import MUTATIONS, BrokerLog, Failure, FuzzClient, Mutation, requests
from tests.fuzz.test_fuzz_requests import RECORDS, SETTINGS

EXAMPLES_PER_ROUND = 50  # per API key
MUTATIONS_PER_ROUND = 400


def _round(
    client: FuzzClient, log: BrokerLog, api_key: int, versions: tuple[int, int], rng: random.Random
) -> dict[str, int]:
    outcomes: dict[str, int] = {}

    @seed(rng.getrandbits(64))
    @settings(max_examples=EXAMPLES_PER_ROUND, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def case(data: Any) -> None:
        version = data.draw(st.integers(*versions), label="version")
        body = data.draw(requests(api_key, version, RECORDS), label="request")
        outcome = client.request(body, version)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        log.check(f"{type(body).__name__} v{version}: {body!r}")
        if outcome == "closed" and not (api_key == 0 and getattr(body, "acks", None) == 0):
            raise Failure(f"the broker closed the connection on a request that parses: {body!r} v{version}")

    case()
    return outcomes


def _mutation_round(
    client: FuzzClient, log: BrokerLog, advertised: dict[int, tuple[int, int]], rng: random.Random
) -> int:
    count = [0]

    @seed(rng.getrandbits(64))
    @settings(max_examples=MUTATIONS_PER_ROUND, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data(), MUTATIONS)
    def case(data: Any, mutation: Mutation) -> None:
        api_key = data.draw(st.sampled_from(sorted(advertised)), label="api")
        version = data.draw(st.integers(*advertised[api_key]), label="version")
        body = data.draw(requests(api_key, version, RECORDS), label="request")
        client.mutated(mutation.apply(encode_request(body, version, 7, "fuzz")))
        count[0] += 1
        log.check(f"{mutation} of {type(body).__name__} v{version}")

    case()
    return count[0]


def run(minutes: float, rng: random.Random, extra: dict[str, str] | None = None, clients: int = 1) -> int:
    with Broker(settings={**SETTINGS, **(extra or {})}, subprocess=True) as broker:
        client = FuzzClient("127.0.0.1", broker.port)
        topics = [CreatableTopic(name=name, num_partitions=2, replication_factor=1) for name in ("fuzz-t0", "fuzz-t1")]
        client.request(CreateTopicsRequest(topics=topics, timeout_ms=5000), 5)
        seeds = [rng.getrandbits(64) for _ in range(clients)]
        if clients == 1:
            results = [_fuzz(broker.port, broker.log_path, minutes, seeds[0])]
        else:  # clients at once, each in its own process: races between connections get their chance
            with concurrent.futures.ProcessPoolExecutor(clients) as pool:
                jobs = [pool.submit(_fuzz, broker.port, broker.log_path, minutes, seed) for seed in seeds]
                results = [job.result() for job in jobs]
        totals: dict[str, int] = {}
        for outcomes, _ in results:
            for outcome, count in outcomes.items():
                totals[outcome] = totals.get(outcome, 0) + count
        failures = [failure for _, failure in results if failure is not None]
        if failures:
            print(f"FAILED {totals}: {failures[0]}", file=sys.stderr)
            print(broker.log_path.read_text(errors="replace")[-6000:], file=sys.stderr)
            return 1
        print(f"fuzz: {sum(totals.values())} cases from {clients} client(s), {totals}; no traceback, no hang")
    return 0


def _fuzz(port: int, log_path: Path, minutes: float, run_seed: int) -> tuple[dict[str, int], str | None]:
    """One client's rounds until the time is up: (outcome counts, the failure or None)."""
    rng = random.Random(run_seed)
    client = FuzzClient("127.0.0.1", port)
    advertised = client.api_versions()
    log = BrokerLog(log_path)
    totals: dict[str, int] = {}
    deadline = time.monotonic() + minutes * 60
    rounds = 0
    try:
        while time.monotonic() < deadline:
            for api_key, versions in sorted(advertised.items()):
                for outcome, count in _round(client, log, api_key, versions, rng).items():
                    totals[outcome] = totals.get(outcome, 0) + count
            totals["mutated"] = totals.get("mutated", 0) + _mutation_round(client, log, advertised, rng)
            rounds += 1
            print(f"round {rounds} (seed {run_seed}): {totals}", flush=True)
    except Failure as exc:
        return totals, str(exc)
    return totals, None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=None, help="the run's seed (random by default; printed)")
    parser.add_argument("--clients", type=int, default=1, help="clients fuzzing at once, one process each")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="a broker setting for the run (repeatable)"
    )
    args = parser.parse_args(argv)
    extra = dict(item.partition("=")[::2] for item in args.set)
    run_seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    print(f"fuzz: seed {run_seed}, {args.minutes} minutes, settings {extra}", flush=True)
    return run(args.minutes, random.Random(run_seed), extra, args.clients)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
