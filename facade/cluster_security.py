"""The ACLs and SCRAM credentials of a broker in a cluster: kept in etcd, enforced by every broker.

Built by ``BrokerApp`` when the broker joins a cluster, and handed to the security layer
(``SecurityService.share``) in place of the files of its data directory:

- :class:`ClusterAcls` reads the ``acls`` key (``cluster/layout.py``) from the snapshot into the same index a
  single broker's ``AclStore`` keeps, rebuilt when the key changes; CreateAcls/DeleteAcls change the key
  (compare-and-swap at the revision read) and answer once this broker's snapshot has the change. Every
  other broker's index follows through its watch, so an ACL created through broker 1 is enforced by
  broker 2 as soon as broker 2 sees the change (the same moment it would see a new topic).
- :class:`ClusterCredentials` reads the ``users/<user>`` keys, each user's SCRAM credentials as salted-hash
  material only (the password never reaches a broker: the client sends the salted password and the broker
  keeps StoredKey/ServerKey); AlterUserScramCredentials changes the users' keys in one transaction.

:func:`seed_cluster_security`: the first broker to join a cluster that never held ACLs copies its data
directory's ``acls.json`` and ``scram-credentials.json`` to etcd (how an operator seeds a new cluster with the
offline ``rockafka acls``/``rockafka users --data-dir`` commands); from then on every broker ignores its files.

The authorizer and SASL ask these exactly as they ask the single broker's stores: ``applicable`` and
``lookup`` answer from memory, never from etcd. A failure to write (etcd unreachable, a concurrent change
won three times) is an :class:`ApiError` REQUEST_TIMED_OUT with the cluster layer's message.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from rockafka.cluster import ClusterError, ClusterSnapshot
from rockafka.cluster.member import ClusterMember
from rockafka.cluster.metadata import ClusterMetadata
from rockafka.cluster.view import ClusterView
from rockafka.facade.protocol.error_codes import ErrorCode

from .handlers.context import ApiError
from .security.acl import AclBinding, AclBindingFilter, AclEntry, ResourceType
from .security.acl_store import AclIndex, decode_binding, encode_binding
from .security.credentials import Deletions, Upserts, Users, apply_changes, decode_user, encode_user
from .security.scram import ScramCredential, ScramMechanism

log = logging.getLogger(__name__)

#: How long a change waits for this broker's own snapshot to show it.
SEEN_TIMEOUT_S = 10.0


class _Shared:
    """What both kinds share: the member's view and metadata writer."""

    def __init__(self, member: ClusterMember) -> None:
        assert member.view is not None and member.metadata is not None, "the member must have started"
        self._view: ClusterView = member.view
        self._metadata: ClusterMetadata = member.metadata

    async def _seen(self, revision: int) -> None:
        """Until this broker's snapshot (and so its authorizer) includes the one key written at ``revision``."""
        await self._view.wait_for(lambda snapshot: snapshot.revision >= revision, SEEN_TIMEOUT_S)


class ClusterAcls(_Shared):
    """The cluster's ACL bindings (the ``acls`` key), indexed for the authorizer."""

    def __init__(self, member: ClusterMember) -> None:
        super().__init__(member)
        self._index = AclIndex()
        self._changed(ClusterSnapshot(), self._view.snapshot)
        self._view.add_listener(self._changed)

    def bindings(self) -> list[AclBinding]:
        return list(self._index.bindings)

    def applicable(self, resource_type: ResourceType, name: str) -> list[AclEntry]:
        return self._index.applicable(resource_type, name)

    async def add(self, bindings: Iterable[AclBinding]) -> None:
        """Add bindings to the cluster's (an existing one is kept once); done once this broker enforces them."""
        wanted = list(bindings)

        def update(rows: tuple[Mapping[str, str], ...]) -> list[Mapping[str, str]] | None:
            known = set(_readable(rows))
            added = [encode_binding(item) for item in dict.fromkeys(wanted) if item not in known]
            return [*rows, *added] if added else None

        with _as_api_errors("the ACLs"):
            await self._seen(await self._metadata.update_acls(update))

    async def remove(self, filters: Iterable[AclBindingFilter]) -> list[list[AclBinding]]:
        """Remove the bindings each filter matches; per filter, what it removed (as Kafka reports it)."""
        selected = list(filters)
        removed: list[list[AclBinding]] = []

        def update(rows: tuple[Mapping[str, str], ...]) -> list[Mapping[str, str]] | None:
            current = _bindings(rows)
            removed[:] = []
            for item in selected:
                removed.append([b for b in current if item.matches(b)])
                current = [b for b in current if not item.matches(b)]
            return [encode_binding(b) for b in current] if any(removed) else None

        with _as_api_errors("the ACLs"):
            await self._seen(await self._metadata.update_acls(update))
        return removed

    def _changed(self, old: ClusterSnapshot, new: ClusterSnapshot) -> None:
        if new.acls is not old.acls:  # the snapshot keeps the same tuple until the key changes
            self._index.install(_bindings(new.acls))


