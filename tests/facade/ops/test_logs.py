"""The operational log of a broker subprocess, read from what it wrote: start, recovery after kill -9, topic
created and deleted, a group rebalanced, JSON lines, and one warning triggered 1,000 times by a client."""

from __future__ import annotations

import json
import re
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
from kafka.admin import NewTopic

from rockafka.logsetup import REPEAT_WINDOW_S
from rockafka.testing import Broker

#: A request for an API key no broker serves: the broker closes the connection with one WARNING.
UNSERVED_REQUEST = struct.pack(">hhih", 9999, 0, 1, -1)


def log_of(broker: Broker) -> str:
    return broker.log_path.read_text(errors="replace")


def test_start_topics_and_rebalance_are_logged(tmp_path: Path) -> None:
    with Broker(data_dir=tmp_path / "data", subprocess=True, settings={"num.partitions": "2"}) as broker:
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        admin.create_topics([NewTopic("logged", 3, 1, topic_configs={"retention.ms": "60000"})])
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
        producer.send("logged", b"x").get(timeout=30)
        producer.close()
        consumer = KafkaConsumer("logged", bootstrap_servers=broker.bootstrap, group_id="logged-group",
                                 auto_offset_reset="earliest", consumer_timeout_ms=10000)  # fmt: skip
        assert next(iter(consumer)).value == b"x"
        consumer.close()
        admin.delete_topics(["logged"])
        admin.close()
    text = log_of(broker)
    assert re.search(r"store opened in [0-9.]+s after a clean shutdown: CommitLog scanned from offset 0 to 0", text)
    assert re.search(r"INFO rockafka\.facade\.app: settings \(not default\): .*num\.partitions=2", text)
    assert re.search(r"topic logged created: 3 partitions, id [0-9a-f-]+, configs \{'retention.ms': '60000'\}", text)
    assert re.search(r"group logged-group rebalanced: generation 1, protocol \w+, 1 members", text)
    assert "topic logged deleted (id" in text


def test_recovery_after_kill_is_summarised(tmp_path: Path) -> None:
    with Broker(data_dir=tmp_path / "data", subprocess=True) as broker:
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
        for n in range(50):
            producer.send("crashed", str(n).encode())
        producer.flush()
        producer.close()
        broker.kill()
        broker.start()
        broker.stop()
        text = log_of(broker)
        broker.start()
    recovered = re.search(r"store recovered in [0-9.]+s after an unclean shutdown: CommitLog scanned .*", text)
    assert recovered, text[-3000:]
    assert re.search(r"(\d+) batches re-dispatched", recovered.group(0))
    assert "store opened in" in log_of(broker).split(text, 1)[1]  # the restart after a clean stop: no recovery
    assert "after a clean shutdown" in log_of(broker).split(text, 1)[1]


def test_a_fenced_transactional_producer_is_logged(tmp_path: Path) -> None:
    from confluent_kafka import Producer

    with Broker(data_dir=tmp_path / "data", subprocess=True) as broker:
        for _ in range(2):  # the second instance of the transactional id fences the first
            producer = Producer({"bootstrap.servers": broker.bootstrap, "transactional.id": "fenced-id"})
            producer.init_transactions(30)
            producer.flush(5)
    assert re.search(r"transactional id 'fenced-id': producer \d+ epoch 0 fenced by a new instance \(now producer "
                     r"\d+ epoch 1\)", log_of(broker))  # fmt: skip


def test_json_lines(tmp_path: Path) -> None:
    with Broker(data_dir=tmp_path / "data", subprocess=True, settings={"rockafka.log.format": "json"}) as broker:
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        admin.create_topics([NewTopic("json-logged", 1, 1)])
        admin.close()
    lines = [json.loads(line) for line in log_of(broker).splitlines() if line.strip()]
    assert {"time", "level", "logger", "message"} <= set(lines[0])
    created = [line for line in lines if line["message"].startswith("topic json-logged created")]
    assert [(line["level"], line["logger"]) for line in created] == [("INFO", "rockafka.store.topicadmin")]


def _trigger(port: int) -> None:
    """One connection that sends a request the broker refuses, waiting until the broker has closed it."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(struct.pack(">i", len(UNSERVED_REQUEST)) + UNSERVED_REQUEST)
        while connection.recv(4096):
            pass


def test_a_warning_repeated_a_thousand_times_is_logged_once_per_window(tmp_path: Path) -> None:
    with Broker(data_dir=tmp_path / "data", subprocess=True) as broker:
        for _ in range(1000):
            _trigger(broker.port)
        time.sleep(REPEAT_WINDOW_S + 0.5)  # the window closes: the next repeat is written with the count
        _trigger(broker.port)
    lines = [line for line in log_of(broker).splitlines() if "closing connection from" in line]
    held = sum(int(found) for found in re.findall(r"\((\d+) more like this in the last", "\n".join(lines)))
    assert len(lines) + held == 1001
    assert len(lines) <= 3  # one per window: 1,000 connections take well under three windows


def test_a_kernel_that_does_not_import_falls_back_with_a_warning() -> None:
    script = (
        "import sys, logging; logging.basicConfig(level=logging.INFO)\n"
        "sys.modules['rockafka.core_pyx._varint'] = None  # the compiled twin cannot be imported\n"
        "from rockafka import core_pyx; from rockafka.core_pyx import varint\n"
        "print(core_pyx.FALLBACKS)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "['_varint']"
    assert "WARNING:rockafka.core_pyx:kernel _varint: the compiled twin did not import" in done.stderr
