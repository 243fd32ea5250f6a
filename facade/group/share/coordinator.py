"""The share group coordinator (KIP-932): ShareGroupHeartbeat over member epochs and server-side assignment.

Every request is a heartbeat; its member epoch says what it is:

- **0: join**. The member id is the client's (an empty one gets one made by the broker); the subscription
  must be given (INVALID_REQUEST). A member rejoining under its id keeps its place. A group past
  ``group.share.max.size`` members refuses newcomers with GROUP_MAX_SIZE_REACHED.
- **-1: leave**: the member is removed. Its share session stays open, as the client closes it with its last
  acknowledgements (librdkafka sends those beside the leave, so they may arrive after it); what the member
  still holds then is released, or its locks expire.
- **> 0: heartbeat**: an unknown member id gets UNKNOWN_MEMBER_ID, an epoch other than the member's
  FENCED_MEMBER_EPOCH (the client joins again).

A join, a leave, a changed subscription or a change of the subscribed topics (created, deleted, new
partitions) bumps the group epoch and assigns the partitions again at once (``model.assign``); every answer
carries the member's whole assignment and the group epoch as its member epoch. A member without a heartbeat
for ``group.share.session.timeout.ms`` (the group config ``share.session.timeout.ms`` first) is removed, its
share session closed and the records it holds released; members are told ``group.share.heartbeat.interval.ms``
(``share.heartbeat.interval.ms``).

A group id held by a classic or consumer group is refused with GROUP_ID_NOT_FOUND. The group is saved
(``persistence.py``) when its membership changes; the answer waits for durability under the sync flush
policy. Everything runs on the broker's event loop.
"""

from __future__ import annotations

import concurrent.futures
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from rockafka.facade.config.group import SHARE_HEARTBEAT_INTERVAL, SHARE_SESSION_TIMEOUT
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import MessageStore, StoreError

from ...clock import REAL_CLOCK, Clock
from ...replication import ConfirmWrite, as_written
from ..consumer_protocol import GroupConfigs
from .model import LEAVE_EPOCH, Assignment, ShareGroup, ShareMember, assign
from .persistence import ShareGroupDocumentError, group_document, is_share_group_document, load_group
from .sessions import ShareSessions

log = logging.getLogger(__name__)

Durable = concurrent.futures.Future[None] | None


@dataclass(frozen=True, slots=True)
class ShareHeartbeat:
    group_id: str
    member_id: str
    member_epoch: int
    rack_id: str | None
    subscribed_topic_names: tuple[str, ...] | None
    client_id: str
    client_host: str


@dataclass(frozen=True, slots=True)
class ShareHeartbeatResult:
    error: ErrorCode
    message: str | None = None
    member_id: str | None = None
    member_epoch: int = 0
    heartbeat_interval_ms: int = 0
    assignment: Assignment | None = None


