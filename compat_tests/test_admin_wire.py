"""The admin APIs over a raw socket, at every advertised version, with the requests real clients rarely send.

Each API is driven at each version of its spec range (kafkajs ignores minVersion, so every one must work),
and with Kafka's per-item failures: duplicates, illegal names, wrong replication, bad configs, unknown
topics, ids and partitions. Results are checked through other APIs (Metadata, ListOffsets,
DescribeConfigs), not through the response alone.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from kafka import KafkaProducer

from rockafka.facade.config import BROKER_CONFIGS, TOPIC_CONFIGS, format_value
from rockafka.facade.handlers.authorized import CLUSTER_OPERATIONS, NOT_REQUESTED
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages import alter_configs as ac
from rockafka.facade.protocol.messages import create_partitions as cp
from rockafka.facade.protocol.messages import create_topics as ct
from rockafka.facade.protocol.messages import delete_records as dr
from rockafka.facade.protocol.messages import delete_topics as dt
from rockafka.facade.protocol.messages import describe_cluster as dc
from rockafka.facade.protocol.messages import describe_configs as dcf
from rockafka.facade.protocol.messages import incremental_alter_configs as iac

from .admin_wire import log_start_offset, topic_state
from .brokerproc import BrokerProcess
from .clients.fixtures import QUIET_KAFKA_PYTHON, SMALL_STORE, module_broker
from .clients.records import unique_topic
from .clients.wire import RawClient

pytestmark = QUIET_KAFKA_PYTHON
broker = module_broker(**{"num.partitions": "2"})
TOPIC, BROKER, BROKER_LOGGER = 2, 4, 8


@pytest.fixture(scope="module")
def client(broker: BrokerProcess) -> Iterator[RawClient]:
    with RawClient(broker.bootstrap) as wire:
        yield wire


def create(client: RawClient, *topics: ct.CreatableTopic, version: int = 7, validate_only: bool = False) -> list:
    response = client.request(ct.CreateTopicsRequest(topics=list(topics), validate_only=validate_only), version)
    return list(response.topics)


def new_topic(name: str, partitions: int = 1, configs: dict[str, str | None] | None = None) -> ct.CreatableTopic:
    entries = [ct.CreatableTopicConfig(name=key, value=value) for key, value in (configs or {}).items()]
    return ct.CreatableTopic(name=name, num_partitions=partitions, replication_factor=1, configs=entries)


def describe(client: RawClient, kind: int, name: str, keys: list[str] | None = None, version: int = 4) -> object:
    request = dcf.DescribeConfigsRequest(
        resources=[dcf.DescribeConfigsResource(resource_type=kind, resource_name=name, configuration_keys=keys)],
        include_synonyms=version >= 1,
        include_documentation=version >= 3,
    )
    (result,) = client.request(request, version).results
    return result


def topic_values(client: RawClient, name: str) -> dict[str, tuple[str | None, int]]:
    """Each topic config's (value, source)."""
    result = describe(client, TOPIC, name)
    return {entry.name: (entry.value, entry.config_source) for entry in result.configs}


# --- CreateTopics ---


@pytest.mark.parametrize("version", range(8))
def test_create_topics_every_version(client: RawClient, version: int) -> None:
    name, checked = unique_topic(f"create-v{version}"), unique_topic(f"validated-v{version}")
    (result,) = create(client, new_topic(name, 3, {"retention.ms": "3600000"}), version=version)
    assert (result.name, result.error_code) == (name, ErrorCode.NONE)
    state = topic_state(client, name)
    assert (state.error_code, state.partitions) == (ErrorCode.NONE, 3)
    assert topic_values(client, name)["retention.ms"] == ("3600000", 1)
    if version >= 1:
        assert result.error_message is None
        (validated,) = create(client, new_topic(checked, 4), version=version, validate_only=True)
        assert validated.error_code == ErrorCode.NONE
        assert topic_state(client, checked).error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        if version >= 5:
            assert (validated.num_partitions, validated.replication_factor) == (4, 1)
    if version >= 5:
        assert (result.num_partitions, result.replication_factor) == (3, 1)
        configs = {entry.name: (entry.value, entry.config_source) for entry in result.configs}
        assert set(configs) == set(TOPIC_CONFIGS)
        assert configs["retention.ms"] == ("3600000", 1)
        assert configs["cleanup.policy"] == ("delete", 5)
    assert result.topic_id == (state.topic_id if version >= 7 else uuid.UUID(int=0))
    (again,) = create(client, new_topic(name), version=version)
    assert again.error_code == ErrorCode.TOPIC_ALREADY_EXISTS


