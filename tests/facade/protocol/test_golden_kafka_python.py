"""Golden bytes against kafka-python 3.0.12, an independent encoder of the same specs.

For every API both codecs know, every version both support whose wire layout is the same in both
schemas (kafka-python bundles newer JSON): our encoder writes exactly kafka-python's bytes for the same
values, and our decoder reads kafka-python's bytes back into the value we started from. The older
versions of the required APIs that kafka-python's JSON no longer has (Produce 0-2, Fetch 0-3, ...) are
compared against its older hand-written classes (``kafka.protocol.old``), so every version of those APIs
in our specs is checked.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from rockafka.facade.protocol.message import Message
from rockafka.facade.protocol.messages import API_SPECS

from .kafka_python import (
    kafka_python_classes,
    kafka_python_old_classes,
    matching_versions,
    to_kafka_python,
    to_old_values,
)
from .strategies import message_values

REQUIRED_APIS = {
    "ApiVersions",
    "Metadata",
    "Produce",
    "Fetch",
    "ListOffsets",
    "FindCoordinator",
    "JoinGroup",
    "SyncGroup",
    "Heartbeat",
    "LeaveGroup",
    "OffsetCommit",
    "OffsetFetch",
    "InitProducerId",
    "CreateTopics",
    "DeleteTopics",
    "DescribeConfigs",
}
THEIRS = kafka_python_classes()
PAIRS = [
    (cls, THEIRS[cls.__name__])
    for spec in API_SPECS.values()
    for cls in (spec.request, spec.response)
    if cls.__name__ in THEIRS
]
CASES = [(ours, theirs, v) for ours, theirs in PAIRS for v, same in matching_versions(ours, theirs) if same]
DIFFERENT = [(ours.__name__, v) for ours, theirs in PAIRS for v, same in matching_versions(ours, theirs) if not same]
API_SPECS_BY_NAME = {cls.__name__: cls for spec in API_SPECS.values() for cls in (spec.request, spec.response)}
OLD = kafka_python_old_classes()
OLD_CASES = [
    (cls, OLD[(cls.__name__, version)], version)
    for spec in API_SPECS.values()
    if spec.name in REQUIRED_APIS
    for cls in (spec.request, spec.response)
    for version in range(cls.MIN_VERSION, min(cls.MAX_VERSION + 1, THEIRS[cls.__name__].valid_versions[0]))
]
EXAMPLES = settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), database=None)


def test_required_apis_are_compared_in_every_version_both_support() -> None:
    compared = {(ours.__name__, version) for ours, _theirs, version in CASES}
    for api in REQUIRED_APIS:
        for name in (f"{api}Request", f"{api}Response"):
            ours, theirs = API_SPECS_BY_NAME[name], THEIRS[name]
            low, high = max(ours.MIN_VERSION, theirs.valid_versions[0]), min(ours.MAX_VERSION, theirs.valid_versions[1])
            assert high >= low
            assert {(name, version) for version in range(low, high + 1)} <= compared, DIFFERENT


@pytest.mark.parametrize(
    ("ours", "theirs", "version"), CASES, ids=[f"{ours.__name__}-v{version}" for ours, _t, version in CASES]
)
def test_same_bytes_as_kafka_python(ours: type[Message], theirs: type, version: int) -> None:
    @EXAMPLES
    @given(message_values(ours, version, unknown_tags=False))
    def check(value: Message) -> None:
        encoded = value.encode(version)
        reference = to_kafka_python(value, theirs, version, ours.is_flexible(version), top=True).encode(version=version)
        assert encoded == reference
        assert ours.decode(reference, version) == value

    check()


def test_older_versions_are_all_covered_by_the_old_classes() -> None:
    covered = {(ours.__name__, version) for ours, _t, version in CASES + OLD_CASES}
    for api in REQUIRED_APIS:
        for name in (f"{api}Request", f"{api}Response"):
            ours = API_SPECS_BY_NAME[name]
            assert {(name, version) for version in range(ours.MIN_VERSION, ours.MAX_VERSION + 1)} <= covered


@pytest.mark.parametrize(
    ("ours", "theirs", "version"), OLD_CASES, ids=[f"{ours.__name__}-v{version}" for ours, _t, version in OLD_CASES]
)
def test_same_bytes_as_kafka_python_old_classes(ours: type[Message], theirs: type, version: int) -> None:
    @EXAMPLES
    @given(message_values(ours, version, unknown_tags=False))
    def check(value: Message) -> None:
        reference = theirs(*to_old_values(value, version, ours.is_flexible(version))).encode()
        assert value.encode(version) == reference
        assert ours.decode(reference, version) == value

    check()
