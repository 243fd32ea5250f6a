"""The classic group protocol's states and the transitions between them, as Kafka defines them.

=====================  ==============================================================  =====================
state                  meaning                                                         entered from
=====================  ==============================================================  =====================
Empty                  no members; committed offsets may remain                        PreparingRebalance
PreparingRebalance     waiting for members to (re)join, within the rebalance timeout   Stable,
                                                                                       CompletingRebalance,
                                                                                       Empty
CompletingRebalance    members joined; waiting for the leader's assignment (SyncGroup)  PreparingRebalance
Stable                 assignment delivered; members heartbeat                         CompletingRebalance
Dead                   deleted (DeleteGroups, or expired with no offsets left)         every state
=====================  ==============================================================  =====================

Kafka's group tools print the names in the first column (``Stable``, ``PreparingRebalance``...), and
ListGroups/DescribeGroups carry them as strings.
"""

from __future__ import annotations

import enum
from typing import Final


class GroupState(enum.Enum):
    EMPTY = "Empty"
    PREPARING_REBALANCE = "PreparingRebalance"
    COMPLETING_REBALANCE = "CompletingRebalance"
    STABLE = "Stable"
    DEAD = "Dead"

    @property
    def kafka_name(self) -> str:
        return self.value


ALL_STATES: Final = frozenset(GroupState)

#: For each state, the states a group may be in just before entering it.
VALID_PREVIOUS_STATES: Final[dict[GroupState, frozenset[GroupState]]] = {
    GroupState.EMPTY: frozenset({GroupState.PREPARING_REBALANCE}),
    GroupState.PREPARING_REBALANCE: frozenset({GroupState.STABLE, GroupState.COMPLETING_REBALANCE, GroupState.EMPTY}),
    GroupState.COMPLETING_REBALANCE: frozenset({GroupState.PREPARING_REBALANCE}),
    GroupState.STABLE: frozenset({GroupState.COMPLETING_REBALANCE}),
    GroupState.DEAD: ALL_STATES,
}

#: States from which a join, leave or expiry starts a new rebalance (PreparingRebalance already is one).
CAN_REBALANCE: Final = frozenset({GroupState.STABLE, GroupState.COMPLETING_REBALANCE, GroupState.EMPTY})


class IllegalTransitionError(Exception):
    """A programming error: the coordinator tried a transition Kafka's state machine does not have."""


def check_transition(current: GroupState, target: GroupState) -> None:
    if current not in VALID_PREVIOUS_STATES[target]:
        raise IllegalTransitionError(f"a group cannot go from {current.kafka_name} to {target.kafka_name}")


def parse_state(name: str) -> GroupState | None:
    """The state named ``name`` (case-insensitive, as ListGroups' states filter); None if there is none."""
    folded = name.casefold()
    return next((state for state in GroupState if state.value.casefold() == folded), None)