def test_create_topics_mixed_valid_and_invalid_in_one_request(client: RawClient) -> None:
    """librdkafka's 0081: each topic of one request succeeds or fails alone, with Kafka's codes."""
    prefix = unique_topic("mixed")
    existing = f"{prefix}.exists"
    assert create(client, new_topic(existing))[0].error_code == ErrorCode.NONE
    cases = {
        f"{prefix}-ok": (new_topic(f"{prefix}-ok", 2), ErrorCode.NONE),
        f"{prefix}-dup": (new_topic(f"{prefix}-dup"), ErrorCode.INVALID_REQUEST),
        existing: (new_topic(existing), ErrorCode.TOPIC_ALREADY_EXISTS),
        f"{prefix}_exists": (new_topic(f"{prefix}_exists"), ErrorCode.INVALID_TOPIC_EXCEPTION),
        f"{prefix} bad": (new_topic(f"{prefix} bad"), ErrorCode.INVALID_TOPIC_EXCEPTION),
        "x" * 250: (new_topic("x" * 250), ErrorCode.INVALID_TOPIC_EXCEPTION),
        f"{prefix}-rf3": (ct.CreatableTopic(name=f"{prefix}-rf3", num_partitions=1, replication_factor=3), 38),
        f"{prefix}-rf0": (ct.CreatableTopic(name=f"{prefix}-rf0", num_partitions=1, replication_factor=0), 38),
        f"{prefix}-p0": (ct.CreatableTopic(name=f"{prefix}-p0", num_partitions=0, replication_factor=1), 37),
        f"{prefix}-unknown-config": (new_topic(f"{prefix}-unknown-config", 1, {"no.such.config": "1"}), 40),
        f"{prefix}-bad-value": (new_topic(f"{prefix}-bad-value", 1, {"retention.ms": "soon"}), 40),
        f"{prefix}-bad-choice": (new_topic(f"{prefix}-bad-choice", 1, {"cleanup.policy": "shred"}), 40),
        f"{prefix}-null-config": (new_topic(f"{prefix}-null-config", 1, {"retention.ms": None}), 40),
        f"{prefix}-ok2": (new_topic(f"{prefix}-ok2", 1, {"cleanup.policy": "compact"}), ErrorCode.NONE),
    }
    topics = [topic for topic, _ in cases.values()] + [new_topic(f"{prefix}-dup")]
    results = create(client, *topics, version=4)
    assert {r.name: r.error_code for r in results} == {name: code for name, (_, code) in cases.items()}
    assert len(results) == len(cases)  # one result for the duplicated name
    messages = {r.name: r.error_message for r in results}
    assert messages[f"{prefix}-dup"] == "Duplicate topic name."
    assert messages[f"{prefix}_exists"] == f"Topic '{prefix}_exists' collides with existing topic: {existing}"
    assert "retention.ms" in messages[f"{prefix}-bad-value"]
    for name, (_, code) in cases.items():
        expected = ErrorCode.NONE if code in (ErrorCode.NONE, ErrorCode.TOPIC_ALREADY_EXISTS) else 3
        assert topic_state(client, name).error_code == expected, name


