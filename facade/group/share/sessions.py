"""Share sessions (KIP-932): the partitions a member fetches, kept between its ShareFetch requests.

A session is keyed by group and member id. Its epoch (``ShareSessionEpoch``) is 0 to open one (replacing any
the member had), then 1, 2, ... for each later request, and -1 to close it; an epoch other than the one
expected is INVALID_SHARE_SESSION_EPOCH, a positive epoch without a session SHARE_SESSION_NOT_FOUND. A request
adds its partitions to the session and removes its forgotten ones; a fetch reads every partition of the
session. Sessions live in memory: after a restart a member's next request gets SHARE_SESSION_NOT_FOUND and
the client opens a new one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from rockafka.facade.protocol.error_codes import ErrorCode

from .model import PartitionKey

OPEN_EPOCH: Final = 0
CLOSE_EPOCH: Final = -1
_MAX_EPOCH: Final = 2**31 - 1


class ShareSessionError(Exception):
    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(slots=True, eq=False)
class ShareSession:
    group_id: str
    member_id: str
    next_epoch: int = OPEN_EPOCH  # the opening request's update moves it to 1
    partitions: dict[PartitionKey, None] = field(default_factory=dict)  # in the order they were added


class ShareSessions:
    def __init__(self) -> None:
        self._sessions: dict[tuple[str, str], ShareSession] = {}

    def session(self, group_id: str, member_id: str, epoch: int) -> ShareSession:
        """The session a request at ``epoch`` belongs to (a new one at epoch 0); ``ShareSessionError`` if none."""
        key = (group_id, member_id)
        if epoch == OPEN_EPOCH:
            opened = self._sessions[key] = ShareSession(group_id, member_id)
            return opened
        session = self._sessions.get(key)
        if session is None:
            raise ShareSessionError(ErrorCode.SHARE_SESSION_NOT_FOUND, f"no share session for member {member_id}")
        if epoch != CLOSE_EPOCH and epoch != session.next_epoch:
            raise ShareSessionError(
                ErrorCode.INVALID_SHARE_SESSION_EPOCH, f"share session epoch {epoch}, expected {session.next_epoch}"
            )
        return session

    @staticmethod
    def update(session: ShareSession, added: Iterable[PartitionKey], forgotten: Iterable[PartitionKey]) -> None:
        """Take a request's partitions into its session, and the epoch on to the next one."""
        for key in forgotten:
            session.partitions.pop(key, None)
        for key in added:
            session.partitions.setdefault(key, None)
        session.next_epoch = 1 if session.next_epoch == _MAX_EPOCH else session.next_epoch + 1

    def close(self, group_id: str, member_id: str) -> ShareSession | None:
        return self._sessions.pop((group_id, member_id), None)

    def close_group(self, group_id: str) -> None:
        for key in [k for k in self._sessions if k[0] == group_id]:
            del self._sessions[key]
