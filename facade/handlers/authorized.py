"""Kafka's ACL operation bitfields, as Metadata and DescribeCluster report authorized operations.

Until ACLs exist every principal may do everything, so the fields carry every operation that applies
to the resource type (Kafka's AclOperation codes: READ 3, WRITE 4, CREATE 5, DELETE 6, ALTER 7,
DESCRIBE 8, CLUSTER_ACTION 9, DESCRIBE_CONFIGS 10, ALTER_CONFIGS 11, IDEMPOTENT_WRITE 12,
CREATE_TOKENS 13, DESCRIBE_TOKENS 14). When a client does not ask, Kafka sends INT32_MIN.
"""

from __future__ import annotations

from typing import Final

NOT_REQUESTED: Final = -(1 << 31)


def _bits(*operations: int) -> int:
    return sum(1 << op for op in operations)


TOPIC_OPERATIONS: Final = _bits(3, 4, 5, 6, 7, 8, 10, 11)
CLUSTER_OPERATIONS: Final = _bits(5, 7, 8, 9, 10, 11, 12, 13, 14)
GROUP_OPERATIONS: Final = _bits(3, 6, 8)
