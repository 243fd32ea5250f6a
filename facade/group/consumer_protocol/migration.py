"""Online migration between the protocols (KIP-848): a live classic group becomes a consumer group, and back.

Kafka's rules, under ``group.consumer.migration.policy`` (``bidirectional``, Kafka 4's default; ``upgrade``;
``downgrade``; ``disabled``):

- **Upgrade**: a consumer-protocol member joining a classic group with members converts it when the policy
  allows upgrades, the group's protocol type is ``consumer`` and it has no more members than
  ``group.consumer.max.size``; otherwise it is refused with GROUP_ID_NOT_FOUND. Each classic member becomes a
  member speaking the classic protocol, at the generation as its member epoch, its last assignment as both its
  partitions and its target, and its subscription (topics, rack) read from its JoinGroup metadata. The
  joining member bumps the group epoch; classic members learn it from REBALANCE_IN_PROGRESS on their next
  Heartbeat and rejoin (``classic_members.py``); members waiting in a JoinGroup or SyncGroup are answered
  REBALANCE_IN_PROGRESS at once.
- **Downgrade**: when the last consumer-protocol member leaves (epoch -1, an expired session, a revocation not
  done in time) and classic members remain, the group becomes a classic group if the policy allows downgrades and
  at most ``group.max.size`` members remain: its generation is the group epoch, each member keeps its target
  assignment as its classic assignment, and a rebalance starts (the members rejoin; the leader assigns).
- A classic JoinGroup for an **empty** consumer group turns it into a classic group whatever the policy, and a
  consumer-protocol member joining an empty classic group does the reverse (offsets stay in both cases).

The assignments and subscriptions are Kafka's ConsumerProtocolAssignment and ConsumerProtocolSubscription
bytes: a version (int16), then the message at that version.
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Mapping

from rockafka.facade.protocol.errors import DecodeError
from rockafka.facade.protocol.messages import consumer_protocol_assignment as assignment_message
from rockafka.facade.protocol.messages.consumer_protocol_assignment import ConsumerProtocolAssignment
from rockafka.facade.protocol.messages.consumer_protocol_subscription import ConsumerProtocolSubscription
from rockafka.facade.protocol.primitives import Reader, pack_int16
from rockafka.store import TopicInfo

from ..group import ClassicGroup, Member
from ..state import GroupState
from .model import Assignment, ClassicMembership, ConsumerGroup, ConsumerMember

#: The classic protocol type every member of a convertible group uses.
CONSUMER_PROTOCOL_TYPE = "consumer"


class MigrationPolicy(enum.Enum):
    BIDIRECTIONAL = "bidirectional"
    UPGRADE = "upgrade"
    DOWNGRADE = "downgrade"
    DISABLED = "disabled"

    @property
    def allows_upgrade(self) -> bool:
        return self in (MigrationPolicy.BIDIRECTIONAL, MigrationPolicy.UPGRADE)

    @property
    def allows_downgrade(self) -> bool:
        return self in (MigrationPolicy.BIDIRECTIONAL, MigrationPolicy.DOWNGRADE)


def read_subscription(metadata: bytes) -> ConsumerProtocolSubscription:
    """A member's JoinGroup metadata; DecodeError if it is not a ConsumerProtocolSubscription."""
    version = Reader(metadata, 0).int16()
    return ConsumerProtocolSubscription.read(Reader(metadata, 2), min(max(version, 0), 3))


def protocol_version(metadata: bytes) -> int:
    """The ConsumerProtocol version a member speaks (its subscription's), which its assignment is written at."""
    try:
        return min(max(Reader(metadata, 0).int16(), 0), 3)
    except DecodeError:
        return 0


def read_assignment(data: bytes, topics: Mapping[str, TopicInfo]) -> Assignment:
    """A classic member's assignment bytes as topic ids (empty bytes: nothing; topics gone are dropped)."""
    if not data:
        return {}
    version = Reader(data, 0).int16()
    message = ConsumerProtocolAssignment.read(Reader(data, 2), min(max(version, 0), 3))
    assignment: dict[uuid.UUID, frozenset[int]] = {}
    for entry in message.assigned_partitions:
        topic = topics.get(entry.topic)
        if topic is not None:
            indexes = frozenset(i for i in entry.partitions if 0 <= i < topic.partitions)
            assignment[topic.topic_id] = assignment.get(topic.topic_id, frozenset()) | indexes
    return assignment


