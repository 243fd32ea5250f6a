"""IncrementalAlterConfigs v0-1: change some of a topic's, broker's or group's configs, leaving the others as they are.

Operations per config: SET (0) the value; DELETE (1) the override (back to the default; the value is
ignored); APPEND (2) and SUBTRACT (3) comma-separated items to or from a list config (starting from
the override, else Kafka's default; items already there are not added twice) → INVALID_CONFIG for a
config that is not a list. Each resource succeeds or fails alone, as Kafka answers:

- a resource named twice → INVALID_REQUEST for each; a config named twice, a null value for other
  than DELETE, an unknown operation → INVALID_REQUEST;
- topic (type 2): the resulting overrides are validated as a whole (unknown names, bad values →
  INVALID_CONFIG) and then stored at once; an unknown topic → UNKNOWN_TOPIC_OR_PARTITION;
  ``__consumer_offsets`` (the group coordinator's) → INVALID_REQUEST;
- broker (type 4, this broker's id or "" for the cluster-wide default): the operations apply to that
  resource's dynamic broker configs (APPEND/SUBTRACT starting from the effective value), stored and in
  effect at once; a static setting → INVALID_REQUEST ("Cannot update these configs dynamically"), an
  unknown name or a bad value → INVALID_CONFIG;
- broker logger (type 8, this broker's id): no loggers are exposed, so each → INVALID_CONFIG
  ("Logger ... does not exist!");
- group (type 32): a KIP-848 group's configs (``config/group.py``), stored in ``groupConfigs.json`` and in
  effect at its members' next heartbeats; an unknown name, a bad value or a heartbeat interval not below the
  session timeout → INVALID_CONFIG; any other type → INVALID_REQUEST.

``validate_only`` runs every check and changes nothing. In a cluster the operations apply to the topic's
configs in etcd, written back compare-and-swap (read again and applied again when another change won);
the answer waits until this broker's store has them, and every broker's store follows through its watch.
Version notes: v1 is flexible, otherwise v0.
Not implemented: listener, TLS and SASL settings as dynamic broker configs, log levels, client metrics and
share group configs, ACL checks.

Authorization: ALTER_CONFIGS on the topic or group, or on the cluster for brokers (TOPIC_/GROUP_/
CLUSTER_AUTHORIZATION_FAILED for that resource).
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Mapping

from rockafka.facade.config import (
    BROKER_CONFIGS,
    TOPIC_CONFIGS,
    ConfigDef,
    ConfigError,
    ConfigType,
    Value,
    format_value,
)
from rockafka.facade.config.dynamic import dynamic_definition
from rockafka.facade.config.group import GROUP_CONFIGS
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.incremental_alter_configs import (
    AlterableConfig,
    AlterConfigsResource,
    AlterConfigsResourceResponse,
    IncrementalAlterConfigsRequest,
    IncrementalAlterConfigsResponse,
)
from rockafka.facade.security.acl import AclOperation

from .admin import (
    ConfigResourceType,
    alter_broker_configs,
    answer_each,
    check_broker_resource,
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


class OpType(enum.IntEnum):
    SET = 0
    DELETE = 1
    APPEND = 2
    SUBTRACT = 3


def _error(request: IncrementalAlterConfigsRequest, code: ErrorCode) -> IncrementalAlterConfigsResponse:
    return IncrementalAlterConfigsResponse(
        responses=[_response(resource, code, code.name) for resource in request.resources]
    )


def _response(resource: AlterConfigsResource, code: ErrorCode, message: str | None) -> AlterConfigsResourceResponse:
    return AlterConfigsResourceResponse(
        error_code=code,
        error_message=message,
        resource_type=resource.resource_type,
        resource_name=resource.resource_name,
    )


@register(44, 0, 1, _error)
def handle(
    ctx: RequestContext, request: IncrementalAlterConfigsRequest
) -> IncrementalAlterConfigsResponse | Awaitable[IncrementalAlterConfigsResponse]:
    changes = TopicChanges()
    responses = answer_each(
        request.resources,
        lambda resource: (resource.resource_type, resource.resource_name),
        lambda resource: _alter(ctx, resource, request.validate_only, changes),
        lambda resource, exc: _response(resource, exc.error_code, exc.message),
        duplicate="Each resource must appear at most once.",
        one_result_per_duplicate=False,
    )
    return changes.answer(IncrementalAlterConfigsResponse(throttle_time_ms=0, responses=responses))


def _alter(
    ctx: RequestContext, resource: AlterConfigsResource, validate_only: bool, changes: TopicChanges
) -> AlterConfigsResourceResponse:
    check_config_resource(ctx, resource.resource_type, resource.resource_name, AclOperation.ALTER_CONFIGS)
    names = [config.name for config in resource.configs]
    nulls = [c.name for c in resource.configs if c.value is None and c.config_operation != OpType.DELETE]
    check_config_entries(names, nulls)
    for config in resource.configs:
        if config.config_operation not in {op.value for op in OpType}:
            raise ApiError(ErrorCode.INVALID_REQUEST, f"Unknown operation type {config.config_operation}")
    kind = resource.resource_type
    if kind == ConfigResourceType.TOPIC:
        existing_topic(ctx, resource.resource_name, to_change=True)

        def update(current: Mapping[str, str]) -> dict[str, str]:
            overrides = dict(current)
            for config in resource.configs:
                _apply(overrides, config, _topic_definition(config.name))
            return overrides

        result = _response(resource, ErrorCode.NONE, None)
        changes.add(
            write_topic_configs(ctx, resource.resource_name, update, validate_only), settle_config_change(result)
        )
        return result
    elif kind == ConfigResourceType.BROKER:

        def update_broker(current: dict[str, str]) -> dict[str, str]:
            for config in resource.configs:
                _apply(current, config, _broker_definition(config.name), ctx.broker.config.values.get(config.name))
            return current

        pending = alter_broker_configs(ctx, resource.resource_name, update_broker, validate_only)
        if pending is not None:
            result = _response(resource, ErrorCode.NONE, None)
            changes.add_other(pending, settle_config_change(result))
            return result
    elif kind == ConfigResourceType.BROKER_LOGGER:
        if not resource.resource_name:
            raise ApiError(ErrorCode.INVALID_REQUEST, "Broker id must not be empty")
        check_broker_resource(ctx, resource.resource_name)
        if names:
            raise ApiError(ErrorCode.INVALID_CONFIG, f"Logger {names[0]} does not exist!")
    elif kind == ConfigResourceType.GROUP:
        _alter_group(ctx, resource, validate_only)
    else:
        raise unsupported_resource(kind)
    return _response(resource, ErrorCode.NONE, None)


def _alter_group(ctx: RequestContext, resource: AlterConfigsResource, validate_only: bool) -> None:
    if not resource.resource_name:
        raise ApiError(ErrorCode.INVALID_REQUEST, "Group id must not be empty")
    configs = ctx.broker.groups.consumer.configs
    overrides = configs.overrides(resource.resource_name)
    for config in resource.configs:
        definition = GROUP_CONFIGS.get(config.name)
        if definition is None:
            raise ApiError(ErrorCode.INVALID_CONFIG, f"Unknown group config name: {config.name}")
        _apply(overrides, config, definition)
    try:
        configs.replace(resource.resource_name, overrides, validate_only)
    except ConfigError as exc:
        raise ApiError(ErrorCode.INVALID_CONFIG, str(exc)) from None
    except OSError as exc:
        raise ApiError(ErrorCode.KAFKA_STORAGE_ERROR, f"cannot write {configs.path}: {exc.strerror or exc}") from None


def _topic_definition(name: str) -> ConfigDef:
    definition = TOPIC_CONFIGS.get(name)
    if definition is None:
        raise ApiError(ErrorCode.INVALID_CONFIG, f"Unknown topic config name: {name}")
    return definition


def _broker_definition(name: str) -> ConfigDef:
    """A broker setting's definition (static ones too: the change is refused as a whole afterwards)."""
    definition = dynamic_definition(name) or BROKER_CONFIGS.get(name)
    if definition is None:
        raise ApiError(ErrorCode.INVALID_CONFIG, f"Unknown broker config name: {name}")
    return definition


def _apply(overrides: dict[str, str], config: AlterableConfig, definition: ConfigDef, current: Value = None) -> None:
    """One operation on a resource's configs (validated as a whole afterwards); a list config that is not set
    there starts from ``current`` (a broker's effective value), else Kafka's default."""
    name, operation = config.name, OpType(config.config_operation)
    if operation is OpType.DELETE:
        overrides.pop(name, None)
        return
    value = config.value or ""
    if operation is OpType.SET:
        overrides[name] = value
        return
    if definition.type is not ConfigType.LIST:
        raise ApiError(ErrorCode.INVALID_CONFIG, f"Can't {operation.name} to key {name} because its type is not LIST.")
    existing = overrides.get(name)
    if existing is None:
        existing = format_value(current if current is not None else definition.default) or ""
    items = [item for item in existing.split(",") if item]
    for item in value.split(","):
        if operation is OpType.APPEND and item not in items:
            items.append(item)
        elif operation is OpType.SUBTRACT and item in items:
            items.remove(item)
    overrides[name] = ",".join(items)