def test_create_topics_defaults_and_manual_assignments(client: RawClient) -> None:
    prefix = unique_topic("assign")
    defaults = ct.CreatableTopic(name=f"{prefix}-defaults", num_partitions=-1, replication_factor=-1)

    def assigned(name: str, *replicas: list[int], partitions: int = -1) -> ct.CreatableTopic:
        assignments = [
            ct.CreatableReplicaAssignment(partition_index=i, broker_ids=ids) for i, ids in enumerate(replicas)
        ]
        return ct.CreatableTopic(name=name, num_partitions=partitions, replication_factor=-1, assignments=assignments)

    cases = [
        (defaults, ErrorCode.NONE, 2),  # num.partitions=2 on this broker
        (assigned(f"{prefix}-three", [0], [0], [0]), ErrorCode.NONE, 3),
        (assigned(f"{prefix}-other-broker", [0], [1]), ErrorCode.INVALID_REPLICA_ASSIGNMENT, 0),
        (assigned(f"{prefix}-twice", [0, 0]), ErrorCode.INVALID_REPLICA_ASSIGNMENT, 0),
        (assigned(f"{prefix}-empty", []), ErrorCode.INVALID_REPLICA_ASSIGNMENT, 0),
        (assigned(f"{prefix}-counts-too", [0], partitions=1), ErrorCode.INVALID_REQUEST, 0),
    ]
    gap = assigned(f"{prefix}-gap", [0], [0])
    gap.assignments[1].partition_index = 2
    cases.append((gap, ErrorCode.INVALID_REPLICA_ASSIGNMENT, 0))
    results = create(client, *(topic for topic, _, _ in cases), version=7)
    for (topic, code, partitions), result in zip(cases, results, strict=True):
        assert (result.name, result.error_code) == (topic.name, code), result.error_message
        if code == ErrorCode.NONE:
            assert result.num_partitions == partitions == topic_state(client, topic.name).partitions


def test_create_topics_with_a_thousand_partitions(client: RawClient) -> None:
    name = unique_topic("wide")
    (result,) = create(client, new_topic(name, 1000))
    assert result.error_code == ErrorCode.NONE
    state = topic_state(client, name)
    assert (state.error_code, state.partitions) == (ErrorCode.NONE, 1000)


def test_create_topics_and_partitions_refuse_over_ten_thousand_partitions_per_request(client: RawClient) -> None:
    """Kafka's controller limit, which also keeps one request from making the store create millions of files."""
    first, second = unique_topic("huge-a"), unique_topic("huge-b")
    results = create(client, new_topic(first, 6000), new_topic(second, 4001))
    assert [(r.error_code, r.error_message) for r in results] == [
        (ErrorCode.POLICY_VIOLATION, "Excessively large number of partitions per request.")
    ] * 2
    assert create(client, new_topic(first, 2**31 - 1))[0].error_code == ErrorCode.POLICY_VIOLATION
    assert topic_state(client, first).error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    assert create(client, new_topic(first, 1))[0].error_code == ErrorCode.NONE
    grow = cp.CreatePartitionsRequest(topics=[cp.CreatePartitionsTopic(name=first, count=10_002, assignments=None)])
    assert client.request(grow, 3).results[0].error_code == ErrorCode.POLICY_VIOLATION
    assert topic_state(client, first).partitions == 1


# --- DeleteTopics ---


