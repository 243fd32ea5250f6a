"""kafka-consumer-groups.sh as Rockafka installs it, run as a user runs it: Kafka's tables (column names and order),
--reset-offsets seen by a real consumer of the group, --delete, and the errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from kafka import KafkaConsumer, KafkaProducer

from rockafka.testing import Broker

SCRIPTS = Path(sys.executable).parent
TOPIC = "g-orders"


def tool(*args: str) -> subprocess.CompletedProcess[str]:
    command = [str(SCRIPTS / "kafka-consumer-groups.sh"), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def table(output: str) -> list[list[str]]:
    return [line.split() for line in output.splitlines() if line.strip()]


def consume(bootstrap: str, group: str, count: int) -> tuple[KafkaConsumer, list[bytes]]:
    consumer = KafkaConsumer(TOPIC, bootstrap_servers=bootstrap, group_id=group, auto_offset_reset="earliest",
                             enable_auto_commit=False, consumer_timeout_ms=10000)  # fmt: skip
    values = []
    for record in consumer:
        values.append(record.value)
        if len(values) == count:
            break
    consumer.commit()
    return consumer, values


def test_describe_reset_and_delete_a_group(tmp_path: Path) -> None:
    with Broker(data_dir=tmp_path / "data", settings={"num.partitions": "1"}) as broker:
        server = ("--bootstrap-server", broker.bootstrap)
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
        for n in range(20):
            producer.send(TOPIC, str(n).encode())
        producer.flush()
        producer.close()
        consumer, values = consume(broker.bootstrap, "g-billing", 20)
        assert len(values) == 20

        assert "g-billing" in tool(*server, "--list").stdout.splitlines()
        offsets = table(tool(*server, "--describe", "--group", "g-billing").stdout)
        assert offsets[0] == ["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG",
                              "CONSUMER-ID", "HOST", "CLIENT-ID"]  # fmt: skip
        assert offsets[1][:6] == ["g-billing", TOPIC, "0", "20", "20", "0"] and offsets[1][7] == "/127.0.0.1"
        members = table(tool(*server, "--describe", "--group", "g-billing", "--members").stdout)
        assert members[0] == ["GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS"]
        assert members[1][0] == "g-billing" and members[1][-1] == "1"
        state = tool(*server, "--describe", "--group", "g-billing", "--state").stdout.splitlines()
        assert state[1].split() == ["GROUP", "COORDINATOR", "(ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS"]
        assert state[2].split()[-2:] == ["Stable", "1"]

        active = tool(
            *server, "--group", "g-billing", "--reset-offsets", "--to-earliest", "--topic", TOPIC, "--execute"
        )
        assert active.returncode == 1
        assert active.stderr == (
            "Error: Assignments can only be reset if the group 'g-billing' is inactive, "
            "but the current state is Stable.\n"
        )
        consumer.close()

        dry = tool(
            *server, "--group", "g-billing", "--reset-offsets", "--shift-by", "-5", "--topic", TOPIC, "--dry-run"
        )
        assert table(dry.stdout) == [["GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"], ["g-billing", TOPIC, "0", "15"]]
        assert table(tool(*server, "--describe", "--group", "g-billing").stdout)[1][3] == "20"  # dry: unchanged
        done = tool(*server, "--group", "g-billing", "--reset-offsets", "--to-earliest", "--all-topics", "--execute")
        assert table(done.stdout)[1] == ["g-billing", TOPIC, "0", "0"]
        again, replayed = consume(broker.bootstrap, "g-billing", 20)  # the group's consumer starts over
        again.close()
        assert replayed == values

        deleted = tool(*server, "--delete", "--group", "g-billing")
        assert deleted.stdout == "Deletion of requested consumer groups ('g-billing') was successful.\n"
        assert "g-billing" not in tool(*server, "--list").stdout.splitlines()


def test_bad_arguments_are_one_line() -> None:
    missing = tool("--bootstrap-server", "127.0.0.1:1", "--describe")
    assert missing.returncode == 2 and len(missing.stderr.splitlines()) == 1
    unknown = tool("--bootstrap-server", "127.0.0.1:1", "--list", "--to-datetime", "yesterday")
    assert unknown.returncode == 2 and len(unknown.stderr.splitlines()) == 1
