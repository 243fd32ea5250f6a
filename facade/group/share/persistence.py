"""A share group as the store keeps it across restarts: one JSON document per group, its members and the state
of every share-partition it has read.

Kept beside the classic and consumer groups' documents as a record of ``__consumer_offsets``
(``store.group_metadata``), told apart by ``"group_type": "share"``. Saved when the membership changes and when
an acknowledgement, a release or an expired lock changes a share-partition's window, and when an administrator
alters or deletes share-partition state (``offsets.py``); not when records are acquired: a restart then delivers
them again. Document, version 1::

    {"version": 1, "group_type": "share", "group_epoch": int, "assignment_epoch": int,
     "topics": {name: [topic id (UUID string), partition count]},
     "members": [{"member_id": str, "client_id": str, "client_host": str, "rack_id": str | null,
                  "subscribed_topic_names": [str], "member_epoch": int}],
     "partitions": {"<topic id>:<partition>": {"start": int, "end": int,
                                               "runs": [[first offset, last offset, state, delivery count]]}}}

``start`` is the share-partition start offset (SPSO), ``end`` the end offset (SPEO); each run is consecutive
offsets of one state (Kafka's numbers: 0 available, 2 acknowledged, 4 archived; acquired records are saved as
available) and delivery count. This is the record form of RocketMQ's POP checkpoints: RocketMQ appends each
checkpoint and ack to a system topic through its CommitLog and revives unacknowledged messages from it; here
the window's runs are appended to ``__consumer_offsets`` through the CommitLog, and a restart revives every
record not acknowledged or archived.

Loaded, the members are back at their epochs and carry on heartbeating (those that do not come back expire
after the session timeout), and no acknowledged or archived record is delivered again.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any, Final

from .inflight import RecordState, SharePartition, StateRun
from .model import PartitionKey, ShareGroup, ShareMember

DOCUMENT_VERSION: Final = 1
GROUP_TYPE: Final = "share"


class ShareGroupDocumentError(Exception):
    """A stored share group document this broker cannot read (a newer version, or damaged)."""


def is_share_group_document(document: Mapping[str, Any]) -> bool:
    return document.get("group_type") == GROUP_TYPE


def group_document(group: ShareGroup) -> dict[str, Any]:
    return {
        "version": DOCUMENT_VERSION,
        "group_type": GROUP_TYPE,
        "group_epoch": group.group_epoch,
        "assignment_epoch": group.assignment_epoch,
        "topics": {name: [str(topic_id), count] for name, (topic_id, count) in group.topics.items()},
        "members": [
            {
                "member_id": m.member_id,
                "client_id": m.client_id,
                "client_host": m.client_host,
                "rack_id": m.rack_id,
                "subscribed_topic_names": list(m.subscribed_topic_names),
                "member_epoch": m.member_epoch,
            }
            for m in group.members.values()
        ],
        "partitions": {
            _key_text(key): {
                "start": partition.start,
                "end": partition.end,
                "runs": [[r.first_offset, r.last_offset, int(r.state), r.delivery_count] for r in partition.runs()],
            }
            for key, partition in sorted(group.partitions.items())
        },
    }


def load_group(group_id: str, document: Mapping[str, Any]) -> ShareGroup:
    if document.get("version") != DOCUMENT_VERSION:
        raise ShareGroupDocumentError(f"share group {group_id!r}: unknown document version {document.get('version')!r}")
    try:
        group = ShareGroup(
            group_id,
            group_epoch=int(document["group_epoch"]),
            assignment_epoch=int(document["assignment_epoch"]),
            topics={name: (uuid.UUID(tid), int(count)) for name, (tid, count) in document["topics"].items()},
        )
        for entry in document["members"]:
            member = ShareMember(
                member_id=str(entry["member_id"]),
                client_id=str(entry["client_id"]),
                client_host=str(entry["client_host"]),
                rack_id=entry["rack_id"],
                subscribed_topic_names=tuple(entry["subscribed_topic_names"]),
                member_epoch=int(entry["member_epoch"]),
            )
            group.members[member.member_id] = member
        for key, saved in document["partitions"].items():
            runs = [StateRun(int(a), int(b), RecordState(int(s)), int(n)) for a, b, s, n in saved["runs"]]
            group.partitions[_key(key)] = SharePartition(int(saved["start"]), int(saved["end"]), runs)
    except (KeyError, TypeError, ValueError) as exc:
        raise ShareGroupDocumentError(f"share group {group_id!r}: damaged document ({exc!r})") from None
    return group


def _key_text(key: PartitionKey) -> str:
    return f"{key[0]}:{key[1]}"


def _key(text: str) -> PartitionKey:
    topic, _, partition = text.rpartition(":")
    return uuid.UUID(topic), int(partition)
