"""What the admin handlers share: config resource types, topic name rules, topic config checks, config writes.

Per-item failures (one topic, one resource) are raised as :class:`ApiError` with Kafka's error code and
message and caught by the handler's loop, which puts them into that item's result; the rest of the
request goes on.
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Hashable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Final, Protocol, TypeVar

from rockafka.facade.config import ConfigError, Listener, describe_topic_config, validate_topic_configs
from rockafka.facade.config.dynamic import StaticConfigError
from rockafka.facade.config.topic import TopicConfigEntry
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import StoreError, TopicInfo

from ..dynamic_configs import DynamicConfigs
from ..errors import store_error_code
from ..internal_topics import INTERNAL_TOPICS
from ..topology import BrokerAddress, ConfigUpdate
from .context import ApiError, RequestContext

MAX_TOPIC_NAME: Final = 249
#: Kafka's controller refuses requests that would create more partitions at once (POLICY_VIOLATION).
MAX_PARTITIONS_PER_REQUEST: Final = 10_000
TOO_MANY_PARTITIONS: Final = "Excessively large number of partitions per request."
#: How Kafka configures its offsets topic (described for ``__consumer_offsets``).
INTERNAL_TOPIC_CONFIGS: Final = MappingProxyType({"cleanup.policy": "compact", "compression.type": "producer"})
_LEGAL_TOPIC_NAME = re.compile(r"[a-zA-Z0-9._-]+")
H = TypeVar("H", bound=Hashable)
T = TypeVar("T")
R = TypeVar("R")


class ConfigChangeResult(Protocol):
    """A config resource's result in AlterConfigs and IncrementalAlterConfigs responses."""

    error_code: int
    error_message: str | None


class ConfigResourceType(enum.IntEnum):
    """Kafka's ConfigResource.Type codes, as DescribeConfigs/AlterConfigs carry them."""

    UNKNOWN = 0
    TOPIC = 2
    BROKER = 4
    BROKER_LOGGER = 8
    CLIENT_METRICS = 16
    GROUP = 32


def repeated(items: Iterable[H]) -> set[H]:
    """The items that occur more than once."""
    return {item for item, count in Counter(items).items() if count > 1}


def answer_each(
    items: Sequence[T],
    key: Callable[[T], Hashable],
    run: Callable[[T], R],
    failed: Callable[[T, ApiError], R],
    *,
    duplicate: str,
    one_result_per_duplicate: bool,
) -> list[R]:
    """``run`` each item, or ``failed`` with its ApiError (a store error as its Kafka code); items whose key
    repeats fail with INVALID_REQUEST (``duplicate``), once per key or once per occurrence."""
    duplicated = repeated(key(item) for item in items)
    reported: set[Hashable] = set()
    results: list[R] = []
    for item in items:
        item_key = key(item)
        if item_key in duplicated:
            if not one_result_per_duplicate or item_key not in reported:
                reported.add(item_key)
                results.append(failed(item, ApiError(ErrorCode.INVALID_REQUEST, duplicate)))
            continue
        try:
            results.append(run(item))
        except ApiError as exc:
            results.append(failed(item, exc))
        except StoreError as exc:
            results.append(failed(item, store_failure(exc)))
    return results


def advertised_listener(ctx: RequestContext) -> Listener:
    """The advertised listener matching the one the request came in on (the first one otherwise)."""
    listeners = ctx.broker.config.advertised_listeners
    return next((item for item in listeners if item.name == ctx.connection.listener_name), listeners[0])


def check_topic_name(name: str) -> None:
    """Kafka's topic name rules, with its messages; INVALID_TOPIC_EXCEPTION."""
    problem = None
    if not name:
        problem = "Topic name is illegal, it can't be empty"
    elif name in (".", ".."):
        problem = 'Topic name cannot be "." or ".."'
    elif len(name) > MAX_TOPIC_NAME:
        problem = f"Topic name is illegal, it can't be longer than {MAX_TOPIC_NAME} characters, topic name: {name}"
    elif not _LEGAL_TOPIC_NAME.fullmatch(name):
        problem = (
            f'Topic name "{name}" is illegal, it contains a character other than ASCII alphanumerics, '
            "'.', '_' and '-'"
        )
    if problem is not None:
        raise ApiError(ErrorCode.INVALID_TOPIC_EXCEPTION, problem)


