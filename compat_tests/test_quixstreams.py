"""quixstreams (PyPI) against the broker: an application with a stateful exactly-once step restores its state
from its compacted changelog topic after its local state is deleted, before and after the broker's cleaner
compacted that changelog.

The application (``compat_tests/quix/app.py``) sums each key's ``n`` in its state store; quixstreams creates the
changelog topic itself (``cleanup.policy=compact``, read back here with DescribeConfigs), writes it in
transactions and, with no local state, reads it back from the beginning. It runs in the quixstreams venv
(``make quix-venv``: quixstreams pins an older confluent-kafka than the other compat tests use). The broker starts
with ``min.compaction.lag.ms`` of an hour, so nothing is compacted until the test lowers it on the changelog with
AlterConfigs; the totals the application writes after each restore show the state it restored.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic, ResourceType

from .brokerproc import BrokerProcess
from .clients.fixtures import module_broker
from .clients.records import unique_topic

QUIX_PYTHON = Path(__file__).parent / "quix" / ".venv" / "bin" / "python"
APP = Path(__file__).parent / "quix" / "app.py"
KEYS, ROUNDS = 5, 20
RUN_TIMEOUT_S = 240
COMPACTION_TIMEOUT_S = 60

broker = module_broker(**{"log.cleaner.backoff.ms": "100", "log.cleaner.min.compaction.lag.ms": "3600000"})


@pytest.fixture(scope="module")
def quix_python() -> Path:
    if not QUIX_PYTHON.exists():
        pytest.fail(f"{QUIX_PYTHON} is missing: run `make quix-venv` (part of `make compat-deps`)")
    return QUIX_PYTHON


def _produce(bootstrap: str, topic: str, rounds: int) -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    errors: list[object] = []
    for _ in range(rounds):
        for key in range(KEYS):
            producer.produce(topic, key=f"k{key}", value=b'{"n": 1}', on_delivery=lambda e, _m: errors.append(e))
    assert producer.flush(30) == 0
    assert errors == [None] * (rounds * KEYS)


def _run_app(python: Path, bootstrap: str, topics: tuple[str, str], group: str, state: Path, expect: int) -> dict:
    """Run the application until it wrote ``expect`` outputs; each key's last total."""
    command = [
        str(python), str(APP), "--bootstrap", bootstrap, "--input", topics[0], "--output", topics[1],
        "--group", group, "--state-dir", str(state), "--expect", str(expect),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    outputs = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(outputs) == expect, done.stderr[-4000:]
    return {output["key"]: output["total"] for output in outputs}


def _changelog(bootstrap: str, group: str) -> str:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    names = [name for name in admin.list_topics(timeout=10).topics if name.startswith("changelog__") and group in name]
    assert len(names) == 1, names
    return names[0]


def _key_counts(bootstrap: str, topic: str) -> Counter[bytes]:
    """How many records of each key a read_committed read of the whole topic returns."""
    consumer = Consumer(
        {"bootstrap.servers": bootstrap, "group.id": unique_topic("reader"), "enable.auto.commit": False,
         "isolation.level": "read_committed"}
    )  # fmt: skip
    try:
        _, high = consumer.get_watermark_offsets(TopicPartition(topic, 0), timeout=10)
        consumer.assign([TopicPartition(topic, 0, 0)])
        counts: Counter[bytes] = Counter()
        for _ in range(200):
            for message in consumer.consume(500, 0.2):
                assert message.error() is None, message.error()
                counts[message.key()] += 1
            if consumer.position([TopicPartition(topic, 0)])[0].offset >= high:
                break
        return counts
    finally:
        consumer.close()


def _config(admin: AdminClient, topic: str) -> dict[str, str]:
    resource = ConfigResource(ResourceType.TOPIC, topic)
    entries = admin.describe_configs([resource])[resource].result(timeout=10)
    return {name: entry.value for name, entry in entries.items()}


def _alter(admin: AdminClient, topic: str, configs: dict[str, str]) -> None:
    entries = [ConfigEntry(name, value, incremental_operation=AlterConfigOpType.SET) for name, value in configs.items()]
    resource = ConfigResource(ResourceType.TOPIC, topic, incremental_configs=entries)
    admin.incremental_alter_configs([resource])[resource].result(timeout=10)


def test_state_is_restored_from_the_changelog_before_and_after_compaction(
    broker: BrokerProcess, quix_python: Path, tmp_path: Path
) -> None:
    bootstrap, group = broker.bootstrap, unique_topic("quix")
    topics = (unique_topic("quix-in"), unique_topic("quix-out"))
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for future in admin.create_topics([NewTopic(name, 1, 1) for name in topics]).values():
        future.result(timeout=10)
    state = tmp_path / "state"
    expected = {f"k{key}": ROUNDS for key in range(KEYS)}

    _produce(bootstrap, topics[0], ROUNDS)
    assert _run_app(quix_python, bootstrap, topics, group, state, ROUNDS * KEYS) == expected
    changelog = _changelog(bootstrap, group)
    assert _config(admin, changelog)["cleanup.policy"] == "compact"
    assert min(_key_counts(bootstrap, changelog).values()) >= ROUNDS // 5  # one version per key per checkpoint

    shutil.rmtree(state)  # restored from the changelog as written
    _produce(bootstrap, topics[0], 1)
    assert _run_app(quix_python, bootstrap, topics, group, state, KEYS) == {key: ROUNDS + 1 for key in expected}

    _alter(admin, changelog, {"min.compaction.lag.ms": "0", "min.cleanable.dirty.ratio": "0.01"})
    deadline = time.monotonic() + COMPACTION_TIMEOUT_S
    counts = _key_counts(bootstrap, changelog)
    while max(counts.values()) > 2 and time.monotonic() < deadline:
        time.sleep(0.5)
        counts = _key_counts(bootstrap, changelog)
    assert max(counts.values()) <= 2, f"the changelog was not compacted: {counts}"

    shutil.rmtree(state)  # restored from the compacted changelog
    _produce(bootstrap, topics[0], 1)
    assert _run_app(quix_python, bootstrap, topics, group, state, KEYS) == {key: ROUNDS + 2 for key in expected}
