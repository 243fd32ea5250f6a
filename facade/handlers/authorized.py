"""Kafka's ACL operation bitfields (Metadata, DescribeCluster, DescribeGroups) and the cluster-only APIs.

Bitfields set bit ``1 << code`` for each AclOperation code (READ 3, WRITE 4, CREATE 5, DELETE 6, ALTER 7,
DESCRIBE 8, CLUSTER_ACTION 9, DESCRIBE_CONFIGS 10, ALTER_CONFIGS 11, IDEMPOTENT_WRITE 12). The constants
below are every supported operation of a resource type, which is what a principal has when authorization
is off; :func:`operations` asks the authorizer. When a client does not ask, Kafka sends INT32_MIN.

:data:`CLUSTER_APIS` lists the APIs that Kafka authorizes by one operation on the cluster resource; the
dispatcher checks them before the handler runs and answers CLUSTER_AUTHORIZATION_FAILED through the API's
error response.
"""

from __future__ import annotations

from typing import Final

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.security.acl import CLUSTER_NAME, AclOperation, ResourceType
from rockafka.facade.security.authorizer import SUPPORTED_OPERATIONS

from .admin import ConfigResourceType
from .context import ApiError, RequestContext

NOT_REQUESTED: Final = -(1 << 31)


def _bits(resource_type: ResourceType) -> int:
    return sum(1 << op for op in SUPPORTED_OPERATIONS[resource_type])


TOPIC_OPERATIONS: Final = _bits(ResourceType.TOPIC)
CLUSTER_OPERATIONS: Final = _bits(ResourceType.CLUSTER)
GROUP_OPERATIONS: Final = _bits(ResourceType.GROUP)

CLUSTER_APIS: Final[dict[int, AclOperation]] = {
    29: AclOperation.DESCRIBE,  # DescribeAcls
    30: AclOperation.ALTER,  # CreateAcls
    31: AclOperation.ALTER,  # DeleteAcls
    34: AclOperation.ALTER,  # AlterReplicaLogDirs
    35: AclOperation.DESCRIBE,  # DescribeLogDirs
    43: AclOperation.ALTER,  # ElectLeaders
    45: AclOperation.ALTER,  # AlterPartitionReassignments
    46: AclOperation.DESCRIBE,  # ListPartitionReassignments
    50: AclOperation.DESCRIBE,  # DescribeUserScramCredentials
    51: AclOperation.ALTER,  # AlterUserScramCredentials
}


def operations(ctx: RequestContext, requested: bool, resource_type: ResourceType, name: str = CLUSTER_NAME) -> int:
    """The authorized-operations field: the principal's bitfield if the client asked, INT32_MIN otherwise."""
    return ctx.authorized_operations(resource_type, name) if requested else NOT_REQUESTED


def check_create_topic(ctx: RequestContext, name: str) -> None:
    """Kafka creates a topic for a principal with CREATE on the cluster or on the topic."""
    cluster_wide = ctx.authorize(AclOperation.CREATE, ResourceType.CLUSTER)
    if not (cluster_wide or ctx.authorize(AclOperation.CREATE, ResourceType.TOPIC, name)):
        raise ApiError(ErrorCode.TOPIC_AUTHORIZATION_FAILED, f"{ctx.principal} may not create topic {name}")


_CONFIG_RESOURCES: Final = {
    ConfigResourceType.TOPIC: ResourceType.TOPIC,
    ConfigResourceType.GROUP: ResourceType.GROUP,
    ConfigResourceType.BROKER: ResourceType.CLUSTER,
    ConfigResourceType.BROKER_LOGGER: ResourceType.CLUSTER,
}


def check_config_resource(ctx: RequestContext, resource_type: int, name: str, operation: AclOperation) -> None:
    """DESCRIBE_CONFIGS/ALTER_CONFIGS on a config resource: a topic or group by name, brokers as the cluster."""
    kind = next((kind for code, kind in _CONFIG_RESOURCES.items() if code == resource_type), None)
    if kind is not None:
        ctx.check(operation, kind, name if kind is not ResourceType.CLUSTER else CLUSTER_NAME)
