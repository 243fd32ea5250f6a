"""The broker's SCRAM credentials: ``scram-credentials.json`` in the data directory.

Format (JSON, written by :mod:`.jsonfile`: atomic, fsynced, mode 0600)::

    {"version": 1,
     "users": {"<user>": {"SCRAM-SHA-256": {"iterations": 4096, "salt": "<base64>",
                                            "stored_key": "<base64>", "server_key": "<base64>"},
                          "SCRAM-SHA-512": {...}}}}

Only salted-hash material is stored (see :mod:`.scram`): never a password, never a salted password. The
file is re-read when it changes on disk, so the offline ``rockafka users`` command reaches a running broker.

:class:`Credentials` is what SASL and the SCRAM handlers ask; :class:`CredentialStore` is a single broker's.
A broker in a cluster asks ``ClusterCredentials`` (``facade/cluster_security.py``): each user's document
kept in etcd (the same JSON as one entry of ``users`` here), whose ``apply`` answers an awaitable.
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Awaitable, Mapping
from pathlib import Path
from typing import Any, Final, Protocol

from .errors import SecurityStoreError
from .jsonfile import Signature, read_json, signature, write_json
from .scram import ScramCredential, ScramMechanism

CREDENTIALS_FILE: Final = "scram-credentials.json"
FORMAT_VERSION: Final = 1

Users = dict[str, dict[ScramMechanism, ScramCredential]]
Upserts = list[tuple[str, ScramCredential]]
Deletions = list[tuple[str, ScramMechanism]]


class Credentials(Protocol):
    """SCRAM credentials by user and mechanism; changed at once, or later (an awaitable) in a cluster."""

    def lookup(self, user: str, mechanism: ScramMechanism) -> ScramCredential | None: ...

    def users(self) -> Users: ...

    def apply(self, upserts: Upserts, deletions: Deletions) -> Awaitable[None] | None: ...


class CredentialStore:
    """SCRAM credentials by user and mechanism, persisted in ``<data dir>/scram-credentials.json``."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / CREDENTIALS_FILE
        self._lock = threading.Lock()
        self._signature: Signature = None
        self._users: Users = {}
        self._reload()

    def lookup(self, user: str, mechanism: ScramMechanism) -> ScramCredential | None:
        self._refresh()
        return self._users.get(user, {}).get(mechanism)

    def users(self) -> dict[str, dict[ScramMechanism, ScramCredential]]:
        """Every user with credentials (a copy)."""
        self._refresh()
        return {user: dict(creds) for user, creds in self._users.items()}

    def apply(self, upserts: Upserts, deletions: Deletions) -> None:
        """Delete then upsert (user, credential) pairs, and persist once."""
        with self._lock:
            self._refresh()
            users = {user: dict(creds) for user, creds in self._users.items()}
            apply_changes(users, upserts, deletions)
            write_json(self.path, _document(users))
            self._users = users
            self._signature = signature(self.path)

    def _refresh(self) -> None:
        if signature(self.path) != self._signature:
            self._reload()

    def _reload(self) -> None:
        current = signature(self.path)
        document = read_json(self.path)
        self._users = {} if document is None else _parse(self.path, document)
        self._signature = current


def apply_changes(users: Users, upserts: Upserts, deletions: Deletions) -> None:
    """Delete then upsert (user, credential) pairs in ``users``; a user left without credentials is dropped."""
    for user, mechanism in deletions:
        users.get(user, {}).pop(mechanism, None)
        if not users.get(user):
            users.pop(user, None)
    for user, credential in upserts:
        users.setdefault(user, {})[credential.mechanism] = credential


def encode_user(credentials: Mapping[ScramMechanism, ScramCredential]) -> dict[str, dict[str, Any]]:
    """One user's credentials as JSON, by mechanism name: salted-hash material only."""
    return {
        credential.mechanism.mechanism_name: {
            "iterations": credential.iterations,
            "salt": base64.b64encode(credential.salt).decode("ascii"),
            "stored_key": base64.b64encode(credential.stored_key).decode("ascii"),
            "server_key": base64.b64encode(credential.server_key).decode("ascii"),
        }
        for credential in credentials.values()
    }


def decode_user(document: Mapping[str, Mapping[str, Any]]) -> dict[ScramMechanism, ScramCredential]:
    """One user's credentials from :func:`encode_user`'s JSON (KeyError, TypeError, ValueError when damaged)."""
    decoded: dict[ScramMechanism, ScramCredential] = {}
    for name, fields in document.items():
        mechanism = ScramMechanism.named(name)
        decoded[mechanism] = ScramCredential(
            mechanism,
            base64.b64decode(fields["salt"]),
            base64.b64decode(fields["stored_key"]),
            base64.b64decode(fields["server_key"]),
            int(fields["iterations"]),
        )
    return decoded


def _document(users: Users) -> dict[str, Any]:
    return {"version": FORMAT_VERSION, "users": {user: encode_user(creds) for user, creds in users.items()}}


def _parse(path: Path, document: Any) -> Users:
    try:
        if document["version"] != FORMAT_VERSION:
            raise SecurityStoreError(f"{path}: unknown format version {document['version']!r}")
        return {user: decode_user(creds) for user, creds in document["users"].items() if creds}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SecurityStoreError(f"{path} is not a credentials file: {exc}") from None