def write_assignment(assignment: Assignment, names: Mapping[uuid.UUID, str], version: int) -> bytes:
    """ConsumerProtocolAssignment bytes at ``version`` for ``assignment`` (topic ids named by ``names``)."""
    entries = [
        assignment_message.TopicPartition(topic=names[topic], partitions=sorted(indexes))
        for topic, indexes in sorted(assignment.items(), key=lambda item: names.get(item[0], ""))
        if topic in names and indexes
    ]
    out = bytearray(pack_int16(version))
    ConsumerProtocolAssignment(assigned_partitions=entries).write(out, version)
    return bytes(out)


def owned_partitions(subscription: ConsumerProtocolSubscription, topics: Mapping[str, TopicInfo]) -> Assignment:
    """The partitions a classic member says it owns (subscription v1+), as topic ids."""
    owned: dict[uuid.UUID, frozenset[int]] = {}
    for entry in subscription.owned_partitions:
        topic = topics.get(entry.topic)
        if topic is not None:
            owned[topic.topic_id] = owned.get(topic.topic_id, frozenset()) | frozenset(entry.partitions)
    return owned


def consumer_group_from_classic(classic: ClassicGroup, topics: Mapping[str, TopicInfo], now_ms: int) -> ConsumerGroup:
    """The consumer group a live classic group becomes (an upgrade); DecodeError if a member's metadata or
    assignment is not the consumer protocol's."""
    generation = classic.generation_id
    group = ConsumerGroup(classic.group_id, now_ms, group_epoch=generation, assignment_epoch=generation)
    for member in classic.members.values():
        protocol = classic.protocol_name or member.protocols[0][0]
        subscription = read_subscription(member.metadata(protocol) or member.protocols[0][1])
        assigned = read_assignment(member.assignment, topics)
        converted = ConsumerMember(
            member_id=member.member_id,
            instance_id=member.group_instance_id,
            rack_id=subscription.rack_id,
            client_id=member.client_id,
            client_host=member.client_host,
            rebalance_timeout_ms=member.rebalance_timeout_ms,
            subscribed_topic_names=tuple(sorted(set(subscription.topics))),
            member_epoch=generation,
            previous_member_epoch=generation,
            classic=ClassicMembership(member.session_timeout_ms, member.protocols),
        )
        group.members[member.member_id] = converted
        group.target[member.member_id] = assigned
        group.set_owned(converted, assigned, {})
    return group


def classic_group_from_consumer(group: ConsumerGroup, leaving_id: str, now_ms: int) -> ClassicGroup:
    """The classic group a consumer group becomes when ``leaving_id``, its last consumer-protocol member, leaves
    (a downgrade): Stable at the group epoch, each member's target as its assignment; the caller rebalances it."""
    classic = ClassicGroup(group.group_id, now_ms)
    classic.generation_id = group.group_epoch
    classic.state = GroupState.STABLE
    names = {topic_id: name for name, (topic_id, _) in group.topics.items()}
    for member in group.members.values():
        if member.member_id == leaving_id or member.classic is None:
            continue
        converted = Member(
            member_id=member.member_id,
            group_instance_id=member.instance_id,
            client_id=member.client_id,
            client_host=member.client_host,
            rebalance_timeout_ms=member.rebalance_timeout_ms,
            session_timeout_ms=member.classic.session_timeout_ms,
            protocol_type=CONSUMER_PROTOCOL_TYPE,
            protocols=member.classic.protocols,
        )
        version = protocol_version(member.classic.protocols[0][1])
        converted.assignment = write_assignment(group.target.get(member.member_id, {}), names, version)
        classic.add(converted)
    classic.protocol_name = classic.select_protocol()
    return classic
