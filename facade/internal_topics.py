"""The internal topics as Kafka clients see them: ``__consumer_offsets`` and ``__transaction_state``.

Kafka creates each internal topic on the first FindCoordinator for a group (``__consumer_offsets``) or for a
transactional id (``__transaction_state``), or on a Metadata request naming it, and from then on lists it in
Metadata as internal, with ``offsets.topic.num.partitions`` partitions (Kafka's separate
``transaction.state.log.num.partitions`` is the same setting here). Rockafka's coordinators keep their state as
records of these two topics in the store (``store/internaltopics.py``), which hides them from ``store.topics``;
this listing is what the Kafka APIs and the console show of them. A topic is shown once a client has asked for
it or once the store holds state for it (groups with offsets, transactional ids), so a restart does not hide it.

Clients cannot create, delete, alter or trim these topics: the admin handlers answer as for Kafka's internal
topics (``facade/handlers/admin.py``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping

from rockafka.store import INTERNAL_TOPICS, OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC, TopicInfo

__all__ = ["INTERNAL_TOPICS", "OFFSETS_TOPIC", "TRANSACTION_STATE_TOPIC", "InternalTopicListing"]


class InternalTopicListing:
    """Which internal topics to list, and their descriptions (a stable id per cluster, the partition count)."""

    def __init__(self, cluster_id: str, partitions: int, has_state: Mapping[str, Callable[[], bool]]) -> None:
        self._topics = {
            name: TopicInfo(name, uuid.uuid5(uuid.NAMESPACE_URL, f"rockafka:{cluster_id}/{name}"), partitions, {})
            for name in sorted(INTERNAL_TOPICS)
        }
        self._has_state = dict(has_state)
        self._shown: set[str] = set()

    def shown(self) -> tuple[TopicInfo, ...]:
        """The internal topics Metadata lists among all topics, by name."""
        for name in sorted(INTERNAL_TOPICS):
            if name not in self._shown and self._has_state.get(name, _never)():
                self._shown.add(name)
        return tuple(self._topics[name] for name in sorted(self._shown))

    def show(self, name: str) -> TopicInfo | None:
        """The internal topic ``name``, listed from now on (a client asked for it); None if ``name`` is not one."""
        info = self._topics.get(name)
        if info is not None:
            self._shown.add(name)
        return info

    def by_id(self, topic_id: uuid.UUID) -> TopicInfo | None:
        """The shown internal topic with this id, if any."""
        return next((info for info in self.shown() if info.topic_id == topic_id), None)


def _never() -> bool:
    return False
