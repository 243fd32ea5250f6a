"""``rockafka pipeline migrate`` between two SASL_SSL brokers with ACLs, reached through Kafka client properties
files written as a Java client's (SCRAM in ``sasl.jaas.config``, a PEM truststore): records, topic configs, the
group's offsets and, with ``--acls``, the ACLs move; the Spark sources and the admin calls use the same settings.
``rockafka pipeline mirror`` from the SASL_SSL source into a plain broker while a producer writes to the source:
every partition ends equal, and a group that consumed on the source resumes on the target at the next record.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from kafka.admin import (
    ACL,
    ACLFilter,
    ACLOperation,
    ACLPermissionType,
    ACLResourcePatternType,
    KafkaAdminClient,
    ResourcePattern,
    ResourcePatternFilter,
    ResourceType,
)  # fmt: skip

from compat_tests.security_setup import PASSWORDS, SecureBroker, start_secure_broker
from rockafka.cli import main
from rockafka.testing import Broker

from .appdata import committed, consume, create_configured_topic, topic_overrides
from .kafkadata import consume_all, produce
from .mirrorrun import WAIT_S, records, status, stop, values, wait_for

pytestmark = pytest.mark.spark

CAROL = ACL("User:carol", "*", ACLOperation.READ, ACLPermissionType.ALLOW,
            ResourcePattern(ResourceType.TOPIC, "sec-app", ACLResourcePatternType.LITERAL))  # fmt: skip


@pytest.fixture(scope="module")
def secured_pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SecureBroker, SecureBroker]]:
    source = start_secure_broker(tmp_path_factory.mktemp("secure-source"))
    try:
        target = start_secure_broker(tmp_path_factory.mktemp("secure-target"))
        try:
            yield source, target
        finally:
            target.process.stop()
    finally:
        source.process.stop()


def _client(broker: SecureBroker) -> dict[str, Any]:
    return {
        "security_protocol": "SASL_SSL", "ssl_cafile": str(broker.pki.ca), "sasl_mechanism": "SCRAM-SHA-256",
        "sasl_plain_username": "admin", "sasl_plain_password": PASSWORDS["admin"],
    }  # fmt: skip


def _properties(path: Path, broker: SecureBroker) -> Path:
    path.write_text(
        f"bootstrap.servers={broker.bootstrap('SASL_SSL')}\n"
        "# as a Java client's consumer.properties\n"
        "security.protocol=SASL_SSL\n"
        "sasl.mechanism=SCRAM-SHA-256\n"
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n"
        f'    username="admin" password="{PASSWORDS["admin"]}";\n'
        "ssl.truststore.type=PEM\n"
        f"ssl.truststore.location={broker.pki.ca}\n"
        "group.id=ignored-by-migrate\n"
    )
    return path


def _acls(broker: SecureBroker) -> list[Any]:
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap("SASL_SSL"), **_client(broker))
    try:
        pattern = ResourcePatternFilter(ResourceType.ANY, None, ACLResourcePatternType.ANY)
        found, _ = admin.describe_acls(ACLFilter(None, None, ACLOperation.ANY, ACLPermissionType.ANY, pattern))
        return found
    finally:
        admin.close()


def test_a_secured_application_moves_with_its_acls(
    spark: Any, secured_pair: tuple[SecureBroker, SecureBroker], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = secured_pair
    at_source, at_target = source.bootstrap("SASL_SSL"), target.bootstrap("SASL_SSL")
    create_configured_topic(at_source, "sec-app", 2, **_client(source))
    produce(at_source, "sec-app", 40, partitions=2, **_client(source))
    consume(at_source, "sec-app", "sec-group", 15, **_client(source))
    admin = KafkaAdminClient(bootstrap_servers=at_source, **_client(source))
    try:
        admin.create_acls([CAROL])
    finally:
        admin.close()
    report = tmp_path / "report.json"

    code = main([
        "pipeline", "migrate", "--from-config", str(_properties(tmp_path / "source.properties", source)),
        "--to-config", str(_properties(tmp_path / "target.properties", target)), "--topics", "sec-app", "--acls",
        "--report", str(report),
    ])  # fmt: skip

    assert code == 0, capsys.readouterr().err
    document = json.loads(report.read_text())
    assert document["equal"] is True
    assert document["copied"]["rows"] == 40
    assert topic_overrides(at_target, "sec-app", **_client(target)) == topic_overrides(
        at_source, "sec-app", **_client(source)
    )
    assert committed(at_target, "sec-app", "sec-group", 2, **_client(target)) == committed(
        at_source, "sec-app", "sec-group", 2, **_client(source)
    )
    assert {str(acl) for acl in _acls(source)} <= {str(acl) for acl in _acls(target)}
    assert any(acl.principal == "User:carol" for acl in _acls(target))


def test_an_unreachable_source_fails_fast_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from compat_tests.brokerproc import free_port

    before = {t for t in threading.enumerate() if t.name.startswith("kafka-io-")}
    code = main(["pipeline", "migrate", "--from", f"127.0.0.1:{free_port()}", "--to", f"127.0.0.1:{free_port()}",
                 "--topics", "a", "--timeout", "1", "--report", str(tmp_path / "r.json")])  # fmt: skip

    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and err[0].startswith("rockafka pipeline: 127.0.0.1:") and "cannot connect" in err[0]
    left = {t for t in threading.enumerate() if t.name.startswith("kafka-io-") and t.is_alive()} - before
    assert not left, f"the admin client that could not connect still runs: {left}"  # it retried for ever


def _produce_meanwhile(bootstrap: str, client: dict[str, Any]) -> threading.Thread:
    """Records 100-399 of sec-live in 6 sends of 50, a quarter of a second apart: a producer still at work while
    the mirror runs and the group consumes."""

    def run() -> None:
        for first in range(100, 400, 50):
            produce(bootstrap, "sec-live", 50, first=first, partitions=2, **client)
            threading.Event().wait(0.25)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _caught_up(tmp_path: Path, positions: dict[int, int | None], ends: dict[int, int]) -> Callable[[], bool]:
    def check() -> bool:
        now = status(tmp_path)
        synced = now.get("groups", {}).get("sec-switch", {})
        mirrored = {int(name.rpartition("-")[2]): p["mirrored"] for name, p in now.get("partitions", {}).items()}
        return (
            mirrored == ends
            and now.get("lag") == 0
            and all(synced.get(f"sec-live-{p}", {}).get("source") == o for p, o in positions.items() if o)
            and all(entry.get("target") is not None for entry in synced.values())
        )

    return check


def test_a_secured_source_is_mirrored_while_written_and_a_group_switches_over(
    secured_pair: tuple[SecureBroker, SecureBroker], target_broker: Broker, tmp_path: Path
) -> None:
    source = secured_pair[0]
    at_source, client = source.bootstrap("SASL_SSL"), _client(source)
    create_configured_topic(at_source, "sec-live", 2, **client)
    produce(at_source, "sec-live", 100, partitions=2, **client)
    properties = _properties(tmp_path / "source.properties", source)
    command = [sys.executable, "-m", "rockafka", "pipeline", "mirror", "--master", "local[2]",
               "--from-config", str(properties), "--to", target_broker.bootstrap, "--topics-pattern", "sec-live",
               "--checkpoint", str(tmp_path / "checkpoint"), "--status", str(tmp_path / "status.json"),
               "--trigger", "0.5", "--topics-every", "1", "--groups-every", "1"]  # fmt: skip
    with (tmp_path / "mirror.err").open("w") as err_file:
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err_file, text=True)
    try:
        wait_for("first micro-batch", lambda: status(tmp_path).get("rows", 0) > 0, child)
        producing = _produce_meanwhile(at_source, client)
        consume(at_source, "sec-live", "sec-switch", 200, **client)
        producing.join(WAIT_S)
        positions = committed(at_source, "sec-live", "sec-switch", 2, **client)
        ends = {p: len([r for r in consume_all(at_source, "sec-live", **client) if r[0] == p]) for p in (0, 1)}
        wait_for("the mirror to catch up", _caught_up(tmp_path, positions, ends), child)
        (tmp_path / "checkpoint" / "rockafka-stop").touch()
        out, _ = child.communicate(timeout=WAIT_S)
    finally:
        stop(child)

    err = (tmp_path / "mirror.err").read_text()
    assert child.returncode == 0, err
    assert out.startswith("mirror stopped: 400 rows"), out
    assert "Traceback" not in err and "\tat " not in err
    assert records(target_broker.bootstrap, "sec-live") == records(at_source, "sec-live", **client)
    assert topic_overrides(target_broker.bootstrap, "sec-live") == topic_overrides(at_source, "sec-live", **client)
    left = [(p, o, v) for p, o, _, v, *_ in consume_all(at_source, "sec-live", **client) if o >= (positions[p] or 0)]
    resumed = consume(target_broker.bootstrap, "sec-live", "sec-switch", 0, isolation_level="read_committed")
    assert len(resumed) == 400 - 200
    assert values(resumed) == values(left)
