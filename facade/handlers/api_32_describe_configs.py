"""DescribeConfigs v0-4: every config of a topic or of this broker, with its value, source and synonyms.

Resources, as Kafka answers them:

- topic (type 2): every topic config under Kafka's names, the topic's overrides with source
  TOPIC_CONFIG, the rest from the broker setting that supplies the default, else Kafka's default (see
  ``describe_topic_config``); an unknown topic → UNKNOWN_TOPIC_OR_PARTITION, an illegal name →
  INVALID_TOPIC_EXCEPTION; ``__consumer_offsets`` is described as Kafka configures it (compacted);
- broker (type 4) named by this broker's id: every broker setting with its effective value (null when
  unset), its source (DYNAMIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG, STATIC_BROKER_CONFIG or
  DEFAULT_CONFIG) and synonyms (``log.retention.ms``/``.minutes``/``.hours``, ``log.roll.ms``/``.hours``,
  ``log.flush.interval.ms``/``log.flush.scheduler.interval.ms``) in Kafka's order, read-only unless Kafka
  makes it a dynamic broker config (``config/dynamic.py``); named "": the cluster-wide dynamic defaults
  set, each with source DYNAMIC_DEFAULT_BROKER_CONFIG and only such synonyms; another id → INVALID_REQUEST;
- broker logger (type 8) named by this broker's id: an empty list (no Java loggers to show);
- group (type 32): the KIP-848 group configs (``config/group.py``), the group's own with source GROUP_CONFIG,
  the rest from the broker's ``group.consumer.*`` settings (the group need not exist, as with Kafka);
- any other type → INVALID_REQUEST. ``configuration_keys`` keeps the named configs only (unknown names
  are left out, as Kafka does).

Sensitive (password) values are null.

Version notes: v0 reports ``is_default`` and no source or synonyms; v1+ the source, and the synonyms
when ``include_synonyms``; v3+ the config type, and the documentation when ``include_documentation``;
v4+ flexible.
Not implemented: client metrics resources, share group configs, ACL checks.

Authorization: DESCRIBE_CONFIGS on the topic or group, or on the cluster for brokers (TOPIC_/GROUP_/
CLUSTER_AUTHORIZATION_FAILED for that resource).
"""

from __future__ import annotations

from collections.abc import Container, Iterable

from rockafka.facade.config import BROKER_CONFIGS, BrokerConfig, ConfigSource, ConfigType, format_value
from rockafka.facade.config.dynamic import dynamic_definition
from rockafka.facade.config.group import describe_group_config
from rockafka.facade.config.topic import BROKER_LAYERS, ConfigSynonym, TopicConfigEntry
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.describe_configs import (
    DescribeConfigsRequest,
    DescribeConfigsResource,
    DescribeConfigsResourceResult,
    DescribeConfigsResponse,
    DescribeConfigsResult,
    DescribeConfigsSynonym,
)
from rockafka.facade.security.acl import AclOperation
from rockafka.store import StoreError

from .admin import (
    ConfigResourceType,
    check_broker_resource,
    existing_topic,
    store_failure,
    topic_config_entries,
    unsupported_resource,
)
from .authorized import check_config_resource
from .context import ApiError, RequestContext
from .registry import register

_SYNONYM_GROUPS = (
    ("log.retention.ms", "log.retention.minutes", "log.retention.hours"),
    ("log.roll.ms", "log.roll.hours"),
    ("log.flush.interval.ms", "log.flush.scheduler.interval.ms"),
)
BROKER_SYNONYMS = {name: group for group in _SYNONYM_GROUPS for name in group}


def _error(request: DescribeConfigsRequest, code: ErrorCode) -> DescribeConfigsResponse:
    failure = ApiError(code, code.name)
    return DescribeConfigsResponse(results=[_failed(resource, failure) for resource in request.resources])


@register(32, 0, 4, _error)
def handle(ctx: RequestContext, request: DescribeConfigsRequest) -> DescribeConfigsResponse:
    results = []
    for resource in request.resources:
        try:
            configs = _describe(ctx, request, resource)
        except StoreError as exc:
            results.append(_failed(resource, store_failure(exc)))
        except ApiError as exc:
            results.append(_failed(resource, exc))
        else:
            results.append(
                DescribeConfigsResult(
                    error_code=ErrorCode.NONE,
                    error_message=None,
                    resource_type=resource.resource_type,
                    resource_name=resource.resource_name,
                    configs=configs,
                )
            )
    return DescribeConfigsResponse(throttle_time_ms=0, results=results)


