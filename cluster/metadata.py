"""The cluster's writes to etcd, each one compare-and-swap transaction (the keys: ``layout.py``).

- :meth:`ClusterMetadata.ensure_cluster_id`: the first broker creates ``cluster_id`` (only if absent);
  every broker then reads the one that won.
- :meth:`ClusterMetadata.register`: ``brokers/<node id>`` is created bound to the broker's lease, only if
  absent; a live broker already there is :class:`NodeIdTakenError`.
- :meth:`ClusterMetadata.create_topic` / ``delete_topic`` / ``add_partitions``: ``topics/<name>`` created
  only if absent, changed or deleted only at the ``mod_revision`` read, so two brokers' admin requests
  never overwrite each other; placement comes from ``placement.py`` over the snapshot's counts.

The controller's own writes (group leaders and epochs) are in ``controller.py``.
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Mapping

from .errors import ConcurrentChangeError, NodeIdTakenError, TopicExistsError, UnknownTopicError
from .etcd import Etcd
from .layout import BrokerInfo, KeyLayout, TopicRecord, decode_broker, decode_topic, encode_broker, encode_topic
from .placement import place_partitions
from .snapshot import ClusterSnapshot


def new_cluster_id() -> str:
    """A cluster id as Kafka makes them: a random UUID in URL-safe base64 without padding (22 characters)."""
    return base64.urlsafe_b64encode(uuid.uuid4().bytes).decode("ascii").rstrip("=")


class ClusterMetadata:
    """Writes one cluster's metadata through an :class:`Etcd` connection."""

    def __init__(self, etcd: Etcd, layout: KeyLayout) -> None:
        self.etcd = etcd
        self.layout = layout

    async def ensure_cluster_id(self, proposed: str | None = None) -> str:
        """The cluster's id: ``proposed`` (or a new one) if none is there yet, else the one stored."""
        key = self.layout.cluster_id()
        txn = self.etcd.txn
        candidate = (proposed or new_cluster_id()).encode()
        await self.etcd.transaction([txn.create(key) == 0], [txn.put(key, candidate)])
        stored = await self.etcd.get(key)
        assert stored is not None, "cluster_id was just created if absent"
        return stored.value.decode()

    async def register(self, info: BrokerInfo, lease_id: int) -> None:
        """Create ``brokers/<node id>`` bound to ``lease_id``, or :class:`NodeIdTakenError` if a live broker has it."""
        key = self.layout.broker(info.node_id)
        txn = self.etcd.txn
        created, _ = await self.etcd.transaction(
            [txn.create(key) == 0], [txn.put(key, encode_broker(info), lease=lease_id)]
        )
        if not created:
            holder = await self.etcd.get(key)
            where = "" if holder is None else _describe_holder(holder.value)
            raise NodeIdTakenError(f"node.id {info.node_id} is already registered by a live broker{where}")

    async def create_topic(
        self, snapshot: ClusterSnapshot, name: str, partitions: int, configs: Mapping[str, str]
    ) -> TopicRecord:
        """Create ``name`` with ``partitions`` partitions placed on the least loaded live groups."""
        placement = place_partitions(partitions, snapshot.live_groups(), snapshot.partition_counts())
        record = TopicRecord(name, uuid.uuid4(), placement, dict(configs))
        key = self.layout.topic(name)
        txn = self.etcd.txn
        created, _ = await self.etcd.transaction([txn.create(key) == 0], [txn.put(key, encode_topic(record))])
        if not created:
            raise TopicExistsError(f"Topic '{name}' already exists.")
        return record

    async def delete_topic(self, name: str) -> TopicRecord:
        """Delete ``name`` (at the revision read) and return what it was."""
        key = self.layout.topic(name)
        entry = await self.etcd.get(key)
        if entry is None:
            raise UnknownTopicError(f"Topic '{name}' does not exist.")
        txn = self.etcd.txn
        deleted, _ = await self.etcd.transaction([txn.mod(key) == entry.mod_revision], [txn.delete(key)])
        if not deleted:
            raise ConcurrentChangeError(f"topic {name} changed while being deleted")
        return decode_topic(name, entry.value)

    async def add_partitions(self, snapshot: ClusterSnapshot, name: str, total: int) -> TopicRecord:
        """Grow ``name`` to ``total`` partitions, the new ones on the least loaded live groups."""
        key = self.layout.topic(name)
        entry = await self.etcd.get(key)
        if entry is None:
            raise UnknownTopicError(f"Topic '{name}' does not exist.")
        current = decode_topic(name, entry.value)
        added = place_partitions(total - current.partitions, snapshot.live_groups(), snapshot.partition_counts())
        grown = TopicRecord(name, current.topic_id, current.placement + added, current.configs)
        txn = self.etcd.txn
        changed, _ = await self.etcd.transaction(
            [txn.mod(key) == entry.mod_revision], [txn.put(key, encode_topic(grown))]
        )
        if not changed:
            raise ConcurrentChangeError(f"topic {name} changed while partitions were added")
        return grown


def _describe_holder(value: bytes) -> str:
    try:
        holder = decode_broker(value)
    except (ValueError, KeyError, TypeError):
        return ""
    return f" (group {holder.group} at {holder.host}:{holder.port})"
