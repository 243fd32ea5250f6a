"""The broker's ACLs: ``acls.json`` in the data directory, and an index that answers "which ACLs apply here".

Format (JSON, written by :mod:`.jsonfile`: atomic, fsynced)::

    {"version": 1,
     "acls": [{"resource_type": "TOPIC", "name": "orders", "pattern_type": "PREFIXED",
               "principal": "User:alice", "host": "*", "operation": "READ", "permission": "ALLOW"}, ...]}

Names are the enum names of :mod:`.acl`. The file is re-read when it changes on disk (checked at most
once a second), so the offline ``rockafka acls`` command reaches a running broker.

:class:`Acls` is what the authorizer and the ACL handlers ask; :class:`AclStore` is a single broker's. A
broker in a cluster asks ``ClusterAcls`` instead (``facade/cluster_security.py``): the same rows, kept in etcd,
whose ``add`` and ``remove`` answer awaitables. :class:`AclIndex` is the lookup both keep.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Iterable, Mapping
from pathlib import Path
from typing import Any, Final, Protocol

from .acl import (
    AclBinding,
    AclBindingFilter,
    AclEntry,
    AclOperation,
    AclPermission,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from .errors import SecurityStoreError
from .jsonfile import Signature, read_json, signature, write_json

ACLS_FILE: Final = "acls.json"
FORMAT_VERSION: Final = 1
RECHECK_S: Final = 1.0


class Acls(Protocol):
    """Every ACL binding, and which govern a resource; changed at once, or later (an awaitable) in a cluster."""

    def bindings(self) -> list[AclBinding]: ...

    def applicable(self, resource_type: ResourceType, name: str) -> list[AclEntry]: ...

    def add(self, bindings: Iterable[AclBinding]) -> Awaitable[None] | None: ...

    def remove(
        self, filters: Iterable[AclBindingFilter]
    ) -> list[list[AclBinding]] | Awaitable[list[list[AclBinding]]]: ...


class _Patterns:
    """The ACLs of one resource type: literal names (``*`` included) and prefixes."""

    __slots__ = ("literal", "prefixed")

    def __init__(self) -> None:
        self.literal: dict[str, list[AclEntry]] = {}
        self.prefixed: list[tuple[str, AclEntry]] = []


class AclIndex:
    """A set of bindings indexed by resource type, replaced whole by :meth:`install`."""

    def __init__(self) -> None:
        self.bindings: list[AclBinding] = []
        self._by_type: dict[ResourceType, _Patterns] = {}

    def install(self, bindings: list[AclBinding]) -> None:
        by_type: dict[ResourceType, _Patterns] = {}
        for item in bindings:
            slot = by_type.setdefault(item.pattern.resource_type, _Patterns())
            if item.pattern.pattern_type == PatternType.PREFIXED:
                slot.prefixed.append((item.pattern.name, item.entry))
            else:
                slot.literal.setdefault(item.pattern.name, []).append(item.entry)
        self.bindings, self._by_type = bindings, by_type

    def applicable(self, resource_type: ResourceType, name: str) -> list[AclEntry]:
        """The entries of every binding whose pattern governs this resource (literal, ``*``, prefixes)."""
        patterns = self._by_type.get(resource_type)
        if patterns is None:
            return []
        found = (
            [*patterns.literal.get(name, ()), *patterns.literal.get("*", ())]
            if name != "*"
            else [*patterns.literal.get("*", ())]
        )
        found.extend(entry for prefix, entry in patterns.prefixed if name.startswith(prefix))
        return found


class AclStore:
    """Every ACL binding, persisted in ``<data dir>/acls.json``, indexed by resource type."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / ACLS_FILE
        self._lock = threading.Lock()
        self._index = AclIndex()
        self._signature: Signature = None
        self._checked = 0.0
        self._load()

    def bindings(self) -> list[AclBinding]:
        self._maybe_refresh()
        return list(self._index.bindings)

    def applicable(self, resource_type: ResourceType, name: str) -> list[AclEntry]:
        """The entries of every binding whose pattern governs this resource (literal, ``*``, prefixes)."""
        self._maybe_refresh()
        return self._index.applicable(resource_type, name)

    def add(self, bindings: Iterable[AclBinding]) -> None:
        """Add bindings (an existing one is kept once) and persist."""
        with self._lock:
            self._refresh()
            current = list(self._index.bindings)
            known = set(current)
            for item in bindings:
                if item not in known:
                    known.add(item)
                    current.append(item)
            self._commit(current)

    def remove(self, filters: Iterable[AclBindingFilter]) -> list[list[AclBinding]]:
        """Remove the bindings each filter matches; per filter, what it removed. Persisted once."""
        with self._lock:
            self._refresh()
            current = list(self._index.bindings)
            removed: list[list[AclBinding]] = []
            for item in filters:
                matched = [b for b in current if item.matches(b)]
                removed.append(matched)
                current = [b for b in current if not item.matches(b)]
            if any(removed):
                self._commit(current)
            return removed

    def _commit(self, bindings: list[AclBinding]) -> None:
        write_json(self.path, {"version": FORMAT_VERSION, "acls": [encode_binding(b) for b in bindings]})
        self._index.install(bindings)
        self._signature = signature(self.path)

    def _maybe_refresh(self) -> None:
        now = time.monotonic()
        if now - self._checked >= RECHECK_S:
            self._checked = now
            self._refresh()

    def _refresh(self) -> None:
        if signature(self.path) != self._signature:
            self._load()

    def _load(self) -> None:
        current = signature(self.path)
        document = read_json(self.path)
        self._index.install([] if document is None else _parse(self.path, document))
        self._signature = current


def encode_binding(item: AclBinding) -> dict[str, str]:
    """One binding as a row of ``acls.json`` (and of the cluster's ``acls`` key)."""
    return {
        "resource_type": item.pattern.resource_type.name,
        "name": item.pattern.name,
        "pattern_type": item.pattern.pattern_type.name,
        "principal": item.entry.principal,
        "host": item.entry.host,
        "operation": item.entry.operation.name,
        "permission": item.entry.permission.name,
    }


def decode_binding(row: Mapping[str, str]) -> AclBinding:
    """A row of ``acls.json`` as a binding (KeyError for a missing field or an unknown name)."""
    return AclBinding(
        ResourcePattern(ResourceType[row["resource_type"]], row["name"], PatternType[row["pattern_type"]]),
        AclEntry(row["principal"], row["host"], AclOperation[row["operation"]], AclPermission[row["permission"]]),
    )


def _parse(path: Path, document: Any) -> list[AclBinding]:
    try:
        if document["version"] != FORMAT_VERSION:
            raise SecurityStoreError(f"{path}: unknown format version {document['version']!r}")
        return [decode_binding(row) for row in document["acls"]]
    except (KeyError, TypeError) as exc:
        raise SecurityStoreError(f"{path} is not an ACL file: {exc}") from None