class ShareGroupCoordinator:
    def __init__(
        self,
        store: MessageStore,
        *,
        configs: GroupConfigs,
        max_size: int,
        held_elsewhere: Callable[[str], bool],
        timers: Clock = REAL_CLOCK,
    ) -> None:
        self._store = store
        self.configs = configs
        self._max_size = max_size
        self._held_elsewhere = held_elsewhere
        self.timers = timers
        self.groups: dict[str, ShareGroup] = {}
        self.sessions = ShareSessions()
        #: Called with (group, member id) when a member's session expires: its records are released.
        self.on_member_gone: Callable[[ShareGroup, str], None] = lambda group, member_id: None
        #: A save's durability, also waiting for the in-sync members on a replicated leader (``GroupService``).
        self.confirm_write: ConfirmWrite = as_written
        self.active = False

    # --- lifecycle ---

    def start(self) -> None:
        self.active = True
        loaded = self.load(lambda group_id: True)
        if loaded:
            log.info("loaded %d share groups", loaded)

    def load(self, wanted: Callable[[str], bool]) -> int:
        loaded = 0
        for group_id, document in sorted(self._store.group_metadata.documents().items()):
            if group_id in self.groups or not wanted(group_id) or not is_share_group_document(document):
                continue
            try:
                group = load_group(group_id, document)
            except ShareGroupDocumentError as exc:
                log.error("share group %r is not loaded: %s", group_id, exc)
                continue
            self.groups[group_id] = group
            for member in group.members.values():
                self._arm_session(group, member)
            loaded += 1
        return loaded

    def unload(self, wanted: Callable[[str], bool]) -> int:
        leaving = [group for group_id, group in self.groups.items() if wanted(group_id)]
        for group in leaving:
            self._stop_timers(group)
            self.sessions.close_group(group.group_id)
            del self.groups[group.group_id]
        return len(leaving)

    def shutdown(self) -> None:
        for group in self.groups.values():
            self._stop_timers(group)
        self.active = False

    def held_elsewhere(self, group_id: str) -> bool:
        """Whether ``group_id`` is a classic or consumer group's (no share group may take it)."""
        return self._held_elsewhere(group_id)

    # --- ShareGroupHeartbeat ---

    def heartbeat(self, request: ShareHeartbeat) -> tuple[ShareHeartbeatResult, Durable]:
        if not request.group_id:
            return ShareHeartbeatResult(ErrorCode.INVALID_REQUEST, "GroupId can't be empty."), None
        if request.group_id not in self.groups and self._held_elsewhere(request.group_id):
            message = f"Group {request.group_id} is not a share group."
            return ShareHeartbeatResult(ErrorCode.GROUP_ID_NOT_FOUND, message), None
        if request.member_epoch == LEAVE_EPOCH:
            return self._leave(request)
        found = self._join(request) if request.member_epoch == 0 else self._heartbeating(request)
        if isinstance(found, ShareHeartbeatResult):
            return found, None
        group, member, changed = found
        changed |= self._refresh_topics(group)
        if changed:
            group.group_epoch += 1
            assign(group)
        epoch_moved = member.member_epoch != group.group_epoch
        member.member_epoch = group.group_epoch
        self._arm_session(group, member)
        durable = self.save(group) if changed or epoch_moved else None
        interval = self.configs.value(group.group_id, SHARE_HEARTBEAT_INTERVAL)
        result = ShareHeartbeatResult(
            ErrorCode.NONE,
            member_id=member.member_id,
            member_epoch=member.member_epoch,
            heartbeat_interval_ms=interval,
            assignment=member.assignment,
        )
        return result, durable

    def _join(self, request: ShareHeartbeat) -> ShareHeartbeatResult | tuple[ShareGroup, ShareMember, bool]:
        names = request.subscribed_topic_names
        if not names:
            return ShareHeartbeatResult(ErrorCode.INVALID_REQUEST, "SubscribedTopicNames must be set when joining.")
        group = self.groups.get(request.group_id) or ShareGroup(request.group_id)
        member_id = request.member_id or str(uuid.uuid4())
        member = group.members.get(member_id)
        if member is not None:
            changed = member.subscribed_topic_names != names
            member.subscribed_topic_names = names
            return group, member, changed
        if len(group.members) >= self._max_size:
            message = f"The share group has reached its maximum size ({self._max_size})."
            return ShareHeartbeatResult(ErrorCode.GROUP_MAX_SIZE_REACHED, message)
        member = ShareMember(member_id, request.client_id, request.client_host, request.rack_id, names)
        group.members[member_id] = member
        self.groups[group.group_id] = group
        log.info("share group %s: member %s joined", group.group_id, member_id)
        return group, member, True

    def _heartbeating(self, request: ShareHeartbeat) -> ShareHeartbeatResult | tuple[ShareGroup, ShareMember, bool]:
        group = self.groups.get(request.group_id)
        member = None if group is None else group.members.get(request.member_id)
        if group is None or member is None:
            message = f"Member {request.member_id} is not a member of share group {request.group_id}."
            return ShareHeartbeatResult(ErrorCode.UNKNOWN_MEMBER_ID, message)
        if request.member_epoch != member.member_epoch:
            message = f"Member epoch {request.member_epoch} is not the member's ({member.member_epoch})."
            return ShareHeartbeatResult(ErrorCode.FENCED_MEMBER_EPOCH, message)
        names = request.subscribed_topic_names
        changed = names is not None and names != member.subscribed_topic_names
        if names is not None:
            member.subscribed_topic_names = names
        return group, member, changed

    def _leave(self, request: ShareHeartbeat) -> tuple[ShareHeartbeatResult, Durable]:
        group = self.groups.get(request.group_id)
        member = None if group is None else group.members.get(request.member_id)
        if group is None or member is None:
            message = f"Member {request.member_id} is not a member of share group {request.group_id}."
            return ShareHeartbeatResult(ErrorCode.UNKNOWN_MEMBER_ID, message), None
        durable = self._remove(group, member, "left", expired=False)
        return ShareHeartbeatResult(ErrorCode.NONE, member_id=member.member_id, member_epoch=LEAVE_EPOCH), durable

    def _remove(self, group: ShareGroup, member: ShareMember, why: str, *, expired: bool) -> Durable:
        if member.session_timer is not None:
            member.session_timer.cancel()
            member.session_timer = None
        del group.members[member.member_id]
        if expired:
            self.sessions.close(group.group_id, member.member_id)
            self.on_member_gone(group, member.member_id)
        group.group_epoch += 1
        self._refresh_topics(group)
        assign(group)
        log.info("share group %s: member %s %s", group.group_id, member.member_id, why)
        return self.save(group)

    def _refresh_topics(self, group: ShareGroup) -> bool:
        """Recompute the subscribed topics (ids, partition counts) from the store's; True if they changed."""
        wanted = {name for m in group.members.values() for name in m.subscribed_topic_names}
        seen = {t.name: (t.topic_id, t.partitions) for t in self._store.topics.list() if t.name in wanted}
        if seen == group.topics:
            return False
        group.topics = dict(sorted(seen.items()))
        return True

    # --- sessions and saving ---

    def _arm_session(self, group: ShareGroup, member: ShareMember) -> None:
        if member.session_timer is not None:
            member.session_timer.cancel()
        timeout_s = self.configs.value(group.group_id, SHARE_SESSION_TIMEOUT) / 1000
        member.session_timer = self.timers.call_later(timeout_s, self._session_expired, group, member)

    def _session_expired(self, group: ShareGroup, member: ShareMember) -> None:
        member.session_timer = None
        if self.groups.get(group.group_id) is group and group.members.get(member.member_id) is member:
            try:
                self._remove(group, member, "expired (no heartbeat within the session timeout)", expired=True)
            except StoreError as exc:
                log.error("share group %s was not saved: %s", group.group_id, exc)

    @staticmethod
    def _stop_timers(group: ShareGroup) -> None:
        for member in group.members.values():
            if member.session_timer is not None:
                member.session_timer.cancel()
                member.session_timer = None

    def save(self, group: ShareGroup) -> Durable:
        """Write the group's document (``StoreError`` if the store cannot)."""
        return self.confirm_write(self._store.group_metadata.save(group.group_id, group_document(group)))

    def delete(self, group_id: str) -> ErrorCode:
        """DeleteGroups of a share group: NON_EMPTY_GROUP while it has members."""
        group = self.groups.get(group_id)
        if group is None:
            return ErrorCode.GROUP_ID_NOT_FOUND
        if group.members:
            return ErrorCode.NON_EMPTY_GROUP
        del self.groups[group_id]
        self.sessions.close_group(group_id)
        self._store.group_metadata.delete(group_id)
        log.info("share group %s deleted", group_id)
        return ErrorCode.NONE
