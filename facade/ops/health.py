"""Liveness and readiness, as ``/healthz``, ``/readyz`` and ``rockafka status`` report them.

- **Live** (``/healthz``, always 200 while the process answers): the event loop runs.
- **Ready** (``/readyz``): every listener is bound and the store is online. The answer is one line
  ``ready``, ``degraded`` or ``not ready``, then one ``name: state`` line per check:

  * ``ready`` (200): everything works;
  * ``degraded`` (200: clients are still served): the index thread stopped on an error, so key queries
    miss records appended since; a restart rebuilds the index;
  * ``not ready`` (503): the broker is starting or stopping, or the store is offline (the I/O error that
    took it there is named).

A cluster's checks (registered with the controller, caught up with the leaders) join the list when the
cluster issues land.
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


def readiness(serving: bool, stats: StoreStats) -> Readiness:
    """What ``/readyz`` answers for a broker that is ``serving`` (listeners bound, not stopping) over ``stats``."""
    listeners = "bound" if serving else "not serving"
    if stats.closed:
        store = "closed"
    elif stats.offline_reason is not None:
        store = f"offline: {stats.offline_reason}"
    else:
        store = "online"
    index = "running" if stats.index_failure is None else f"stopped: {stats.index_failure}"
    if not serving or store != "online":
        status = NOT_READY
    elif stats.index_failure is not None:
        status = DEGRADED
    else:
        status = READY
    return Readiness(status, (("listeners", listeners), ("store", store), ("index", index)))
