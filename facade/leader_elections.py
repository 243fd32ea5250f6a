"""ElectLeaders (API 43) in a cluster: the operator's preferred and unclean elections, one per broker group.

A Kafka election is per partition; here a broker group leads all its partitions with one leader and one epoch,
so an election is of the partition's *group*, and every partition the group holds changes leader with it.
Each partition asked for is answered with its group's outcome (asking for two partitions of one group runs one
election); the write is the controller's (``Controller.elect_leaders``: decided on etcd's state, fenced by the
controller's term), so a broker that is not the controller answers NOT_CONTROLLER and the client asks the
controller Metadata names. Outcomes, as Kafka answers them:

- ELECTION_NOT_NEEDED: preferred, the preferred member (the group's lowest node id) already leads; unclean,
  the group has a live leader;
- PREFERRED_LEADER_NOT_AVAILABLE: the preferred member is not live or not in the in-sync set;
- ELIGIBLE_LEADERS_NOT_AVAILABLE: unclean, no live member in sync nor with a published log end;
- REQUEST_TIMED_OUT: etcd did not answer, or the group changed while electing (the client may retry).

Built by the broker's app when it joins a cluster (``Broker.leader_elections``); a single broker has none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rockafka.cluster import ClusterError, NotControllerError
from rockafka.cluster.election import Outcome

from .protocol.error_codes import ErrorCode

if TYPE_CHECKING:
    from rockafka.cluster.member import ClusterMember

OUTCOME_CODES: Final = {
    Outcome.ELECTED: ErrorCode.NONE,
    Outcome.NOT_NEEDED: ErrorCode.ELECTION_NOT_NEEDED,
    Outcome.PREFERRED_NOT_AVAILABLE: ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE,
    Outcome.NO_ELIGIBLE_MEMBER: ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE,
}


class ClusterLeaderElections:
    """Elections of this cluster's groups, run when this broker is the controller."""

    def __init__(self, member: ClusterMember) -> None:
        self._member = member

    def group_of(self, topic: str, partition: int) -> str | None:
        """The group holding ``topic``'s partition, None when the cluster has no such partition."""
        leader = self._member.snapshot.leader_of(topic, partition)
        return None if leader is None else leader.group

    def is_controller(self) -> bool:
        controller = self._member.controller
        return controller is not None and controller.term is not None

    async def elect(self, group: str, *, preferred: bool) -> ErrorCode:
        """One group's election; NOT_CONTROLLER when this broker's term ended."""
        controller = self._member.controller
        if controller is None or controller.term is None:
            return ErrorCode.NOT_CONTROLLER
        try:
            outcome = await controller.elect_leaders(self._member.snapshot, group, preferred=preferred)
        except NotControllerError:
            return ErrorCode.NOT_CONTROLLER
        except ClusterError:
            return ErrorCode.REQUEST_TIMED_OUT
        return OUTCOME_CODES[outcome]