@pytest.mark.parametrize("version", range(7))
def test_delete_topics_every_version(client: RawClient, version: int) -> None:
    names = [unique_topic(f"delete-v{version}-{i}") for i in range(2)]
    create(client, *(new_topic(name) for name in names))
    ids = [topic_state(client, name).topic_id for name in names]
    missing = unique_topic("never-created")
    if version >= 6:
        request = dt.DeleteTopicsRequest(
            topics=[
                dt.DeleteTopicState(name=names[0]),
                dt.DeleteTopicState(name=None, topic_id=ids[1]),
                dt.DeleteTopicState(name=missing),
                dt.DeleteTopicState(name=None, topic_id=uuid.uuid4()),
            ]
        )
    else:
        request = dt.DeleteTopicsRequest(topic_names=[*names, missing])
    results = {(r.name, r.topic_id if version >= 6 else None): r for r in client.request(request, version).responses}
    expected_unknown = [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]
    if version >= 6:
        assert results[(names[0], ids[0])].error_code == ErrorCode.NONE
        assert results[(names[1], ids[1])].error_code == ErrorCode.NONE
        expected_unknown.append(ErrorCode.UNKNOWN_TOPIC_ID)
    else:
        assert [results[(name, None)].error_code for name in names] == [ErrorCode.NONE] * 2
    unknown = sorted(r.error_code for r in results.values() if r.error_code != ErrorCode.NONE)
    assert unknown == sorted(expected_unknown)
    for name in names:
        assert topic_state(client, name).error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    (recreated,) = create(client, new_topic(names[0]))
    assert recreated.error_code == ErrorCode.NONE
    assert topic_state(client, names[0]).topic_id not in ids


def test_delete_topics_refuses_ambiguous_entries(client: RawClient) -> None:
    name = unique_topic("ambiguous")
    create(client, new_topic(name))
    topic_id = topic_state(client, name).topic_id
    request = dt.DeleteTopicsRequest(
        topics=[
            dt.DeleteTopicState(name=name, topic_id=topic_id),
            dt.DeleteTopicState(name=None),
            dt.DeleteTopicState(name="twice"),
            dt.DeleteTopicState(name="twice"),
        ]
    )
    results = client.request(request, 6).responses
    assert [r.error_code for r in results] == [ErrorCode.INVALID_REQUEST] * 3
    assert {r.error_message for r in results} == {
        "You may not specify both topic name and topic id.",
        "Neither topic name nor id were specified.",
        "Duplicate topic name.",
    }
    assert topic_state(client, name).error_code == ErrorCode.NONE


def test_delete_topics_disabled(tmp_path_factory: pytest.TempPathFactory) -> None:
    settings = {**SMALL_STORE, "delete.topic.enable": "false"}
    process = BrokerProcess(tmp_path_factory.mktemp("nodelete"), settings).start()
    try:
        with RawClient(process.bootstrap) as wire:
            create(wire, new_topic("kept"))
            for version, code in ((2, ErrorCode.INVALID_REQUEST), (3, ErrorCode.TOPIC_DELETION_DISABLED)):
                (result,) = wire.request(dt.DeleteTopicsRequest(topic_names=["kept"]), version).responses
                assert result.error_code == code
            (by_id,) = wire.request(dt.DeleteTopicsRequest(topics=[dt.DeleteTopicState(name="kept")]), 6).responses
            assert (by_id.error_code, by_id.error_message) == (
                ErrorCode.TOPIC_DELETION_DISABLED,
                "Topic deletion is disabled.",
            )
            assert topic_state(wire, "kept").error_code == ErrorCode.NONE
    finally:
        process.stop()


# --- CreatePartitions ---


@pytest.mark.parametrize("version", range(4))
def test_create_partitions_every_version(client: RawClient, version: int) -> None:
    name, other = unique_topic(f"grow-v{version}"), unique_topic(f"grow-other-v{version}")
    create(client, new_topic(name, 1), new_topic(other, 2))

    def grow(topic: str, count: int, assignments: list[list[int]] | None = None, validate_only: bool = False) -> object:
        entries = (
            None if assignments is None else [cp.CreatePartitionsAssignment(broker_ids=ids) for ids in assignments]
        )
        request = cp.CreatePartitionsRequest(
            topics=[cp.CreatePartitionsTopic(name=topic, count=count, assignments=entries)], validate_only=validate_only
        )
        (result,) = client.request(request, version).results
        return result

    assert grow(name, 5, validate_only=True).error_code == ErrorCode.NONE
    assert topic_state(client, name).partitions == 1
    assert (grow(name, 3).error_code, grow(name, 3).error_code) == (ErrorCode.NONE, ErrorCode.INVALID_PARTITIONS)
    assert grow(name, 2).error_code == ErrorCode.INVALID_PARTITIONS
    assert grow(name, 5, [[0], [0]]).error_code == ErrorCode.NONE
    assert topic_state(client, name).partitions == 5
    assert grow(other, 4, [[0]]).error_code == ErrorCode.INVALID_REPLICA_ASSIGNMENT
    assert grow(other, 3, [[1]]).error_code == ErrorCode.INVALID_REPLICA_ASSIGNMENT
    assert grow(unique_topic("missing"), 3).error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    assert topic_state(client, other).partitions == 2
    twice = cp.CreatePartitionsRequest(topics=[cp.CreatePartitionsTopic(name=other, count=3, assignments=None)] * 2)
    assert [r.error_code for r in client.request(twice, version).results] == [ErrorCode.INVALID_REQUEST]


