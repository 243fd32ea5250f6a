"""The leader's view of its followers: their acknowledged ends, the in-sync set and the confirm offset. Pure.

Kafka's rules, on the group's one CommitLog (physical offsets) instead of per partition:

- A follower is *caught up* when it acknowledges the leader's end as it was then; its last caught-up time is
  then. It stays in the in-sync set while ``now - last caught-up < replica.lag.time.max.ms``; the leader's
  periodic check drops it after that (Kafka's ISR shrink), and an acknowledgement at or past the confirm offset
  brings it back (Kafka's expand: a follower rejoins when it reaches the high watermark).
- A follower that disconnects leaves the set at once.
- The *confirm offset* (RocketMQ's name; Kafka's high watermark) is the smallest end among the leader and its
  in-sync followers: everything below it is held by every member of the set. It never moves back: a
  follower that rejoins has reached it.
- The set's size counts the leader; ``min.insync.replicas`` is compared with it.

Time is a number of milliseconds passed in (a monotonic clock), so the rules are tested without waiting.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class FollowerProgress:
    """One connected follower: where its log ends (acknowledged), when it last was caught up, whether in sync."""

    node_id: int
    end: int
    caught_up_ms: int
    in_sync: bool


class InSyncSet:
    def __init__(self, lag_time_ms: int, leader_end: int) -> None:
        self.lag_time_ms = lag_time_ms
        self._followers: dict[int, FollowerProgress] = {}
        self._confirm = leader_end

    @property
    def confirm_offset(self) -> int:
        return self._confirm

    @property
    def size(self) -> int:
        """Members in sync, the leader included."""
        return 1 + sum(follower.in_sync for follower in self._followers.values())

    def followers(self) -> tuple[FollowerProgress, ...]:
        return tuple(self._followers.values())

    def joined(self, node_id: int, end: int, now_ms: int) -> None:
        """A follower connected, its log cut back to ``end``: out of the set until it reaches the confirm offset."""
        self._followers[node_id] = FollowerProgress(node_id, end, now_ms, in_sync=False)

    def left(self, node_id: int, leader_end: int) -> None:
        self._followers.pop(node_id, None)
        self._advance(leader_end)

    def acknowledged(self, node_id: int, end: int, leader_end: int, leader_end_when_sent: int, now_ms: int) -> None:
        """``node_id`` holds everything below ``end``; ``leader_end_when_sent``: the leader's end when it sent the
        data that ``end`` acknowledges (caught up when ``end`` reaches it)."""
        follower = self._followers.get(node_id)
        if follower is None:
            return
        follower.end = max(follower.end, end)
        if follower.end >= min(leader_end_when_sent, leader_end):
            follower.caught_up_ms = now_ms
        if not follower.in_sync and follower.end >= self._confirm:
            follower.in_sync = True
        self._advance(leader_end)

    def shrink(self, leader_end: int, now_ms: int) -> list[int]:
        """Drop every follower not caught up for the lag time; the node ids dropped."""
        dropped = []
        for follower in self._followers.values():
            if follower.in_sync and follower.end < leader_end and now_ms - follower.caught_up_ms > self.lag_time_ms:
                follower.in_sync = False
                dropped.append(follower.node_id)
        if dropped:
            self._advance(leader_end)
        return dropped

    def appended(self, leader_end: int) -> None:
        """The leader's log grew: with no follower in sync, the confirm offset is the leader's end."""
        if self.size == 1:
            self._confirm = leader_end

    def _advance(self, leader_end: int) -> None:
        ends = [follower.end for follower in self._followers.values() if follower.in_sync]
        self._confirm = max(self._confirm, min([leader_end, *ends]))
