"""The snapshot a broker serves from: built from etcd's keys, changed one event at a time, never mutated."""

from __future__ import annotations

import uuid

from rockafka.cluster import NO_LEADER, BrokerInfo, GroupState, KeyLayout, TopicRecord, snapshot_from_keys
from rockafka.cluster.layout import (
    decode_broker,
    encode_acls,
    encode_broker,
    encode_configs,
    encode_controller,
    encode_group,
    encode_topic,
    encode_user,
)

LAYOUT = KeyLayout("test")
TOPIC_ID = uuid.UUID(int=7)


def _keys() -> list[tuple[bytes, bytes]]:
    return [
        (LAYOUT.cluster_id(), b"abcdefghijklmnopqrstuv"),
        (LAYOUT.controller(), encode_controller(2)),
        (LAYOUT.broker(1), encode_broker(BrokerInfo(1, "g1", "127.0.0.1", 9001))),
        (LAYOUT.broker(2), encode_broker(BrokerInfo(2, "g2", "127.0.0.1", 9002))),
        (LAYOUT.group("g1"), encode_group(GroupState("g1", 1, 4))),
        (LAYOUT.group("g2"), encode_group(GroupState("g2", 2, 0))),
        (LAYOUT.topic("t"), encode_topic(TopicRecord("t", TOPIC_ID, ("g1", "g2", "g1"), {"retention.ms": "5"}))),
        (b"/rockafka/other/topics/x", b"not this cluster"),
    ]


def test_every_key_lands_in_the_snapshot() -> None:
    snapshot = snapshot_from_keys(LAYOUT, _keys(), revision=9)
    assert snapshot.revision == 9
    assert snapshot.cluster_id == "abcdefghijklmnopqrstuv"
    assert snapshot.controller == 2
    assert snapshot.brokers[2] == BrokerInfo(2, "g2", "127.0.0.1", 9002)
    assert snapshot.topics["t"].placement == ("g1", "g2", "g1")
    assert snapshot.topics["t"].configs == {"retention.ms": "5"}
    assert snapshot.topics["t"].topic_id == TOPIC_ID
    assert list(snapshot.topics) == ["t"]
    assert not snapshot.damaged


def test_a_partition_is_led_by_its_group_leader_at_the_group_epoch() -> None:
    snapshot = snapshot_from_keys(LAYOUT, _keys(), revision=9)
    leader = snapshot.leader_of("t", 2)
    assert leader is not None
    assert (leader.group, leader.leader, leader.epoch) == ("g1", 1, 4)
    assert snapshot.leader_of("t", 3) is None
    assert snapshot.leader_of("missing", 0) is None


def test_a_change_makes_a_new_snapshot_and_leaves_the_old_one_alone() -> None:
    before = snapshot_from_keys(LAYOUT, _keys(), revision=9)
    after = before.with_change(LAYOUT, LAYOUT.broker(1), None, revision=10)
    assert 1 in before.brokers and 1 not in after.brokers
    assert after.revision == 10
    assert after.live_groups() == ["g2"]
    assert before.live_groups() == ["g1", "g2"]


def test_a_leaderless_group_answers_no_leader() -> None:
    snapshot = snapshot_from_keys(LAYOUT, _keys(), revision=9)
    snapshot = snapshot.with_change(LAYOUT, LAYOUT.group("g1"), encode_group(GroupState("g1", NO_LEADER, 5)), 10)
    leader = snapshot.leader_of("t", 0)
    assert leader is not None and leader.leader == NO_LEADER and leader.epoch == 5


def test_an_unreadable_value_is_left_out_and_named() -> None:
    snapshot = snapshot_from_keys(LAYOUT, [*_keys(), (LAYOUT.topic("bad"), b"{not json")], revision=9)
    assert "bad" not in snapshot.topics
    assert "topics/bad" in snapshot.damaged
    repaired = snapshot.with_change(LAYOUT, LAYOUT.topic("bad"), None, 10)
    assert not repaired.damaged


def test_partition_counts_sum_over_topics() -> None:
    snapshot = snapshot_from_keys(LAYOUT, _keys(), revision=9)
    assert snapshot.partition_counts() == {"g1": 2, "g2": 1}


def test_acl_rows_and_users_are_kept_as_etcd_holds_them_and_a_damaged_one_is_named() -> None:
    row = {"resource_type": "TOPIC", "name": "t", "pattern_type": "LITERAL", "principal": "User:a", "host": "*",
           "operation": "READ", "permission": "ALLOW"}  # fmt: skip
    user = {"SCRAM-SHA-512": {"iterations": 4096, "salt": "cw==", "stored_key": "aw==", "server_key": "cw=="}}
    snapshot = snapshot_from_keys(
        LAYOUT, [*_keys(), (LAYOUT.acls(), encode_acls([row])), (LAYOUT.user("a"), encode_user(user))], revision=9
    )
    assert [dict(item) for item in snapshot.acls] == [row]
    assert snapshot.users == {"a": user}
    damaged = snapshot.with_change(LAYOUT, LAYOUT.acls(), b'{"acls": "all of them"}', 10)
    damaged = damaged.with_change(LAYOUT, LAYOUT.user("b"), b"[1]", 11)
    assert set(damaged.damaged) == {"acls", "users/b"}
    assert damaged.acls == snapshot.acls and set(damaged.users) == {"a"}
    gone = damaged.with_change(LAYOUT, LAYOUT.user("a"), None, 12)
    assert "a" not in gone.users and snapshot.users == {"a": user}


def test_a_registration_keeps_every_listener_and_answers_the_first_for_an_unknown_one() -> None:
    info = BrokerInfo(3, "g3", "127.0.0.1", 9003, {"PLAINTEXT": ("127.0.0.1", 9003), "SSL": ("broker3", 9443)})
    read = decode_broker(encode_broker(info))
    assert read == info
    assert (read.address("SSL"), read.address("SASL_SSL")) == (("broker3", 9443), ("127.0.0.1", 9003))
    assert decode_broker(encode_broker(BrokerInfo(4, "g4", "h", 1))).address("SSL") == ("h", 1)


def test_the_cluster_wide_broker_default_follows_its_key() -> None:
    key = LAYOUT.broker_default_configs()
    snapshot = snapshot_from_keys(LAYOUT, [(key, encode_configs({"log.retention.ms": "1000"}))], 5)
    assert dict(snapshot.broker_default_configs) == {"log.retention.ms": "1000"}
    assert dict(snapshot.with_change(LAYOUT, key, None, 6).broker_default_configs) == {}
