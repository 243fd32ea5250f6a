"""CreateTopics v0-7: create topics with a partition count, one replica on this broker, and config overrides.

Each topic succeeds or fails alone, with Kafka's codes and messages:

- a name given more than once → INVALID_REQUEST, one result for that name ("Duplicate topic name.");
- an illegal name, or one that collides with an existing topic once '.' and '_' are unified →
  INVALID_TOPIC_EXCEPTION; an existing name (``__consumer_offsets`` included) → TOPIC_ALREADY_EXISTS;
- a null, unknown or invalid config (Kafka's topic config names) → INVALID_CONFIG;
- ``num_partitions``/``replication_factor`` of -1 take ``num.partitions``/``default.replication.factor``;
  fewer than 1 partition → INVALID_PARTITIONS; a replication factor above what can be reached (one broker:
  1; a cluster: the live members of the largest broker group, and the partitions then go to groups of at
  least that many members) → INVALID_REPLICATION_FACTOR;
- manual assignments (with both counts -1, else INVALID_REQUEST) must number the partitions 0..n-1 and
  place each on this broker alone (in a cluster: on registered brokers of one group, which then holds the
  partition), each list as long as the first → INVALID_REPLICA_ASSIGNMENT otherwise;
- more than 10,000 partitions in one request → POLICY_VIOLATION for every topic (Kafka's controller limit).

Version notes: v1+ ``validate_only`` (every check runs, nothing is created) and error messages; v2+
throttle time; v5+ (flexible) the topic's partition count, replication factor and every config with its
source, also for ``validate_only``; v7+ the topic id (zero for ``validate_only``).
Creation goes through the broker's topology: on a single broker into the store at once; in a cluster into
etcd (any broker may be asked), answered once this broker's own store mirrors the topic, its partitions
spread over the broker groups (docs/cluster.md).
Not implemented: create-topic policies, ACL checks; ``timeout_ms`` is not applied.

Authorization: CREATE on the cluster or the topic (TOPIC_AUTHORIZATION_FAILED for that topic).
"""

from __future__ import annotations

from collections.abc import Awaitable

from rockafka.facade.config import ConfigType
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.create_topics import (
    CreatableTopic,
    CreatableTopicConfigs,
    CreatableTopicResult,
    CreateTopicsRequest,
    CreateTopicsResponse,
)
from rockafka.store import StoreError, TopicInfo

from ..internal_topics import INTERNAL_TOPICS
from .admin import (
    MAX_PARTITIONS_PER_REQUEST,
    TOO_MANY_PARTITIONS,
    answer_each,
    check_no_collision,
    check_replicas,
    check_topic_name,
    checked_topic_configs,
    store_failure,
    topic_config_entries,
)
from .authorized import check_create_topic
from .context import ApiError, RequestContext
from .registry import register
from .topic_changes import TopicChanges


def _error(request: CreateTopicsRequest, code: ErrorCode) -> CreateTopicsResponse:
    names = dict.fromkeys(topic.name for topic in request.topics)
    return CreateTopicsResponse(
        topics=[CreatableTopicResult(name=name, error_code=code, error_message=code.name) for name in names]
    )


@register(19, 0, 7, _error)
def handle(ctx: RequestContext, request: CreateTopicsRequest) -> CreateTopicsResponse | Awaitable[CreateTopicsResponse]:
    default = ctx.broker.config.int("num.partitions")
    requested = sum(
        len(topic.assignments) or (default if topic.num_partitions == -1 else max(topic.num_partitions, 0))
        for topic in request.topics
    )
    if requested > MAX_PARTITIONS_PER_REQUEST:
        refusal = ApiError(ErrorCode.POLICY_VIOLATION, TOO_MANY_PARTITIONS)
        names = dict.fromkeys(topic.name for topic in request.topics)
        return CreateTopicsResponse(topics=[_failed(CreatableTopic(name=name), refusal) for name in names])
    changes = TopicChanges()
    results = answer_each(
        request.topics,
        lambda topic: topic.name,
        lambda topic: _create(ctx, topic, request.validate_only, changes),
        _failed,
        duplicate="Duplicate topic name.",
        one_result_per_duplicate=True,
    )
    return changes.answer(CreateTopicsResponse(throttle_time_ms=0, topics=results))


def _failed(topic: CreatableTopic, exc: ApiError) -> CreatableTopicResult:
    return CreatableTopicResult(name=topic.name, error_code=exc.error_code, error_message=exc.message)