def check_no_collision(ctx: RequestContext, name: str) -> None:
    """Kafka refuses a topic whose name equals an existing one once '.' and '_' are unified (metric names)."""
    if "." not in name and "_" not in name:
        return
    unified = name.replace(".", "_")
    for existing in ctx.broker.store.topics.list():
        if existing.name != name and existing.name.replace(".", "_") == unified:
            raise ApiError(
                ErrorCode.INVALID_TOPIC_EXCEPTION, f"Topic '{name}' collides with existing topic: {existing.name}"
            )


def check_not_internal(name: str) -> None:
    """The broker's internal topics cannot be changed, deleted or trimmed through the admin APIs; INVALID_REQUEST."""
    if name in INTERNAL_TOPICS:
        raise ApiError(
            ErrorCode.INVALID_REQUEST, f"{name} is internal to the broker (coordinator state): it cannot be changed"
        )


def check_replicas(ctx: RequestContext, broker_ids: list[int]) -> None:
    """A manual replica list: registered brokers, each once, all of one broker group (a single broker: this one; a
    cluster: the partition goes to that group, and its replicas are the group's members); INVALID_REPLICA_ASSIGNMENT
    otherwise."""
    if not broker_ids:
        raise ApiError(
            ErrorCode.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment includes an empty replica list."
        )
    registered = {item.node_id: item for item in ctx.broker.topology.brokers(BrokerAddress(ctx.broker.node_id, "", 0))}
    for broker_id in broker_ids:
        if broker_id not in registered:
            raise ApiError(
                ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                f"The manual partition assignment includes broker {broker_id}, but no such broker is registered.",
            )
    twice = [broker_id for index, broker_id in enumerate(broker_ids) if broker_id in broker_ids[:index]]
    if twice:
        raise ApiError(
            ErrorCode.INVALID_REPLICA_ASSIGNMENT,
            f"The manual partition assignment includes the broker {twice[0]} more than once.",
        )
    groups = {registered[broker_id].group for broker_id in broker_ids}
    if len(groups) > 1:
        raise ApiError(
            ErrorCode.INVALID_REPLICA_ASSIGNMENT,
            f"The manual partition assignment names brokers {broker_ids} of broker groups {sorted(map(str, groups))}: "
            "a partition's replicas are the members of one broker group",
        )


def existing_topic(ctx: RequestContext, name: str, *, to_change: bool = False) -> TopicInfo:
    """The topic named ``name``, or UNKNOWN_TOPIC_OR_PARTITION (INVALID_TOPIC_EXCEPTION for an illegal name).

    ``__consumer_offsets`` is the group coordinator's, not the store's: it is described (as the compacted
    topic Kafka keeps) but ``to_change`` it → INVALID_REQUEST.
    """
    if name in INTERNAL_TOPICS:
        if to_change:
            check_not_internal(name)
        internal = ctx.broker.internal_topics.show(name)
        if internal is not None:
            return TopicInfo(internal.name, internal.topic_id, internal.partitions, INTERNAL_TOPIC_CONFIGS)
    info = ctx.broker.topic_or_none(name)
    if info is None:
        check_topic_name(name)
        raise ApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic '{name}' does not exist.")
    return info


def checked_topic_configs(configs: Mapping[str, str | None]) -> dict[str, str]:
    """Topic config overrides as sent, validated under Kafka's names and normalised; INVALID_CONFIG otherwise."""
    try:
        return validate_topic_configs(configs)
    except ConfigError as exc:
        raise ApiError(ErrorCode.INVALID_CONFIG, str(exc)) from None


def topic_config_entries(ctx: RequestContext, overrides: Mapping[str, str]) -> list[TopicConfigEntry]:
    """Every topic config with its effective value and source, for these overrides."""
    return describe_topic_config(overrides, ctx.broker.config)


def store_failure(exc: StoreError) -> ApiError:
    """A store error as the per-item failure a client sees."""
    return ApiError(store_error_code(exc), str(exc))


