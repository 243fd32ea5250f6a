"""Offset planning without Spark: Spark's Kafka option semantics, rate limits and splits."""

from __future__ import annotations

import pytest

from rockafka.pipeline.errors import DataLossError, OptionError
from rockafka.pipeline.offsets import (
    Bounds,
    OffsetRange,
    TopicPartition,
    check_available,
    offsets_from_json,
    offsets_to_json,
    parse_spec,
    rate_limit,
    resolve,
    split_ranges,
)
from rockafka.pipeline.options import read_settings, topic_selection

A0, A1, B0 = TopicPartition("a", 0), TopicPartition("a", 1), TopicPartition("b", 0)
BOUNDS = Bounds(earliest={A0: 10, A1: 0, B0: 5}, latest={A0: 100, A1: 50, B0: 5})


def _no_times(times: object) -> dict[TopicPartition, int | None]:
    raise AssertionError("no time lookup expected")


def test_offsets_json_round_trips_in_sparks_shape() -> None:
    document = {"a": {"0": 23, "1": 42}, "b": {"0": 7}}
    assert offsets_to_json(offsets_from_json(document)) == document
    with pytest.raises(OptionError):
        offsets_from_json({"a": 3})


@pytest.mark.parametrize(
    ("options", "starting", "expected"),
    [
        ({}, True, {A0: 10, A1: 0, B0: 5}),
        ({"startingOffsets": "latest"}, True, {A0: 100, A1: 50, B0: 5}),
        ({"startingOffsets": '{"a": {"0": 20, "1": -1}, "b": {"0": -2}}'}, True, {A0: 20, A1: 50, B0: 5}),
        ({"endingOffsets": '{"a": {"0": 30, "1": -1}, "b": {"0": 5}}'}, False, {A0: 30, A1: 50, B0: 5}),
    ],
)
def test_specs_resolve_like_sparks_kafka_source(options: dict[str, str], starting: bool, expected: object) -> None:
    spec = parse_spec(options, starting=starting, default="earliest" if starting else "latest")
    assert resolve(spec, BOUNDS, _no_times) == expected


def test_timestamps_win_and_a_missing_time_follows_the_strategy() -> None:
    def lookup(times: object) -> dict[TopicPartition, int | None]:
        return {A0: 40, A1: None, B0: None}

    spec = parse_spec({"startingTimestamp": "1700", "startingOffsets": "earliest"}, starting=True, default="latest")
    with pytest.raises(OptionError, match="a-1"):
        resolve(spec, BOUNDS, lookup)
    lenient = parse_spec(
        {"startingTimestamp": "1700", "startingOffsetsByTimestampStrategy": "latest"}, starting=True, default="latest"
    )
    assert resolve(lenient, BOUNDS, lookup) == {A0: 40, A1: 50, B0: 5}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"subscribe": "a", "assign": '{"a": [0]}'}, "exactly one"),
        ({}, "exactly one"),
        ({"assign": '{"a": "0"}'}, "assign must be JSON"),
        ({"subscribe": "a", "startingOffsets": "{bad"}, "startingOffsets must be"),
        ({"subscribe": "a", "endingOffsets": "earliest"}, "endingOffsets cannot be earliest"),
        ({"subscribe": "a", "maxOffsetsPerTrigger": "-3"}, "positive integer"),
        ({"subscribe": "a", "failOnDataLoss": "maybe"}, "true or false"),
    ],
)
def test_option_mistakes_are_named(options: dict[str, str], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        read_settings(options, streaming=False)


def test_offsets_must_name_exactly_the_partitions_read() -> None:
    spec = parse_spec({"startingOffsets": '{"a": {"0": 20}}'}, starting=True, default="latest")
    with pytest.raises(OptionError, match="missing a-1, missing b-0"):
        resolve(spec, BOUNDS, _no_times)


def test_data_loss_fails_or_skips_ahead() -> None:
    with pytest.raises(DataLossError, match="offset 3 of a-0"):
        check_available({A0: 3}, BOUNDS, fail_on_data_loss=True)
    assert check_available({A0: 3, A1: 60}, BOUNDS, fail_on_data_loss=False) == {A0: 10, A1: 50}


def test_rate_limit_shares_by_lag() -> None:
    start = {A0: 0, A1: 0, B0: 0}
    assert rate_limit(start, {A0: 300, A1: 100, B0: 0}, 100) == {A0: 75, A1: 25, B0: 0}
    assert rate_limit(start, {A0: 1000, A1: 1, B0: 0}, 100) == {A0: 99, A1: 1, B0: 0}  # a share below 1 rounds up
    assert rate_limit(start, {A0: 10, A1: 10, B0: 0}, 100) == {A0: 10, A1: 10, B0: 0}


def test_min_partitions_splits_ranges_by_size() -> None:
    ranges = [OffsetRange("a", 0, 0, 90), OffsetRange("a", 1, 0, 10)]
    pieces = split_ranges(ranges, 10)
    assert [(p.partition, p.start, p.end) for p in pieces if p.partition == 1] == [(1, 0, 10)]
    assert [(p.start, p.end) for p in pieces if p.partition == 0] == [(i * 10, i * 10 + 10) for i in range(9)]
    assert split_ranges(ranges, 2) == ranges


def test_topic_selection_by_pattern_and_assignment() -> None:
    assert topic_selection({"subscribepattern": "or.*"}).topics(["orders", "audit", "ordinal"]) == ["orders", "ordinal"]
    assigned = topic_selection({"assign": '{"a": [1, 0]}'})
    assert assigned.partitions({}) == [A0, A1]
