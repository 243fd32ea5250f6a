"""The console's JSON API on a real broker, after real clients produced, committed and ran transactions: every
page's data is what the clients made, changes act as Kafka's admin APIs do (a real consumer reads from a reset
offset), and bad input is a 4xx with a message, never a 500."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, ConfigResource
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic
from kafka.structs import OffsetAndMetadata

from rockafka.testing import Broker

from ..ops.helpers import free_port

TOPIC = "console-orders"
MESSAGES = 120
GROUP = "console-readers"
CONSUMED = 25
PARTITION_0 = MESSAGES // 2 + 1  # the JSON records of even numbers and one binary record


def call(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """(status, parsed JSON) of one request to the console."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        payload = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        connection.request(method, path, body=payload, headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        data = answer.read()
        return answer.status, json.loads(data) if answer.getheader("Content-Type", "").startswith(
            "application/json"
        ) else data
    finally:
        connection.close()


def ok(port: int, path: str) -> Any:
    status, document = call(port, "GET", path)
    assert status == 200, document
    return document


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Broker, int]]:
    port = free_port()
    settings = {
        "rockafka.http.listener": f"127.0.0.1:{port}",
        "rockafka.console.allow.changes": "true",
        "num.partitions": "1",
        "transaction.state.log.replication.factor": "1",
    }
    with Broker(data_dir=tmp_path_factory.mktemp("console"), settings=settings) as running:
        admin = KafkaAdminClient(bootstrap_servers=running.bootstrap)
        admin.create_topics([NewTopic(TOPIC, 2, 1), NewTopic("console-other", 1, 1), NewTopic("console-txn", 1, 1)])
        admin.close()
        producer = KafkaProducer(bootstrap_servers=running.bootstrap, linger_ms=5)
        for n in range(MESSAGES):
            value = json.dumps({"order": n, "item": "widget"}).encode()
            producer.send(
                TOPIC,
                key=f"customer-{n % 10}".encode(),
                value=value,
                partition=n % 2,
                headers=[("source", b"test")],
                timestamp_ms=1_700_000_000_000 + n * 1000,
            )
        producer.send(TOPIC, key=b"\x00\xff", value=b"binary", partition=0, timestamp_ms=1_700_000_500_000)
        producer.flush()
        producer.close()
        transactional = Producer({"bootstrap.servers": running.bootstrap, "transactional.id": "console-tx"})
        transactional.init_transactions(30)
        for commit in (True, False):
            transactional.begin_transaction()
            transactional.produce("console-txn", key=b"k", value=b"committed" if commit else b"aborted")
            transactional.flush(30)  # else an abort drops the unsent record and no marker is written
            transactional.commit_transaction(30) if commit else transactional.abort_transaction(30)
        consumer = KafkaConsumer(
            bootstrap_servers=running.bootstrap,
            group_id=GROUP,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
        )
        partition = TopicPartition(TOPIC, 0)
        consumer.assign([partition])
        consumer.commit({partition: OffsetAndMetadata(CONSUMED, "", -1)})
        consumer.close()
        yield running, port


def test_whoami_and_overview_count_what_the_clients_made(console: tuple[Broker, int]) -> None:
    _, port = console
    assert ok(port, "/api/whoami")["changes_allowed"] is True
    overview = ok(port, "/api/overview")
    assert overview["topics"] >= 3 and overview["partitions"] >= 4
    assert overview["groups"] >= 1
    assert overview["lag"] >= PARTITION_0 - CONSUMED
    assert overview["messages_in"] >= MESSAGES
    assert [b["node_id"] for b in overview["brokers"]] == [overview["node_id"]]


def test_topics_page_and_topic_detail(console: tuple[Broker, int]) -> None:
    _, port = console
    page = ok(port, "/api/topics?filter=console-&size=2&page=1")
    assert page["total"] == 3 and [t["name"] for t in page["items"]] == ["console-orders", "console-other"]
    orders = page["items"][0]
    assert orders["partitions"] == 2 and orders["messages"] == MESSAGES + 1
    detail = ok(port, f"/api/topic?name={TOPIC}")
    partitions = {p["partition"]: p for p in detail["partitions"]["items"]}
    assert partitions[0]["high_watermark"] == MESSAGES // 2 + 1 and partitions[1]["high_watermark"] == MESSAGES // 2
    assert partitions[0]["log_start_offset"] == 0 and partitions[0]["size_bytes"] > 0
    configs = {c["name"]: c for c in detail["configs"]}
    assert configs["cleanup.policy"]["value"] == "delete"


