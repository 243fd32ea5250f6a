"""kafka-console-producer.sh and kafka-console-consumer.sh as Rockafka installs them, run as a user runs them:
keys and headers parsed from stdin, printed back as Kafka's formatter prints them, and a group's offsets."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rockafka.testing import Broker

SCRIPTS = Path(sys.executable).parent


def tool(name: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    command = [str(SCRIPTS / name), *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120, check=False)


def test_keys_and_headers_round_trip_and_a_group_resumes(tmp_path: Path) -> None:
    with Broker(data_dir=tmp_path / "data", settings={"num.partitions": "1"}) as broker:
        server = ("--bootstrap-server", broker.bootstrap, "--topic", "console")
        lines = "h1:a,h2:b\tk1\tfirst\n\tk2\tsecond\n"
        produced = tool("kafka-console-producer.sh", *server, "--property", "parse.key=true",
                        "--property", "parse.headers=true", stdin=lines)  # fmt: skip
        assert (produced.returncode, produced.stderr) == (0, "")
        printed = tool("kafka-console-consumer.sh", *server, "--from-beginning", "--max-messages", "2",
                       "--property", "print.key=true", "--property", "print.headers=true",
                       "--property", "print.offset=true", "--group", "console-group")  # fmt: skip
        assert printed.stdout.splitlines() == ["Offset:0\th1:a,h2:b\tk1\tfirst", "Offset:1\tNO_HEADERS\tk2\tsecond"]
        assert printed.stderr.endswith("Processed a total of 2 messages\n")
        assert tool("kafka-console-producer", *server, stdin="third\n").returncode == 0
        resumed = tool("kafka-console-consumer", *server, "--group", "console-group", "--max-messages", "1",
                       "--timeout-ms", "20000")  # fmt: skip
        assert resumed.stdout == "third\n"  # the group's committed offset, not the beginning
        one = tool("kafka-console-consumer.sh", *server, "--partition", "0", "--offset", "1", "--max-messages", "1")
        assert one.stdout == "second\n"


def test_bad_arguments_and_an_unreachable_broker_are_one_line(tmp_path: Path) -> None:
    missing = tool("kafka-console-consumer.sh", "--bootstrap-server", "127.0.0.1:1")
    assert missing.returncode == 2 and len(missing.stderr.splitlines()) == 1
    unreachable = tool("kafka-console-producer.sh", "--bootstrap-server", "127.0.0.1:1", "--topic", "t", stdin="x\n")
    assert unreachable.returncode == 1 and len(unreachable.stderr.strip().splitlines()) == 1
