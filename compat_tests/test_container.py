"""The ``rockafka`` image under Docker, driven through the ``docker`` package as projects drive Kafka's images.

The module's set-up starts a Docker engine (or uses the one at ``$DOCKER_HOST``) and builds the image with
``make image``'s script; neither is skipped when missing: the tests fail with the reason. Containers run on
the host network (the engine has no bridge), each on a free port given through ``KAFKA_LISTENERS``, and
are removed by the test that made them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from typing import Any

import docker
import pytest
from confluent_kafka.admin import AdminClient, NewTopic
from docker.models.containers import Container
from kafka import KafkaAdminClient

from .brokerproc import TEST_SEGMENT_BYTES, free_port
from .clients.aiokafka_driver import AiokafkaDriver
from .clients.confluent_driver import ConfluentDriver
from .clients.driver import EARLIEST
from .clients.kafka_python_driver import KafkaPythonDriver
from .clients.records import Rec, unique_topic
from .clients.scenarios import check_roundtrip
from .container_engine import BUILD_TIMEOUT_S, ROOT, Engine, build_etcd_image, build_image, engine
from .test_shutdown import DRAIN_BOUND_LINE, long_polling_consumer

READY_TIMEOUT_S = 60.0
# the first test's set-up may build the image from nothing (debootstrap, then docker build on vfs: minutes)
pytestmark = pytest.mark.timeout(BUILD_TIMEOUT_S + 300)
DOCKER_STOP_GRACE_S = 10  # docker stop's default: SIGTERM, then SIGKILL (exit 137) after this
# the vfs driver copies the whole image per container: creating one is slow on a busy machine
DOCKER_API_TIMEOUT_S = 300
COMPOSE_FILE = ROOT / "image" / "compose" / "docker-compose.yml"
COMPOSE_TIMEOUT_S = 300  # `up` creates four containers, each a whole copy of its image under vfs


ZOOKEEPER_FORM = ["--authorizer-properties", "zookeeper.connect=localhost:2181"]
KAFKA_TOOL_COMMANDS = [
    ["/opt/kafka/bin/kafka-acls.sh", *ZOOKEEPER_FORM, "--add", "--allow-principal", "User:alice", "--operation", "Read",
     "--topic", "orders", "--force"],
    ["kafka-configs.sh", "--zookeeper", "localhost:2181", "--alter", "--add-config",
     "SCRAM-SHA-256=[iterations=8192,password=secret]", "--entity-type", "users", "--entity-name", "alice"],
]  # fmt: skip


@pytest.fixture(scope="module")
def docker_engine() -> Iterator[Engine]:
    started = engine()
    try:
        yield started
    finally:
        started.close()


@pytest.fixture(scope="module")
def image(docker_engine: Engine) -> str:
    return build_image(docker_engine.docker_host)


@pytest.fixture(scope="module")
def client(docker_engine: Engine) -> Iterator[docker.DockerClient]:
    made = docker.DockerClient(base_url=docker_engine.docker_host, timeout=DOCKER_API_TIMEOUT_S)
    try:
        yield made
    finally:
        made.close()


class Broker:
    """A container of the image on a free port; :meth:`start` waits until the broker answers ApiVersions."""

    def __init__(self, client: docker.DockerClient, image: str, env: dict[str, str], volume: str | None = None):
        self.port = free_port()
        self.bootstrap = f"127.0.0.1:{self.port}"
        self._client, self._image, self._volume = client, image, volume
        self.env = {"KAFKA_LISTENERS": f"PLAINTEXT://127.0.0.1:{self.port}",
                    "KAFKA_LOG_SEGMENT_BYTES": str(TEST_SEGMENT_BYTES), **env}  # fmt: skip
        self.container: Container | None = None

    def start(self) -> Broker:
        volumes = {self._volume: {"bind": "/var/lib/rockafka/data", "mode": "rw"}} if self._volume else None
        self.container = self._client.containers.run(
            self._image, detach=True, network_mode="host", environment=self.env, volumes=volumes
        )
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            self.container.reload()
            if self.container.status == "exited":
                raise AssertionError(f"the container exited:\n{self.logs()}")
            probe = self.container.exec_run(["rockafka", "probe", "--bootstrap-server", self.bootstrap])
            if probe.exit_code == 0:
                return self
            time.sleep(0.2)
        raise AssertionError(f"the broker did not answer within {READY_TIMEOUT_S} s:\n{self.logs()}")

    def logs(self) -> str:
        return "" if self.container is None else self.container.logs().decode(errors="replace")

    def state(self) -> dict[str, Any]:
        assert self.container is not None
        self.container.reload()
        return dict(self.container.attrs["State"])

    def remove(self) -> None:
        if self.container is not None:
            self.container.remove(force=True, v=True)  # v: its anonymous data volume (a named one stays)
            self.container = None


@pytest.fixture
def volume(client: docker.DockerClient) -> Iterator[str]:
    made = client.volumes.create(f"rockafka-test-{uuid.uuid4().hex[:12]}")
    try:
        yield str(made.name)
    finally:
        made.remove(force=True)


def test_three_clients_round_trip_kafka_tools_and_variables_take_effect_and_the_healthcheck_turns_healthy(
    client: docker.DockerClient, image: str
) -> None:
    broker = Broker(client, image, {"KAFKA_NUM_PARTITIONS": "3", "KAFKA_HEAP_OPTS": "-Xmx1G"}).start()
    try:
        drivers = [KafkaPythonDriver(), AiokafkaDriver(), ConfluentDriver()]
        for driver, reader in zip(drivers, drivers[1:] + drivers[:1], strict=True):
            check_roundtrip(driver, broker.bootstrap, acks=-1, codec="none", reader=reader)
        topic = unique_topic("container-partitions")
        assert drivers[0].produce(broker.bootstrap, topic, [Rec(key=None, value=b"auto")], acks=-1) == [0]
        assert drivers[0].partition_count(broker.bootstrap, topic) == 3
        assert broker.container is not None
        for command in KAFKA_TOOL_COMMANDS:  # as aiokafka's fixtures docker exec them
            ran = broker.container.exec_run(command)
            assert ran.exit_code == 0, ran.output.decode(errors="replace")
        listed = broker.container.exec_run(["kafka-acls.sh", *ZOOKEEPER_FORM, "--list", "--topic", "orders"])
        assert b"User:alice READ" in listed.output
        deadline = time.monotonic() + READY_TIMEOUT_S
        while broker.state()["Health"]["Status"] != "healthy" and time.monotonic() < deadline:
            time.sleep(0.5)
        health = broker.state()["Health"]
        assert health["Status"] == "healthy", health
    finally:
        broker.remove()


def test_docker_stop_under_a_connected_consumer_exits_0_and_the_data_survives_a_restart(
    client: docker.DockerClient, image: str, volume: str
) -> None:
    driver = KafkaPythonDriver()
    topic = unique_topic("container-restart")
    sent = [Rec(key=None, value=f"record-{i}".encode()) for i in range(5)]
    broker = Broker(client, image, {"KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS": "0"}, volume=volume).start()
    try:
        assert driver.produce(broker.bootstrap, topic, sent, acks=-1) == list(range(5))
        assert broker.container is not None
        with long_polling_consumer(broker.bootstrap, topic):
            started = time.monotonic()
            broker.container.stop(timeout=DOCKER_STOP_GRACE_S)
            print(f"docker stop under a long-polling consumer took {time.monotonic() - started:.2f} s")
        logs = broker.logs()
        assert broker.state()["ExitCode"] == 0, logs  # 137 had Docker's grace run out
        assert DRAIN_BOUND_LINE not in logs, logs
    finally:
        broker.remove()
    again = Broker(client, image, {}, volume=volume).start()
    try:
        got = driver.consume(again.bootstrap, topic, 0, EARLIEST, 5)
        assert [r.value for r in got] == [r.value for r in sent]
    finally:
        again.remove()


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ({"KAFKA_NUM_PARTITIONS": "many"}, "num.partitions"),
        ({"KAFKA_NUM_PARTITONS": "2"}, "KAFKA_NUM_PARTITONS"),
    ],
)
def test_a_bad_setting_exits_non_zero_with_one_clear_line(
    client: docker.DockerClient, image: str, env: dict[str, str], fragment: str
) -> None:
    container = client.containers.run(image, detach=True, network_mode="host", environment=env)
    try:
        result = container.wait(timeout=READY_TIMEOUT_S)
        logs = container.logs().decode(errors="replace").strip().splitlines()
    finally:
        container.remove(force=True, v=True)
    assert result["StatusCode"] == 2
    assert len(logs) == 1 and logs[0].startswith("rockafka serve:") and fragment in logs[0], logs


def test_rockafka_container_of_testcontainers_runs_an_aiokafka_round_trip(
    docker_engine: Engine, image: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOCKER_HOST", docker_engine.docker_host)
    monkeypatch.setenv("TESTCONTAINERS_RYUK_DISABLED", "true")  # its reaper is an image no registry here serves
    from rockafka.testing import RockafkaContainer

    engine = {"timeout": DOCKER_API_TIMEOUT_S}
    with RockafkaContainer(image, network_mode="host", docker_client_kw=engine).with_env(
        "KAFKA_NUM_PARTITIONS", "2"
    ) as broker:
        bootstrap = broker.get_bootstrap_server()
        check_roundtrip(AiokafkaDriver(), bootstrap, acks=1, codec="none")
        topic = unique_topic("testcontainers")
        assert AiokafkaDriver().produce(bootstrap, topic, [Rec(key=None, value=b"x")], acks=1) == [0]
        assert AiokafkaDriver().partition_count(bootstrap, topic) == 2
        container = broker.get_wrapped_container()
    container_gone = container.id not in {
        c.id for c in docker.DockerClient(docker_engine.docker_host).containers.list(all=True)
    }
    assert container_gone


def test_kafka_tools_in_the_image_and_commands_run_as_given(client: docker.DockerClient, image: str) -> None:
    broker = Broker(client, image, {}).start()
    try:
        assert broker.container is not None
        server = ["--bootstrap-server", broker.bootstrap]

        def tool(*command: str) -> str:
            ran = broker.container.exec_run(list(command))  # type: ignore[union-attr]
            assert ran.exit_code == 0, ran.output.decode(errors="replace")
            return str(ran.output.decode())

        topic = unique_topic("image-tools")
        created = tool("/opt/kafka/bin/kafka-topics.sh", *server, "--create", "--topic", topic, "--partitions", "2")
        assert created == f"Created topic {topic}.\n"
        producer = (
            f"kafka-console-producer.sh --bootstrap-server {broker.bootstrap} --topic {topic}"
            " --property parse.key=true --property key.separator=:"
        )
        ran = broker.container.exec_run(["sh", "-c", f"printf 'k1:one\\nk2:two\\n' | {producer}"])
        assert ran.exit_code == 0, ran.output.decode(errors="replace")
        consumed = tool("kafka-console-consumer.sh", *server, "--topic", topic, "--from-beginning",
                        "--max-messages", "2", "--property", "print.key=true", "--timeout-ms", "20000")  # fmt: skip
        assert sorted(line for line in consumed.splitlines() if "\t" in line) == ["k1\tone", "k2\ttwo"]
        tool("kafka-configs.sh", *server, "--entity-type", "topics", "--entity-name", topic, "--alter",
             "--add-config", "retention.ms=60000")  # fmt: skip
        described = tool("kafka-configs.sh", *server, "--topic", topic, "--describe")
        assert "  retention.ms=60000 sensitive=false" in described
        assert topic in tool("/opt/kafka_aiokafka-2.8.1/bin/kafka-topics.sh", *server, "--list").split()
        assert "kafka-consumer-groups.sh" in tool("ls", "/opt/kafka/bin")
    finally:
        broker.remove()
    # a first argument that is a command runs as given (aiokafka's fixture: `sleep 300`, then docker exec)
    command = client.containers.run(image, ["sh", "-c", "echo ran; keytool -list 2>&1; echo exit $?"], detach=True)
    try:
        command.wait(timeout=READY_TIMEOUT_S)
        lines = command.logs().decode().splitlines()
    finally:
        command.remove(force=True, v=True)  # run(remove=True) would leave the image's anonymous volume
    assert lines[0] == "ran" and lines[-1] == "exit 2"  # the openssl keytool: one line for a form it does not do
    assert lines[1:-1] == ["keytool (Rockafka image, openssl-based): option -list is not supported"]


def test_the_aiolibs_variables_start_every_listener_the_fixture_asks_for(
    client: docker.DockerClient, image: str
) -> None:
    plain, sasl = free_port(), free_port()
    env = {
        "ADVERTISED_HOST": "127.0.0.1", "ADVERTISED_PORT": str(plain), "ADVERTISED_SASL_PLAINTEXT_PORT": str(sasl),
        "SASL_MECHANISMS": "PLAIN,GSSAPI,SCRAM-SHA-256,SCRAM-SHA-512", "NUM_PARTITIONS": "2",
        "SASL_JAAS_FILE": "kafka_server_jaas.conf",
    }  # fmt: skip
    container = client.containers.run(image, detach=True, network_mode="host", environment=env, tty=True)
    try:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while container.exec_run(["rockafka-healthcheck"]).exit_code != 0:
            container.reload()
            assert container.status != "exited" and time.monotonic() < deadline, container.logs().decode()
            time.sleep(0.2)
        added = container.exec_run(
            ["/opt/kafka_aiokafka-2.8.1/bin/kafka-configs.sh", "--zookeeper", "localhost:2181", "--alter",
             "--add-config", "SCRAM-SHA-256=[password=pw1],SCRAM-SHA-512=[password=pw1]", "--entity-type", "users",
             "--entity-name", "scram-user"]
        )  # fmt: skip
        assert added.exit_code == 0, added.output.decode(errors="replace")
        topic = unique_topic("aiolibs")
        assert KafkaPythonDriver().produce(f"127.0.0.1:{plain}", topic, [Rec(key=None, value=b"x")], acks=1) == [0]
        assert KafkaPythonDriver().partition_count(f"127.0.0.1:{plain}", topic) == 2
        admin = KafkaAdminClient(
            bootstrap_servers=f"127.0.0.1:{sasl}", security_protocol="SASL_PLAINTEXT", sasl_mechanism="SCRAM-SHA-512",
            sasl_plain_username="scram-user", sasl_plain_password="pw1",
        )  # fmt: skip
        try:
            assert topic in admin.list_topics()
        finally:
            admin.close()
    finally:
        container.remove(force=True, v=True)


def test_three_containers_become_one_cluster_through_etcd(client: docker.DockerClient, image: str) -> None:
    """The docker run trio of docs/container.md: three containers of the image, settings from KAFKA_* variables
    only, one etcd (Debian's, on the host, as rockafka.testing.LocalEtcd runs it)."""
    from rockafka.testing import LocalEtcd

    with LocalEtcd() as etcd:
        bootstraps = [f"127.0.0.1:{free_port()}" for _ in range(3)]
        containers = []
        try:
            for node, bootstrap in enumerate(bootstraps, 1):
                env = {"KAFKA_NODE_ID": str(node), "KAFKA_LISTENERS": f"PLAINTEXT://{bootstrap}",
                       "KAFKA_ROCKAFKA_CLUSTER_ETCD_ENDPOINTS": etcd.endpoint,
                       "KAFKA_LOG_SEGMENT_BYTES": str(TEST_SEGMENT_BYTES)}  # fmt: skip
                containers.append(client.containers.run(image, detach=True, network_mode="host", environment=env))
            for container, bootstrap in zip(containers, bootstraps, strict=True):
                deadline = time.monotonic() + READY_TIMEOUT_S
                while container.exec_run(["rockafka", "probe", "--bootstrap-server", bootstrap]).exit_code != 0:
                    container.reload()
                    assert container.status != "exited" and time.monotonic() < deadline, container.logs().decode()
                    time.sleep(0.2)
            admin = KafkaAdminClient(bootstrap_servers=bootstraps[0])
            try:
                deadline = time.monotonic() + READY_TIMEOUT_S
                while len(admin.describe_cluster()["brokers"]) < 3 and time.monotonic() < deadline:
                    time.sleep(0.2)
                assert sorted(b["broker_id"] for b in admin.describe_cluster()["brokers"]) == [1, 2, 3]
            finally:
                admin.close()
            topic = unique_topic("trio")
            created = containers[0].exec_run(["kafka-topics.sh", "--bootstrap-server", bootstraps[0], "--create",
                                              "--topic", topic, "--partitions", "3"])  # fmt: skip
            assert created.exit_code == 0, created.output.decode(errors="replace")
            sent = [Rec(key=None, value=f"record-{i}".encode(), partition=i % 3) for i in range(6)]
            driver = KafkaPythonDriver()
            assert len(driver.produce(bootstraps[1], topic, sent, acks=-1)) == 6
            got = [r for p in range(3) for r in driver.consume(bootstraps[2], topic, p, EARLIEST, 2)]
            assert sorted(r.value for r in got) == sorted(r.value for r in sent)
        finally:
            for container in containers:
                container.remove(force=True, v=True)


def test_the_compose_file_runs_three_brokers_with_etcd(
    docker_engine: Engine, client: docker.DockerClient, image: str
) -> None:
    """image/compose/docker-compose.yml under Debian's docker-compose, its ports moved to free ones: up waits for
    etcd's health, the brokers turn healthy and register, a topic's three partitions get one leader each on the
    three brokers (every broker says the same), records produced through one broker are read through another;
    `down -v` leaves no container or volume of the project (the images stay: they are the build's cache)."""
    compose = shutil.which("docker-compose")
    assert compose, (
        "the compose test needs docker-compose: make docker-compose (root), or apt-get install docker-compose"
    )
    build_etcd_image(docker_engine.docker_host)
    ports = [free_port() for _ in range(5)]
    bootstraps = [f"127.0.0.1:{port}" for port in ports[:3]]
    project = f"rockafka-compose-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "DOCKER_HOST": docker_engine.docker_host, "COMPOSE_PROJECT_NAME": project,
           "ROCKAFKA_PORT_1": str(ports[0]), "ROCKAFKA_PORT_2": str(ports[1]), "ROCKAFKA_PORT_3": str(ports[2]),
           "ROCKAFKA_ETCD_PORT": str(ports[3]), "ROCKAFKA_ETCD_PEER_PORT": str(ports[4]),
           "ROCKAFKA_SEGMENT_BYTES": str(TEST_SEGMENT_BYTES), "ROCKAFKA_TAG": image.split(":")[1]}  # fmt: skip
    of_project = {"label": f"com.docker.compose.project={project}"}

    def run_compose(*args: str) -> subprocess.CompletedProcess[str]:
        command = [compose, "-f", str(COMPOSE_FILE), *args]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=COMPOSE_TIMEOUT_S)

    try:
        up = run_compose("up", "-d")
        assert up.returncode == 0, up.stdout + up.stderr
        _wait_until_every_container_is_healthy(client.containers.list(all=True, filters=of_project))
        _check_the_cluster(bootstraps)
    finally:
        down = run_compose("down", "-v")
    assert down.returncode == 0, down.stdout + down.stderr
    assert client.containers.list(all=True, filters=of_project) == []
    assert client.volumes.list(filters=of_project) == []