def test_messages_oldest_newest_by_offset_timestamp_and_format(console: tuple[Broker, int]) -> None:
    _, port = console
    oldest = ok(port, f"/api/messages?topic={TOPIC}&partition=1&order=oldest&limit=3&format=json")
    assert [r["offset"] for r in oldest["records"]] == [0, 1, 2]
    first = oldest["records"][0]
    assert first["key"] == "customer-1" and first["value"] == {"order": 1, "item": "widget"}
    assert first["headers"] == [{"key": "source", "value": "test"}]
    newest = ok(port, f"/api/messages?topic={TOPIC}&partition=0&order=newest&limit=2&format=hex")
    assert [r["offset"] for r in newest["records"]] == [60, 59]
    assert newest["records"][0]["key"] == "00ff" and newest["records"][0]["value"] == b"binary".hex()
    window = ok(port, f"/api/messages?topic={TOPIC}&partition=0&offset=10&order=newest&limit=3")
    assert [r["offset"] for r in window["records"]] == [10, 9, 8]
    by_time = ok(port, f"/api/messages?topic={TOPIC}&partition=0&timestamp={1_700_000_000_000 + 20_000}&limit=1")
    assert by_time["records"][0]["offset"] == 10 and by_time["records"][0]["value"] == '{"order": 20, "item": "widget"}'


def test_transaction_markers_are_shown_as_markers(console: tuple[Broker, int]) -> None:
    _, port = console
    records = ok(port, "/api/messages?topic=console-txn&partition=0&order=oldest&limit=10")["records"]
    assert [(r.get("marker"), r.get("value")) for r in records] == [
        (None, "committed"),
        ("COMMIT", None),
        (None, "aborted"),
        ("ABORT", None),
    ]
    assert all(r["transactional"] for r in records)


def test_find_by_key_through_the_index(console: tuple[Broker, int]) -> None:
    _, port = console
    found: list[dict[str, Any]] = []
    deadline = time.monotonic() + 20  # the index thread follows appends shortly after
    while time.monotonic() < deadline and len(found) < MESSAGES // 10:
        found = ok(port, f"/api/find?topic={TOPIC}&key=customer-3&limit=100")["records"]
        time.sleep(0.2)
    assert len(found) == MESSAGES // 10
    assert {r["key"] for r in found} == {"customer-3"} and {r["partition"] for r in found} == {1}
    assert [r["timestamp"] for r in found] == sorted((r["timestamp"] for r in found), reverse=True)
    binary = ok(port, f"/api/find?topic={TOPIC}&key=00ff&key_format=hex&format=hex")["records"]
    assert [(r["partition"], r["offset"]) for r in binary] == [(0, 60)]
    stored = sorted(r["stored"] for r in found)  # the window is on the time the broker stored each record
    windowed = ok(port, f"/api/find?topic={TOPIC}&key=customer-3&from_ms={stored[0]}&to_ms={stored[-1]}")
    assert len(windowed["records"]) == len(found)
    before = ok(port, f"/api/find?topic={TOPIC}&key=customer-3&to_ms={stored[0] - 1}")
    assert before["records"] == []


def test_groups_show_lag_from_committed_offsets(console: tuple[Broker, int]) -> None:
    _, port = console
    listed = ok(port, f"/api/groups?filter={GROUP}")
    assert [g["group_id"] for g in listed["items"]] == [GROUP]
    group = ok(port, f"/api/group?id={GROUP}")
    assert group["state"] == "Empty"
    assert group["offsets"] == [
        {
            "topic": TOPIC,
            "partition": 0,
            "committed": CONSUMED,
            "high_watermark": PARTITION_0,
            "lag": PARTITION_0 - CONSUMED,
        },
    ]
    assert group["lag"] == listed["items"][0]["lag"] == PARTITION_0 - CONSUMED


def test_store_page_lists_files_and_positions(console: tuple[Broker, int]) -> None:
    _, port = console
    store = ok(port, "/api/store")
    positions = store["positions"]
    assert positions["commitlog_published_offset"] > positions["commitlog_min_offset"]
    assert positions["commitlog_synced_offset"] <= positions["commitlog_published_offset"]
    assert store["counts"]["commitlog"] >= 1 and store["counts"]["consumequeue"] >= 4
    only_queues = ok(port, "/api/store?kind=consumequeue&size=1")
    assert only_queues["files"]["total"] == store["counts"]["consumequeue"]
    assert [f["kind"] for f in only_queues["files"]["items"]] == ["consumequeue"]


def test_create_and_delete_a_topic_as_an_admin_client_would(console: tuple[Broker, int]) -> None:
    running, port = console
    status, created = call(
        port, "POST", "/api/topics", {"name": "console-made", "partitions": 3, "configs": {"cleanup.policy": "compact"}}
    )
    assert status == 201, created
    admin = KafkaAdminClient(bootstrap_servers=running.bootstrap)
    try:
        described = admin.describe_topics(["console-made"])[0]
        assert len(described["partitions"]) == 3
        status, again = call(port, "POST", "/api/topics", {"name": "console-made", "partitions": 1})
        assert status == 409 and "TOPIC_ALREADY_EXISTS" in again["error"]
        status, bad = call(port, "POST", "/api/topics", {"name": "bad name!", "partitions": 1})
        assert status == 400 and "INVALID_TOPIC_EXCEPTION" in bad["error"]
        status, wrong_config = call(port, "POST", "/api/topics", {"name": "x1", "configs": {"cleanup.policy": "no"}})
        assert status == 400 and "INVALID_CONFIG" in wrong_config["error"]
        status, _ = call(port, "DELETE", "/api/topic?name=console-made")
        assert status == 200
        assert "console-made" not in admin.list_topics()
    finally:
        admin.close()


