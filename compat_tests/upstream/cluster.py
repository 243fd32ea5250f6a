"""The brokers an upstream suite runs against: one Rockafka, or (``--cluster N``) a cluster of N broker groups.

:class:`SuiteBrokers` starts, for a cluster, a local etcd (:class:`rockafka.testing.LocalEtcd`) and N
``rockafka serve`` processes (:class:`compat_tests.brokerproc.BrokerProcess`), node ids ``0..N-1`` (aiokafka's
test_sender addresses node 0, the suite's fixture broker), groups ``group-0..``, each with the suite's settings
and listeners on its own free ports. With ``--replicas R`` each group has R members, group ``group-g`` the node
ids ``g*R .. g*R+R-1``, each member with its own ``rockafka.replication.listener``; the lowest of each group is
started first and leads it, so node 0 still leads group-0. The suite is pointed at broker 0 (its PLAINTEXT
address and its other listeners), as it is at the single broker; the cluster spreads the suite's topics over
every group. It returns once every broker is registered, the lowest of each group leads it and a controller is
elected. SCRAM users the suite needs
before its tests are added with ``rockafka users add``: offline into the data directory for one broker, online
(AlterUserScramCredentials, kept in etcd) for a cluster. Every process is stopped by its PID.
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Callable
from pathlib import Path

from rockafka.cluster.readiness import wait_for_snapshot, wait_until_serving
from rockafka.cluster.snapshot import ClusterSnapshot
from rockafka.testing import TEST_SETTINGS, LocalEtcd

from ..brokerproc import BrokerProcess
from . import security
from .suites import Suite

CLUSTER_NAME = "upstream"
#: rockafka.cluster.lease.ttl.ms's default: a broker that stops answering leaves the cluster after this.
LEASE_TTL_MS = "6000"
READY_TIMEOUT_S = 60.0

#: ``(node id, PLAINTEXT port, {listener name: port}) -> broker settings``
Settings = Callable[[int, int, dict[str, int]], dict[str, str]]


class SuiteBrokers:
    """One broker (``groups=0``) or a cluster of ``groups`` groups of ``replicas`` brokers each, under ``base``."""

    def __init__(
        self,
        suite: Suite,
        base: Path,
        groups: int,
        settings: Settings,
        free_port: Callable[[], int],
        replicas: int = 1,
    ) -> None:
        self.suite = suite
        self.base = base
        self.groups = groups
        self.replicas = replicas
        self._make_settings = settings
        self._free_port = free_port
        self.etcd = LocalEtcd(base / "etcd") if groups else None
        self.brokers: list[BrokerProcess] = []
        self.ports: list[dict[str, int]] = []
        self.settings: list[dict[str, str]] = []
        for index in range(groups * replicas if groups else 1):
            broker, ports, own = self._member(index)
            self.brokers.append(broker)
            self.ports.append(ports)
            self.settings.append(own)

    def _member(self, index: int) -> tuple[BrokerProcess, dict[str, int], dict[str, str]]:
        """Broker ``index`` on free ports: its process (not started), its listeners' ports and its own settings."""
        port = self._free_port()
        ports = {name: self._free_port() for name, _ in self.suite.listeners}
        own = self._make_settings(index, port, ports)
        if self.groups:
            own |= {"node.id": str(index), "rockafka.cluster.group": f"group-{index // self.replicas}"}
        if self.replicas > 1:
            own["rockafka.replication.listener"] = f"127.0.0.1:{self._free_port()}"
        workdir = self.base / "broker" if not self.groups else self.base / f"broker-{index}"
        return BrokerProcess(workdir, settings={**TEST_SETTINGS, **own}, port=port), ports, own

    def _start_member(self, index: int, cluster: dict[str, str]) -> None:
        """Start broker ``index`` in the cluster; a port taken since it was picked (another process's outgoing
        connection) is picked again, twice at most. Node 0 keeps its ports: the suite was told them."""
        for attempt in range(3):
            self.brokers[index].settings.update(cluster)
            try:
                self.brokers[index].start()
                return
            except RuntimeError as exc:
                if index == 0 or attempt == 2 or "address already in use" not in str(exc):
                    raise
            self.brokers[index], self.ports[index], self.settings[index] = self._member(index)

    @property
    def first(self) -> BrokerProcess:
        return self.brokers[0]

    @property
    def log_paths(self) -> list[Path]:
        return [broker.log_path for broker in self.brokers]

    def describe(self) -> str:
        if self.etcd is None:
            return "one broker"
        groups = len(self.brokers) // self.replicas
        members = f" of {self.replicas} brokers each" if self.replicas > 1 else ""
        plural = "s" if groups > 1 else ""
        return f"a cluster of {groups} broker group{plural}{members} (etcd {self.etcd.endpoint}), the suite at node 0"

    @property
    def group_leaders(self) -> list[int]:
        """The node id each group is started to be led by: its lowest."""
        return list(range(0, len(self.brokers), self.replicas))

    def start(self) -> None:
        if self.etcd is None:
            security.add_scram_users(self.suite, self.first.data_dir, self.base)
            self.first.start()
            return
        self.etcd.start()
        cluster = {
            "rockafka.cluster.etcd.endpoints": self.etcd.endpoint,
            "rockafka.cluster.name": CLUSTER_NAME,
            "rockafka.cluster.lease.ttl.ms": LEASE_TTL_MS,
        }
        leaders = self.group_leaders
        for node in leaders:
            self._start_member(node, cluster)
        asyncio.run(wait_until_serving(self.etcd.endpoint, CLUSTER_NAME, leaders, READY_TIMEOUT_S))
        followers = [node for node in range(len(self.brokers)) if node not in leaders]
        for node in followers:
            self._start_member(node, cluster)

        def registered(snapshot: ClusterSnapshot) -> bool:
            return all(node in snapshot.brokers for node in followers)

        asyncio.run(wait_for_snapshot(self.etcd.endpoint, CLUSTER_NAME, registered, READY_TIMEOUT_S))
        self._add_scram_users_online()

    def _add_scram_users_online(self) -> None:
        for user, password in self.suite.scram_users:
            done = subprocess.run(
                [*security.rockafka_cli(), "users", "add", user, "--bootstrap-server", self.first.bootstrap],
                input=password + "\n",
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
                cwd=self.base,
            )
            if done.returncode != 0:
                raise security.SecuritySetupError(f"rockafka users add {user}: {done.stderr.strip()}")

    def stop(self) -> None:
        """Every broker (SIGTERM, then SIGKILL past its bound), then etcd; the first broker's failure is raised."""
        failures: list[RuntimeError] = []
        for broker in self.brokers:
            try:
                broker.stop()
            except RuntimeError as exc:
                failures.append(exc)
        if self.etcd is not None:
            self.etcd.close()
        if failures:
            raise failures[0]
