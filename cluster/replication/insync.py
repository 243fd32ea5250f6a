"""The leader's view of its followers: their acknowledged ends, the in-sync set and the confirm offset. Pure.

Kafka's rules, on the group's one CommitLog (physical offsets) instead of per partition:

- A follower is *caught up* when it acknowledges the leader's end as it was then; its last caught-up time is
  then. It stays in the in-sync set while ``now - last caught-up < replica.lag.time.max.ms``; after that it is
  *due to leave* (Kafka's ISR shrink), and so is a follower that disconnected. An acknowledgement at or past the
  confirm offset brings a follower (back) in (Kafka's expand: it rejoins when it reaches the high watermark).
- The *confirm offset* (RocketMQ's name; Kafka's high watermark) is the smallest end among the leader and its
  in-sync followers: everything below it is held by every member of the set. It never moves back: a
  follower that rejoins has reached it.
- The set's size counts the leader; ``min.insync.replicas`` is compared with it.

In a cluster the set is also in etcd (``groups/<group>``), and an election picks from etcd's set, so the
confirm offset must never pass the end of a member etcd lists. The set therefore changes in two steps for a
shrink, and the leader (``leader.py``) orders them around its etcd write: :meth:`InSyncSet.due_to_leave`
names the members to drop (they stay in the set and keep holding the confirm offset back); once etcd holds the
smaller set, :meth:`InSyncSet.remove` drops them and the confirm offset may move on. An expand is the other way
round: the follower is in the set here at once (that only holds the confirm offset back more), and etcd learns
it after. So at every moment this set contains etcd's, and the invariant holds:

    for every member ``m`` of etcd's in-sync set other than the leader: ``confirm_offset <= end(m)``.

A follower that disconnects stays in the set (disconnected, its end as acknowledged) until removed; one that
reconnects meanwhile takes its place again.

Time is a number of milliseconds passed in (a monotonic clock), so the rules are tested without waiting.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class FollowerProgress:
    """One follower: where its log ends (acknowledged), when it last was caught up, whether in sync, connected."""

    node_id: int
    end: int
    caught_up_ms: int
    in_sync: bool
    connected: bool = True


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

    def in_sync_followers(self) -> frozenset[int]:
        """The node ids of the followers in the set (the leader is not counted here)."""
        return frozenset(node for node, follower in self._followers.items() if follower.in_sync)

    def joined(self, node_id: int, end: int, now_ms: int) -> None:
        """A follower connected, its log cut back to ``end``: out of the set until it reaches the confirm offset,
        unless it still is in the set (it disconnected and has not been removed yet)."""
        follower = self._followers.get(node_id)
        if follower is not None and follower.in_sync:
            follower.end, follower.connected = end, True
            return
        self._followers[node_id] = FollowerProgress(node_id, end, now_ms, in_sync=False)

    def left(self, node_id: int) -> None:
        """A follower disconnected: forgotten if out of the set, else due to leave it (see :meth:`due_to_leave`)."""
        follower = self._followers.get(node_id)
        if follower is None:
            return
        if follower.in_sync:
            follower.connected = False
        else:
            del self._followers[node_id]

    def acknowledged(self, node_id: int, end: int, leader_end: int, leader_end_when_sent: int, now_ms: int) -> bool:
        """``node_id`` holds everything below ``end``; ``leader_end_when_sent``: the leader's end when it sent the
        data that ``end`` acknowledges (caught up when ``end`` reaches it). True when the follower just joined
        the set."""
        follower = self._followers.get(node_id)
        if follower is None:
            return False
        follower.end = max(follower.end, end)
        if follower.end >= min(leader_end_when_sent, leader_end):
            follower.caught_up_ms = now_ms
        joined = not follower.in_sync and follower.end >= self._confirm
        if joined:
            follower.in_sync = True
        self._advance(leader_end)
        return joined

    def due_to_leave(self, leader_end: int, now_ms: int) -> frozenset[int]:
        """The followers in the set that must leave it: disconnected, or not caught up for the lag time. They
        stay in the set (holding the confirm offset back) until :meth:`remove`."""
        return frozenset(
            follower.node_id
            for follower in self._followers.values()
            if follower.in_sync
            and (
                not follower.connected
                or (follower.end < leader_end and now_ms - follower.caught_up_ms > self.lag_time_ms)
            )
        )

    def remove(self, node_ids: frozenset[int], leader_end: int) -> None:
        """Drop ``node_ids`` from the set (etcd no longer lists them); the confirm offset may move on."""
        for node in node_ids:
            follower = self._followers.get(node)
            if follower is None:
                continue
            if follower.connected:
                follower.in_sync = False
            else:
                del self._followers[node]
        self._advance(leader_end)

    def appended(self, leader_end: int) -> None:
        """The leader's log grew: with no follower in sync, the confirm offset is the leader's end."""
        if self.size == 1:
            self._confirm = leader_end

    def _advance(self, leader_end: int) -> None:
        ends = [follower.end for follower in self._followers.values() if follower.in_sync]
        self._confirm = max(self._confirm, min([leader_end, *ends]))