def test_topic_configs_are_altered_as_incremental_alter_configs_does(console: tuple[Broker, int]) -> None:
    running, port = console
    status, done = call(port, "POST", "/api/topic/configs", {"name": "console-other", "set": {"retention.ms": "1234"}})
    assert status == 200, done
    configs = {c["name"]: c for c in ok(port, "/api/topic?name=console-other")["configs"]}
    assert (configs["retention.ms"]["value"], configs["retention.ms"]["source"]) == ("1234", "TOPIC_CONFIG")
    resource = ConfigResource(ConfigResource.Type.TOPIC, "console-other")
    admin = AdminClient({"bootstrap.servers": running.bootstrap})  # kept referenced until the answer comes
    [future] = admin.describe_configs([resource]).values()
    assert future.result(30)["retention.ms"].value == "1234"
    status, done = call(port, "POST", "/api/topic/configs", {"name": "console-other", "delete": ["retention.ms"]})
    assert status == 200, done
    configs = {c["name"]: c for c in ok(port, "/api/topic?name=console-other")["configs"]}
    assert configs["retention.ms"]["source"] != "TOPIC_CONFIG"
    status, bad = call(port, "POST", "/api/topic/configs", {"name": "console-other", "set": {"retention.ms": "x"}})
    assert status == 400 and "INVALID_CONFIG" in bad["error"]


def test_offset_reset_changes_where_a_real_consumer_starts(console: tuple[Broker, int]) -> None:
    running, port = console
    group = "console-reset"
    target = {"group": group, "topic": TOPIC, "partitions": [1], "to": {"timestamp": 1_700_000_000_000 + 41_000}}
    status, done = call(port, "POST", "/api/group/reset", target)
    assert status == 200, done
    assert done["offsets"] == [{"topic": TOPIC, "partition": 1, "offset": 20}]
    consumer = KafkaConsumer(
        bootstrap_servers=running.bootstrap,
        group_id=group,
        enable_auto_commit=False,
        consumer_timeout_ms=10_000,
    )
    try:
        consumer.assign([TopicPartition(TOPIC, 1)])
        first = next(iter(consumer))
        assert first.offset == 20 and json.loads(first.value)["order"] == 41
    finally:
        consumer.close()
    status, latest = call(port, "POST", "/api/group/reset", {"group": group, "topic": TOPIC, "to": "latest"})
    assert status == 200 and {o["offset"] for o in latest["offsets"]} == {60, 61}


def test_bad_input_is_a_4xx_with_a_message(console: tuple[Broker, int]) -> None:
    _, port = console
    cases = [
        ("GET", "/api/topic?name=no-such-topic", None, 404, "no topic"),
        ("GET", f"/api/messages?topic={TOPIC}&partition=0&offset=99999", None, 400, "outside"),
        ("GET", f"/api/messages?topic={TOPIC}&partition=7", None, 404, ""),
        ("GET", f"/api/messages?topic={TOPIC}&offset=abc", None, 400, "offset must be an integer"),
        ("GET", f"/api/messages?topic={TOPIC}&format=xml", None, 400, "format must be one of"),
        ("GET", f"/api/find?topic={TOPIC}&key=zz&key_format=hex", None, 400, "not hex"),
        ("GET", "/api/find?key=x", None, 400, "topic is required"),
        ("GET", "/api/topics?size=0", None, 400, "size between"),
        ("GET", "/api/group?id=nobody-here", None, 404, "no consumer group"),
        ("POST", "/api/topics", b"{not json", 400, "not JSON"),
        ("POST", "/api/topics", b"[1]", 400, "JSON object"),
        ("POST", "/api/group/reset", {"group": "g", "topic": TOPIC, "to": "yesterday"}, 400, "earliest"),
        ("POST", "/api/group/reset", {"group": "g", "topic": TOPIC, "partitions": [9], "to": 0}, 400, "no partition"),
    ]
    for method, path, body, status, message in cases:
        got, document = call(port, method, path, body)
        assert got == status, (path, document)
        assert message in document["error"], (path, document)
    assert call(port, "PUT", "/api/topics")[0] == 405


def test_a_read_only_console_refuses_changes(tmp_path: Any) -> None:
    port = free_port()
    with Broker(data_dir=tmp_path / "data", settings={"rockafka.http.listener": f"127.0.0.1:{port}"}):
        status, document = call(port, "POST", "/api/topics", {"name": "t", "partitions": 1})
        assert status == 403 and "read-only" in document["error"]
        assert ok(port, "/api/whoami")["changes_allowed"] is False
        status, page = call(port, "GET", "/")
        assert status == 200 and b"/console.js" in page
