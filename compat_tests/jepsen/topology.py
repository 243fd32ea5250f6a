"""The cluster under test: a local etcd and ``groups`` broker groups of ``members`` broker processes each, every
network link the nemesis may cut behind its own :class:`~compat_tests.jepsen.netproxy.CuttableProxy`.

Node ids run group by group: group ``group-g`` (g = 1..groups) holds nodes ``(g-1)*members+1`` to
``g*members``. Each broker listens on its own loopback port and *advertises its client proxy*
(``advertised.listeners``), so clients reach it, after Metadata too, only through that proxy; it reaches etcd
only through its own etcd proxy (``rockafka.cluster.etcd.endpoints``). Cutting both isolates the broker;
cutting the etcd one alone leaves a broker that clients still reach while its lease runs out (the split a
leader must not survive as leader). The harness itself talks to etcd directly.

:data:`MEMBERS` is the default number of members per group (``ROCKAFKA_JEPSEN_MEMBERS``, else 1); with more
than one, every member sets ``rockafka.replication.listener`` and takes its role from etcd.
Links between members of a group (replication) are not proxied: isolating a member cuts its clients and etcd.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Final

from rockafka.cluster.errors import EtcdUnavailableError
from rockafka.cluster.readiness import wait_for_snapshot
from rockafka.cluster.snapshot import ClusterSnapshot
from rockafka.testing import Broker, BrokerError, LocalEtcd

from ..brokerproc import free_port
from .netproxy import CuttableProxy

#: Members per broker group unless a caller says (the benchmarks' ``--members`` default).
MEMBERS: Final = int(os.environ.get("ROCKAFKA_JEPSEN_MEMBERS", "1"))
#: Small CommitLog segments: each broker pre-allocates two, and several brokers share the disk.
SEGMENT_BYTES: Final = 16 << 20
WAIT_S: Final = 60.0


class FaultCluster:
    """Start with ``with FaultCluster(groups=2) as cluster``; every process is stopped by its PID at the end."""

    def __init__(
        self,
        groups: int = 2,
        members: int = MEMBERS,
        *,
        lease_ttl_ms: int = 2000,
        name: str = "jepsen",
        logs_to: Path | None = None,
    ) -> None:
        """``logs_to``: a directory that receives every broker's log (``broker-<node>.log``) and etcd's at the end."""
        self.name = name
        self.logs_to = logs_to
        self.members = members
        self.lease_ttl_s = lease_ttl_ms / 1000
        self.etcd = LocalEtcd()
        self.groups = {
            f"group-{g}": [(g - 1) * members + m for m in range(1, members + 1)] for g in range(1, groups + 1)
        }
        self.brokers: dict[int, Broker] = {}
        self.client_proxies: dict[int, CuttableProxy] = {}
        self.etcd_proxies: dict[int, CuttableProxy] = {}
        for group, nodes in self.groups.items():
            for node in nodes:
                port = free_port()
                self.client_proxies[node] = CuttableProxy(f"127.0.0.1:{port}", f"clients-{node}")
                self.etcd_proxies[node] = CuttableProxy(self.etcd.endpoint, f"etcd-{node}")
                settings = {
                    "node.id": str(node),
                    "rockafka.cluster.name": name,
                    "rockafka.cluster.group": group,
                    "rockafka.cluster.lease.ttl.ms": str(lease_ttl_ms),
                    "rockafka.cluster.etcd.endpoints": self.etcd_proxies[node].address,
                    "advertised.listeners": f"PLAINTEXT://{self.client_proxies[node].address}",
                    "log.segment.bytes": str(SEGMENT_BYTES),
                }
                if members > 1:
                    settings["rockafka.replication.listener"] = f"127.0.0.1:{free_port()}"
                self.brokers[node] = Broker(subprocess=True, port=port, settings=settings)

    @property
    def bootstrap(self) -> str:
        """Every broker's client proxy, comma-separated."""
        return ",".join(proxy.address for proxy in self.client_proxies.values())

    def group_of(self, node: int) -> str:
        return next(group for group, nodes in self.groups.items() if node in nodes)

    # --- what etcd says ---

    def snapshot_when(
        self, predicate: Callable[[ClusterSnapshot], bool], timeout_s: float = WAIT_S, what: str = ""
    ) -> ClusterSnapshot:
        """etcd's view of the cluster once ``predicate`` holds for it (:class:`BrokerError` after ``timeout_s``);
        an etcd that does not answer yet (just restarted, or a slow machine) is asked again until then."""
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0:
            try:
                return asyncio.run(wait_for_snapshot(self.etcd.endpoint, self.name, predicate, left))
            except TimeoutError:
                break
            except EtcdUnavailableError:
                time.sleep(0.5)
        raise BrokerError(f"the cluster did not reach '{what}' within {timeout_s}s")

    def led(self, snapshot: ClusterSnapshot, group: str) -> bool:
        """Whether etcd names a registered member of ``group`` its leader."""
        state = snapshot.groups.get(group)
        return state is not None and state.leader in self.groups[group] and state.leader in snapshot.brokers

    def serving(self, snapshot: ClusterSnapshot) -> bool:
        """Every broker registered, every group led by one of its registered members, a controller elected."""
        registered = all(node in snapshot.brokers for node in self.brokers)
        return snapshot.controller is not None and registered and all(self.led(snapshot, g) for g in self.groups)

    def wait_serving(self, timeout_s: float = WAIT_S) -> ClusterSnapshot:
        return self.snapshot_when(self.serving, timeout_s, "every broker registered, every group led")

    def leader(self, group: str) -> int:
        """The node etcd names leader of ``group`` once it names a live one."""
        snapshot = self.snapshot_when(lambda s: self.led(s, group), what=f"{group} has a live leader")
        return snapshot.groups[group].leader

    # --- lifecycle and faults ---

    def start(self) -> FaultCluster:
        self.etcd.start()
        for broker in self.brokers.values():
            broker.start()
        self.wait_serving()
        return self

    def kill(self, node: int) -> None:
        """SIGKILL broker ``node``."""
        self.brokers[node].kill()

    def start_broker(self, node: int, timeout_s: float = WAIT_S) -> None:
        """Start ``node`` again once etcd dropped its registration (a start inside its lease is refused)."""
        self.snapshot_when(lambda s: node not in s.brokers, timeout_s, f"broker {node} unregistered")
        self.brokers[node].start()

    def pause(self, node: int) -> None:
        self.brokers[node].pause()

    def resume(self, node: int) -> None:
        self.brokers[node].resume()

    def isolate(self, node: int, *, clients: bool = True) -> None:
        """Cut ``node`` from etcd and, with ``clients``, from every client."""
        self.etcd_proxies[node].cut_link()
        if clients:
            self.client_proxies[node].cut_link()

    def heal(self, node: int) -> None:
        self.etcd_proxies[node].heal()
        self.client_proxies[node].heal()

    def restart_etcd(self, down_s: float = 1.0) -> None:
        """Stop etcd by its PID, ``down_s`` later start it again on the same port and data."""
        self.etcd.stop()
        time.sleep(down_s)
        self.etcd.start()

    def close(self) -> None:
        """Stop every broker (one that ignores SIGTERM is killed, the others still stopped), keep the logs, close
        the proxies and etcd; then raise the first broker's failure to stop, if any (a finding of the run)."""
        for node in self.brokers:
            self.heal(node)
        failures = []
        for broker in self.brokers.values():
            try:
                broker.stop()
            except BrokerError as exc:
                failures.append(exc)
        self._keep_logs()
        for broker in self.brokers.values():
            broker.close()
        for proxy in [*self.client_proxies.values(), *self.etcd_proxies.values()]:
            proxy.close()
        self.etcd.close()
        if failures:
            raise failures[0]

    def _keep_logs(self) -> None:
        if self.logs_to is None:
            return
        self.logs_to.mkdir(parents=True, exist_ok=True)
        logs = {f"broker-{node}.log": broker.log_path for node, broker in self.brokers.items()}
        logs["etcd.log"] = self.etcd.data_dir / "etcd.log"
        for name, path in logs.items():
            if path.exists():
                shutil.copyfile(path, self.logs_to / name)

    def __enter__(self) -> FaultCluster:
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