def _wait_until_every_container_is_healthy(containers: list[Container]) -> None:
    assert len(containers) == 4, [c.name for c in containers]  # etcd and three brokers
    deadline = time.monotonic() + READY_TIMEOUT_S
    for container in containers:
        container.reload()
        while container.attrs["State"]["Health"]["Status"] != "healthy":
            assert container.status == "running" and time.monotonic() < deadline, (
                f"{container.name}: {container.attrs['State']}\n{container.logs().decode(errors='replace')}"
            )
            time.sleep(0.5)
            container.reload()


def _check_the_cluster(bootstraps: list[str]) -> None:
    admins = [AdminClient({"bootstrap.servers": bootstrap}) for bootstrap in bootstraps]
    deadline = time.monotonic() + READY_TIMEOUT_S
    while len(admins[0].list_topics(timeout=10).brokers) < 3 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert sorted(admins[0].list_topics(timeout=10).brokers) == [1, 2, 3]
    topic = unique_topic("compose")
    admins[0].create_topics([NewTopic(topic, num_partitions=3)])[topic].result(timeout=30)
    leaders: list[dict[int, int]] = []
    for admin in admins:  # every broker names the same leader for each partition, once the groups have one
        while time.monotonic() < deadline:
            partitions = admin.list_topics(topic, timeout=10).topics[topic].partitions
            leaders.append({number: p.leader for number, p in partitions.items()})
            if len(partitions) == 3 and -1 not in leaders[-1].values():
                break
            leaders.pop()
            time.sleep(0.2)
    assert len(leaders) == 3 and leaders[0] == leaders[1] == leaders[2], leaders
    assert sorted(leaders[0].values()) == [1, 2, 3]  # one partition on each broker
    sent = [Rec(key=None, value=f"record-{i}".encode(), partition=i % 3) for i in range(6)]
    driver = KafkaPythonDriver()
    assert len(driver.produce(bootstraps[0], topic, sent, acks=-1)) == 6
    got = [r for p in range(3) for r in driver.consume(bootstraps[1], topic, p, EARLIEST, 2)]
    assert sorted(r.value for r in got) == sorted(r.value for r in sent)
