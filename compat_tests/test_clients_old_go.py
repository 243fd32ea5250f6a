"""Old Go clients, built from Debian's Go source packages in the test set-up (``compat_tests/go/``):
Shopify/sarama 1.22 at its default protocol (Kafka 0.8.2, message format v0) and pinned to 0.10 through 2.1,
and segmentio/kafka-go 0.2.1 (Produce v2/Fetch v2, format v1, consumer groups). Messages byte-exact across them
and kafka-python's current protocol, in both directions; offsets committed and read back.

Needs ``go`` and the packages golang-github-shopify-sarama-dev and golang-github-segmentio-kafka-go-dev
(``make compat-deps`` installs them as root); without them the module is skipped, saying why."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaConsumer, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic

from .brokerproc import BrokerProcess
from .clients.fixtures import QUIET_KAFKA_PYTHON, module_broker
from .clients.records import unique_topic
from .test_clients_old_versions import MESSAGES, _consume, _expected, _produce

broker = module_broker()
pytestmark = QUIET_KAFKA_PYTHON
GO_SOURCES = Path(__file__).parent / "go"
GOPATH = "/usr/share/gocode"
PROGRAMS = ("sarama_old", "kafkago_old")
COUNT = len(MESSAGES)
RUN_TIMEOUT_S = 90
#: sarama versions beyond its default, each with the codec it is run with (lz4 needs 0.10 in sarama).
SARAMA_PINNED = [("0.10.0.0", "lz4"), ("0.11.0.0", "gzip"), ("1.0.0", "snappy"), ("2.1.0", "gzip")]


def _missing() -> str | None:
    if shutil.which("go") is None:
        return "go is not installed (Debian package golang-go; `make compat-deps` installs it when run as root)"
    for package in ("github.com/Shopify/sarama", "github.com/segmentio/kafka-go"):
        if not (Path(GOPATH) / "src" / package).is_dir():
            return f"{package} is not in {GOPATH} (Debian's golang-*-dev package; `make compat-deps` as root)"
    return None


@pytest.fixture(scope="module")
def programs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """The Go programs, built with Debian's Go and sources (GOPATH mode, no network)."""
    if (missing := _missing()) is not None:
        pytest.skip(missing)
    out = tmp_path_factory.mktemp("go")
    env = {**os.environ, "GOPATH": GOPATH, "GO111MODULE": "off", "GOFLAGS": "", "GOCACHE": str(out / "cache")}
    built = {}
    for name in PROGRAMS:
        subprocess.run(["go", "build", "-o", str(out / name), "."], cwd=GO_SOURCES / name, env=env, check=True,
                       capture_output=True, timeout=600)  # fmt: skip
        built[name] = out / name
    yield built
    shutil.rmtree(out / "cache", ignore_errors=True)


def _run(program: Path, *args: str) -> list[str]:
    done = subprocess.run([str(program), *args], capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False)
    assert done.returncode == 0, f"{program.name} {' '.join(args)}: {done.stderr}"
    return done.stdout.splitlines()


def _hex_expected() -> list[str]:
    return [f"consumed {o} {(k or b'').hex()} {(v or b'').hex()}" for o, k, v in _expected()]


def _create(bootstrap: str, topic: str) -> None:
    """kafka-go 0.2 does not wait for an auto-created topic (against Kafka neither), so topics are made first."""
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(topic, 1, 1)])
    finally:
        admin.close()


def _committed(bootstrap: str, group: str, topic: str) -> int | None:
    reader = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group)
    try:
        return reader.committed(TopicPartition(topic, 0))
    finally:
        reader.close()


@pytest.mark.parametrize(("version", "codec"), [("default", "none"), ("default", "gzip"), ("default", "snappy"),
                                                *SARAMA_PINNED])  # fmt: skip
def test_sarama_round_trips_and_commits(
    broker: BrokerProcess, programs: dict[str, Path], version: str, codec: str
) -> None:
    topic, group = unique_topic(f"sarama-{codec}"), unique_topic("sarama-group")
    sarama = programs["sarama_old"]
    assert _run(sarama, "produce", broker.bootstrap, topic, version, codec, str(COUNT)) == [
        f"produced {offset}" for offset in range(COUNT)
    ]
    assert _run(sarama, "consume", broker.bootstrap, topic, version, str(COUNT)) == _hex_expected()
    assert _run(sarama, "commit", broker.bootstrap, topic, version, group, str(COUNT)) == [f"committed {COUNT}"]


@pytest.mark.parametrize("version", ["default", "2.1.0"])
def test_sarama_and_kafka_python_read_each_others_messages(
    broker: BrokerProcess, programs: dict[str, Path], version: str
) -> None:
    old_to_new, new_to_old = unique_topic("sarama-to-new"), unique_topic("new-to-sarama")
    _run(programs["sarama_old"], "produce", broker.bootstrap, old_to_new, version, "gzip", str(COUNT))
    _produce(broker.bootstrap, new_to_old, None, "zstd")
    assert [(o, k, v) for o, k, v, _ in _consume(broker.bootstrap, old_to_new, None)] == _expected()
    assert _run(programs["sarama_old"], "consume", broker.bootstrap, new_to_old, version, str(COUNT)) == _hex_expected()


@pytest.mark.parametrize("codec", ["none", "gzip"])
def test_kafka_go_produces_and_consumes_in_a_group_with_commits(
    broker: BrokerProcess, programs: dict[str, Path], codec: str
) -> None:
    topic, group = unique_topic(f"kafka-go-{codec}"), unique_topic("kafka-go-group")
    _create(broker.bootstrap, topic)
    assert _run(programs["kafkago_old"], "produce", broker.bootstrap, topic, codec, str(COUNT)) == [f"produced {COUNT}"]
    assert _run(programs["kafkago_old"], "consume", broker.bootstrap, topic, group, str(COUNT)) == _hex_expected()
    assert _committed(broker.bootstrap, group, topic) == COUNT
    assert [(o, k, v) for o, k, v, _ in _consume(broker.bootstrap, topic, None)] == _expected()


def test_kafka_go_reads_what_a_current_client_wrote(broker: BrokerProcess, programs: dict[str, Path]) -> None:
    topic = unique_topic("new-to-kafka-go")
    _create(broker.bootstrap, topic)
    _produce(broker.bootstrap, topic, None, "lz4")
    group = unique_topic("kafka-go-group")
    assert _run(programs["kafkago_old"], "consume", broker.bootstrap, topic, group, str(COUNT)) == _hex_expected()
