"""The state machine's table and the group's bookkeeping rules (leader, protocols, static members)."""

from __future__ import annotations

import itertools

import pytest

from rockafka.facade.group.group import ClassicGroup, Member
from rockafka.facade.group.state import (
    CAN_REBALANCE,
    VALID_PREVIOUS_STATES,
    GroupState,
    IllegalTransitionError,
    check_transition,
    parse_state,
)
from rockafka.facade.protocol.error_codes import ErrorCode

KAFKA_TRANSITIONS = {
    (GroupState.PREPARING_REBALANCE, GroupState.EMPTY),
    (GroupState.STABLE, GroupState.PREPARING_REBALANCE),
    (GroupState.COMPLETING_REBALANCE, GroupState.PREPARING_REBALANCE),
    (GroupState.EMPTY, GroupState.PREPARING_REBALANCE),
    (GroupState.PREPARING_REBALANCE, GroupState.COMPLETING_REBALANCE),
    (GroupState.COMPLETING_REBALANCE, GroupState.STABLE),
} | {(state, GroupState.DEAD) for state in GroupState}


@pytest.mark.parametrize(("current", "target"), list(itertools.product(GroupState, GroupState)))
def test_exactly_kafkas_transitions_are_allowed(current: GroupState, target: GroupState) -> None:
    if (current, target) in KAFKA_TRANSITIONS:
        check_transition(current, target)
    else:
        with pytest.raises(IllegalTransitionError):
            check_transition(current, target)


def test_the_table_and_the_rebalance_states_agree() -> None:
    assert set(VALID_PREVIOUS_STATES) == set(GroupState)
    assert VALID_PREVIOUS_STATES[GroupState.PREPARING_REBALANCE] == CAN_REBALANCE
    assert [s.kafka_name for s in GroupState] == [
        "Empty",
        "PreparingRebalance",
        "CompletingRebalance",
        "Stable",
        "Dead",
    ]


def test_state_names_parse_case_insensitively() -> None:
    assert parse_state("stable") is GroupState.STABLE
    assert parse_state("PREPARINGREBALANCE") is GroupState.PREPARING_REBALANCE
    assert parse_state("Unknown") is None


def member(member_id: str, *protocols: str, instance: str | None = None) -> Member:
    return Member(
        member_id=member_id,
        group_instance_id=instance,
        client_id="c",
        client_host="/127.0.0.1",
        rebalance_timeout_ms=1000,
        session_timeout_ms=1000,
        protocol_type="consumer",
        protocols=tuple((name, name.encode()) for name in protocols),
    )


def test_the_first_member_leads_and_the_next_one_takes_over_when_it_leaves() -> None:
    group = ClassicGroup("g", 0)
    for member_id in ("a", "b", "c"):
        group.add(member("a" if member_id == "a" else member_id, "range"))
    assert group.leader_id == "a" and group.protocol_type == "consumer"
    group.remove("a")
    assert group.leader_id == "b"
    group.remove("b")
    group.remove("c")
    assert group.leader_id is None


def test_a_leader_that_has_not_rejoined_is_replaced_by_one_that_has() -> None:
    group = ClassicGroup("g", 0)
    a, b = member("a", "range"), member("b", "range")
    group.add(a)
    group.add(b)
    assert group.maybe_elect_new_joined_leader() is False  # nobody rejoined
    b.join_waiter = object()  # type: ignore[assignment]  # any marker of a pending JoinGroup
    assert group.maybe_elect_new_joined_leader() is True
    assert group.leader_id == "b"


def test_the_protocol_every_member_supports_with_most_votes_wins() -> None:
    group = ClassicGroup("g", 0)
    group.add(member("a", "range", "roundrobin"))
    group.add(member("b", "roundrobin", "range"))
    group.add(member("c", "roundrobin", "sticky", "range"))
    assert group.candidate_protocols() == {"range", "roundrobin"}
    assert group.select_protocol() == "roundrobin"


def test_a_tie_goes_to_the_first_members_preference() -> None:
    group = ClassicGroup("g", 0)
    group.add(member("a", "range", "roundrobin"))
    group.add(member("b", "roundrobin", "range"))
    assert group.select_protocol() == "range"


def test_a_joining_member_must_share_the_type_and_a_protocol_with_everyone() -> None:
    group = ClassicGroup("g", 0)
    assert group.supports_protocols("consumer", ["x"])  # an Empty group accepts any non-empty offer
    assert not group.supports_protocols("", ["x"]) and not group.supports_protocols("consumer", [])
    group.add(member("a", "range", "roundrobin"))
    group.state = GroupState.STABLE
    assert group.supports_protocols("consumer", ["roundrobin"])
    assert not group.supports_protocols("consumer", ["sticky"])
    assert not group.supports_protocols("connect", ["range"])


def test_static_members_are_known_by_instance_and_fenced_by_a_new_id() -> None:
    group = ClassicGroup("g", 0)
    group.add(member("old", "range", instance="i-1"))
    group.add(member("other", "range"))
    assert group.validate_member("old", "i-1") is ErrorCode.NONE
    group.pending_sync.add("old")
    replaced = group.replace_member_id("old", "new")
    assert replaced.member_id == "new" and list(group.members) == ["new", "other"]
    assert group.leader_id == "new" and group.pending_sync == {"new"}
    assert group.validate_member("old", "i-1") is ErrorCode.FENCED_INSTANCE_ID
    assert group.validate_member("new", "i-1") is ErrorCode.NONE
    assert group.validate_member("new", "i-2") is ErrorCode.UNKNOWN_MEMBER_ID
    assert group.validate_member("gone", None) is ErrorCode.UNKNOWN_MEMBER_ID
    group.remove("new")
    assert group.static_members == {}
