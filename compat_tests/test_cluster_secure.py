"""A cluster whose only listeners are SASL_SSL with SCRAM-SHA-512: brokers reach each other through the one
inter-broker client (``facade/interbroker.py``), over TLS (the CA of the test PKI, host names checked), as the
SCRAM user ``broker`` of ``listener.name.<l>.scram-sha-512.sasl.jaas.config``, with ACLs on (``broker`` is a
super user, as Kafka's brokers are; the client ``alice`` is one too).

Checked, in a 2-group cluster: a confluent-kafka transaction over a partition of each group commits (a
read_committed consumer reads exactly its records) and aborts (nothing of it is read), so the coordinator's
WriteTxnMarkers reached the other group's leader; a partition moved from group 1 to group 2 completes and broker 2
serves every record at its offset. With the wrong inter-broker password (a second cluster): the broker logs one
ERROR line saying the other broker refused its credentials, the next transaction fails on the client with a
timeout (its previous one cannot complete), and a move stays ``copying`` until it is cancelled, as Kafka's
reassignment waits on a replica that cannot fetch.

The test Broker names its one listener PLAINTEXT (``rockafka.testing``): ``listener.security.protocol.map`` makes
it SASL_SSL, and ``inter.broker.listener.name`` names it.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from confluent_kafka import KafkaException, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from rockafka.testing import Cluster

from .clients.records import unique_topic
from .test_cluster_transactions import _read_committed_confluent
from .tlscerts import KEY_PASSWORD, TestPki, make_pki
from .txnscenario import TXN_BROKER_SETTINGS

pytestmark = [pytest.mark.slow]

DEADLINE_S = 90.0
SCRAM = "SCRAM-SHA-512"
SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule required"
PASSWORDS = {"broker": "broker-scram-4T", "alice": "alice-scram-8K"}
RECORDS = 200


def _settings(pki: TestPki, broker_password: str) -> dict[str, str]:
    return {
        **TXN_BROKER_SETTINGS,
        "listener.security.protocol.map": "PLAINTEXT:SASL_SSL",
        "inter.broker.listener.name": "PLAINTEXT",
        "ssl.keystore.type": "PEM",
        "ssl.keystore.location": str(pki.server_keystore),
        "ssl.key.password": KEY_PASSWORD,
        "ssl.truststore.type": "PEM",
        "ssl.truststore.location": str(pki.ca),
        "sasl.enabled.mechanisms": SCRAM,
        "sasl.mechanism.inter.broker.protocol": SCRAM,
        "listener.name.plaintext.scram-sha-512.sasl.jaas.config":
            f'{SCRAM_MODULE} username="broker" password="{broker_password}";',
        "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        "super.users": "User:broker;User:alice",
    }  # fmt: skip


class SecureCluster(Cluster):
    """A :class:`Cluster` and the CA its brokers' certificates are signed by."""

    ca: Path


def _secure_cluster(workdir: Path, broker_password: str) -> SecureCluster:
    """A 2-group SASL_SSL cluster whose first broker seeds the SCRAM users from its data directory."""
    pki = make_pki(workdir / "pki")
    data_root = workdir / "cluster"
    for user, password in PASSWORDS.items():
        password_file = workdir / f"{user}.password"
        password_file.write_text(password + "\n")
        done = subprocess.run(
            [sys.executable, "-m", "rockafka", "users", "add", user, "--mechanism", SCRAM, "--password-file",
             str(password_file), "--data-dir", str(data_root / "broker-1" / "data")],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    cluster = SecureCluster(groups=2, settings=_settings(pki, broker_password), name="secure", data_root=data_root)
    cluster.ca = pki.ca
    return cluster


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecureCluster]:
    running = _secure_cluster(tmp_path_factory.mktemp("secure"), PASSWORDS["broker"])
    with running:
        yield running


@pytest.fixture(scope="module")
def refused(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecureCluster]:
    running = _secure_cluster(tmp_path_factory.mktemp("refused"), "not-the-broker-password")
    with running:
        yield running


def _client(cluster: SecureCluster) -> dict[str, object]:
    return {
        "bootstrap.servers": cluster.bootstrap, "security.protocol": "SASL_SSL", "sasl.mechanisms": SCRAM,
        "sasl.username": "alice", "sasl.password": PASSWORDS["alice"],
        "ssl.ca.location": str(cluster.ca), "log_level": 0,
    }  # fmt: skip


def _command_config(cluster: SecureCluster, directory: Path) -> Path:
    path = directory / "alice.properties"
    path.write_text(
        f"security.protocol=SASL_SSL\nsasl.mechanism={SCRAM}\nssl.truststore.location={cluster.ca}\n"
        f'sasl.jaas.config={SCRAM_MODULE} username="alice" password="{PASSWORDS["alice"]}";\n'
    )
    return path


def _topic_over_both_groups(cluster: SecureCluster, prefix: str, groups: list[list[int]]) -> str:
    """A topic whose partition i lives on the group of broker ``groups[i][0]``."""
    topic = unique_topic(prefix)
    admin = AdminClient(_client(cluster))
    for future in admin.create_topics([NewTopic(topic, len(groups), replica_assignment=groups)]).values():
        future.result(DEADLINE_S)
    for partition, (node,) in enumerate(groups):
        assert cluster.leader_of(topic, partition) == node
    return topic


