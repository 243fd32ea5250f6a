"""``rockafka pipeline migrate`` between two SASL_SSL brokers with ACLs, reached through Kafka client properties
files written as a Java client's (SCRAM in ``sasl.jaas.config``, a PEM truststore): records, topic configs, the
group's offsets and, with ``--acls``, the ACLs move; the Spark sources and the admin calls use the same settings.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
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

from .appdata import committed, consume, create_configured_topic, topic_overrides
from .kafkadata import produce

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

    code = main(["pipeline", "migrate", "--from", f"127.0.0.1:{free_port()}", "--to", f"127.0.0.1:{free_port()}",
                 "--topics", "a", "--timeout", "1", "--report", str(tmp_path / "r.json")])  # fmt: skip

    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and err[0].startswith("rockafka pipeline: 127.0.0.1:") and "cannot connect" in err[0]
