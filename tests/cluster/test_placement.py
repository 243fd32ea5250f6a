"""Placement: partitions spread over groups balanced by partition count, deterministic, growth to the least loaded."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rockafka.cluster import NoBrokerGroupsError, place_partitions


def test_a_topic_over_equal_groups_lands_round_robin() -> None:
    assert place_partitions(6, ["g2", "g1", "g3"], {}) == ("g1", "g2", "g3", "g1", "g2", "g3")


def test_new_partitions_go_to_the_least_loaded_groups_first() -> None:
    assert place_partitions(3, ["a", "b", "c"], {"a": 5, "b": 1}) == ("c", "b", "c")


def test_zero_partitions_need_no_group() -> None:
    assert place_partitions(0, [], {}) == ()


def test_no_live_group_is_a_typed_error() -> None:
    with pytest.raises(NoBrokerGroupsError, match="no broker group"):
        place_partitions(1, [], {"gone": 3})


@given(
    loads=st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 50), min_size=1),
    count=st.integers(0, 200),
)
def test_each_partition_goes_to_a_group_that_holds_the_fewest_at_that_moment(loads: dict[str, int], count: int) -> None:
    placed = place_partitions(count, loads, loads)
    assert len(placed) == count
    held = dict(loads)
    for name in placed:
        assert held[name] == min(held.values())
        held[name] += 1
