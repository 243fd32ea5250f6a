"""A running broker: opens the store, listens on every listener, shuts down cleanly.

With ``rockafka.http.listener`` set, the broker also serves ``/metrics``, ``/healthz`` and ``/readyz`` over HTTP
(``ops/``); other routes (the web console) are added to :attr:`BrokerApp.http` before :meth:`BrokerApp.start`.

Shutdown (SIGTERM, SIGINT, or :meth:`BrokerApp.stop`) stops accepting connections and taking requests,
lets requests in flight finish (parked fetches answer at once with what they have, and park no more),
closes the connections, then flushes and closes the store, which writes a clean checkpoint. A broker
with connected consumers thus stops in well under a second, inside Docker's 10 s grace.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rockafka.cluster import ClusterError, EtcdUnavailableError, NodeIdTakenError
from rockafka.store import MessageStore, StoreError

from . import handlers as _handlers  # noqa: F401  (registers every API handler)
from . import replication as _replication
from .broker import Broker, load_cluster_id, store_config
from .clock import REAL_CLOCK, Clock
from .config import BrokerConfig, Listener
from .connections import ConnectionLimits, Connections
from .console import Console
from .dispatch import RequestDispatcher
from .faults import FaultInjector
from .interbroker import InterBrokerError, InterBrokerSettings, inter_broker_settings
from .ops import BrokerMetrics, HttpListener, HttpListenerError, MeteredDispatcher, OpsEndpoints, parse_address
from .ops.events import recovery_summary, settings_summary
from .security import SecurityError, SecurityService
from .server import KafkaConnection, RequestHandler
from .stopping import stop_within

if TYPE_CHECKING:
    from rockafka.cluster.member import ClusterMember, MemberSettings

    from .cluster_topology import ClusterTopology
    from .replication_roles import ClusterRoles

log = logging.getLogger(__name__)

DRAIN_TIMEOUT_S = 10.0
JOIN_RETRY_S = 0.5  # between attempts to join a cluster (etcd unreachable, the node id still registered)


class StartupError(Exception):
    """The broker cannot start (port in use, unusable data directory, unsupported listener); one line."""


@dataclass(frozen=True, slots=True)
class BoundListener:
    listener: Listener
    port: int


class BrokerApp:
    def __init__(self, config: BrokerConfig, *, fault_injection: bool = False, clock: Clock = REAL_CLOCK) -> None:
        """``fault_injection``: serve through a :class:`FaultInjector` (``self.faults``), for ``rockafka.testing``
        only; ``rockafka serve`` never sets it. ``clock``: what the broker's own timers consult (``clock.py``)."""
        self.config = config
        self.clock = clock
        self._fault_injection = fault_injection
        self.faults: FaultInjector | None = None
        self.broker: Broker | None = None
        self.bound: list[BoundListener] = []
        self._servers: list[asyncio.Server] = []
        self._connections = Connections(ConnectionLimits.from_config(config))
        self._stopped = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._member: ClusterMember | None = None  # set when the broker joined a cluster
        self._cluster_topology: ClusterTopology | None = None  # likewise
        self._roles: ClusterRoles | None = None  # likewise, for a member of a replicated group
        self._restart = asyncio.Event()  # a demoted leader asks to start again in this process (run_until_signalled)
        address = config.str("rockafka.http.listener")
        self.http = HttpListener(*parse_address(address)) if address else None
        self.serving = False
        """Every listener bound and not stopping (what ``/readyz`` checks first)."""

    def _reconfigure_connections(self, config: BrokerConfig) -> None:
        """The connection limits as the (possibly dynamic) configuration sets them; checked on each new connection."""
        self._connections.limits = ConnectionLimits.from_config(config)

    async def start(self) -> None:
        try:
            security = SecurityService(self.config)
        except SecurityError as exc:
            raise StartupError(str(exc)) from None
        try:
            store = MessageStore.open(store_config(self.config), clock=self.clock.now_ms)
        except Exception as exc:
            raise StartupError(f"cannot open the data directory {self.config.data_dir}: {exc}") from exc
        log.info("%s", recovery_summary(store.recovery_report, store.open_seconds))
        store, replication = await self._prepare_replication(store)
        try:
            cluster_id = load_cluster_id(self.config.data_dir, self.config.node_id)
        except StoreError as exc:  # an unreadable meta.properties: the store opened above is closed again
            store.close()
            raise StartupError(str(exc)) from None
        metrics = BrokerMetrics() if self.http is not None else None
        broker = Broker(self.config, store, cluster_id, metrics=metrics, replication=replication, clock=self.clock)
        broker.reconfigured.append(self._reconfigure_connections)
        self._reconfigure_connections(broker.config)
        store.records.add_append_listener(broker.waiters.on_append)
        broker.groups.start()
        broker.producers.start()
        broker.transactions.start()
        self.broker = broker
        dispatcher = RequestDispatcher(broker, security)
        served: RequestHandler = dispatcher if metrics is None else self._metered(dispatcher, metrics)
        if self._fault_injection:
            served = self.faults = FaultInjector(served, dispatcher, broker, self._connections)
        await self._bind(broker, served, security)
        if replication is not None:
            try:
                await _replication.start(replication, self.config, store, broker.waiters.wake_all)
            except _replication.ReplicationSetupError as exc:
                await self._abandon_start(broker)
                raise StartupError(str(exc)) from None
        if self.config.get("rockafka.cluster.etcd.endpoints"):
            await self._join_cluster(broker, security)
        for server in self._servers:  # only now: before the join a broker of a cluster would answer as a single one
            await server.start_serving()
        await self._start_http(store, security)  # after the join: the console checks the cluster's users and ACLs
        self._tasks.append(asyncio.create_task(self._retention_loop(broker)))
        self._tasks.append(asyncio.create_task(self._cleaner_loop(broker)))
        self._connections.start()
        self.serving = True
        log.info(
            "Rockafka broker %d started (cluster %s, data in %s)",
            broker.node_id,
            broker.cluster_id,
            self.config.data_dir,
        )
        log.info("%s", settings_summary(self.config))

    async def _bind(self, broker: Broker, served: RequestHandler, security: SecurityService) -> None:
        """Bind every listener (its port is known from here on), without accepting connections yet: ``start``
        accepts them once the broker is ready to answer as what it is, in a cluster once it has joined (as Kafka's
        broker enables request processing last in its start-up)."""
        max_frame = self.config.int("socket.request.max.bytes")
        loop = asyncio.get_running_loop()
        try:
            for listener in self.config.listeners:
                server = await loop.create_server(
                    lambda listener=listener: self._connection(served, listener, max_frame),
                    host=listener.host or None,
                    port=listener.port,
                    reuse_address=True,
                    ssl=security.listeners[listener.name].ssl_context,
                    start_serving=False,
                )
                self._servers.append(server)
                port = server.sockets[0].getsockname()[1]
                self.bound.append(BoundListener(listener, port))
                log.info("listening on %s://%s:%d", listener.name, listener.host or "0.0.0.0", port)
        except OSError as exc:
            await self._abandon_start(broker)
            raise StartupError(f"cannot listen on {listener.url}: {exc.strerror or exc}") from None

    async def _prepare_replication(self, store: MessageStore) -> tuple[MessageStore, _replication.Replication | None]:
        """A follower's handshake (its store cut back and reopened when its log parts from the leader's)."""
        try:
            return await _replication.prepare(self.config, store, store_config(self.config))
        except (_replication.ReplicationSetupError, StoreError) as exc:
            store.close()
            raise StartupError(str(exc)) from None

    async def _join_cluster(self, broker: Broker, security: SecurityService) -> None:
        """Register in the cluster named by ``rockafka.cluster.etcd.endpoints`` and serve from its snapshot
        (topics, and the ACLs and SCRAM credentials kept in etcd instead of the data directory's files).

        Any failure (etcd unreachable, node.id taken) closes what was opened and is one StartupError line."""
        try:
            from rockafka.cluster.member import MemberSettings  # loads the etcd client: only here

            from .cluster_broker_default import ClusterBrokerDefault
            from .cluster_topology import ClusterTopology
            from .leader_elections import ClusterLeaderElections
            from .replication_roles import ClusterRoles, EtcdDuties
        except ImportError as exc:
            await self._abandon_start(broker)
            raise StartupError(
                f"rockafka.cluster.etcd.endpoints needs the etcd client ({exc.name}): pip install 'rockafka[cluster]'"
            ) from None
        config = self.config
        endpoints = config.get("rockafka.cluster.etcd.endpoints")
        assert isinstance(endpoints, list)
        advertised = config.advertised_listeners[0]
        bound = {item.listener.name: item.port for item in self.bound}
        settings = MemberSettings(
            endpoints=endpoints,
            cluster_name=config.str("rockafka.cluster.name"),
            group=str(config.get("rockafka.cluster.group") or f"group-{config.node_id}"),
            node_id=config.node_id,
            host=advertised.host,
            port=advertised.port or bound.get(advertised.name, 0),
            lease_ttl_s=-(-config.int("rockafka.cluster.lease.ttl.ms") // 1000),
            listeners={
                item.name: (item.host, item.port or bound.get(item.name, 0)) for item in config.advertised_listeners
            },
            replication=self._replication_address(broker),
            unclean_election=config.bool("unclean.leader.election.enable"),
            rack=str(config.get("broker.rack") or "") or None,
        )
        try:
            member = await _join(settings, broker.cluster_id, config.int("rockafka.cluster.join.timeout.ms"))
        except ClusterError as exc:
            await self._abandon_start(broker)
            raise StartupError(str(exc)) from None
        self._member = member
        broker.cluster_id = member.cluster_id
        broker.leader_elections = ClusterLeaderElections(member)
        if broker.replication is not None and broker.replication.in_cluster:
            assert member.view is not None
            self._roles = ClusterRoles(
                broker.replication, config, broker.store, settings.group, broker.waiters.wake_all,
                self.request_restart, lambda: _rebuild_producers(broker), EtcdDuties(member, settings.group),
                broker.producers,
            )  # fmt: skip
            self._roles.attach(member.view)  # before the topology: it stops copying before the topology leads
        coordinate = {
            "__consumer_offsets": broker.groups.coordinate,
            "__transaction_state": broker.transactions.coordinate,
        }
        interbroker = self._inter_broker_settings()
        topology = ClusterTopology(member, broker.store, coordinate, broker.producers.rebuild_partition, interbroker)
        broker.topology = self._cluster_topology = topology
        broker.dynamic.cluster_default = ClusterBrokerDefault(member, broker)
        broker.transactions.use_cluster(topology.marker_route, interbroker)
        await self._share_security(member, security)
        log.info("joined cluster %s as node %d of group %s", member.cluster_id, settings.node_id, settings.group)

    def _replication_address(self, broker: Broker) -> tuple[str, int] | None:
        """The replication listener to register, for a member of a replicated group (its part comes from etcd)."""
        if broker.replication is None or not broker.replication.in_cluster:
            return None
        return _replication.replication_address(self.config.str("rockafka.replication.listener"))

    def request_restart(self, reason: str) -> None:
        """Stop and start again in this process (``run_until_signalled``): a demoted leader whose log parts from
        its new leader's, so that the new start handshakes and cuts its store back before it serves."""
        log.warning("restarting the broker in this process: %s", reason)
        self._restart.set()

    def _inter_broker_settings(self) -> InterBrokerSettings | None:
        """How this broker reaches the others (transaction markers, partition moves); settings it cannot use for
        that are said once, and the broker serves on (only transactions spanning broker groups and moves cannot
        complete)."""
        try:
            settings = inter_broker_settings(self.config)
        except InterBrokerError as exc:
            log.error("%s", exc)
            return None
        log.info("brokers reach each other on %s", settings.describe())
        return settings

    async def _share_security(self, member: ClusterMember, security: SecurityService) -> None:
        """Serve the cluster's ACLs and SCRAM users from etcd; the first broker of a cluster that never had any
        seeds them from its data directory's files (``rockafka acls``/``users --data-dir`` before its first start)."""
        from .cluster_security import ClusterAcls, ClusterCredentials, seed_cluster_security

        local_acls, local_users = security.acls.bindings(), security.credentials.users()
        security.share(ClusterAcls(member), ClusterCredentials(member))
        try:
            seeded = await seed_cluster_security(member, local_acls, local_users)
        except ClusterError as exc:
            log.warning("cannot seed the cluster's ACLs and SCRAM users from the data directory: %s", exc)
            return
        if not seeded and (local_acls or local_users):
            log.warning(
                "%s holds %d ACL(s) and %d SCRAM user(s) that this broker ignores: the cluster keeps its own in etcd",
                self.config.data_dir,
                len(local_acls),
                len(local_users),
            )
        elif seeded:
            log.info(
                "seeded the cluster's security state from %s: %d ACL(s), %d SCRAM user(s); the cluster keeps them in"
                " etcd from now on",
                self.config.data_dir,
                len(local_acls),
                len(local_users),
            )

    async def _abandon_start(self, broker: Broker) -> None:
        """Undo a start that failed after the store opened: the services' timers and tasks stopped (and given a
        turn of the loop to end, so none is left pending), the listeners and the store closed."""
        if self._roles is not None:
            await self._roles.stop()
        if broker.replication is not None:
            await broker.replication.stop()
        broker.waiters.close()
        broker.groups.shutdown()
        broker.transactions.shutdown()
        broker.producers.shutdown()
        await asyncio.sleep(0)
        await self._close_servers()
        broker.store.close()
        self.broker = None

    def _metered(self, dispatcher: RequestDispatcher, metrics: BrokerMetrics) -> RequestHandler:
        """Count appends, answers, errors and request times for ``/metrics``."""
        assert self.broker is not None
        self.broker.store.records.add_append_listener(metrics.on_append)
        dispatcher.on_error = metrics.on_error
        return MeteredDispatcher(dispatcher, metrics)

    def _cluster_state(self) -> str | None:
        """The ``/readyz`` cluster check: None for a single broker, else registered or what is missing."""
        if not self.config.get("rockafka.cluster.etcd.endpoints") and self._member is None:
            return None
        if self._member is None:
            return "not joined yet"
        node, snapshot = self._member.settings.node_id, self._member.snapshot
        if node not in snapshot.brokers:
            return f"node {node} not registered in etcd"
        if snapshot.controller is None:
            return "no controller elected"
        return f"registered as node {node} (group {self._member.settings.group})"

    async def _start_http(self, store: MessageStore, security: SecurityService) -> None:
        if self.http is None or self.broker is None or self.broker.metrics is None:
            return
        endpoints = OpsEndpoints(
            self.broker.metrics,
            store,
            lambda: [c.info for c in self._connections],
            lambda: self.serving,
            self._cluster_state,
        )
        endpoints.register(self.http)
        if self.config.bool("rockafka.console.enable"):
            console = Console(self.broker, security, allow_changes=self.config.bool("rockafka.console.allow.changes"))
            console.register(self.http)
        try:
            await self.http.start()
        except HttpListenerError as exc:
            await self._abandon_start(self.broker)
            raise StartupError(str(exc)) from None

    def _connection(self, dispatcher: RequestHandler, listener: Listener, max_frame: int) -> KafkaConnection:
        return KafkaConnection(dispatcher, listener.name, listener.security_protocol, max_frame, self._connections)

    async def _retention_loop(self, broker: Broker) -> None:
        def enforce() -> list[object]:
            report = broker.store.retention.enforce()
            return [report] if report.deleted_segments or report.log_start_moves else []

        interval_s = self.config.int("log.retention.check.interval.ms") / 1000
        await _every(self.clock, lambda: interval_s, "retention", enforce)

    async def _cleaner_loop(self, broker: Broker) -> None:
        """Log compaction: every ``log.cleaner.backoff.ms``, publish the cleaner's finished pass and start the next
        (the pass itself runs on the store's cleaner thread)."""
        cleaner = broker.store.cleaner

        def backoff_s() -> float:  # a dynamic broker config: read before each wait
            return broker.config.int("log.cleaner.backoff.ms") / 1000

        await _every(self.clock, backoff_s, "compaction", cleaner.run, lambda: cleaner.planning)

    async def stop(self) -> None:
        """Stop accepting, drain requests in flight (bounded), close connections, close the store."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        self.serving = False
        for server in self._servers:
            server.close()
        for task in self._tasks:
            task.cancel()
        self._connections.stop()
        if self.faults is not None:
            self.faults.clear()  # no request waits on a fault any more
        for connection in self._connections:
            connection.finish()
        if self.broker is not None:
            self.broker.waiters.close()
            self.broker.groups.shutdown()
            self.broker.transactions.shutdown()
        deadline = time.monotonic() + DRAIN_TIMEOUT_S
        while any(not c.idle for c in self._connections) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        if busy := sum(not c.idle for c in self._connections):
            log.warning("shutdown: %d connection(s) still busy after %.0f s; closing them", busy, DRAIN_TIMEOUT_S)
        for connection in self._connections:
            connection.close()
        await self._close_servers()
        if self._roles is not None:
            await stop_within("the replication roles", self._roles.stop())
        if self._member is not None:
            if self._cluster_topology is not None:  # the moves this broker was copying or sealing
                await stop_within("the cluster topology", self._cluster_topology.stop())
            await stop_within("the cluster membership", self._member.stop())
        if self.broker is not None and self.broker.replication is not None:
            await stop_within("replication", self.broker.replication.stop())
        if self.http is not None:
            await stop_within("the HTTP listener", self.http.stop())
        if self.broker is not None:
            self.broker.producers.shutdown()
            self.broker.store.close()
        log.info("Rockafka broker stopped")

    async def _close_servers(self) -> None:
        for server in self._servers:
            server.close()
        for server in self._servers:
            await server.wait_closed()
        self._servers.clear()

    async def run_until_signalled(self) -> None:
        """Start, then serve until SIGTERM or SIGINT, then stop cleanly; stop and start afresh whenever
        :meth:`request_restart` asks (the same settings: listeners, data directory, cluster). The signal handlers
        are installed once, so a signal during a restart stops the broker once it has started again."""
        stop_requested = _stop_signal_event()
        while True:
            await self.start()
            signalled = asyncio.ensure_future(stop_requested.wait())
            restart = asyncio.ensure_future(self._restart.wait())
            await asyncio.wait((signalled, restart), return_when=asyncio.FIRST_COMPLETED)
            for waiting in (signalled, restart):
                waiting.cancel()
            if stop_requested.is_set():
                log.info("shutting down")
            await self.stop()
            if stop_requested.is_set():
                return
            self.__init__(self.config, fault_injection=self._fault_injection, clock=self.clock)  # type: ignore[misc]


async def _join(settings: MemberSettings, cluster_id: str | None, timeout_ms: int) -> ClusterMember:
    """Join the cluster, trying again for ``timeout_ms`` while etcd cannot be reached or this node id is still
    registered (a broker killed and started again inside its lease: the old registration expires with it), as a
    Kafka broker waits ``zookeeper.connection.timeout.ms`` for ZooKeeper. Then the last ``ClusterError`` is raised."""
    from rockafka.cluster.member import ClusterMember  # loads the etcd client: only in a cluster

    deadline = time.monotonic() + timeout_ms / 1000
    said = False
    while True:
        member = ClusterMember(settings)
        try:
            await member.start(proposed_cluster_id=cluster_id)
            return member
        except (EtcdUnavailableError, NodeIdTakenError) as exc:
            if time.monotonic() + JOIN_RETRY_S > deadline:
                raise
            if not said:
                log.warning("cannot join the cluster yet (trying for %.0f s): %s", timeout_ms / 1000, exc)
                said = True
        await asyncio.sleep(JOIN_RETRY_S)


def _rebuild_producers(broker: Broker) -> None:
    """Every partition's idempotent producers brought to its log end (a follower promoted: its copied appends
    recorded none; its tables hold what it replayed while following, ``ProducerService.keep_up``). It runs on the
    loop before the promoted broker serves; the log line says how long it held it."""
    started = time.monotonic()
    batches = broker.producers.lead()
    log.warning("promoted: the idempotent producers brought up to the log (%d batches replayed) in %.3f s", batches,
                time.monotonic() - started)  # fmt: skip


async def wait_for_stop_signal() -> None:
    """Return at the first SIGTERM or SIGINT (the running loop's signal handlers take them)."""
    await _stop_signal_event().wait()
    log.info("shutting down")


def _stop_signal_event() -> asyncio.Event:
    """An event the running loop's SIGTERM and SIGINT handlers set."""
    loop = asyncio.get_running_loop()
    stop_requested = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop_requested.set)
    return stop_requested


async def _every(
    clock: Clock,
    interval_s: Callable[[], float],
    what: str,
    run_once: Callable[[], Iterable[object]],
    again: Callable[[], bool] = lambda: False,
) -> None:
    """Run a store pass on a timer (its interval read before each wait: it may be a dynamic broker config): one INFO
    line per report it gives; a refusal by a full or offline store is one WARNING line when it starts, not one every
    pass. While ``again()`` says so, the next run is at the loop's next turn (the cleaner plans a pass in steps)
    rather than after the interval."""
    refused = ""
    while True:
        await clock.sleep(0 if again() else interval_s())
        try:
            reports = run_once()
        except StoreError as exc:
            if str(exc) != refused:
                log.warning("%s pass refused by the store: %s", what, exc)
            refused = str(exc)
            continue
        except Exception:
            log.exception("%s pass failed", what)
            continue
        refused = ""
        for report in reports:
            log.info("%s: %s", what, report)
