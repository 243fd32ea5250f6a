"""One broker's membership in a cluster: connect, register under a lease, follow the view, serve as controller.

:class:`ClusterMember` runs on the broker's event loop:

1. connects to etcd (:class:`EtcdUnavailableError` if no endpoint answers: the broker says so in one line
   and exits 1);
2. reads or creates the cluster id;
3. grants a lease of ``lease_ttl_s`` seconds and registers ``brokers/<node id>`` under it (a live twin:
   :class:`NodeIdTakenError`); a task refreshes the lease every third of its TTL, so a killed broker's
   registration (and its controller key) vanishes within one TTL. A broker that finds its lease expired
   (it was paused past the TTL) takes a new one and registers again, every third of the TTL until it is
   registered (etcd unreachable or refusing meanwhile), unless its node id was taken;
4. starts the :class:`ClusterView` (range read, then watch);
5. runs the controller duty: whenever the view changes, campaign if no controller is registered, and if
   this broker is the controller, give each group a live leader (``controller.py``). A step that failed
   (etcd unreachable or refusing) is done again after ``RETRY_FIRST_S``, doubling up to ``RETRY_MAX_S``, without
   waiting for a change that may never come.

:meth:`stop` revokes the lease, so a cleanly stopped broker leaves the cluster at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from .controller import Controller
from .errors import ClusterError, NodeIdTakenError, NotControllerError
from .etcd import Etcd
from .layout import BrokerInfo, KeyLayout, check_group_name
from .metadata import ClusterMetadata
from .snapshot import ClusterSnapshot
from .tasks import cancel_and_wait
from .view import RETRY_FIRST_S, RETRY_MAX_S, ClusterView

log = logging.getLogger(__name__)

#: The name under which a broker registers its replication listener among its listeners (``brokers/<node id>``);
#: no client listener may take it.
REPLICATION_LISTENER: Final = "REPLICATION"


@dataclass(frozen=True, slots=True)
class MemberSettings:
    """What a broker needs to join a cluster (from the broker's settings, see docs/configuration.md)."""

    endpoints: Sequence[str]
    cluster_name: str
    group: str
    node_id: int
    host: str
    port: int
    lease_ttl_s: int
    #: every advertised listener by name, (host, port): registered so brokers answer on the client's listener
    listeners: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    #: the broker's replication listener (``rockafka.replication.listener``), registered as the listener named
    #: ``REPLICATION_LISTENER``: where the other members of its group follow it when it leads
    replication: tuple[str, int] | None = None
    #: ``unclean.leader.election.enable``, when the cluster-wide broker default in etcd does not say (as controller)
    unclean_election: bool = False
    #: ``broker.rack`` (None: unset)
    rack: str | None = None

    def registration(self) -> BrokerInfo:
        listeners = dict(self.listeners)
        if self.replication is not None:
            listeners[REPLICATION_LISTENER] = self.replication
        return BrokerInfo(self.node_id, self.group, self.host, self.port, MappingProxyType(listeners), self.rack)


class ClusterMember:
    """This broker in the cluster: registration, lease, view and controller duty."""

    def __init__(self, settings: MemberSettings) -> None:
        check_group_name(settings.group)
        if settings.replication is not None and REPLICATION_LISTENER in settings.listeners:
            raise ClusterError(f"a client listener may not be named {REPLICATION_LISTENER}: a member of a replicated "
                               "group registers its replication listener under that name")  # fmt: skip
        self.settings = settings
        self.layout = KeyLayout(settings.cluster_name)
        self._etcd: Etcd | None = None
        self.view: ClusterView | None = None
        self.metadata: ClusterMetadata | None = None
        self.controller: Controller | None = None
        self.cluster_id = ""
        self._lease_id = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._woken = asyncio.Event()

    @property
    def lease_id(self) -> int:
        """The lease this broker's registration (and what it writes under it) is bound to now."""
        return self._lease_id

    @property
    def snapshot(self) -> ClusterSnapshot:
        assert self.view is not None, "ClusterMember.start() first"
        return self.view.snapshot

    async def start(self, proposed_cluster_id: str | None = None) -> ClusterSnapshot:
        """Join the cluster; the first snapshot. Raises :class:`ClusterError` (nothing left behind)."""
        settings = self.settings
        self._etcd = etcd = await Etcd.connect(settings.endpoints)
        try:
            self.metadata = ClusterMetadata(etcd, self.layout)
            self.cluster_id = await self.metadata.ensure_cluster_id(proposed_cluster_id)
            self._lease_id = await etcd.grant_lease(settings.lease_ttl_s)
            info = settings.registration()
            await self.metadata.register(info, self._lease_id)
            self.view = ClusterView(etcd, self.layout)
            self.view.add_listener(lambda _old, _new: self._woken.set())
            snapshot = await self.view.start()
        except ClusterError:
            await self._release()
            raise
        self.controller = Controller(etcd, self.layout, settings.node_id, unclean=settings.unclean_election)
        self._tasks = [
            asyncio.create_task(self._keep_lease(), name="rockafka-cluster-lease"),
            asyncio.create_task(self._controller_duty(), name="rockafka-cluster-controller"),
        ]
        return snapshot

    async def stop(self) -> None:
        """Leave the cluster: stop the tasks and the watch, revoke the lease, close the connection."""
        for task in self._tasks:
            await cancel_and_wait(task)
        self._tasks = []
        if self.view is not None:
            await self.view.stop()
        await self._release()

    async def _release(self) -> None:
        etcd, self._etcd = self._etcd, None
        if etcd is None:
            return
        if self._lease_id:
            with contextlib.suppress(ClusterError):
                await etcd.revoke_lease(self._lease_id)
        await etcd.close()

    async def _keep_lease(self) -> None:
        assert self._etcd is not None
        interval = max(self.settings.lease_ttl_s / 3, 0.2)
        failing = False
        while True:
            await asyncio.sleep(interval)
            try:
                remaining = await self._etcd.keep_alive(self._lease_id)
            except ClusterError as exc:
                if not failing:  # once per outage, not every third of the TTL
                    log.warning("cannot refresh the cluster lease (trying on): %s", exc)
                failing = True
                continue
            if failing:
                log.warning("the cluster lease is refreshed again")
                failing = False
            if remaining <= 0:
                await self._register_again(interval)

    async def _register_again(self, interval: float) -> None:
        """The lease expired (the process was paused past its TTL, or etcd lost it): take a new lease and register
        again, every ``interval`` seconds until it is done, unless another live broker took this node id meanwhile
        (then stay out, and say so). The lease granted is kept alive between tries, so a registration whose
        answer was lost is found under it (``register`` takes it as done) rather than taken for a twin's."""
        assert self._etcd is not None and self.metadata is not None and self.controller is not None
        etcd, settings = self._etcd, self.settings
        log.warning("node %d's cluster lease expired: registering again", settings.node_id)
        self.controller.term = None  # the controller key went with the old lease
        granted = 0
        for attempt in itertools.count():
            try:
                if not granted or await etcd.keep_alive(granted) <= 0:
                    self._lease_id = granted = await etcd.grant_lease(settings.lease_ttl_s)
                await self.metadata.register(settings.registration(), granted)
                break
            except NodeIdTakenError as exc:
                log.error("node %d cannot register again: %s", settings.node_id, exc)
                return
            except ClusterError as exc:
                if attempt == 0:  # once, not at every try
                    log.error("node %d cannot register again (trying on): %s", settings.node_id, exc)
            await asyncio.sleep(interval)
        if attempt:
            log.warning("node %d is registered again", settings.node_id)
        self._woken.set()

    async def _controller_duty(self) -> None:
        """At every change of the view, and again after a pause when a step failed for want of etcd (a change may
        never come: an election etcd refused once would never be tried again)."""
        assert self.controller is not None and self.view is not None
        pause: float | None = None  # how long to wait before trying again; None: until the next change
        while True:
            self._woken.clear()
            try:
                await self._act_as_controller(self.view.snapshot)
                pause = None
            except NotControllerError as exc:
                log.warning("%s", exc)
                pause = None
            except ClusterError as exc:
                if pause is None:  # once per outage
                    log.warning("controller duty failed (trying on): %s", exc)
                pause = RETRY_FIRST_S if pause is None else min(pause * 2, RETRY_MAX_S)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(pause):
                    await self._woken.wait()

    async def _act_as_controller(self, snapshot: ClusterSnapshot) -> None:
        controller = self.controller
        assert controller is not None
        me = self.settings.node_id
        if snapshot.controller is None or (snapshot.controller == me and controller.term is None):
            if not await controller.campaign(self._lease_id):
                return
        elif snapshot.controller != me:
            controller.term = None
            return
        await controller.reconcile_groups(snapshot)
