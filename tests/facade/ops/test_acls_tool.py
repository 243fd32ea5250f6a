"""kafka-acls.sh as Rockafka installs it, against a broker with an authorizer; kafka-python reads the ACLs back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from kafka import KafkaAdminClient
from kafka.admin import (
    ACLFilter,
    ACLOperation,
    ACLPermissionType,
    ACLResourcePatternType,
    ResourcePatternFilter,
    ResourceType,
)

from rockafka.testing import Broker

SCRIPTS = Path(sys.executable).parent
SETTINGS = {
    "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "super.users": "User:ANONYMOUS",
}


def tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPTS / name), *args], capture_output=True, text=True, timeout=120, check=False)


def topic_acls(bootstrap: str, topic: str) -> set[tuple[str, str, str]]:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        pattern = ResourcePatternFilter(ResourceType.TOPIC, topic, ACLResourcePatternType.LITERAL)
        selected = ACLFilter(None, None, ACLOperation.ANY, ACLPermissionType.ANY, pattern)
        found, error = admin.describe_acls(selected)
    finally:
        admin.close()
    assert error.errno == 0
    return {(acl.principal, acl.operation.name, acl.permission_type.name) for acl in found}


def test_both_scripts_add_list_and_remove_through_the_broker(tmp_path: Path) -> None:
    with Broker(data_dir=tmp_path / "data", settings=SETTINGS) as broker:
        server = ("--bootstrap-server", broker.bootstrap)
        acl = ("--allow-principal", "User:alice", "--operation", "Read", "--topic", "orders")
        added = tool("kafka-acls.sh", *server, "--add", *acl, "--force")
        assert added.returncode == 0, added.stderr
        assert topic_acls(broker.bootstrap, "orders") == {("User:alice", "READ", "ALLOW")}
        listed = tool("kafka-acls", *server, "--list", "--topic", "orders")
        assert listed.returncode == 0 and "User:alice READ" in listed.stdout
        removed = tool("kafka-acls", *server, "--remove", *acl, "--force")
        assert removed.returncode == 0, removed.stderr
        assert topic_acls(broker.bootstrap, "orders") == set()


def test_bad_arguments_are_one_line_and_exit_2(tmp_path: Path) -> None:
    with Broker(data_dir=tmp_path / "data", settings=SETTINGS) as broker:
        bad = tool("kafka-acls.sh", "--bootstrap-server", broker.bootstrap, "--add", "--list", "--topic", "t")
    assert bad.returncode == 2 and bad.stderr.startswith("kafka-acls.sh: ") and bad.stderr.count("\n") == 1