# --- DescribeConfigs ---


@pytest.mark.parametrize("version", range(5))
def test_describe_configs_every_version(broker: BrokerProcess, client: RawClient, version: int) -> None:
    name = unique_topic(f"describe-v{version}")
    create(client, new_topic(name, 1, {"retention.ms": "60000", "cleanup.policy": "compact,delete"}))
    topic = describe(client, TOPIC, name, version=version)
    assert (topic.error_code, topic.resource_name) == (ErrorCode.NONE, name)
    entries = {entry.name: entry for entry in topic.configs}
    assert list(entries) == sorted(TOPIC_CONFIGS)
    retention, segment, flush = entries["retention.ms"], entries["segment.bytes"], entries["flush.messages"]
    assert (retention.value, segment.value) == ("60000", SMALL_STORE["log.segment.bytes"])
    assert (flush.value, entries["cleanup.policy"].value) == ("9223372036854775807", "compact,delete")
    if version == 0:
        assert (retention.is_default, segment.is_default, flush.is_default) == (False, False, True)
    else:
        assert (retention.config_source, segment.config_source, flush.config_source) == (1, 4, 5)
        assert [(s.name, s.source) for s in segment.synonyms] == [("log.segment.bytes", 4), ("log.segment.bytes", 5)]
        assert [(s.name, s.value, s.source) for s in retention.synonyms] == [
            ("retention.ms", "60000", 1),
            ("log.retention.ms", "604800000", 5),
        ]
    if version >= 3:
        assert (retention.config_type, entries["cleanup.policy"].config_type) == (5, 7)
    brokers = describe(client, BROKER, "0", version=version)
    settings = {entry.name: entry for entry in brokers.configs}
    assert list(settings) == sorted(BROKER_CONFIGS)
    assert settings["listeners"].value == f"PLAINTEXT://127.0.0.1:{broker.port}"
    assert settings["num.partitions"].value == "2"
    assert settings["message.max.bytes"].value == format_value(BROKER_CONFIGS["message.max.bytes"].default)
    # read-only unless Kafka makes it a dynamic broker config (log.retention.hours is static in Kafka too)
    assert [settings[name].read_only for name in ("listeners", "log.retention.hours", "message.max.bytes")] == [
        True,
        True,
        False,
    ]
    if version >= 1:
        assert (settings["num.partitions"].config_source, settings["message.max.bytes"].config_source) == (4, 5)
        assert [(s.name, s.value, s.source) for s in settings["num.partitions"].synonyms] == [
            ("num.partitions", "2", 4),
            ("num.partitions", "1", 5),
        ]
        hours = settings["log.retention.hours"]
        assert [(s.name, s.value, s.source) for s in hours.synonyms] == [("log.retention.hours", "168", 5)]
        assert settings["log.retention.ms"].value is None