def _wait(condition: Callable[[], bool], what: str, deadline_s: float = DEADLINE_S) -> None:
    deadline = time.monotonic() + deadline_s
    while not condition():
        assert time.monotonic() < deadline, f"not within {deadline_s}s: {what}"
        time.sleep(0.2)


def _producer(cluster: SecureCluster, transactional_id: str) -> Producer:
    producer = Producer({
        **_client(cluster), "transactional.id": transactional_id, "linger.ms": 5, "transaction.timeout.ms": 60_000,
    })  # fmt: skip
    producer.init_transactions(DEADLINE_S)
    return producer


def _transaction(producer: Producer, topic: str, label: str, commit: bool, timeout_s: float = DEADLINE_S) -> list:
    producer.begin_transaction()
    written = [(p, f"{label}-p{p}-{i}".encode()) for p in (0, 1) for i in range(3)]
    for partition, value in written:
        producer.produce(topic, value, partition=partition)
    if commit:
        producer.commit_transaction(timeout_s)
    else:
        producer.abort_transaction(timeout_s)
    return written


def _read(
    cluster: SecureCluster, topic: str, partitions: int, expected: int, committed: bool
) -> dict[int, list[bytes]]:
    """Up to ``expected`` records of ``topic`` (read_committed or not), waiting at most DEADLINE_S for them."""
    settings = {**_client(cluster), "isolation.level": "read_committed" if committed else "read_uncommitted"}
    return _read_committed_confluent(cluster, topic, expected, partitions, **settings)


def _move(cluster: SecureCluster, directory: Path, topic: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rockafka", "cluster", "move", "--bootstrap-server", cluster.brokers[1].bootstrap,
         "--command-config", str(_command_config(cluster, directory)), "--topic", topic, "--partition", "0", *extra],
        capture_output=True, text=True, timeout=DEADLINE_S + 30, check=False,
    )  # fmt: skip


def _log_lines(cluster: SecureCluster, node: int, level: str, words: str) -> list[str]:
    text = cluster.brokers[node].log_path.read_text(errors="replace")
    return [line for line in text.splitlines() if level in line and words in line]


def test_a_transaction_over_both_groups_commits_and_aborts(cluster: SecureCluster) -> None:
    topic = _topic_over_both_groups(cluster, "secure-txn", [[1], [2]])
    producer = _producer(cluster, unique_topic("secure-txn-id"))
    committed = _transaction(producer, topic, "commit", commit=True)
    _transaction(producer, topic, "abort", commit=False)
    last = _transaction(producer, topic, "last", commit=True)
    expected: dict[int, list[bytes]] = {}
    for partition, value in committed + last:
        expected.setdefault(partition, []).append(value)
    assert _read(cluster, topic, 2, len(committed) + len(last), committed=True) == expected
    for node in (1, 2):
        assert not _log_lines(cluster, node, "ERROR", "inter-broker"), f"broker {node}"
        assert _log_lines(cluster, node, "INFO", f"brokers reach each other on listener PLAINTEXT (SASL_SSL, {SCRAM}")


def test_a_partition_moves_with_every_record(cluster: SecureCluster, tmp_path: Path) -> None:
    topic = _topic_over_both_groups(cluster, "secure-move", [[1]])
    producer = Producer({**_client(cluster), "enable.idempotence": True, "acks": "all"})
    values = [f"record-{i}".encode() for i in range(RECORDS)]
    for value in values:
        producer.produce(topic, value, partition=0)
    assert producer.flush(DEADLINE_S) == 0
    moved = _move(cluster, tmp_path, topic, "--to-group", "group-2")
    assert moved.returncode == 0, moved.stderr
    assert cluster.leader_of(topic, 0) == 2
    assert _read(cluster, topic, 1, RECORDS, committed=False) == {0: values}


def test_refused_inter_broker_credentials_are_one_error_and_fail_as_kafka(
    refused: SecureCluster, tmp_path: Path
) -> None:
    topic = _topic_over_both_groups(refused, "refused-txn", [[1], [2]])
    producer = _producer(refused, unique_topic("refused-txn-id"))
    _transaction(producer, topic, "stuck", commit=True)  # answered once prepared; a marker cannot reach the other
    with pytest.raises(KafkaException):
        _transaction(producer, topic, "next", commit=True, timeout_s=10.0)  # CONCURRENT_TRANSACTIONS until timeout
    refusals = [
        line for node in (1, 2) for line in _log_lines(refused, node, "ERROR", "refused this broker's inter-broker")
    ]
    assert len(refusals) == 1, refusals
    assert "not-the-broker-password" not in "".join(refusals)

    moving = _topic_over_both_groups(refused, "refused-move", [[1]])
    writer = Producer(_client(refused))
    writer.produce(moving, b"kept", partition=0)
    assert writer.flush(DEADLINE_S) == 0
    started = _move(refused, tmp_path, moving, "--to-group", "group-2", "--no-wait")
    assert started.returncode == 0, started.stderr
    _wait(lambda: bool(_log_lines(refused, 2, "ERROR", f"move of {moving}-0")), "the copier's ERROR line")
    cancelled = _move(refused, tmp_path, moving, "--cancel")
    assert cancelled.returncode == 0, cancelled.stderr
    assert refused.leader_of(moving, 0) == 1
    assert _read(refused, moving, 1, 1, committed=False) == {0: [b"kept"]}
