"""DescribeCluster v0-1: this broker (at the address of the listener asked), the cluster id, the controller.

The brokers and the controller come from the broker's topology: on a single broker, itself; in a cluster,
every registered broker and the elected controller (-1 while there is none).
Cluster authorized operations are the principal's (from its ACLs;
every cluster operation when authorization is off) when asked for, INT32_MIN otherwise, as Kafka sends them.

Version notes: v1 adds ``endpoint_type``: 1 (brokers) is answered; 2 (controllers) gets
UNSUPPORTED_ENDPOINT_TYPE, as a Kafka broker answers it (a client asking for controllers must
bootstrap from a controller listener, which a single Rockafka node does not have apart).
A broker's rack is its ``broker.rack``; in a cluster, a broker without one shows its broker group there instead
(Kafka would show null), which is how ``rockafka cluster move --to-group`` and operators find a group's brokers
over the wire. Metadata, which clients' rack-aware choices read, shows ``broker.rack`` only (null when unset).
Not implemented: fenced brokers (v2+ of the spec, not advertised).
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.describe_cluster import (
    DescribeClusterBroker,
    DescribeClusterRequest,
    DescribeClusterResponse,
)
from rockafka.facade.security.acl import ResourceType

from ..topology import BrokerAddress
from .admin import advertised_listener
from .authorized import operations
from .context import RequestContext
from .registry import register

BROKERS_ENDPOINT = 1


def _error(request: DescribeClusterRequest, code: ErrorCode) -> DescribeClusterResponse:
    return DescribeClusterResponse(error_code=code, error_message=code.name, endpoint_type=request.endpoint_type)


@register(60, 0, 1, _error)
def handle(ctx: RequestContext, request: DescribeClusterRequest) -> DescribeClusterResponse:
    broker = ctx.broker
    if request.endpoint_type != BROKERS_ENDPOINT:
        return DescribeClusterResponse(
            error_code=ErrorCode.UNSUPPORTED_ENDPOINT_TYPE,
            error_message=f"Unsupported endpoint type {request.endpoint_type}; a broker describes brokers (1)",
            endpoint_type=request.endpoint_type,
            cluster_id=broker.cluster_id,
        )
    listener = advertised_listener(ctx)
    return DescribeClusterResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        error_message=None,
        endpoint_type=BROKERS_ENDPOINT,
        cluster_id=broker.cluster_id,
        controller_id=broker.topology.controller_id(broker.node_id),
        brokers=[
            DescribeClusterBroker(broker_id=item.node_id, host=item.host, port=item.port, rack=item.rack or item.group)
            for item in broker.topology.brokers(
                BrokerAddress(broker.node_id, listener.host, listener.port, listener.name)
            )
        ],
        cluster_authorized_operations=operations(
            ctx, request.include_cluster_authorized_operations, ResourceType.CLUSTER
        ),
    )
