"""Liveness and readiness, as ``/healthz``, ``/readyz`` and ``rockafka status`` report them.

- **Live** (``/healthz``, always 200 while the process answers): the event loop runs.
- **Ready** (``/readyz``): every listener is bound and the store is online. The answer is one line
  ``ready``, ``degraded`` or ``not ready``, then one ``name: state`` line per check:

  * ``ready`` (200): everything works;
  * ``degraded`` (200: clients are still served): the index thread stopped on an error, so key queries
    miss records appended since; a restart rebuilds the index;
  * ``not ready`` (503): the broker is starting or stopping, the store is offline (the I/O error that
    took it there is named), or, in a cluster, the broker is not registered in etcd or no controller is
    elected.

In a cluster a ``cluster`` check follows: ``registered as node N (group G)``, or what is missing. "Caught up
with the leaders" joins it with replication (a group has one member today: nothing to catch up with).
"""

from __future__ import annotations

from dataclasses import dataclass

from rockafka.store import StoreStats

READY = "ready"
DEGRADED = "degraded"
NOT_READY = "not ready"


@dataclass(frozen=True, slots=True)
class Readiness:
    status: str
    checks: tuple[tuple[str, str], ...]
    """(name, state) per check, in a fixed order."""

    @property
    def http_status(self) -> int:
        return 503 if self.status == NOT_READY else 200

    def text(self) -> str:
        return "".join([f"{self.status}\n", *(f"{name}: {state}\n" for name, state in self.checks)])


REGISTERED = "registered"


def readiness(serving: bool, stats: StoreStats, cluster: str | None = None) -> Readiness:
    """What ``/readyz`` answers for a broker that is ``serving`` (listeners bound, not stopping) over ``stats``;
    ``cluster`` is the cluster check's state (None: a single broker), ready when it starts ``registered``."""
    listeners = "bound" if serving else "not serving"
    if stats.closed:
        store = "closed"
    elif stats.offline_reason is not None:
        store = f"offline: {stats.offline_reason}"
    else:
        store = "online"
    index = "running" if stats.index_failure is None else f"stopped: {stats.index_failure}"
    checks: tuple[tuple[str, str], ...] = (("listeners", listeners), ("store", store), ("index", index))
    if cluster is not None:
        checks += (("cluster", cluster),)
    if not serving or store != "online" or (cluster is not None and not cluster.startswith(REGISTERED)):
        status = NOT_READY
    elif stats.index_failure is not None:
        status = DEGRADED
    else:
        status = READY
    return Readiness(status, checks)
