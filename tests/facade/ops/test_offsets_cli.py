"""kafka-get-offsets.sh as Rockafka installs it, against a broker whose offsets the test made."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from kafka import KafkaAdminClient, KafkaProducer
from kafka.admin import NewTopic

from rockafka.testing import Broker

SCRIPTS = Path(sys.executable).parent


def tool(*args: str) -> subprocess.CompletedProcess[str]:
    command = [str(SCRIPTS / "kafka-get-offsets.sh"), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_latest_earliest_and_by_time(tmp_path: Path) -> None:
    with Broker(data_dir=tmp_path / "data") as broker:
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        admin.create_topics([NewTopic("off-a", 2, 1), NewTopic("off-b", 1, 1)])
        admin.close()
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
        for n in range(5):
            producer.send("off-a", b"x", partition=0, timestamp_ms=1_000 + n).get(timeout=30)
        for _ in range(3):
            producer.send("off-a", b"y", partition=1, timestamp_ms=int(time.time() * 1000)).get(timeout=30)
        producer.close()
        server = ("--bootstrap-server", broker.bootstrap)
        assert tool(*server, "--topic", "off-a").stdout.splitlines() == ["off-a:0:5", "off-a:1:3"]
        assert tool(*server, "--topic", "off-.", "--time", "-2").stdout.splitlines() == [
            "off-a:0:0",
            "off-a:1:0",
            "off-b:0:0",
        ]
        assert tool(*server, "--topic", "off-a", "--partitions", "0", "--time", "1003").stdout == "off-a:0:3\n"
        bad = tool(*server, "--time", "noon")
        assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1
