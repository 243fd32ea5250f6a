"""The two upstream suites: what to copy, what to install, how to start the broker, how to call pytest.

Each suite runs from a scratch copy holding only its tests (never the package source, so the PyPI
release is what gets imported) in a venv of its own. The broker settings are the ones the suite's
own broker fixture configures (``{host}`` and ``{port}`` in a value stand for the broker's PLAINTEXT
address, as in kafka-python's ``kafka.properties`` template, ``{ports[NAME]}`` for the port of the
listener NAME, ``{certs}`` for the directory of the TLS files :mod:`.security` makes); the deselections are
the tests that need something outside any broker (a Kerberos KDC).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: aiokafka's Docker image tag the version gates read ("2.13_2.8.1" -> Kafka 2.8.1, upstream CI's default).
AIOKAFKA_IMAGE = "aiolibs/kafka:2.13_2.8.1"
AIOKAFKA_LISTENERS = (
    "PLAINTEXT://{host}:{port},SSL://{host}:{ports[SSL]},"
    "SASL_PLAINTEXT://{host}:{ports[SASL_PLAINTEXT]},SASL_SSL://{host}:{ports[SASL_SSL]}"
)
AIOKAFKA_PLAIN_JAAS = (
    'org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="admin" '
    'user_admin="admin" user_test="test" user_test2="test2";'
)
#: test/integration/fixtures.py KafkaFixture: one broker per transport and SASL mechanism, spawned by the
#: fixture with listeners={transport}://{host}:{port} and sasl.enabled.mechanisms={mechanism}. Here one broker
#: has a listener for each: the overrides (kafka_python_overrides.py) map a fixture to its listener.
KAFKA_PYTHON_LISTENERS = (
    ("SSL", "SSL"),
    ("SASL_PLAIN", "SASL_PLAINTEXT"),
    ("SASL_SCRAM_SHA_256", "SASL_PLAINTEXT"),
    ("SASL_SCRAM_SHA_512", "SASL_PLAINTEXT"),
)
KAFKA_PYTHON_ADDRESSES = ",".join(
    ["PLAINTEXT://{host}:{port}", *(f"{name}://{{host}}:{{ports[{name}]}}" for name, _ in KAFKA_PYTHON_LISTENERS)]
)
#: KafkaFixture.broker_user / broker_password
KAFKA_PYTHON_USER = ("alice", "alice-secret")


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
    #: (name, security protocol) of the listeners besides PLAINTEXT (each gets a free port: {ports[name]})
    listeners: tuple[tuple[str, str], ...] = ()
    #: (user, password) of SCRAM users made (both mechanisms) before the broker starts
    scram_users: tuple[tuple[str, str], ...] = ()
    #: (mechanism, user, password) of the super user the ACL/user fixture overrides log in as (SASL_PLAINTEXT)
    admin_login: tuple[str, str, str] | None = None
    #: pytest node ids and options selecting only the TLS and SASL tests (``--security-only``)
    security_tests: tuple[str, ...] = ()
    #: node ids passed as ``--deselect`` (see ``deselected`` for why)
    deselect: tuple[str, ...] = ()


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
        # docker/scripts/start-kafka.sh: one listener per security protocol (tests/conftest.py kafka_server
        # passes ADVERTISED_{,SSL_,SASL_PLAINTEXT_,SASL_SSL_}PORT), all advertised on ADVERTISED_HOST; and (set
        # for every image from 0.10.1 on, as it configures SASL) the ACL authorizer allowing everyone on
        # resources no ACL names, with User:admin super
        ("listeners", AIOKAFKA_LISTENERS),
        ("advertised.listeners", AIOKAFKA_LISTENERS),
        ("authorizer.class.name", "kafka.security.auth.SimpleAclAuthorizer"),
        ("allow.everyone.if.no.acl.found", "true"),
        ("super.users", "User:admin"),
        # start-kafka.sh SSL options: keystore br_server.keystore.jks and truststore br_server.truststore.jks
        # from gen-ssl-certs.sh, here as PEM (server.key + server.crt, and ca.crt); client certificates required
        ("ssl.keystore.type", "PEM"),
        ("ssl.keystore.location", "{certs}/server.keystore.pem"),
        ("ssl.truststore.type", "PEM"),
        ("ssl.truststore.location", "{certs}/ca.crt"),
        ("ssl.client.auth", "required"),
        ("ssl.endpoint.identification.algorithm", ""),
        # start-kafka.sh: ssl.enabled.protocols=TLSv1.2,TLSv1.1,TLSv1. TLSv1.2 is the one of those a current
        # TLS stack negotiates (Rockafka refuses the other two)
        ("ssl.enabled.protocols", "TLSv1.2"),
        # tests/conftest.py kafka_server, Kafka >= 0.10.2: SASL_MECHANISMS=PLAIN,GSSAPI,SCRAM-SHA-256,SCRAM-SHA-512
        # (GSSAPI is not offered by Rockafka; its two tests are deselected)
        ("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512"),
        # docker/scripts/kafka_server_jaas.conf, KafkaServer section: the PLAIN users admin, test and test2 (the
        # ScramLoginModule and Krb5LoginModule lines are the broker's own client logins)
        ("sasl.jaas.config", AIOKAFKA_PLAIN_JAAS),
    ),
    test_files=tuple(
        f"tests/test_{name}.py"
        for name in (
            *("admin", "client", "conn", "consumer", "coordinator", "pep492", "producer", "sasl", "sender"),
            *("transactional_consumer", "transactional_producer", "helpers"),
        )
    ),
    deselected=(
        Deselected(
            "tests/test_sasl.py::TestKafkaSASL::test_sasl_plaintext_gssapi, test_admin_client_sasl_plaintext_gssapi",
            2,
            "SASL/GSSAPI: a Kerberos KDC (kinit/ktutil in the container); Rockafka does not offer GSSAPI",
        ),
    ),
    overall_timeout_s=2700,
    listeners=(("SSL", "SSL"), ("SASL_PLAINTEXT", "SASL_PLAINTEXT"), ("SASL_SSL", "SASL_SSL")),
    # start-kafka.sh super.users=User:admin, with its PLAIN password from kafka_server_jaas.conf; the ACL and
    # SCRAM-user fixtures (docker exec of kafka-acls.sh/kafka-configs.sh upstream) use it
    admin_login=("PLAIN", "admin", "admin"),
    security_tests=(
        "tests/test_sasl.py",
        "tests/test_consumer.py::TestConsumerIntegration::test_ssl_consume",
        "tests/test_producer.py::TestKafkaProducerIntegration::test_producer_ssl",
    ),
    deselect=(
        "tests/test_sasl.py::TestKafkaSASL::test_sasl_plaintext_gssapi",
        "tests/test_sasl.py::TestKafkaSASL::test_admin_client_sasl_plaintext_gssapi",
    ),
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
        # servers/resources/default/kafka.properties: listeners and advertised.listeners={transport}://{host}:{port}
        # (test_describe_configs_broker_resource_returns_configs expects it STATIC_BROKER_CONFIG from Kafka 4.0),
        # one listener per fixture transport/mechanism (KAFKA_PYTHON_LISTENERS)
        ("listeners", KAFKA_PYTHON_ADDRESSES),
        ("advertised.listeners", KAFKA_PYTHON_ADDRESSES),
        (
            "listener.security.protocol.map",
            ",".join(["PLAINTEXT:PLAINTEXT", *(f"{name}:{protocol}" for name, protocol in KAFKA_PYTHON_LISTENERS)]),
        ),
        # KafkaFixture._ssl_config (gen_ssl_resources): a keystore for CN=localhost signed by ca-cert, key password
        # foobar, and a truststore with ca-cert; no ssl.client.auth (Kafka's default: none)
        ("ssl.keystore.type", "PEM"),
        ("ssl.keystore.location", "{certs}/server.keystore.pem"),
        ("ssl.key.password", "foobar"),
        ("ssl.truststore.type", "PEM"),
        ("ssl.truststore.location", "{certs}/ca-cert"),
        # KafkaFixture._sasl_config: sasl.enabled.mechanisms={mechanism}, per listener here
        ("listener.name.sasl_plain.sasl.enabled.mechanisms", "PLAIN"),
        ("listener.name.sasl_scram_sha_256.sasl.enabled.mechanisms", "SCRAM-SHA-256"),
        ("listener.name.sasl_scram_sha_512.sasl.enabled.mechanisms", "SCRAM-SHA-512"),
        # KafkaFixture._jaas_config for PLAIN: user_{broker_user}="{broker_password}"
        (
            "listener.name.sasl_plain.plain.sasl.jaas.config",
            "org.apache.kafka.common.security.plain.PlainLoginModule required "
            'username="{0}" password="{1}" user_{0}="{1}";'.format(*KAFKA_PYTHON_USER),
        ),
        # test/integration/fixtures.py KafkaFixture._acl_config for Kafka >= 4.0 (AclAuthorizer for 2.4-3.x)
        ("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer"),
        ("allow.everyone.if.no.acl.found", "true"),
    ),
    test_files=("test/integration",),
    deselected=(),
    overall_timeout_s=1800,
    listeners=KAFKA_PYTHON_LISTENERS,
    # KafkaFixture._format_log_dirs: kafka-storage.sh format --add-scram {mechanism}=[name=alice,password=...]
    scram_users=(KAFKA_PYTHON_USER,),
    security_tests=("test/integration/test_ssl_integration.py", "test/integration/test_sasl_integration.py"),
    # The Kafka release whose API ranges Rockafka advertises (kafka-python infers 4.0 from ListOffsets v10);
    # it turns on the 4.0-gated tests (DescribeQuorum, DescribeTopicPartitions) and test_kafka_version_infer
    # checks that the client infers it.
    kafka_version="4.0",
)

SUITES = {suite.name: suite for suite in (AIOKAFKA, KAFKA_PYTHON)}


def broker_settings(suite: Suite, host: str, port: int, ports: dict[str, int], certs: Path) -> dict[str, str]:
    """The suite's broker settings for a broker at ``host:port`` with its other listeners at ``ports``."""
    return {key: value.format(host=host, port=port, ports=ports, certs=certs) for key, value in suite.broker_settings}


def pytest_args(suite: Suite, junit: Path, per_test_timeout_s: int, security_only: bool = False) -> list[str]:
    """The pytest command line (after ``python -m pytest``) for a suite's scratch copy."""
    common = [
        *(suite.security_tests if security_only else suite.test_files),
        *(f"--deselect={node}" for node in suite.deselect),
        "-p",
        "no:cacheprovider",
        "--timeout",
        str(per_test_timeout_s),
        "--timeout-method=signal",  # the thread method kills the whole run at the first timeout
        "-rfEs",
        f"--junitxml={junit}",
    ]
    if suite is AIOKAFKA:
        return [*common, "--docker-image", AIOKAFKA_IMAGE, "--no-pull"]
    return common