def _create(
    ctx: RequestContext, topic: CreatableTopic, validate_only: bool, changes: TopicChanges
) -> CreatableTopicResult:
    broker = ctx.broker
    check_topic_name(topic.name)
    check_create_topic(ctx, topic.name)
    if broker.topic_or_none(topic.name) is not None or topic.name in INTERNAL_TOPICS:
        raise ApiError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{topic.name}' already exists.")
    check_no_collision(ctx, topic.name)
    nulls = [config.name for config in topic.configs if config.value is None]
    if nulls:
        raise ApiError(ErrorCode.INVALID_CONFIG, f"Null value not supported for topic configs: {','.join(nulls)}")
    configs = checked_topic_configs({config.name: config.value for config in topic.configs})
    if topic.assignments:
        partitions, replicas = _assigned_partitions(ctx, topic)
    else:
        partitions, replicas = _partition_count(ctx, topic)
    created: TopicInfo | Awaitable[TopicInfo] | None = None
    if not validate_only:
        try:
            leaders = [a.broker_ids[0] for a in sorted(topic.assignments or (), key=lambda a: a.partition_index)]
            created = broker.topology.create_topic(topic.name, partitions, configs, leaders, replicas)
        except StoreError as exc:
            raise store_failure(exc) from None
    result = CreatableTopicResult(
        name=topic.name,
        error_code=ErrorCode.NONE,
        error_message=None,
        num_partitions=partitions,
        replication_factor=replicas,
        configs=[
            CreatableTopicConfigs(
                name=entry.name,
                value=None if entry.type is ConfigType.PASSWORD else entry.value,
                read_only=entry.read_only,
                config_source=entry.source,
                is_sensitive=entry.type is ConfigType.PASSWORD,
            )
            for entry in topic_config_entries(ctx, configs)
        ],
    )
    if created is not None:
        changes.add(created, lambda outcome: _settle(result, outcome))
    return result


def _settle(result: CreatableTopicResult, outcome: TopicInfo | ApiError) -> None:
    if isinstance(outcome, TopicInfo):
        result.topic_id = outcome.topic_id
    else:
        result.error_code, result.error_message = outcome.error_code, outcome.message
        result.num_partitions, result.replication_factor, result.configs = -1, -1, []


def _partition_count(ctx: RequestContext, topic: CreatableTopic) -> tuple[int, int]:
    """The partition count and replication factor asked (-1: the broker's defaults), checked."""
    config = ctx.broker.config
    partitions = config.int("num.partitions") if topic.num_partitions == -1 else topic.num_partitions
    replicas = config.int("default.replication.factor") if topic.replication_factor == -1 else topic.replication_factor
    if partitions <= 0:
        raise ApiError(ErrorCode.INVALID_PARTITIONS, "Number of partitions was set to an invalid non-positive value.")
    if replicas <= 0:
        raise ApiError(
            ErrorCode.INVALID_REPLICATION_FACTOR,
            "Replication factor must be larger than 0, or -1 to use the default value.",
        )
    most = ctx.broker.topology.max_replicas()
    if replicas > most:
        where = " in the largest broker group" if ctx.broker.topology.led is not None else ""
        raise ApiError(
            ErrorCode.INVALID_REPLICATION_FACTOR,
            f"Unable to replicate the partition {replicas} time(s): The target replication factor of {replicas} "
            f"cannot be reached because only {most} broker(s) are registered{where}.",
        )
    return partitions, replicas


def _assigned_partitions(ctx: RequestContext, topic: CreatableTopic) -> tuple[int, int]:
    """The partition count and replication factor of a manual assignment, whose every replica list must name one
    broker group's members (a single broker: this broker alone), each list as long as the first."""
    if topic.num_partitions != -1 or topic.replication_factor != -1:
        raise ApiError(
            ErrorCode.INVALID_REQUEST,
            "Both numPartitions or replicationFactor and replicasAssignments were set. "
            "Both cannot be used at the same time.",
        )
    indexes = sorted(assignment.partition_index for assignment in topic.assignments)
    if indexes != list(range(len(indexes))):
        raise ApiError(
            ErrorCode.INVALID_REPLICA_ASSIGNMENT,
            f"Partitions should be numbered sequentially starting from 0; got {indexes}.",
        )
    replicas = len(topic.assignments[0].broker_ids)
    for assignment in topic.assignments:
        check_replicas(ctx, assignment.broker_ids)
        if len(assignment.broker_ids) != replicas:
            raise ApiError(
                ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                f"The manual partition assignment includes a partition with {len(assignment.broker_ids)} replica(s), "
                f"but this is not consistent with previous partitions, which have {replicas} replica(s).",
            )
    return len(indexes), replicas
