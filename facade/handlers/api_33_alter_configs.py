"""AlterConfigs v0-2: replace a topic's config overrides (configs not named go back to their defaults).

Each resource succeeds or fails alone, as Kafka answers:

- a resource named twice → INVALID_REQUEST for each ("Each resource must appear at most once.");
  a config named twice or with a null value → INVALID_REQUEST;
- topic (type 2): the configs given become the topic's whole set of overrides; an unknown, invalid
  or out-of-range value → INVALID_CONFIG; an unknown topic → UNKNOWN_TOPIC_OR_PARTITION;
  ``__consumer_offsets`` (the group coordinator's) → INVALID_REQUEST;
- broker (type 4, this broker's id or "" for the cluster-wide default): the configs given become that
  resource's whole set of dynamic broker configs (an empty list removes them all), written to the data
  directory and in effect at once (``admin.alter_broker_configs``); a static setting → INVALID_REQUEST
  ("Cannot update these configs dynamically", Kafka's answer), an unknown name or a bad value →
  INVALID_CONFIG; another broker id → INVALID_REQUEST;
- broker logger (type 8) and any other type → INVALID_REQUEST (Kafka: AlterConfigs does not
  support loggers; use IncrementalAlterConfigs).

``validate_only`` runs every check and changes nothing. In a cluster a topic's new configs are written to
etcd (compare-and-swap) and the answer waits until this broker's store has them; every broker's store
follows through its watch (``ClusterTopology.alter_topic_configs``).
Version notes: v1 is v0 (throttle behaviour only); v2+ flexible.
Not implemented: listener, TLS and SASL settings as dynamic broker configs, alter-config policies, ACL checks.

Authorization: ALTER_CONFIGS on the topic, or on the cluster for brokers (TOPIC_/CLUSTER_AUTHORIZATION_FAILED
for that resource).
"""

from __future__ import annotations

from collections.abc import Awaitable

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.alter_configs import (
    AlterConfigsRequest,
    AlterConfigsResource,
    AlterConfigsResourceResponse,
    AlterConfigsResponse,
)
from rockafka.facade.security.acl import AclOperation

from .admin import (
    ConfigResourceType,
    alter_broker_configs,
    answer_each,
    check_config_entries,
    existing_topic,
    settle_config_change,
    unsupported_resource,
    write_topic_configs,
)
from .authorized import check_config_resource
from .context import ApiError, RequestContext
from .registry import register
from .topic_changes import TopicChanges


def _error(request: AlterConfigsRequest, code: ErrorCode) -> AlterConfigsResponse:
    return AlterConfigsResponse(responses=[_response(resource, code, code.name) for resource in request.resources])


def _response(resource: AlterConfigsResource, code: ErrorCode, message: str | None) -> AlterConfigsResourceResponse:
    return AlterConfigsResourceResponse(
        error_code=code,
        error_message=message,
        resource_type=resource.resource_type,
        resource_name=resource.resource_name,
    )


@register(33, 0, 2, _error)
def handle(ctx: RequestContext, request: AlterConfigsRequest) -> AlterConfigsResponse | Awaitable[AlterConfigsResponse]:
    changes = TopicChanges()
    responses = answer_each(
        request.resources,
        lambda resource: (resource.resource_type, resource.resource_name),
        lambda resource: _alter(ctx, resource, request.validate_only, changes),
        lambda resource, exc: _response(resource, exc.error_code, exc.message),
        duplicate="Each resource must appear at most once.",
        one_result_per_duplicate=False,
    )
    return changes.answer(AlterConfigsResponse(throttle_time_ms=0, responses=responses))


def _alter(
    ctx: RequestContext, resource: AlterConfigsResource, validate_only: bool, changes: TopicChanges
) -> AlterConfigsResourceResponse:
    check_config_resource(ctx, resource.resource_type, resource.resource_name, AclOperation.ALTER_CONFIGS)
    names = [config.name for config in resource.configs]
    check_config_entries(names, [config.name for config in resource.configs if config.value is None])
    if resource.resource_type == ConfigResourceType.TOPIC:
        existing_topic(ctx, resource.resource_name, to_change=True)
        overrides = {config.name: config.value for config in resource.configs if config.value is not None}
        result = _response(resource, ErrorCode.NONE, None)
        outcome = write_topic_configs(ctx, resource.resource_name, lambda _current: overrides, validate_only)
        changes.add(outcome, settle_config_change(result))
        return result
    elif resource.resource_type == ConfigResourceType.BROKER:
        wanted = {config.name: config.value or "" for config in resource.configs}
        pending = alter_broker_configs(ctx, resource.resource_name, lambda _current: wanted, validate_only)
        if pending is not None:
            result = _response(resource, ErrorCode.NONE, None)
            changes.add_other(pending, settle_config_change(result))
            return result
    elif resource.resource_type == ConfigResourceType.BROKER_LOGGER:
        raise ApiError(
            ErrorCode.INVALID_REQUEST,
            "AlterConfigs does not support BROKER_LOGGER resources; use IncrementalAlterConfigs",
        )
    else:
        raise unsupported_resource(resource.resource_type)
    return _response(resource, ErrorCode.NONE, None)
