"""``RockafkaContainer``: the ``rockafka`` image as a testcontainers-python container (``rockafka.testing``).

::

    from rockafka.testing import RockafkaContainer

    with RockafkaContainer() as broker:                  # rockafka:latest, KAFKA_* settings via with_env
        producer = KafkaProducer(bootstrap_servers=broker.get_bootstrap_server())

The broker listens on a port chosen free on this machine before the start, and advertises the
address clients use. ``network_mode="bridge"`` (the default, as on most Docker engines) publishes the
container's 9092 on that port and advertises ``<container host>:<port>``; ``network_mode="host"`` (an
engine without a bridge) listens on ``127.0.0.1:<port>`` directly. :meth:`start` returns once the
broker answers ApiVersions (``rockafka probe`` run inside the container), or raises
:class:`ContainerNotReadyError` with the container's log. testcontainers' reaper container (Ryuk) is
a separate image; where it cannot be pulled, set ``TESTCONTAINERS_RYUK_DISABLED=true``.
"""

from __future__ import annotations

import socket
import time
from typing import Any

from testcontainers.core.container import DockerContainer

DEFAULT_IMAGE = "rockafka:latest"
CONTAINER_PORT = 9092
READY_TIMEOUT_S = 60.0
READY_POLL_S = 0.2


class ContainerNotReadyError(Exception):
    """The container exited, or its broker did not answer within the timeout."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RockafkaContainer(DockerContainer):
    def __init__(
        self,
        image: str = DEFAULT_IMAGE,
        *,
        network_mode: str = "bridge",
        port: int | None = None,
        ready_timeout_s: float = READY_TIMEOUT_S,
        **kwargs: Any,
    ) -> None:
        super().__init__(image, **kwargs)
        if network_mode not in ("bridge", "host"):
            raise ValueError(f"network_mode must be 'bridge' or 'host', not {network_mode!r}")
        self.network_mode = network_mode
        self.port = port or _free_port()
        self.ready_timeout_s = ready_timeout_s
        if network_mode == "host":
            self.with_kwargs(network_mode="host")
            self.with_env("KAFKA_LISTENERS", f"PLAINTEXT://127.0.0.1:{self.port}")
        else:
            self.with_bind_ports(CONTAINER_PORT, self.port)
            self.with_env("KAFKA_LISTENERS", f"PLAINTEXT://0.0.0.0:{CONTAINER_PORT}")

    def _configure(self) -> None:
        if self.network_mode == "bridge":
            self.with_env("KAFKA_ADVERTISED_LISTENERS", f"PLAINTEXT://{self.get_container_host_ip()}:{self.port}")

    def get_bootstrap_server(self) -> str:
        host = "127.0.0.1" if self.network_mode == "host" else self.get_container_host_ip()
        return f"{host}:{self.port}"

    def start(self) -> RockafkaContainer:
        super().start()
        self._wait_until_ready()
        return self

    def _wait_until_ready(self) -> None:
        container = self.get_wrapped_container()
        target = f"127.0.0.1:{self.port if self.network_mode == 'host' else CONTAINER_PORT}"
        deadline = time.monotonic() + self.ready_timeout_s
        while time.monotonic() < deadline:
            container.reload()
            if container.status == "exited":
                raise ContainerNotReadyError(f"the container exited: {container.logs().decode(errors='replace')}")
            if container.exec_run(["rockafka", "probe", "--bootstrap-server", target]).exit_code == 0:
                return
            time.sleep(READY_POLL_S)
        logs = container.logs().decode(errors="replace")
        raise ContainerNotReadyError(f"the broker did not answer within {self.ready_timeout_s} s: {logs}")
