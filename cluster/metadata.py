"""The cluster's writes to etcd, each one compare-and-swap transaction (the keys: ``layout.py``).

- :meth:`ClusterMetadata.ensure_cluster_id`: the first broker creates ``cluster_id`` (only if absent);
  every broker then reads the one that won.
- :meth:`ClusterMetadata.register`: ``brokers/<node id>`` is created bound to the broker's lease, only if
  absent; a live broker already there is :class:`NodeIdTakenError`.
- :meth:`ClusterMetadata.create_topic` / ``delete_topic`` / ``add_partitions``: ``topics/<name>`` created
  only if absent, changed or deleted only at the ``mod_revision`` read, so two brokers' admin requests
  never overwrite each other; placement comes from ``placement.py`` over the snapshot's counts.

- :meth:`ClusterMetadata.seed_security`: the first broker to join a cluster that never held ACLs writes
  its own (and its SCRAM users) only if the ``acls`` key is absent, so a later broker's stale files never
  bring back what was deleted.
- :meth:`ClusterMetadata.alter_topic_configs`, ``alter_broker_default_configs``, ``update_acls``,
  ``update_users``: read the keys, compute
  the new values from them, write them in one transaction that compares each key's ``mod_revision`` (or
  that it is still absent); a lost race reads again, up to ``CAS_ATTEMPTS`` times, then
  :class:`ConcurrentChangeError` (one line, naming what changed).

The controller's own writes (group leaders and epochs) are in ``controller.py``.
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from .errors import ConcurrentChangeError, NodeIdTakenError, TopicExistsError, UnknownTopicError
from .etcd import Entry, Etcd
from .layout import (
    BrokerInfo,
    KeyLayout,
    TopicRecord,
    decode_acls,
    decode_broker,
    decode_configs,
    decode_topic,
    decode_user,
    encode_acls,
    encode_broker,
    encode_configs,
    encode_topic,
    encode_user,
)
from .placement import place_partitions
from .snapshot import ClusterSnapshot

#: How many times a read-modify-write is tried when another change of the same keys wins the race.
CAS_ATTEMPTS: Final = 3

AclRows = tuple[Mapping[str, str], ...]
UserDocument = Mapping[str, Mapping[str, Any]]


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
        """Create ``brokers/<node id>`` bound to ``lease_id``, or :class:`NodeIdTakenError` if a live broker has it.
        A key already bound to ``lease_id`` is this registration (a retry whose first answer was lost): done."""
        key = self.layout.broker(info.node_id)
        txn = self.etcd.txn
        created, _ = await self.etcd.transaction(
            [txn.create(key) == 0], [txn.put(key, encode_broker(info), lease=lease_id)]
        )
        if not created:
            holder = await self.etcd.get(key)
            if holder is not None and holder.lease == lease_id:
                return
            where = "" if holder is None else _describe_holder(holder.value)
            raise NodeIdTakenError(f"node.id {info.node_id} is already registered by a live broker{where}")

    async def create_topic(
        self,
        snapshot: ClusterSnapshot,
        name: str,
        partitions: int,
        configs: Mapping[str, str],
        groups: Sequence[str] = (),
        replicas: int = 1,
    ) -> TopicRecord:
        """Create ``name`` with ``partitions`` partitions on ``groups`` (one per partition), else on the least loaded
        live groups of at least ``replicas`` live members."""
        eligible = [group for group in snapshot.live_groups() if len(snapshot.group_members(group)) >= replicas]
        placement = tuple(groups) or place_partitions(partitions, eligible, snapshot.partition_counts())
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

    async def add_partitions(
        self, snapshot: ClusterSnapshot, name: str, total: int, groups: Sequence[str] = ()
    ) -> TopicRecord:
        """Grow ``name`` to ``total`` partitions, the new ones on ``groups`` (one per new partition), else on the
        least loaded live groups."""
        key = self.layout.topic(name)
        entry = await self.etcd.get(key)
        if entry is None:
            raise UnknownTopicError(f"Topic '{name}' does not exist.")
        current = decode_topic(name, entry.value)
        counts = snapshot.partition_counts()
        added = tuple(groups) or place_partitions(total - current.partitions, snapshot.live_groups(), counts)
        grown = TopicRecord(name, current.topic_id, current.placement + added, current.configs)
        txn = self.etcd.txn
        changed, _ = await self.etcd.transaction(
            [txn.mod(key) == entry.mod_revision], [txn.put(key, encode_topic(grown))]
        )
        if not changed:
            raise ConcurrentChangeError(f"topic {name} changed while partitions were added")
        return grown

    async def alter_topic_configs(
        self, name: str, update: Callable[[Mapping[str, str]], Mapping[str, str]]
    ) -> tuple[TopicRecord, int]:
        """Make ``name``'s configs ``update(current configs)`` (``update`` may raise to refuse the change); the
        topic as written and the revision it was written at."""
        key = self.layout.topic(name)
        altered: list[TopicRecord] = []

        def change(found: Mapping[bytes, Entry | None]) -> dict[bytes, bytes | None]:
            entry = found[key]
            if entry is None:
                raise UnknownTopicError(f"Topic '{name}' does not exist.")
            current = decode_topic(name, entry.value)
            altered[:] = [replace(current, configs=dict(update(current.configs)))]
            return {key: encode_topic(altered[0])}

        revision = await self._read_modify_write([key], change, f"the configs of topic {name}")
        return altered[0], revision

    async def alter_broker_default_configs(self, update: Callable[[Mapping[str, str]], Mapping[str, str]]) -> int:
        """Make the cluster-wide dynamic broker default ``update(current)`` (``update`` may raise to refuse it); the
        revision written at (0: nothing changed)."""
        key = self.layout.broker_default_configs()

        def change(found: Mapping[bytes, Entry | None]) -> dict[bytes, bytes | None]:
            entry = found[key]
            current = {} if entry is None else dict(decode_configs(entry.value))
            wanted = dict(update(current))
            return {} if wanted == current else {key: encode_configs(wanted)}

        return await self._read_modify_write([key], change, "the cluster-wide broker default configs")

    async def update_acls(self, update: Callable[[AclRows], Sequence[Mapping[str, str]] | None]) -> int:
        """Replace the cluster's ACL rows with ``update(current rows)``; the revision written at, or 0 when
        ``update`` answered None (nothing to change)."""
        key = self.layout.acls()

        def change(found: Mapping[bytes, Entry | None]) -> dict[bytes, bytes | None]:
            entry = found[key]
            rows = update(() if entry is None else decode_acls(entry.value))
            return {} if rows is None else {key: encode_acls(rows)}

        return await self._read_modify_write([key], change, "the ACLs")

    async def update_users(
        self, names: Sequence[str], update: Callable[[dict[str, UserDocument]], Mapping[str, UserDocument | None]]
    ) -> int:
        """Give each user ``update(current documents of names)`` names: a new document, or None to delete it; the
        revision written at."""
        keys = {name: self.layout.user(name) for name in names}

        def change(found: Mapping[bytes, Entry | None]) -> dict[bytes, bytes | None]:
            current = {name: decode_user(entry.value) for name, key in keys.items() if (entry := found[key])}
            return {
                keys[name]: None if document is None else encode_user(document)
                for name, document in update(current).items()
            }

        return await self._read_modify_write(list(keys.values()), change, "the SCRAM credentials")

    async def seed_security(self, acl_rows: Sequence[Mapping[str, str]], users: Mapping[str, UserDocument]) -> bool:
        """Write the first ACLs and SCRAM users of a cluster that never had any (the ``acls`` key absent), in one
        transaction; False when the cluster has them already (the ``acls`` key, even empty, is there)."""
        key = self.layout.acls()
        txn = self.etcd.txn
        writes = [txn.put(key, encode_acls(acl_rows))]
        writes += [txn.put(self.layout.user(name), encode_user(document)) for name, document in users.items()]
        return await self.etcd.swap([txn.create(key) == 0], writes) is not None

    async def _read_modify_write(
        self,
        keys: Sequence[bytes],
        change: Callable[[Mapping[bytes, Entry | None]], Mapping[bytes, bytes | None]],
        what: str,
    ) -> int:
        """Read ``keys``, write ``change(what was read)`` (None: delete) only if none of them changed meanwhile; the
        revision written at (0: ``change`` wrote nothing)."""
        txn = self.etcd.txn
        for _ in range(CAS_ATTEMPTS):
            found = {key: await self.etcd.get(key) for key in keys}
            writes = change(found)
            if not writes:
                return 0
            compare = [
                txn.create(key) == 0 if entry is None else txn.mod(key) == entry.mod_revision
                for key, entry in found.items()
            ]
            success = [txn.delete(key) if value is None else txn.put(key, value) for key, value in writes.items()]
            revision = await self.etcd.swap(compare, success)
            if revision is not None:
                return revision
        raise ConcurrentChangeError(f"{what} changed {CAS_ATTEMPTS} times while being written; try again")


def _describe_holder(value: bytes) -> str:
    try:
        holder = decode_broker(value)
    except (ValueError, KeyError, TypeError):
        return ""
    return f" (group {holder.group} at {holder.host}:{holder.port})"