def test_describe_configs_filters_and_errors(client: RawClient) -> None:
    name = unique_topic("describe-errors")
    create(client, new_topic(name))
    filtered = describe(client, TOPIC, name, ["retention.ms", "no.such.config", "segment.bytes"])
    assert [entry.name for entry in filtered.configs] == ["retention.ms", "segment.bytes"]
    documented = describe(client, BROKER, "0", ["log.dirs"])
    assert documented.configs[0].documentation
    plain = client.request(
        dcf.DescribeConfigsRequest(resources=[dcf.DescribeConfigsResource(resource_type=BROKER, resource_name="0")]), 4
    ).results[0]
    assert all(entry.documentation is None and entry.synonyms == [] for entry in plain.configs)
    assert describe(client, BROKER, "").configs == []
    assert describe(client, BROKER_LOGGER, "0").configs == []
    for kind, resource, code in (
        (TOPIC, unique_topic("missing"), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION),
        (TOPIC, "bad name!", ErrorCode.INVALID_TOPIC_EXCEPTION),
        (BROKER, "7", ErrorCode.INVALID_REQUEST),
        (BROKER, "zero", ErrorCode.INVALID_REQUEST),
        (BROKER_LOGGER, "", ErrorCode.INVALID_REQUEST),
        (99, "x", ErrorCode.INVALID_REQUEST),
    ):
        result = describe(client, kind, resource)
        assert (result.error_code, result.configs) == (code, []), (kind, resource)
        assert result.error_message


# --- AlterConfigs and IncrementalAlterConfigs ---


@pytest.mark.parametrize("version", range(3))
def test_alter_configs_replaces_every_override(client: RawClient, version: int) -> None:
    name = unique_topic(f"alter-v{version}")
    create(client, new_topic(name, 1, {"retention.ms": "60000", "max.message.bytes": "2048"}))

    def alter(*resources: ac.AlterConfigsResource, validate_only: bool = False) -> list[tuple[int, str | None]]:
        request = ac.AlterConfigsRequest(resources=list(resources), validate_only=validate_only)
        return [(r.error_code, r.error_message) for r in client.request(request, version).responses]

    def topic(configs: dict[str, str | None], resource: str = name) -> ac.AlterConfigsResource:
        entries = [ac.AlterableConfig(name=key, value=value) for key, value in configs.items()]
        return ac.AlterConfigsResource(resource_type=TOPIC, resource_name=resource, configs=entries)

    assert alter(topic({"retention.ms": "1000"}), validate_only=True) == [(ErrorCode.NONE, None)]
    assert topic_values(client, name)["retention.ms"] == ("60000", 1)
    assert alter(topic({"retention.ms": "1000"})) == [(ErrorCode.NONE, None)]
    values = topic_values(client, name)
    assert values["retention.ms"] == ("1000", 1)
    assert values["max.message.bytes"] == ("1048588", 5)  # not named: back to the default
    codes = [code for code, _ in alter(
        topic({"retention.ms": "x"}),
        topic({"no.such.config": "1"}, unique_topic("missing")),
        topic({"retention.ms": None}, unique_topic("other")),
        ac.AlterConfigsResource(resource_type=BROKER, resource_name="0",
                                configs=[ac.AlterableConfig(name="num.partitions", value="3")]),
        ac.AlterConfigsResource(resource_type=BROKER_LOGGER, resource_name="0"),
    )]  # fmt: skip
    assert codes == [40, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 42, 42, 42]
    assert topic_values(client, name)["retention.ms"] == ("1000", 1)
    twice = alter(topic({"segment.ms": "1000"}), topic({"segment.ms": "2000"}))
    assert twice == [(ErrorCode.INVALID_REQUEST, "Each resource must appear at most once.")] * 2
    assert alter(ac.AlterConfigsResource(resource_type=BROKER, resource_name="")) == [(ErrorCode.NONE, None)]


