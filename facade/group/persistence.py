"""A group as the store keeps it across restarts: one JSON document per group (``store/groups.py`` holds it).

Saved when Kafka writes a group to ``__consumer_offsets``: when the leader's assignment completes a
generation, when a generation completes with no members (the group turns Empty), and when a static
member rejoins a stable group under a new member id. Deleted with the group. Document, version 1::

    {"version": 1, "generation": int, "protocol_type": str | null, "protocol": str | null,
     "leader": str | null, "state_timestamp_ms": int,
     "members": [{"member_id": str, "group_instance_id": str | null, "client_id": str, "client_host": str,
                  "session_timeout_ms": int, "rebalance_timeout_ms": int,
                  "protocols": [[name, base64 metadata], ...], "assignment": base64}]}

Loaded, a group with members is Stable in its saved generation (the members keep their ids and
assignments, so after a broker restart they carry on heartbeating without a rebalance, and members that
do not come back expire after their session timeout); without members it is Empty.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any, Final

from .group import ClassicGroup, Member
from .state import GroupState

DOCUMENT_VERSION: Final = 1


class GroupDocumentError(Exception):
    """A stored group document this broker cannot read (a newer version, or damaged)."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def group_document(group: ClassicGroup, assignments: Mapping[str, bytes] | None = None) -> dict[str, Any]:
    """The document of ``group``, with ``assignments`` in place of the members' current ones if given."""
    members = [
        {
            "member_id": m.member_id,
            "group_instance_id": m.group_instance_id,
            "client_id": m.client_id,
            "client_host": m.client_host,
            "session_timeout_ms": m.session_timeout_ms,
            "rebalance_timeout_ms": m.rebalance_timeout_ms,
            "protocols": [[name, _b64(data)] for name, data in m.protocols],
            "assignment": _b64(m.assignment if assignments is None else assignments.get(m.member_id, b"")),
        }
        for m in group.members.values()
    ]
    return {
        "version": DOCUMENT_VERSION,
        "generation": group.generation_id,
        "protocol_type": group.protocol_type,
        "protocol": group.protocol_name,
        "leader": group.leader_id,
        "state_timestamp_ms": group.state_timestamp_ms,
        "members": members,
    }


def load_group(group_id: str, document: Mapping[str, Any]) -> ClassicGroup:
    """The group a document describes: Stable with its members, or Empty without."""
    if document.get("version") != DOCUMENT_VERSION:
        raise GroupDocumentError(f"group {group_id!r}: unknown document version {document.get('version')!r}")
    try:
        group = ClassicGroup(group_id, int(document["state_timestamp_ms"]))
        group.generation_id = int(document["generation"])
        group.protocol_type = document["protocol_type"]
        group.protocol_name = document["protocol"]
        for entry in document["members"]:
            member = Member(
                member_id=entry["member_id"],
                group_instance_id=entry["group_instance_id"],
                client_id=entry["client_id"],
                client_host=entry["client_host"],
                rebalance_timeout_ms=int(entry["rebalance_timeout_ms"]),
                session_timeout_ms=int(entry["session_timeout_ms"]),
                protocol_type=group.protocol_type or "",
                protocols=tuple((name, base64.b64decode(data)) for name, data in entry["protocols"]),
                assignment=base64.b64decode(entry["assignment"]),
            )
            group.add(member)
    except (KeyError, TypeError, ValueError) as exc:
        raise GroupDocumentError(f"group {group_id!r}: damaged document ({exc!r})") from None
    group.leader_id = document["leader"] if document["leader"] in group.members else next(iter(group.members), None)
    if group.members:
        group.state = GroupState.STABLE  # as saved: the generation had completed
        if group.protocol_name is None:
            raise GroupDocumentError(f"group {group_id!r}: members without a selected protocol")
    return group
