"""KIP-932 share groups (queues): many members share a partition, the broker hands out each record to one member
at a time and tracks its acknowledgement and redelivery.

``coordinator.ShareGroupCoordinator`` (membership, ShareGroupHeartbeat) is ``Broker.groups.share``, and
``delivery.ShareDelivery`` (ShareFetch, ShareAcknowledge) ``Broker.groups.share_delivery``; each share-partition's
in-flight records are an ``inflight.SharePartition``, saved with the group (``persistence.py``). The admin APIs'
rules over the share-partitions' start offsets are ``offsets.py``.
"""

from .coordinator import ShareGroupCoordinator, ShareHeartbeat, ShareHeartbeatResult
from .delivery import AcknowledgementBatch, Acquisition, ShareDelivery
from .inflight import AcknowledgeType, AcquiredRange, RecordState, SharePartition
from .model import Assignment, PartitionKey, ShareGroup, ShareGroupState, ShareMember
from .persistence import is_share_group_document
from .sessions import CLOSE_EPOCH, OPEN_EPOCH, ShareSession, ShareSessionError

__all__ = [
    "CLOSE_EPOCH",
    "OPEN_EPOCH",
    "AcknowledgeType",
    "AcknowledgementBatch",
    "AcquiredRange",
    "Acquisition",
    "Assignment",
    "PartitionKey",
    "RecordState",
    "ShareDelivery",
    "ShareGroup",
    "ShareGroupCoordinator",
    "ShareGroupState",
    "ShareHeartbeat",
    "ShareHeartbeatResult",
    "ShareMember",
    "SharePartition",
    "ShareSession",
    "ShareSessionError",
    "is_share_group_document",
]
