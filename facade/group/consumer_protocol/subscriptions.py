"""What a consumer group subscribes to, and its target assignment.

A member subscribes by topic names, by a regular expression, or both (``SubscribedTopicNames``,
``SubscribedTopicRegex`` of ConsumerGroupHeartbeat v1). The broker evaluates the regex against every topic
it holds (internal topics excepted), so a topic created later is picked up within a heartbeat interval or
two of its creation. The regex must match a whole topic name, as Kafka's RE2/J ``matches()``.
Dialect: RE2 (the ``google-re2`` bindings), Kafka's own through RE2/J: no back-references or look-arounds, and
matching takes time linear in the name whatever the pattern, so no regex a client sends can stall the event
loop. A regex that does not compile is refused with INVALID_REGULAR_EXPRESSION.

The group's subscribed topics (name -> id and partition count) are recomputed on a heartbeat that changes
the membership or a subscription, and otherwise at most once a heartbeat interval per group (so the cost
does not grow with members times topics); a change (a topic created, deleted or grown) bumps the group
epoch, and a new target assignment is computed at once with the group's assignor: the one most members ask
for (``ServerAssignor``), else the first of ``group.consumer.assignors``; rack-aware when every member and every
subscribed partition has a rack (``assignors.py``).
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import re2

from rockafka.store import TopicInfo

from .assignors import ASSIGNORS, Racks
from .model import ConsumerGroup, ConsumerMember


class InvalidRegexError(ValueError):
    """A subscription regex that does not compile."""


#: The racks of the replicas of each partition of the given topics (name -> partition count); a partition
#: without racks is left out.
PartitionRacks = Callable[[Mapping[str, int]], Mapping[tuple[str, int], frozenset[str]]]


def no_racks(topics: Mapping[str, int]) -> Mapping[tuple[str, int], frozenset[str]]:
    """No partition has a rack (one broker: Metadata's racks are null)."""
    return {}


class Subscriptions:
    def __init__(self, assignors: Sequence[str]) -> None:
        self.assignors = tuple(assignors)
        #: Where partitions' replicas are (the broker sets it: in a cluster, each broker group is a rack).
        self.partition_racks: PartitionRacks = no_racks
        self._compiled: dict[str, Any] = {}
        self._options = re2.Options()
        self._options.log_errors = False  # a refused regex is the client's error, answered, not the broker's log

    def compile(self, regex: str) -> Any:
        """The compiled RE2 pattern (``fullmatch`` like ``re``'s)."""
        pattern = self._compiled.get(regex)
        if pattern is None:
            try:
                pattern = re2.compile(regex, self._options)
            except re2.error as exc:
                reason = exc.args[0].decode(errors="replace") if exc.args and isinstance(exc.args[0], bytes) else exc
                raise InvalidRegexError(f"invalid regular expression {regex!r}: {reason}") from None
            if len(self._compiled) > 1024:
                self._compiled.clear()
            self._compiled[regex] = pattern
        return pattern

    def topics_of(self, member: ConsumerMember, topics: Iterable[str]) -> set[str]:
        """The names among ``topics`` that ``member`` subscribes to."""
        names = set(member.subscribed_topic_names)
        regex = member.subscribed_topic_regex
        pattern = self.compile(regex) if regex else None
        return {name for name in topics if name in names or (pattern is not None and pattern.fullmatch(name))}

    def refresh(self, group: ConsumerGroup, existing: Sequence[TopicInfo]) -> bool:
        """Recompute the group's subscribed topics from the store's; True if they changed."""
        by_name = {topic.name: topic for topic in existing}
        wanted: set[str] = set()
        for member in group.members.values():
            wanted |= self.topics_of(member, by_name)
        seen = {name: (by_name[name].topic_id, by_name[name].partitions) for name in sorted(wanted)}
        if seen == group.topics:
            return False
        group.topics = seen
        return True

    def assign(self, group: ConsumerGroup) -> None:
        """A new target assignment at the group epoch."""
        subscriptions = {
            member_id: frozenset(group.topics[name][0] for name in self.topics_of(member, group.topics))
            for member_id, member in group.members.items()
        }
        counts: dict[uuid.UUID, int] = dict(group.topics.values())
        group.assignor = self.choose_assignor(group)
        current = {member_id: member.assigned for member_id, member in group.members.items()}
        group.target = ASSIGNORS[group.assignor](subscriptions, counts, current, self._racks(group))
        group.assignment_epoch = group.group_epoch

    def _racks(self, group: ConsumerGroup) -> Racks | None:
        """The racks of the members and of the subscribed partitions' replicas, when every one of them has one (the
        assignors are rack-aware then); else None."""
        member_racks = {member_id: m.rack_id for member_id, m in group.members.items() if m.rack_id}
        if not member_racks or len(member_racks) != len(group.members):
            return None
        found = self.partition_racks({name: count for name, (_, count) in group.topics.items()})
        partitions: dict[tuple[uuid.UUID, int], frozenset[str]] = {}
        for name, (topic_id, count) in group.topics.items():
            for index in range(count):
                racks = found.get((name, index))
                if not racks:
                    return None
                partitions[(topic_id, index)] = racks
        return Racks(member_racks, partitions)

    def choose_assignor(self, group: ConsumerGroup) -> str:
        asked = Counter(m.server_assignor for m in group.members.values() if m.server_assignor)
        if asked:
            return max(sorted(asked), key=lambda name: asked[name])
        return self.assignors[0]