def _failed(resource: DescribeConfigsResource, exc: ApiError) -> DescribeConfigsResult:
    return DescribeConfigsResult(
        error_code=exc.error_code,
        error_message=exc.message,
        resource_type=resource.resource_type,
        resource_name=resource.resource_name,
    )


def _describe(
    ctx: RequestContext, request: DescribeConfigsRequest, resource: DescribeConfigsResource
) -> list[DescribeConfigsResourceResult]:
    check_config_resource(ctx, resource.resource_type, resource.resource_name, AclOperation.DESCRIBE_CONFIGS)
    wanted: Container[str] | None = None if resource.configuration_keys is None else set(resource.configuration_keys)
    if resource.resource_type == ConfigResourceType.TOPIC:
        info = existing_topic(ctx, resource.resource_name)
        rows: Iterable[TopicConfigEntry] = topic_config_entries(ctx, info.configs)
    elif resource.resource_type == ConfigResourceType.BROKER:
        check_broker_resource(ctx, resource.resource_name)
        rows = _broker_rows(ctx.broker.config, per_broker=resource.resource_name != "")
    elif resource.resource_type == ConfigResourceType.BROKER_LOGGER:
        if not resource.resource_name:
            raise ApiError(ErrorCode.INVALID_REQUEST, "Broker id must not be empty")
        check_broker_resource(ctx, resource.resource_name)
        rows = ()
    elif resource.resource_type == ConfigResourceType.GROUP:
        overrides = ctx.broker.groups.consumer.configs.overrides(resource.resource_name)
        rows = describe_group_config(overrides, ctx.broker.config)
    else:
        raise unsupported_resource(resource.resource_type)
    return [_entry(ctx.api_version, request, row) for row in rows if wanted is None or row.name in wanted]


def _broker_rows(config: BrokerConfig, per_broker: bool) -> Iterable[TopicConfigEntry]:
    """This broker's settings (``per_broker``: every one, with its effective value) or the cluster-wide default's
    (only the dynamic ones it sets), as DescribeConfigs rows (the same row type as a topic config's)."""
    dynamic = {**config.dynamic_default, **config.dynamic_broker} if per_broker else config.dynamic_default
    names = {*BROKER_CONFIGS, *dynamic} if per_broker else set(dynamic)
    for name in sorted(names):
        definition = dynamic_definition(name) or BROKER_CONFIGS[name]
        synonyms = _broker_synonyms(config, name)
        if not per_broker:
            synonyms = tuple(s for s in synonyms if s.source == ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)
        source = synonyms[0].source if synonyms else ConfigSource.DEFAULT_CONFIG
        value = format_value(config.values[name] if name in config.values and per_broker else dynamic.get(name))
        read_only = dynamic_definition(name) is None
        yield TopicConfigEntry(name, value, source, read_only, definition.type, definition.doc, synonyms)


def _broker_synonyms(config: BrokerConfig, name: str) -> tuple[ConfigSynonym, ...]:
    """Kafka's order: by source (this broker's dynamic, the dynamic default, static, then Kafka's default), each
    in synonym-group order; from ``name`` on."""
    group = BROKER_SYNONYMS.get(name, (name,))
    found: list[ConfigSynonym] = []
    for source in BROKER_LAYERS:
        layer = config.layer(source)
        found.extend(ConfigSynonym(name, format_value(layer[name]), source) for name in group if name in layer)
    for synonym in group:
        definition = dynamic_definition(synonym) or BROKER_CONFIGS[synonym]
        default = format_value(definition.default)
        if default is not None:
            found.append(ConfigSynonym(synonym, default, ConfigSource.DEFAULT_CONFIG))
    while found and found[0].name != name:
        found.pop(0)
    return tuple(found)


def _entry(version: int, request: DescribeConfigsRequest, row: TopicConfigEntry) -> DescribeConfigsResourceResult:
    sensitive = row.type is ConfigType.PASSWORD
    entry = DescribeConfigsResourceResult(
        name=row.name,
        value=None if sensitive else row.value,
        read_only=row.read_only,
        is_sensitive=sensitive,
        config_type=row.type,
        documentation=(row.documentation or None) if request.include_documentation else None,
    )
    if version == 0:
        entry.is_default = row.source == ConfigSource.DEFAULT_CONFIG
        return entry
    entry.config_source = row.source
    if request.include_synonyms:
        entry.synonyms = [
            DescribeConfigsSynonym(name=synonym.name, value=None if sensitive else synonym.value, source=synonym.source)
            for synonym in row.synonyms
        ]
    return entry