@pytest.mark.parametrize("version", range(2))
def test_incremental_alter_configs_operations(client: RawClient, version: int) -> None:
    name = unique_topic(f"incremental-v{version}")
    create(client, new_topic(name, 1, {"retention.ms": "60000", "segment.ms": "100000"}))
    set_, delete, append, subtract = 0, 1, 2, 3

    def alter(*ops: tuple[str, int, str | None], validate_only: bool = False, resource: str = name) -> int:
        configs = [iac.AlterableConfig(name=key, config_operation=op, value=value) for key, op, value in ops]
        request = iac.IncrementalAlterConfigsRequest(
            resources=[iac.AlterConfigsResource(resource_type=TOPIC, resource_name=resource, configs=configs)],
            validate_only=validate_only,
        )
        (response,) = client.request(request, version).responses
        return int(response.error_code)

    assert alter(("retention.ms", set_, "5000"), validate_only=True) == ErrorCode.NONE
    assert topic_values(client, name)["retention.ms"] == ("60000", 1)
    assert (
        alter(("retention.ms", set_, "5000"), ("segment.ms", delete, None), ("cleanup.policy", append, "compact")) == 0
    )
    values = topic_values(client, name)
    assert (values["retention.ms"], values["segment.ms"]) == (("5000", 1), ("604800000", 5))
    assert values["cleanup.policy"] == ("delete,compact", 1)
    assert alter(("cleanup.policy", subtract, "delete")) == ErrorCode.NONE
    assert topic_values(client, name)["cleanup.policy"] == ("compact", 1)
    assert alter(("retention.ms", append, "5")) == ErrorCode.INVALID_CONFIG
    assert alter(("retention.ms", set_, "-7")) == ErrorCode.INVALID_CONFIG
    assert alter(("no.such.config", set_, "1")) == ErrorCode.INVALID_CONFIG
    assert alter(("retention.ms", set_, None)) == ErrorCode.INVALID_REQUEST
    assert alter(("retention.ms", 9, "1")) == ErrorCode.INVALID_REQUEST
    assert alter(("retention.ms", set_, "1"), ("retention.ms", delete, None)) == ErrorCode.INVALID_REQUEST
    assert alter(("retention.ms", set_, "1"), resource=unique_topic("missing")) == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    assert topic_values(client, name)["retention.ms"] == ("5000", 1)


# --- DeleteRecords ---


@pytest.mark.parametrize("version", range(3))
def test_delete_records_every_version(broker: BrokerProcess, client: RawClient, version: int) -> None:
    name, compacted = unique_topic(f"trim-v{version}"), unique_topic(f"compacted-v{version}")
    create(client, new_topic(name, 2), new_topic(compacted, 1, {"cleanup.policy": "compact"}))
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap, acks=1, enable_idempotence=False, linger_ms=0)
    try:
        for i in range(10):
            producer.send(name, key=b"k", value=b"v%d" % i, partition=i % 2)
        producer.send(compacted, key=b"k", value=b"v")
        producer.flush(timeout=10)
    finally:
        producer.close(timeout=5)

    def trim(topic: str, *offsets: tuple[int, int]) -> list[tuple[int, int]]:
        partitions = [dr.DeleteRecordsPartition(partition_index=p, offset=o) for p, o in offsets]
        request = dr.DeleteRecordsRequest(topics=[dr.DeleteRecordsTopic(name=topic, partitions=partitions)])
        (result,) = client.request(request, version).topics
        return [(r.low_watermark, r.error_code) for r in result.partitions]

    assert trim(name, (0, 3), (1, -1)) == [(3, 0), (5, 0)]
    assert (log_start_offset(client, name, 0), log_start_offset(client, name, 1)) == (3, 5)
    assert trim(name, (0, 1)) == [(3, 0)]  # below the log start: nothing moves
    assert trim(name, (0, 6), (0, -7), (7, 0)) == [(-1, 1), (-1, 1), (-1, 3)]
    assert log_start_offset(client, name, 0) == 3
    assert trim(unique_topic("missing"), (0, 0)) == [(-1, 3)]
    assert trim(compacted, (0, 1)) == [(-1, ErrorCode.POLICY_VIOLATION)]


# --- the internal topic ---


