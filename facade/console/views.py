"""What the console's pages show, as JSON-ready dictionaries: the overview, topics, consumer groups and the store.

Every list is paginated (``Page``): a page of topics reads the offsets of its own topics' partitions only, and a
page of groups computes the lag of its own groups only, so a broker with 10,000 partitions and 1,000 groups
answers each page in a fraction of a second. What a viewer may not DESCRIBE is left out (``ConsoleAccess``).
In a cluster the offsets of a partition are those of its leader: another broker's partitions show their leader
and no offsets.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from rockafka.store import StoreError, TopicInfo, TopicPartition

from ..broker import Broker
from ..config import describe_topic_config
from ..group.model import GroupDescription
from ..protocol.errors import DecodeError
from ..protocol.messages.consumer_protocol_assignment import ConsumerProtocolAssignment
from ..protocol.primitives import Reader
from ..security.acl import AclOperation, ResourceType
from ..topology import BrokerAddress
from .access import ConsoleAccess, Viewer
from .errors import BadRequestError, NotFoundError

T = TypeVar("T")
Json = dict[str, Any]
MAX_PAGE_SIZE = 500
LAG_GROUPS_PER_STEP = 100


@dataclass(frozen=True, slots=True)
class Page:
    """Which slice of a sorted list to show: ``number`` from 1, ``size`` items, names containing ``filter``."""

    number: int = 1
    size: int = 50
    filter: str = ""

    def __post_init__(self) -> None:
        if self.number < 1 or not 1 <= self.size <= MAX_PAGE_SIZE:
            raise BadRequestError(f"page must be at least 1 and size between 1 and {MAX_PAGE_SIZE}")

    def cut(self, items: Sequence[T], name: Callable[[T], str]) -> tuple[int, list[T]]:
        """(how many match the filter, the items of this page)."""
        matching = [item for item in items if self.filter in name(item)] if self.filter else list(items)
        start = (self.number - 1) * self.size
        return len(matching), matching[start : start + self.size]

    def frame(self, total: int, items: list[Json]) -> Json:
        return {"total": total, "page": self.number, "size": self.size, "items": items}


class ConsoleViews:
    """The read-only views over one broker."""

    def __init__(self, broker: Broker, access: ConsoleAccess) -> None:
        self._broker = broker
        self._access = access

    # --- topics ---

    def visible_topics(self, viewer: Viewer) -> list[TopicInfo]:
        """Every topic the viewer may DESCRIBE, internal ones included, by name."""
        broker = self._broker
        topics = {info.name: info for info in broker.store.topics.list()}
        topics.update((info.name, info) for info in broker.internal_topics.shown())
        return [
            info
            for name, info in sorted(topics.items())
            if self._access.allows(viewer, AclOperation.DESCRIBE, ResourceType.TOPIC, name)
        ]

    def topics(self, viewer: Viewer, page: Page) -> Json:
        total, shown = page.cut(self.visible_topics(viewer), lambda info: info.name)
        items = []
        for info in shown:
            partitions = [self._partition(info.name, number) for number in range(info.partitions)]
            items.append(
                {
                    "name": info.name,
                    "partitions": info.partitions,
                    "internal": info.name.startswith("__"),
                    "size_bytes": sum(p.get("size_bytes", 0) for p in partitions),
                    "messages": sum(p.get("high_watermark", 0) - p.get("log_start_offset", 0) for p in partitions),
                    "cleanup_policy": info.configs.get("cleanup.policy", self._default("cleanup.policy")),
                }
            )
        return page.frame(total, items)

    def topic(self, viewer: Viewer, name: str, page: Page) -> Json:
        info = self.topic_info(viewer, name)
        total, numbers = page.cut(range(info.partitions), str)
        configs = [
            {"name": entry.name, "value": entry.value, "source": entry.source.name, "read_only": entry.read_only}
            for entry in describe_topic_config(info.configs, self._broker.config)
        ]
        return {
            "name": info.name,
            "topic_id": str(info.topic_id),
            "internal": info.name.startswith("__"),
            "partitions": page.frame(total, [self._partition(info.name, n) for n in numbers]),
            "configs": configs,
        }

    def topic_info(self, viewer: Viewer, name: str) -> TopicInfo:
        """The topic, if the viewer may DESCRIBE it (a topic it may not see is as unknown as a missing one)."""
        info = self._broker.internal_topics.show(name) or self._broker.topic_or_none(name)
        if info is None or not self._access.allows(viewer, AclOperation.DESCRIBE, ResourceType.TOPIC, name):
            raise NotFoundError(f"no topic {name!r}")
        return info

    def leader_of(self, topic: str, partition: int) -> int:
        broker = self._broker
        return broker.topology.place(topic, partition, broker.node_id).leader

    def _partition(self, topic: str, number: int) -> Json:
        leader = self.leader_of(topic, number)
        shown: Json = {"partition": number, "leader": leader}
        if leader != self._broker.node_id:
            return shown
        records = self._broker.store.records
        try:
            offsets = records.partition_offsets(topic, number)
            shown["last_stable_offset"] = records.last_stable_offset(topic, number)
        except StoreError as exc:
            shown["error"] = str(exc)
            return shown
        shown.update(
            log_start_offset=offsets.log_start_offset,
            high_watermark=offsets.high_watermark,
            size_bytes=offsets.size_bytes,
        )
        return shown

    def _default(self, name: str) -> str:
        return str(self._broker.config.get(f"log.{name}") or "delete")

    # --- groups ---

    def visible_groups(self, viewer: Viewer) -> list[str]:
        return [
            listing.group_id
            for listing in self._broker.groups.list_groups()
            if self._access.allows(viewer, AclOperation.DESCRIBE, ResourceType.GROUP, listing.group_id)
        ]

    def groups(self, viewer: Viewer, page: Page) -> Json:
        total, shown = page.cut(self.visible_groups(viewer), str)
        items = []
        for group_id in shown:
            description = self._broker.groups.describe_group(group_id)
            lags = self._lags(viewer, group_id)
            items.append(
                {
                    "group_id": group_id,
                    "state": description.state,
                    "protocol_type": description.protocol_type,
                    "members": len(description.members),
                    "lag": sum(item["lag"] for item in lags),
                    "partitions": len(lags),
                }
            )
        return page.frame(total, items)

    def group(self, viewer: Viewer, group_id: str) -> Json:
        self.check_group(viewer, group_id)
        description = self._broker.groups.describe_group(group_id)
        lags = self._lags(viewer, group_id)
        return {
            "group_id": group_id,
            "state": description.state,
            "protocol_type": description.protocol_type,
            "protocol": description.protocol,
            "members": _members(description),
            "offsets": lags,
            "lag": sum(item["lag"] for item in lags),
            "time_ms": int(time.time() * 1000),
        }

    def check_group(self, viewer: Viewer, group_id: str) -> None:
        if group_id not in self.visible_groups(viewer):
            raise NotFoundError(f"no consumer group {group_id!r}")

    def committed(self, group_id: str) -> dict[TopicPartition, int]:
        _, fetched = self._broker.groups.offsets.fetch(group_id, None, False)
        return {TopicPartition(item.topic, item.partition): item.offset for item in fetched if item.offset >= 0}

    def _lags(self, viewer: Viewer, group_id: str) -> list[Json]:
        """The group's committed offsets on topics the viewer may see, with the high watermark and the lag."""
        rows = []
        for key, offset in sorted(self.committed(group_id).items(), key=lambda kv: (kv[0].topic, kv[0].partition)):
            if not self._access.allows(viewer, AclOperation.DESCRIBE, ResourceType.TOPIC, key.topic):
                continue
            try:
                end = self._broker.store.records.partition_bounds(key.topic, key.partition).high_watermark
            except StoreError:
                continue  # the topic was deleted since the commit
            rows.append(
                {
                    "topic": key.topic,
                    "partition": key.partition,
                    "committed": offset,
                    "high_watermark": end,
                    "lag": max(0, end - offset),
                }
            )
        return rows

    # --- overview and store ---

    async def overview(self, viewer: Viewer) -> Json:
        broker = self._broker
        topics = self.visible_topics(viewer)
        stats = broker.store.stats()
        advertised = broker.config.advertised_listeners[0]
        own = BrokerAddress(broker.node_id, advertised.host, advertised.port)
        visible = {info.name for info in topics}
        groups = self.visible_groups(viewer)
        traffic = broker.metrics.topics.items() if broker.metrics is not None else ()
        seen = [counts for name, counts in traffic if name in visible]
        return {
            "cluster_id": broker.cluster_id,
            "node_id": broker.node_id,
            "brokers": [{"node_id": b.node_id, "host": b.host, "port": b.port} for b in broker.topology.brokers(own)],
            "controller_id": broker.topology.controller_id(broker.node_id),
            "listeners": [listener.url for listener in broker.config.listeners],
            "topics": len(topics),
            "partitions": sum(t.partitions for t in topics),
            "groups": len(groups),
            "lag": sum(row["lag"] for group_id in groups for row in self._lags(viewer, group_id)),
            "store_bytes": stats.commitlog_bytes,
            "store_segments": stats.commitlog_segments,
            "messages_in": sum(c.messages_in for c in seen),
            "bytes_in": sum(c.bytes_in for c in seen),
            "bytes_out": sum(c.bytes_out for c in seen),
            "time_ms": int(time.time() * 1000),
        }

    async def _total_lag(self, viewer: Viewer, groups: list[str]) -> int:
        """The lag of every group, summed; the event loop is let go every ``LAG_GROUPS_PER_STEP`` groups, so a
        console watching a broker of many groups never holds produce and fetch up for long."""
        total = 0
        for start in range(0, len(groups), LAG_GROUPS_PER_STEP):
            total += sum(row["lag"] for group_id in groups[start : start + LAG_GROUPS_PER_STEP]
                         for row in self._lags(viewer, group_id))  # fmt: skip
            await asyncio.sleep(0)
        return total

    async def store(self, kind: str, page: Page) -> Json:
        stats = self._broker.store.stats()
        files = await asyncio.get_running_loop().run_in_executor(None, self._broker.store.files)  # only lists dirs
        counts: dict[str, int] = {}
        for item in files:
            counts[item.kind] = counts.get(item.kind, 0) + 1
        chosen = [item for item in files if not kind or item.kind == kind]
        total, shown = page.cut(chosen, lambda item: item.path)
        return {
            "positions": {
                "commitlog_min_offset": stats.commitlog_min_offset,
                "commitlog_published_offset": stats.commitlog_published_offset,
                "commitlog_synced_offset": stats.commitlog_synced_offset,
                "indexed_offset": stats.indexed_offset,
                "index_lag_bytes": stats.index_lag_bytes,
            },
            "health": {"offline_reason": stats.offline_reason, "index_failure": stats.index_failure},
            "counts": counts,
            "files": page.frame(total, [{"kind": f.kind, "path": f.path, "size": f.size} for f in shown]),
        }


def _members(description: GroupDescription) -> list[Json]:
    return [
        {
            "member_id": member.member_id,
            "client_id": member.client_id,
            "host": member.client_host,
            "group_instance_id": member.group_instance_id,
            "assignment": _assignment(member.assignment),
        }
        for member in description.members
    ]


def _assignment(data: bytes) -> list[Json]:
    """A consumer-protocol member's assigned partitions (empty when not Stable or not the consumer protocol)."""
    if len(data) < 2:
        return []
    try:
        version = Reader(data, 0).int16()
        assignment = ConsumerProtocolAssignment.read(Reader(data, 2), min(max(version, 0), 3))
    except DecodeError:
        return []
    return [{"topic": item.topic, "partitions": sorted(item.partitions)} for item in assignment.assigned_partitions]
