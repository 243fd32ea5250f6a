"""KIP-848 consumer groups (``group.protocol=consumer``): the broker assigns partitions through
ConsumerGroupHeartbeat, members reconcile incrementally, no group-wide rebalance barrier.

``coordinator.ConsumerGroupCoordinator`` is ``Broker.groups.consumer``; the ConsumerGroupHeartbeat and
ConsumerGroupDescribe handlers translate wire versions into its typed calls (``requests.py``).
"""

from .assignors import ASSIGNORS, assignor_name
from .configs import GroupConfigs
from .coordinator import ClassicGroups, ConsumerGroupCoordinator
from .model import Assignment, ConsumerGroup, ConsumerGroupState, ConsumerMember, MemberState
from .requests import HeartbeatRequest, HeartbeatResult

__all__ = [
    "ASSIGNORS",
    "Assignment",
    "ClassicGroups",
    "ConsumerGroup",
    "ConsumerGroupCoordinator",
    "ConsumerGroupState",
    "ConsumerMember",
    "GroupConfigs",
    "HeartbeatRequest",
    "HeartbeatResult",
    "MemberState",
    "assignor_name",
]
