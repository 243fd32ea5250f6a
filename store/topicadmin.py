"""``Topics``: creating, changing and deleting topics as the broker asks (``store.topics``).

Owns the order of a topic change across the services it touches: the topic table (``topics.py``, written
before the change is acknowledged), the partitions' queues (``Partitions``), and, on deletion, the topic's
log start offsets, transaction state and committed offsets. Its CommitLog records stay until retention
deletes their segments; nothing reaches them, as no topic has their topic id any more.

The internal topics (``__consumer_offsets``, ``__transaction_state``: ``internaltopics.py``) are the coordinators',
created by the store itself: this service does not show them (listed, described, changed or deleted, they are
unknown; created, they exist already), so the broker shows them only as its coordinators do.

Change listeners (``add_change_listener``) are called after each change to the topic table (a replication
leader sends its followers the new table at once, not at its next heartbeat).

Threads: the event loop thread only.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Mapping

from .config import TopicSettings
from .coordinatorstate import CommittedOffsets
from .errors import InvalidPartitionsError, TopicAlreadyExistsError, UnknownTopicIdError, UnknownTopicOrPartitionError
from .health import StoreHealth, guarded
from .internaltopics import INTERNAL_TOPICS
from .partitions import Partitions
from .results import TopicInfo
from .topics import TopicTable
from .transactions import TransactionTracker

log = logging.getLogger(__name__)


class Topics:
    def __init__(
        self,
        health: StoreHealth,
        table: TopicTable,
        partitions: Partitions,
        transactions: TransactionTracker,
        offsets: CommittedOffsets,
    ) -> None:
        self._health = health
        self._table = table
        self._partitions = partitions
        self._transactions = transactions
        self._offsets = offsets
        self._listeners: list[Callable[[], None]] = []

    def add_change_listener(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every topic created, deleted, grown or reconfigured."""
        self._listeners.append(listener)

    def remove_change_listener(self, listener: Callable[[], None]) -> None:
        self._listeners.remove(listener)

    def _changed(self) -> None:
        for listener in self._listeners:
            listener()

    @guarded
    def create(
        self, name: str, partitions: int, configs: Mapping[str, str] | None = None, topic_id: uuid.UUID | None = None
    ) -> TopicInfo:
        configs = dict(configs or {})
        if name in INTERNAL_TOPICS:
            raise TopicAlreadyExistsError(f"topic {name!r} is internal: the coordinators' own")
        self._table.check_new(name, partitions, configs, topic_id)
        topic_id = topic_id or uuid.uuid4()
        self._partitions.add(topic_id.bytes, range(partitions))
        created = self._table.create(name, partitions, configs, topic_id)
        log.info("topic %s created: %d partitions, id %s, configs %s", name, partitions, topic_id, configs or "default")
        self._changed()
        return created

    @guarded
    def delete(self, name: str) -> TopicInfo:
        """Delete a topic: its queues and offsets go; its CommitLog records become unreachable."""
        _refuse_internal(name)
        topic = self._table.delete(name)
        self._partitions.delete(topic.topic_id.bytes, topic.partitions)
        self._partitions.log_starts.forget_topic(topic.topic_id.bytes)
        self._transactions.forget_topic(topic.topic_id.bytes)
        self._offsets.delete_topic(name)
        log.info("topic %s deleted (id %s, %d partitions)", name, topic.topic_id, topic.partitions)
        self._changed()
        return topic

    @guarded
    def create_partitions(self, name: str, total_count: int) -> TopicInfo:
        _refuse_internal(name)
        topic = self._table.get(name)
        if total_count <= topic.partitions:
            raise InvalidPartitionsError(f"topic {name!r} has {topic.partitions} partitions; {total_count} is no more")
        self._partitions.add(topic.topic_id.bytes, range(topic.partitions, total_count))
        changed = self._table.replace(TopicInfo(name, topic.topic_id, total_count, topic.configs))
        log.info("topic %s altered: partitions %d -> %d", name, topic.partitions, total_count)
        self._changed()
        return changed

    @guarded
    def alter_configs(self, name: str, configs: Mapping[str, str | None], *, replace: bool = False) -> TopicInfo:
        """Set configs (None removes a key, back to its default); ``replace`` drops every key not given."""
        _refuse_internal(name)
        topic = self._table.get(name)
        merged = {} if replace else dict(topic.configs)
        for key, value in configs.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = value
        TopicSettings.parse(merged)
        self._partitions.changed()
        changed = self._table.replace(TopicInfo(name, topic.topic_id, topic.partitions, merged))
        log.info("topic %s altered: configs %s", name, merged or "default")
        self._changed()
        return changed

    @guarded
    def set_defaults(self, defaults: Mapping[str, str]) -> None:
        """The topic configs the broker's settings supply changed (Kafka's dynamic broker configs): from now on,
        every topic that does not set a config takes it from ``defaults`` (nothing is written; the broker keeps
        its settings)."""
        self._table.set_defaults(defaults)
        self._partitions.changed()
        log.info("topic defaults from broker settings: %s", dict(defaults) or "Kafka's")

    @guarded
    def list(self) -> tuple[TopicInfo, ...]:
        return tuple(topic for topic in self._table.all() if topic.name not in INTERNAL_TOPICS)

    @guarded
    def describe(self, name: str) -> TopicInfo:
        _refuse_internal(name)
        return self._table.get(name)

    @guarded
    def settings(self, name: str) -> TopicSettings:
        """The topic's configs the broker acts on, parsed (defaults filled in). Produce asks for every partition:
        the internal topics are refused without a call."""
        if name in INTERNAL_TOPICS:
            raise UnknownTopicOrPartitionError(f"topic {name!r} does not exist")
        try:
            return self._table.settings(name)
        except KeyError:
            raise UnknownTopicOrPartitionError(f"topic {name!r} does not exist") from None

    @guarded
    def name_of(self, topic_id: uuid.UUID) -> str:
        """The name of the topic with this id (Fetch v13+ addresses topics by id)."""
        name = self._table.name_of(topic_id)
        if name in INTERNAL_TOPICS:
            raise UnknownTopicIdError(f"unknown topic id {topic_id}")
        return name


def _refuse_internal(name: str) -> None:
    if name in INTERNAL_TOPICS:
        raise UnknownTopicOrPartitionError(f"topic {name!r} does not exist")
