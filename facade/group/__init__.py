"""Kafka's classic consumer groups: the coordinator's state machine, offsets, administration.

``service.GroupService`` is what the broker holds (``Broker.groups``); the handlers of JoinGroup, SyncGroup,
Heartbeat, LeaveGroup, OffsetCommit, OffsetFetch, OffsetDelete, FindCoordinator, DescribeGroups,
ListGroups and DeleteGroups translate wire versions into its typed calls (``model.py``).
"""

from .coordinator import GroupCoordinator
from .model import (
    CommitRequest,
    FetchedOffset,
    GroupDescription,
    GroupListing,
    JoinRequest,
    JoinResult,
    LeaveResult,
    LeavingMember,
    SyncRequest,
    SyncResult,
)
from .offsets import OffsetManager
from .service import OFFSETS_TOPIC, GroupService
from .state import GroupState

__all__ = [
    "OFFSETS_TOPIC",
    "CommitRequest",
    "FetchedOffset",
    "GroupCoordinator",
    "GroupDescription",
    "GroupListing",
    "GroupService",
    "GroupState",
    "JoinRequest",
    "JoinResult",
    "LeaveResult",
    "LeavingMember",
    "OffsetManager",
    "SyncRequest",
    "SyncResult",
]