@pytest.mark.parametrize("internal", ["__consumer_offsets", "__transaction_state"])
def test_an_internal_topic_is_described_but_not_changed(client: RawClient, internal: str) -> None:
    """The internal topics belong to the coordinators: admin requests see them and cannot change them."""
    values = topic_values(client, internal)
    assert values["cleanup.policy"] == ("compact", 1)
    state = topic_state(client, internal)
    assert (state.error_code, state.partitions) == (ErrorCode.NONE, 50)
    assert create(client, new_topic(internal))[0].error_code == ErrorCode.TOPIC_ALREADY_EXISTS
    by_name = client.request(dt.DeleteTopicsRequest(topic_names=[internal]), 5).responses
    by_id = client.request(dt.DeleteTopicsRequest(topics=[dt.DeleteTopicState(topic_id=state.topic_id)]), 6).responses
    assert [r.error_code for r in (*by_name, *by_id)] == [ErrorCode.INVALID_REQUEST] * 2
    grow = cp.CreatePartitionsRequest(topics=[cp.CreatePartitionsTopic(name=internal, count=60, assignments=None)])
    assert client.request(grow, 3).results[0].error_code == ErrorCode.INVALID_REQUEST
    retain = ac.AlterableConfig(name="retention.ms", value="1")
    alter = ac.AlterConfigsRequest(
        resources=[ac.AlterConfigsResource(resource_type=TOPIC, resource_name=internal, configs=[retain])]
    )
    assert client.request(alter, 2).responses[0].error_code == ErrorCode.INVALID_REQUEST
    trim = dr.DeleteRecordsRequest(
        topics=[dr.DeleteRecordsTopic(name=internal, partitions=[dr.DeleteRecordsPartition(partition_index=0)])]
    )
    assert client.request(trim, 2).topics[0].partitions[0].error_code == ErrorCode.POLICY_VIOLATION
    assert topic_state(client, internal) == state


# --- DescribeCluster ---


@pytest.mark.parametrize("version", range(2))
def test_describe_cluster_every_version(broker: BrokerProcess, client: RawClient, version: int) -> None:
    from rockafka.facade.protocol.messages.metadata import MetadataRequest

    metadata = client.request(MetadataRequest(topics=[]), 12)
    plain = client.request(dc.DescribeClusterRequest(), version)
    assert (plain.error_code, plain.cluster_id, plain.controller_id) == (0, metadata.cluster_id, 0)
    assert [(b.broker_id, b.host, b.port, b.rack) for b in plain.brokers] == [(0, "127.0.0.1", broker.port, None)]
    assert plain.cluster_authorized_operations == NOT_REQUESTED
    asked = client.request(dc.DescribeClusterRequest(include_cluster_authorized_operations=True), version)
    assert asked.cluster_authorized_operations == CLUSTER_OPERATIONS
    if version >= 1:
        assert plain.endpoint_type == 1
        controllers = client.request(dc.DescribeClusterRequest(endpoint_type=2), version)
        assert (controllers.error_code, controllers.brokers) == (ErrorCode.UNSUPPORTED_ENDPOINT_TYPE, [])


def test_transaction_state_is_listed_once_a_transactional_id_finds_its_coordinator(fresh_broker: BrokerProcess) -> None:
    """Kafka creates ``__transaction_state`` at the first FindCoordinator for a transactional id and lists it in
    Metadata from then on, as internal; librdkafka sees it after a transaction as on Kafka, and after a restart."""
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient

    def listed() -> dict[str, int]:
        admin = AdminClient({"bootstrap.servers": fresh_broker.bootstrap})
        topics = admin.list_topics(timeout=10).topics
        return {name: len(topics[name].partitions) for name in ("__transaction_state",) if name in topics}

    assert listed() == {}
    producer = Producer({"bootstrap.servers": fresh_broker.bootstrap, "transactional.id": "listed"})
    producer.init_transactions(30)
    producer.begin_transaction()
    producer.produce("listed", b"v")
    producer.commit_transaction(30)
    assert listed() == {"__transaction_state": 50}
    fresh_broker.restart()
    assert listed() == {"__transaction_state": 50}
