"""A KIP-848 consumer group as the store keeps it across restarts: one JSON document per group.

Kept beside the classic groups' documents (``facade/group/persistence.py``) as a record of
``__consumer_offsets`` (``store.group_metadata``), told apart by ``"group_type": "consumer"``. Saved
whenever a heartbeat, a session expiry or a leave changes the group (members, epochs, target or current
assignments). Document, version 1::

    {"version": 1, "group_type": "consumer", "group_epoch": int, "assignment_epoch": int,
     "assignor": str, "state_timestamp_ms": int,
     "topics": {name: [topic id (UUID string), partition count]},
     "members": [{"member_id": str, "instance_id": str | null, "rack_id": str | null, "client_id": str,
                  "client_host": str, "rebalance_timeout_ms": int, "subscribed_topic_names": [str],
                  "subscribed_topic_regex": str | null, "server_assignor": str | null,
                  "member_epoch": int, "previous_member_epoch": int, "state": str,
                  "assigned": {topic id: [partition]}, "revoking": {topic id: [partition]},
                  "target": {topic id: [partition]},
                  "classic": {"session_timeout_ms": int, "protocols": [[name, base64 metadata]]} | absent}]}

``classic`` is present for a member speaking the classic protocol (an upgraded group's, ``classic_members.py``).

Loaded, every member is back with its epoch and assignment and carries on heartbeating; members that do not
come back expire after the session timeout.
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Mapping
from typing import Any, Final

from .model import Assignment, ClassicMembership, ConsumerGroup, ConsumerMember, MemberState

DOCUMENT_VERSION: Final = 1
GROUP_TYPE: Final = "consumer"


class ConsumerGroupDocumentError(Exception):
    """A stored consumer group document this broker cannot read (a newer version, or damaged)."""


def is_consumer_group_document(document: Mapping[str, Any]) -> bool:
    return document.get("group_type") == GROUP_TYPE


def _assignment_json(assignment: Assignment) -> dict[str, list[int]]:
    return {str(topic): sorted(indexes) for topic, indexes in assignment.items()}


def _assignment(document: Mapping[str, Any]) -> Assignment:
    return {uuid.UUID(topic): frozenset(int(i) for i in indexes) for topic, indexes in document.items()}


def _classic_json(classic: ClassicMembership | None) -> dict[str, Any]:
    if classic is None:
        return {}
    protocols = [[name, base64.b64encode(metadata).decode()] for name, metadata in classic.protocols]
    return {"classic": {"session_timeout_ms": classic.session_timeout_ms, "protocols": protocols}}


def _classic(entry: Mapping[str, Any]) -> ClassicMembership | None:
    classic = entry.get("classic")
    if classic is None:
        return None
    protocols = tuple((str(name), base64.b64decode(data)) for name, data in classic["protocols"])
    return ClassicMembership(int(classic["session_timeout_ms"]), protocols)


def group_document(group: ConsumerGroup) -> dict[str, Any]:
    members = [
        {
            "member_id": m.member_id,
            "instance_id": m.instance_id,
            "rack_id": m.rack_id,
            "client_id": m.client_id,
            "client_host": m.client_host,
            "rebalance_timeout_ms": m.rebalance_timeout_ms,
            "subscribed_topic_names": list(m.subscribed_topic_names),
            "subscribed_topic_regex": m.subscribed_topic_regex,
            "server_assignor": m.server_assignor,
            "member_epoch": m.member_epoch,
            "previous_member_epoch": m.previous_member_epoch,
            "state": m.state.value,
            "assigned": _assignment_json(m.assigned),
            "revoking": _assignment_json(m.revoking),
            "target": _assignment_json(group.target.get(m.member_id, {})),
        }
        | _classic_json(m.classic)
        for m in group.members.values()
    ]
    return {
        "version": DOCUMENT_VERSION,
        "group_type": GROUP_TYPE,
        "group_epoch": group.group_epoch,
        "assignment_epoch": group.assignment_epoch,
        "assignor": group.assignor,
        "state_timestamp_ms": group.state_timestamp_ms,
        "topics": {name: [str(topic_id), count] for name, (topic_id, count) in group.topics.items()},
        "members": members,
    }


def load_group(group_id: str, document: Mapping[str, Any]) -> ConsumerGroup:
    if document.get("version") != DOCUMENT_VERSION:
        raise ConsumerGroupDocumentError(f"group {group_id!r}: unknown document version {document.get('version')!r}")
    try:
        group = ConsumerGroup(
            group_id,
            int(document["state_timestamp_ms"]),
            group_epoch=int(document["group_epoch"]),
            assignment_epoch=int(document["assignment_epoch"]),
            assignor=str(document["assignor"]),
            topics={name: (uuid.UUID(tid), int(count)) for name, (tid, count) in document["topics"].items()},
        )
        for entry in document["members"]:
            member = _load_member(entry)
            group.members[member.member_id] = member
            group.target[member.member_id] = _assignment(entry["target"])
            group.set_owned(member, _assignment(entry["assigned"]), _assignment(entry["revoking"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ConsumerGroupDocumentError(f"group {group_id!r}: damaged document ({exc!r})") from None
    return group


def _load_member(entry: Mapping[str, Any]) -> ConsumerMember:
    return ConsumerMember(
        member_id=entry["member_id"],
        instance_id=entry["instance_id"],
        rack_id=entry["rack_id"],
        client_id=entry["client_id"],
        client_host=entry["client_host"],
        rebalance_timeout_ms=int(entry["rebalance_timeout_ms"]),
        subscribed_topic_names=tuple(entry["subscribed_topic_names"]),
        subscribed_topic_regex=entry["subscribed_topic_regex"],
        server_assignor=entry["server_assignor"],
        member_epoch=int(entry["member_epoch"]),
        previous_member_epoch=int(entry["previous_member_epoch"]),
        state=MemberState(entry["state"]),
        classic=_classic(entry),
    )