def write_topic_configs(
    ctx: RequestContext, name: str, update: ConfigUpdate, validate_only: bool
) -> TopicInfo | Awaitable[TopicInfo]:
    """Make ``update(current overrides)``, validated, the topic's whole set of config overrides: at once on a single
    broker, an awaitable in a cluster (the current overrides are then etcd's). ``validate_only`` changes nothing."""

    def checked(current: Mapping[str, str]) -> dict[str, str]:
        return checked_topic_configs(update(current))

    try:
        if validate_only:
            info = existing_topic(ctx, name, to_change=True)
            checked(info.configs)
            return info
        return ctx.broker.topology.alter_topic_configs(name, checked)
    except StoreError as exc:
        raise store_failure(exc) from None


def settle_config_change(result: ConfigChangeResult) -> Callable[[TopicInfo | ApiError], None]:
    """What fills an AlterConfigs/IncrementalAlterConfigs resource result once its change is taken (or refused)."""

    def settle(outcome: TopicInfo | ApiError) -> None:
        if isinstance(outcome, ApiError):
            result.error_code, result.error_message = outcome.error_code, outcome.message

    return settle


def check_broker_resource(ctx: RequestContext, resource_name: str) -> None:
    """A broker resource is named by this broker's id, or "" for the cluster-wide default; INVALID_REQUEST else."""
    if resource_name == "":
        return
    try:
        broker_id = int(resource_name)
    except ValueError:
        raise ApiError(ErrorCode.INVALID_REQUEST, f"Broker id must be an integer, but it is: {resource_name}") from None
    if broker_id != ctx.broker.node_id:
        raise ApiError(
            ErrorCode.INVALID_REQUEST,
            f"Unexpected broker id, expected {ctx.broker.node_id} or empty string, but received {resource_name}",
        )


def check_config_entries(names: Sequence[str], nulls: Sequence[str]) -> None:
    """An alteration names each config once and gives every one a value (but deletions); INVALID_REQUEST else."""
    if len(set(names)) != len(names):
        raise ApiError(ErrorCode.INVALID_REQUEST, "Error due to duplicate config keys")
    if nulls:
        raise ApiError(ErrorCode.INVALID_REQUEST, f"Null value not supported for : {', '.join(nulls)}")


def alter_broker_configs(
    ctx: RequestContext, resource_name: str, update: Callable[[dict[str, str]], dict[str, str]], validate_only: bool
) -> Awaitable[None] | None:
    """Make ``update(current)`` a broker resource's whole set of dynamic configs: this broker's own (named by its
    id) or the cluster-wide default (""). A static setting → INVALID_REQUEST ("Cannot update these configs
    dynamically", Kafka's answer); an unknown name or a bad value → INVALID_CONFIG. The change is written to the
    data directory, then takes effect at once (``Broker.reconfigure``); ``validate_only`` changes nothing. In a
    cluster the default is etcd's: then an awaitable, done once this broker applies the change."""
    check_broker_resource(ctx, resource_name)
    per_broker = resource_name != ""
    dynamic = ctx.broker.dynamic
    shared = None if per_broker or validate_only else dynamic.cluster_default
    if shared is not None:
        return shared.alter(lambda current: _checked_broker_configs(dynamic, update(current)))
    wanted = _checked_broker_configs(dynamic, update(dynamic.texts(per_broker)))
    if validate_only:
        return None
    try:
        ctx.broker.reconfigure(dynamic.replace(ctx.broker.config, per_broker, wanted))
    except OSError as exc:
        raise ApiError(ErrorCode.KAFKA_STORAGE_ERROR, f"cannot write {dynamic.path}: {exc.strerror or exc}") from None
    return None


def _checked_broker_configs(dynamic: DynamicConfigs, wanted: dict[str, str]) -> dict[str, str]:
    """``wanted`` if it is a valid set of dynamic broker configs, else INVALID_REQUEST (a static setting) or
    INVALID_CONFIG (an unknown name, a bad value)."""
    try:
        dynamic.check(wanted)
    except StaticConfigError as exc:
        raise ApiError(ErrorCode.INVALID_REQUEST, str(exc)) from None
    except ConfigError as exc:
        raise ApiError(ErrorCode.INVALID_CONFIG, str(exc)) from None
    return wanted


def unsupported_resource(resource_type: int) -> ApiError:
    try:
        shown = ConfigResourceType(resource_type).name
    except ValueError:
        shown = str(resource_type)
    return ApiError(ErrorCode.INVALID_REQUEST, f"Unsupported resource type: {shown}")