class ClusterCredentials(_Shared):
    """The cluster's SCRAM credentials (``users/<user>`` keys), for SASL and the SCRAM admin APIs."""

    def __init__(self, member: ClusterMember) -> None:
        super().__init__(member)
        self._users: Users = {}
        self._changed(ClusterSnapshot(), self._view.snapshot)
        self._view.add_listener(self._changed)

    def lookup(self, user: str, mechanism: ScramMechanism) -> ScramCredential | None:
        return self._users.get(user, {}).get(mechanism)

    def users(self) -> Users:
        return {user: dict(credentials) for user, credentials in self._users.items()}

    async def apply(self, upserts: Upserts, deletions: Deletions) -> None:
        """Delete then upsert (user, credential) pairs in etcd, all users in one transaction."""
        names = list(dict.fromkeys([user for user, _ in deletions] + [user for user, _ in upserts]))
        if not names:
            return
        written: dict[str, Mapping[str, Any] | None] = {}

        def update(current: dict[str, Mapping[str, Mapping[str, Any]]]) -> dict[str, Mapping[str, Any] | None]:
            users = {name: decode_user(document) for name, document in current.items()}
            apply_changes(users, upserts, deletions)
            written.clear()
            written.update({name: encode_user(users[name]) if name in users else None for name in names})
            return written

        def applied(snapshot: ClusterSnapshot, revision: int) -> bool:
            """The watch brings a transaction's keys one event at a time: every user's, or anything later."""
            if snapshot.revision != revision:
                return snapshot.revision > revision
            return all(snapshot.users.get(name) == document for name, document in written.items())

        with _as_api_errors("the SCRAM credentials"):
            revision = await self._metadata.update_users(names, update)
            await self._view.wait_for(lambda snapshot: applied(snapshot, revision), SEEN_TIMEOUT_S)

    def _changed(self, old: ClusterSnapshot, new: ClusterSnapshot) -> None:
        if new.users == old.users:
            return
        users: Users = {}
        for name, document in new.users.items():
            try:
                users[name] = decode_user(document)
            except (KeyError, TypeError, ValueError) as exc:
                log.warning("the SCRAM credentials of user %s in the cluster cannot be read (%s); left out", name, exc)
        self._users = users


async def seed_cluster_security(member: ClusterMember, acls: list[AclBinding], users: Users) -> bool:
    """Write this broker's file-kept ACLs and SCRAM users to etcd if the cluster never held any; whether it did."""
    assert member.metadata is not None, "the member must have started"
    documents = {name: encode_user(credentials) for name, credentials in users.items()}
    return await member.metadata.seed_security([encode_binding(item) for item in acls], documents)


def _bindings(rows: Sequence[Mapping[str, str]]) -> list[AclBinding]:
    return list(_readable(rows))


def _readable(rows: Sequence[Mapping[str, str]]) -> Iterator[AclBinding]:
    """The bindings of the rows that can be read (a damaged row is named in the log and left out)."""
    for row in rows:
        try:
            yield decode_binding(row)
        except KeyError as exc:
            log.warning("an ACL row in the cluster cannot be read (%s): %s; left out", exc, dict(row))


@contextlib.contextmanager
def _as_api_errors(what: str) -> Iterator[None]:
    try:
        yield
    except (ClusterError, TimeoutError) as exc:
        raise ApiError(
            ErrorCode.REQUEST_TIMED_OUT, f"the cluster metadata did not take the change to {what}: {exc}"
        ) from None
