"""The console's changes — create a topic, delete a topic, reset a group's offsets — made through the broker's own
Kafka API handlers, as the viewer's principal.

Each change builds the request a Kafka admin client would send (CreateTopics v7, DeleteTopics v6, OffsetCommit v8
with generation -1 and no member, as ``kafka-consumer-groups --reset-offsets`` commits) and hands it to the
handler with a request context carrying the viewer's principal and host. So the console checks exactly what a
client is checked for (topic names, configs, ACLs, a group that still has members, a partition another broker
leads) and answers the Kafka error as an HTTP status with its message. Changes are refused unless the broker runs
with ``rockafka.console.allow.changes=true``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from rockafka.store import TopicPartition

from ..broker import Broker
from ..handlers import (
    api_08_offset_commit,
    api_19_create_topics,
    api_20_delete_topics,
    api_44_incremental_alter_configs,
)
from ..handlers.context import ApiError, RequestContext
from ..protocol.error_codes import ErrorCode
from ..protocol.messages.create_topics import CreatableTopic, CreatableTopicConfig, CreateTopicsRequest
from ..protocol.messages.delete_topics import DeleteTopicsRequest
from ..protocol.messages.incremental_alter_configs import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from ..protocol.messages.offset_commit import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)
from ..security.service import SecurityService
from ..server import ConnectionInfo
from .access import Viewer
from .errors import ConflictError, ConsoleError, ForbiddenError, NotFoundError

T = TypeVar("T")
LISTENER = "CONSOLE"
TOPIC_RESOURCE = 2
SET, DELETE = 0, 1
_NOT_FOUND = {ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.GROUP_ID_NOT_FOUND, ErrorCode.UNKNOWN_TOPIC_ID}
_CONFLICT = {
    ErrorCode.TOPIC_ALREADY_EXISTS,
    ErrorCode.UNKNOWN_MEMBER_ID,
    ErrorCode.ILLEGAL_GENERATION,
    ErrorCode.REBALANCE_IN_PROGRESS,
    ErrorCode.NOT_COORDINATOR,
    ErrorCode.NOT_CONTROLLER,
    ErrorCode.NOT_LEADER_OR_FOLLOWER,
    ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
    ErrorCode.TOPIC_DELETION_DISABLED,
}


def kafka_error(code: int, message: str | None) -> ConsoleError:
    """A Kafka error answered by a handler, as the console's HTTP error."""
    error = ErrorCode(code)
    text = f"{error.name}: {message}" if message and message != error.name else error.name
    if error.name.endswith("_AUTHORIZATION_FAILED"):
        return ForbiddenError(text)
    if error in _NOT_FOUND:
        return NotFoundError(text)
    if error in _CONFLICT:
        return ConflictError(text)
    return ConsoleError(text, 500 if error in (ErrorCode.UNKNOWN_SERVER_ERROR, ErrorCode.KAFKA_STORAGE_ERROR) else 400)


class ConsoleChanges:
    def __init__(self, broker: Broker, security: SecurityService | None) -> None:
        self._broker = broker
        self._security = security

    async def create_topic(
        self, viewer: Viewer, name: str, partitions: int, configs: Mapping[str, str]
    ) -> dict[str, Any]:
        topic = CreatableTopic(
            name=name,
            num_partitions=partitions,
            replication_factor=-1,
            configs=[CreatableTopicConfig(name=key, value=value) for key, value in configs.items()],
        )
        request = CreateTopicsRequest(topics=[topic], timeout_ms=30_000)
        response = await _answer(lambda: api_19_create_topics.handle(self._context(viewer, 7), request))
        result = response.topics[0]
        if result.error_code:
            raise kafka_error(result.error_code, result.error_message)
        return {"name": name, "partitions": result.num_partitions}

    async def delete_topic(self, viewer: Viewer, name: str) -> dict[str, Any]:
        request = DeleteTopicsRequest(topic_names=[name], timeout_ms=30_000)
        response = await _answer(lambda: api_20_delete_topics.handle(self._context(viewer, 5), request))
        result = response.responses[0]
        if result.error_code:
            raise kafka_error(result.error_code, result.error_message)
        return {"name": name, "deleted": True}

    async def alter_topic_configs(
        self, viewer: Viewer, name: str, updates: Mapping[str, str], removals: list[str]
    ) -> dict[str, Any]:
        """Set ``updates`` and return ``removals`` to their defaults (IncrementalAlterConfigs SET and DELETE)."""
        configs = [AlterableConfig(name=key, config_operation=SET, value=value) for key, value in updates.items()]
        configs += [AlterableConfig(name=key, config_operation=DELETE, value=None) for key in removals]
        resource = AlterConfigsResource(resource_type=TOPIC_RESOURCE, resource_name=name, configs=configs)
        request = IncrementalAlterConfigsRequest(resources=[resource], validate_only=False)
        response = await _answer(lambda: api_44_incremental_alter_configs.handle(self._context(viewer, 1), request))
        result = response.responses[0]
        if result.error_code:
            raise kafka_error(result.error_code, result.error_message)
        return {"name": name, "set": dict(updates), "deleted": list(removals)}

    async def commit(self, viewer: Viewer, group_id: str, offsets: Mapping[TopicPartition, int]) -> dict[str, Any]:
        """Commit ``offsets`` for an inactive group (what a reset does once the target offsets are known)."""
        by_topic: dict[str, list[OffsetCommitRequestPartition]] = {}
        for key, offset in sorted(offsets.items(), key=lambda kv: (kv[0].topic, kv[0].partition)):
            by_topic.setdefault(key.topic, []).append(
                OffsetCommitRequestPartition(partition_index=key.partition, committed_offset=offset)
            )
        request = OffsetCommitRequest(
            group_id=group_id,
            generation_id_or_member_epoch=-1,
            member_id="",
            topics=[OffsetCommitRequestTopic(name=topic, partitions=parts) for topic, parts in by_topic.items()],
        )
        response = await _answer(lambda: api_08_offset_commit.handle(self._context(viewer, 8), request))
        for topic in response.topics:
            for partition in topic.partitions:
                if partition.error_code:
                    raise kafka_error(partition.error_code, f"{topic.name}-{partition.partition_index}")
        return {
            "group_id": group_id,
            "offsets": [
                {"topic": key.topic, "partition": key.partition, "offset": offset} for key, offset in offsets.items()
            ],
        }

    def _context(self, viewer: Viewer, version: int) -> RequestContext:
        connection = ConnectionInfo(viewer.host, LISTENER, principal=viewer.principal, host=viewer.host)
        return RequestContext(self._broker, connection, version, 0, "rockafka-console", self._security)


async def _answer(call: Callable[[], T | Awaitable[T]]) -> T:
    """What a handler answers (awaited when it answers later); its whole-request ApiError as a ConsoleError."""
    try:
        result = call()
        if isinstance(result, Awaitable):
            return await result
        return result
    except ApiError as exc:
        raise kafka_error(exc.error_code, exc.message) from None
