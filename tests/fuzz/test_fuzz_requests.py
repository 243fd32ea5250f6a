"""Fuzz a live broker with every API and version it advertises: an answer or a clean close, never a traceback.

One broker subprocess (``python -m rockafka serve``, its output in a log file) serves the whole module.
Each API key gets structured requests of every advertised version (``requests.py`` says how they are
drawn and what the oracle is; here a request that parses must be answered, and only a failed acks=0
Produce may close), and frames damaged on the wire get their own test. Hypothesis runs
derandomized with a fixed number of examples per test, so CI sees the same cases every run
(``FUZZ_EXAMPLES`` scales it; ``python -m bench.fuzz`` is the long, randomized run).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compat_tests.clients.records import Rec
from compat_tests.clients.wire import record_batch
from rockafka.facade.handlers import HANDLERS
from rockafka.facade.protocol.api import API_VERSIONS_KEY
from rockafka.facade.protocol.framing import encode_request
from rockafka.facade.protocol.messages import API_SPECS
from rockafka.facade.protocol.messages.create_topics import CreatableTopic, CreateTopicsRequest
from rockafka.testing import Broker

from .requests import MUTATIONS, BrokerLog, FuzzClient, Mutation, producer_batches, requests

#: Structured requests per API key (every advertised version among them); damaged frames get eight times as many.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "100"))
SETTINGS: dict[str, str] = {
    "log.segment.bytes": str(8 << 20),
    "rockafka.consumequeue.units.per.file": "1024",
    "rockafka.index.slots": "1024",
    "rockafka.index.entries": "4096",
    "auto.create.topics.enable": "true",
    "group.min.session.timeout.ms": "10",
}
API_KEYS = sorted(HANDLERS)
VALID_BATCHES = [
    record_batch([Rec(b"k", b"v" * 10, (("h", b"1"),), None)]),
    record_batch([Rec(None, b"value", (), None), Rec(b"k2", None, (), None)], codec="gzip"),
]
RECORDS = st.sampled_from(VALID_BATCHES) | producer_batches() | st.binary(max_size=80)
FUZZ = settings(
    max_examples=EXAMPLES, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
)
MUTATED = settings(FUZZ, max_examples=EXAMPLES * 8)


@pytest.fixture(scope="module")
def broker() -> Iterator[Broker]:
    with Broker(settings=SETTINGS, subprocess=True) as running:
        client = FuzzClient("127.0.0.1", running.port)
        topics = [CreatableTopic(name=name, num_partitions=2, replication_factor=1) for name in ("fuzz-t0", "fuzz-t1")]
        assert client.request(CreateTopicsRequest(topics=topics, timeout_ms=5000), 5) == "answered"
        client.drop()
        yield running


@pytest.fixture(scope="module")
def advertised(broker: Broker) -> dict[int, tuple[int, int]]:
    return FuzzClient("127.0.0.1", broker.port).api_versions()


@pytest.fixture
def log(broker: Broker) -> Iterator[BrokerLog]:
    watcher = BrokerLog(broker.log_path)
    yield watcher
    time.sleep(0.05)
    watcher.check("the test")


def test_every_handler_is_advertised(advertised: dict[int, tuple[int, int]]) -> None:
    assert sorted(advertised) == API_KEYS


@pytest.mark.parametrize("api_key", API_KEYS)
def test_structured_requests(
    broker: Broker, advertised: dict[int, tuple[int, int]], log: BrokerLog, api_key: int
) -> None:
    low, high = advertised[api_key]
    client = FuzzClient("127.0.0.1", broker.port)
    outcomes: dict[str, int] = {}

    @FUZZ
    @given(st.data())
    def case(data: Any) -> None:
        version = data.draw(st.integers(low, high), label="version")
        body = data.draw(requests(api_key, version, RECORDS), label="request")
        outcome = client.request(body, version)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        log.check(f"{type(body).__name__} v{version}: {body!r}")
        # A request that parses is answered; only a failed acks=0 produce closes (Kafka's way to say it).
        assert outcome != "closed" or (api_key == 0 and getattr(body, "acks", None) == 0), body

    try:
        case()
    finally:
        client.drop()
    assert outcomes.get("answered", 0) > 0, f"API {api_key}: nothing was answered ({outcomes})"


@MUTATED
@given(data=st.data(), mutation=MUTATIONS)
def test_mutated_frames(
    broker: Broker, advertised: dict[int, tuple[int, int]], log: BrokerLog, data: Any, mutation: Mutation
) -> None:
    api_key = data.draw(st.sampled_from(API_KEYS), label="api")
    low, high = advertised[api_key]
    version = data.draw(st.integers(low, high), label="version")
    body = data.draw(requests(api_key, version, RECORDS), label="request")
    frame = mutation.apply(encode_request(body, version, 7, "fuzz"))
    client = FuzzClient("127.0.0.1", broker.port)
    client.mutated(frame)
    log.check(f"{mutation} of {type(body).__name__} v{version}")


def test_unserved_versions_and_apis_close_or_answer_api_versions(broker: Broker, log: BrokerLog) -> None:
    """Every version just outside a served range, and every API in the specs this broker does not serve,
    closes the connection; ApiVersions above its range is answered (UNSUPPORTED_VERSION, the v0 body)."""
    client = FuzzClient("127.0.0.1", broker.port)
    cases = [(key, handler.max_version + 1) for key, handler in HANDLERS.items()]
    cases += [(key, handler.min_version - 1) for key, handler in HANDLERS.items() if handler.min_version > 0]
    cases += [(key, spec.max_version) for key, spec in API_SPECS.items() if key not in HANDLERS]
    sent = 0
    for api_key, version in cases:
        spec = API_SPECS[api_key]
        if not spec.min_version <= version <= spec.max_version:
            continue  # the codec cannot write it; the damaged-frame test covers such frames
        sent += 1
        outcome = client.request(spec.request(), version)
        assert outcome == ("answered" if api_key == API_VERSIONS_KEY else "closed"), (api_key, version)
        log.check(f"API {api_key} v{version}")
    assert sent > 20
