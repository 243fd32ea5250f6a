"""The two upstream suites: what to copy, what to install, how to start the broker, how to call pytest.

Each suite runs from a scratch copy holding only its tests (never the package source, so the PyPI
release is what gets imported) in a venv of its own. The broker settings are the ones the suite's
own broker fixture configures (``{host}`` and ``{port}`` in a value stand for the broker's address,
as in kafka-python's ``kafka.properties`` template); the deselections are the tests that need something
outside any broker (docker exec of Kafka's CLI tools, a Kerberos KDC) or a listener Rockafka does not
have yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: aiokafka's Docker image tag the version gates read ("2.13_2.8.1" -> Kafka 2.8.1, upstream CI's default).
AIOKAFKA_IMAGE = "aiolibs/kafka:2.13_2.8.1"


@dataclass(frozen=True, slots=True)
class Deselected:
    """Tests not run, and why."""

    what: str
    count: int
    reason: str


@dataclass(frozen=True, slots=True)
class Suite:
    name: str
    #: paths copied from the source tree into the scratch copy
    copied: tuple[str, ...]
    #: pip requirements of the suite's venv (the client release and its test dependencies)
    requirements: tuple[str, ...]
    #: broker settings the suite's own fixture would configure ("{host}"/"{port}": the broker's address)
    broker_settings: tuple[tuple[str, str], ...]
    #: test files passed to pytest, relative to the scratch copy
    test_files: tuple[str, ...]
    deselected: tuple[Deselected, ...]
    #: bound on the whole pytest run, in seconds
    overall_timeout_s: int
    #: kafka-python's KAFKA_VERSION (its version gates and clients' api_version); None: what its client infers
    kafka_version: str | None = None


AIOKAFKA = Suite(
    name="aiokafka",
    copied=("tests", "pyproject.toml", "gen-ssl-certs.sh"),
    requirements=(
        "aiokafka==0.14.0",
        "pytest==9.0.2",
        "pytest-asyncio==1.3.0",
        "pytest-mock==3.15.1",
        "pytest-cov==7.0.0",
        "pytest-timeout==2.4.0",
        "docker==7.1.0",
        "async-timeout==5.0.1",
        "cramjam==2.11.0",
    ),
    broker_settings=(
        ("node.id", "0"),  # test_sender addresses node 0
        ("num.partitions", "2"),  # start-kafka.sh: NUM_PARTITIONS=2 for auto-created topics
        ("auto.create.topics.enable", "true"),
        ("group.min.session.timeout.ms", "6000"),  # Kafka's default: session_timeout_ms=200 must be refused
        ("group.initial.rebalance.delay.ms", "0"),  # Kafka's shipped server.properties
        # docker/scripts/start-kafka.sh: advertised.listeners, and (set for every image from 0.10.1 on, as it
        # configures SASL) the ACL authorizer allowing everyone on resources no ACL names, with User:admin super
        ("advertised.listeners", "PLAINTEXT://{host}:{port}"),
        ("authorizer.class.name", "kafka.security.auth.SimpleAclAuthorizer"),
        ("allow.everyone.if.no.acl.found", "true"),
        ("super.users", "User:admin"),
    ),
    test_files=tuple(
        f"tests/test_{name}.py"
        for name in (
            *("admin", "client", "conn", "consumer", "coordinator", "pep492", "producer", "sender"),
            *("transactional_consumer", "transactional_producer", "helpers"),
        )
    ),
    deselected=(
        Deselected(
            "tests/test_sasl.py (whole file)",
            18,
            "docker exec of kafka-acls.sh / kafka-configs.sh through ZooKeeper, a Kerberos KDC with kinit/ktutil, "
            "and SASL_PLAINTEXT/SASL_SSL listeners",
        ),
        Deselected(
            '-m "not ssl": test_consumer.py::TestConsumerIntegration::test_ssl_consume, '
            "test_producer.py::TestKafkaProducerIntegration::test_producer_ssl",
            2,
            "a TLS listener with client auth (pending on the security issue)",
        ),
    ),
    overall_timeout_s=2700,
)

KAFKA_PYTHON = Suite(
    name="kafka-python",
    copied=("test", "pyproject.toml"),
    requirements=(
        "kafka-python==3.0.12",
        "pytest==9.0.2",
        "pytest-mock==3.15.1",
        "pytest-timeout==2.4.0",
        "py",
        "crc32c",
        "lz4",
        "python-snappy",
        "zstandard",
        "xxhash",
    ),
    broker_settings=(
        ("node.id", "0"),
        ("num.partitions", "4"),  # KafkaFixture's default partitions=4
        ("auto.create.topics.enable", "true"),
        ("offsets.topic.num.partitions", "2"),  # servers/resources/default/kafka.properties
        ("group.min.session.timeout.ms", "1000"),
        ("group.initial.rebalance.delay.ms", "0"),
        # servers/resources/default/kafka.properties: advertised.listeners={transport}://{host}:{port},CONTROLLER://..
        # (test_describe_configs_broker_resource_returns_configs expects it STATIC_BROKER_CONFIG from Kafka 4.0)
        ("advertised.listeners", "PLAINTEXT://{host}:{port}"),
        # test/integration/fixtures.py KafkaFixture._acl_config for Kafka >= 4.0 (AclAuthorizer for 2.4-3.x)
        ("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer"),
        ("allow.everyone.if.no.acl.found", "true"),
    ),
    test_files=("test/integration",),
    deselected=(
        Deselected(
            "test/integration/test_ssl_integration.py (--ignore)",
            2,
            "it always spawns its own SSL Kafka from servers/<version>/kafka-bin (pending on the security issue)",
        ),
        Deselected(
            "test/integration/test_sasl_integration.py",
            9,
            "auto-skipped upstream when KAFKA_URI is set (external broker); pending on the security issue",
        ),
    ),
    overall_timeout_s=1800,
    # The Kafka release whose API ranges Rockafka advertises (kafka-python infers 4.0 from ListOffsets v10);
    # it turns on the 4.0-gated tests (DescribeQuorum, DescribeTopicPartitions) and test_kafka_version_infer
    # checks that the client infers it.
    kafka_version="4.0",
)

SUITES = {suite.name: suite for suite in (AIOKAFKA, KAFKA_PYTHON)}


def broker_settings(suite: Suite, host: str, port: int) -> dict[str, str]:
    """The suite's broker settings for a broker at ``host:port``."""
    return {key: value.format(host=host, port=port) for key, value in suite.broker_settings}


def pytest_args(suite: Suite, junit: Path, per_test_timeout_s: int) -> list[str]:
    """The pytest command line (after ``python -m pytest``) for a suite's scratch copy."""
    common = [
        *suite.test_files,
        "-p",
        "no:cacheprovider",
        "--timeout",
        str(per_test_timeout_s),
        "--timeout-method=signal",  # the thread method kills the whole run at the first timeout
        "-rfEs",
        f"--junitxml={junit}",
    ]
    if suite is AIOKAFKA:
        return [*common, "--docker-image", AIOKAFKA_IMAGE, "--no-pull", "-m", "not ssl"]
    return [*common, "--ignore=test/integration/test_ssl_integration.py"]
