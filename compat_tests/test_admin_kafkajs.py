"""kafkajs 2.2.4's admin client against a live broker (CreateTopics v3, DeleteTopics v1, CreatePartitions v1,
DescribeConfigs v2, AlterConfigs v1, DeleteRecords v1, Metadata v6), driven by ``node/kafkajs_admin.js``."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from rockafka.facade.config import BROKER_CONFIGS, TOPIC_CONFIGS

from .brokerproc import BrokerProcess
from .clients.fixtures import module_broker
from .clients.kafkajs_driver import NODE_DIR, kafkajs_missing
from .clients.records import unique_topic

pytestmark = pytest.mark.skipif(kafkajs_missing() is not None, reason=kafkajs_missing() or "")
broker = module_broker()
SCRIPT = NODE_DIR / "kafkajs_admin.js"
TOPIC, BROKER = 2, 4


def run_steps(broker: BrokerProcess, *steps: tuple[str, Any]) -> list[dict[str, Any]]:
    """Run admin calls in one kafkajs client; each outcome is {"result": ...} or {"error": ...}."""
    command = {"bootstrap": broker.bootstrap, "steps": [{"op": op, "args": args} for op, args in steps]}
    done = subprocess.run(
        ["node", str(SCRIPT), json.dumps(command)], cwd=NODE_DIR, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    outcomes: list[dict[str, Any]] = json.loads(done.stdout)
    return outcomes


def results(outcomes: list[dict[str, Any]]) -> list[Any]:
    assert all("result" in outcome for outcome in outcomes), outcomes
    return [outcome["result"] for outcome in outcomes]


def test_topic_lifecycle(broker: BrokerProcess) -> None:
    name, other = unique_topic("js-life"), unique_topic("js-validated")
    created, again, validated, listed, metadata, altered, grown, described, deleted, after = results(
        run_steps(
            broker,
            (
                "createTopics",
                {
                    "topics": [
                        {
                            "topic": name,
                            "numPartitions": 3,
                            "configEntries": [{"name": "retention.ms", "value": "60000"}],
                        }
                    ]
                },
            ),
            ("createTopics", {"topics": [{"topic": name}]}),
            ("createTopics", {"validateOnly": True, "waitForLeaders": False, "topics": [{"topic": other}]}),
            ("listTopics", None),
            ("fetchTopicMetadata", {"topics": [name]}),
            (
                "alterConfigs",
                {
                    "resources": [
                        {"type": TOPIC, "name": name, "configEntries": [{"name": "segment.ms", "value": "100000"}]}
                    ]
                },
            ),
            ("createPartitions", {"topicPartitions": [{"topic": name, "count": 5}]}),
            ("describeConfigs", {"includeSynonyms": True, "resources": [{"type": TOPIC, "name": name}]}),
            ("deleteTopics", {"topics": [name]}),
            ("listTopics", None),
        )
    )
    assert (created, again, validated) == (True, False, True)  # False: the topic already existed
    assert name in listed and other not in listed
    assert len(metadata["topics"][0]["partitions"]) == 3
    assert altered["resources"][0]["errorCode"] == 0
    entries = {entry["configName"]: entry for entry in described["resources"][0]["configEntries"]}
    assert set(entries) == set(TOPIC_CONFIGS)
    assert (entries["segment.ms"]["configValue"], entries["segment.ms"]["configSource"]) == ("100000", 1)
    assert (entries["retention.ms"]["configValue"], entries["retention.ms"]["isDefault"]) == ("604800000", True)
    assert entries["retention.ms"]["configSynonyms"] == [
        {"configName": "log.retention.ms", "configValue": "604800000", "configSource": 5}
    ]
    assert grown is None and deleted is None
    assert name not in after


def test_create_topics_mixed_valid_and_invalid(broker: BrokerProcess) -> None:
    prefix = unique_topic("js-mixed")
    (outcome, listed) = run_steps(
        broker,
        ("createTopics", {"topics": [
            {"topic": f"{prefix}-ok"},
            {"topic": f"{prefix}-rf3", "replicationFactor": 3},
            {"topic": f"{prefix} bad"},
            {"topic": f"{prefix}-config", "configEntries": [{"name": "retention.ms", "value": "soon"}]},
        ]}),
        ("listTopics", None),
    )  # fmt: skip
    assert outcome["error"]["name"] == "KafkaJSAggregateError"
    assert sorted(error["type"] for error in outcome["error"]["errors"]) == [
        "INVALID_CONFIG",
        "INVALID_REPLICATION_FACTOR",
        "INVALID_TOPIC_EXCEPTION",
    ]
    assert [topic for topic in listed["result"] if topic.startswith(prefix)] == [f"{prefix}-ok"]


def test_broker_configs_cluster_and_records(broker: BrokerProcess) -> None:
    name = unique_topic("js-records")
    messages = [{"partition": 0, "value": f"m{i}"} for i in range(5)]
    _, configs, cluster, _, trimmed, offsets, missing = run_steps(
        broker,
        ("createTopics", {"topics": [{"topic": name}]}),
        ("describeConfigs", {"includeSynonyms": False, "resources": [{"type": BROKER, "name": "0"}]}),
        ("describeCluster", None),
        ("produce", {"topic": name, "messages": messages}),
        ("deleteTopicRecords", {"topic": name, "partitions": [{"partition": 0, "offset": "3"}]}),
        ("fetchTopicOffsets", name),
        ("deleteTopics", {"topics": [unique_topic("js-missing")]}),
    )
    entries = {entry["configName"]: entry for entry in configs["result"]["resources"][0]["configEntries"]}
    assert set(entries) == set(BROKER_CONFIGS)
    assert entries["listeners"]["configValue"] == f"PLAINTEXT://127.0.0.1:{broker.port}"
    assert cluster["result"]["brokers"] == [{"nodeId": 0, "host": "127.0.0.1", "port": broker.port}]
    assert cluster["result"]["controller"] == 0
    assert "error" not in trimmed
    assert offsets["result"] == [{"partition": 0, "offset": "5", "high": "5", "low": "3"}]
    assert missing["error"]["message"] == "This server does not host this topic-partition"


def test_metadata_of_a_thousand_partitions(broker: BrokerProcess) -> None:
    name = unique_topic("js-wide")
    created, metadata = results(
        run_steps(
            broker,
            ("createTopics", {"topics": [{"topic": name, "numPartitions": 1000}]}),
            ("fetchTopicMetadata", {"topics": [name]}),
        )
    )
    assert created is True
    partitions = metadata["topics"][0]["partitions"]
    assert sorted(p["partitionId"] for p in partitions) == list(range(1000))
    assert {(p["leader"], p["partitionErrorCode"]) for p in partitions} == {(0, 0)}
