"""The replica-placement handlers' whole-request error responses (ElectLeaders, reassignments, log dirs).

Each advertised version's error response must encode and carry the code on every item of the request
(the request round-tripped through that version first, as the broker decodes it). ElectLeaders v0 has
no top-level error code: its error response does not encode there, and the dispatcher closes the
connection instead (as Kafka's own v0 error response for a null topic list cannot be built either).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rockafka.facade.handlers import HANDLERS
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.message import ApiMessage, EncodeError
from rockafka.facade.protocol.messages import alter_partition_reassignments as apr
from rockafka.facade.protocol.messages import alter_replica_log_dirs as ard
from rockafka.facade.protocol.messages import describe_log_dirs as dld
from rockafka.facade.protocol.messages import elect_leaders as el
from rockafka.facade.protocol.messages import list_partition_reassignments as lpr

CODE = ErrorCode.UNKNOWN_SERVER_ERROR

REQUESTS: dict[int, Callable[[], ApiMessage]] = {
    34: lambda: ard.AlterReplicaLogDirsRequest(
        dirs=[
            ard.AlterReplicaLogDir(path="/a", topics=[ard.AlterReplicaLogDirTopic(name="t", partitions=[0, 1])]),
            ard.AlterReplicaLogDir(path="/b", topics=[ard.AlterReplicaLogDirTopic(name="t", partitions=[1])]),
        ]
    ),
    35: lambda: dld.DescribeLogDirsRequest(topics=None),
    43: lambda: el.ElectLeadersRequest(topic_partitions=[el.TopicPartitions(topic="t", partitions=[0, 1])]),
    45: lambda: apr.AlterPartitionReassignmentsRequest(
        topics=[apr.ReassignableTopic(name="t", partitions=[apr.ReassignablePartition(partition_index=0)])]
    ),
    46: lambda: lpr.ListPartitionReassignmentsRequest(topics=None),
}
ITEM_CODES: dict[int, Callable[[Any], list[int]]] = {
    34: lambda r: [p.error_code for t in r.results for p in t.partitions],  # (t, 0) and (t, 1): once each
    43: lambda r: [p.error_code for t in r.replica_election_results for p in t.partition_result] + [r.error_code],
    45: lambda r: [p.error_code for t in r.responses for p in t.partitions] + [r.error_code],
    46: lambda r: [r.error_code],
}
ITEMS = {34: 2, 43: 3, 45: 2, 46: 1}
CASES = [
    (key, v)
    for key in sorted(ITEMS)
    for v in range(HANDLERS[key].min_version, HANDLERS[key].max_version + 1)
    if (key, v) != (43, 0)
]


@pytest.mark.parametrize(("api_key", "version"), CASES, ids=[f"api{k}-v{v}" for k, v in CASES])
def test_error_response_encodes_with_the_code_on_every_item(api_key: int, version: int) -> None:
    handler = HANDLERS[api_key]
    sent = REQUESTS[api_key]()
    request = type(sent).decode(sent.encode(version), version)
    assert handler.error_response is not None
    response = handler.error_response(request, CODE)
    decoded = type(response).decode(response.encode(version), version)
    assert ITEM_CODES[api_key](decoded) == [CODE] * ITEMS[api_key]


@pytest.mark.parametrize("version", range(5))
def test_describe_log_dirs_error_response(version: int) -> None:
    """Kafka's answer: the top-level code (v3+; an ignorable field, dropped before) and no log dirs."""
    handler = HANDLERS[35]
    assert handler.error_response is not None
    response = handler.error_response(REQUESTS[35](), CODE)
    decoded = dld.DescribeLogDirsResponse.decode(response.encode(version), version)
    assert (decoded.error_code, decoded.results) == (CODE if version >= 3 else 0, [])


def test_elect_leaders_v0_error_response_does_not_encode() -> None:
    handler = HANDLERS[43]
    assert handler.error_response is not None
    with pytest.raises(EncodeError):
        handler.error_response(REQUESTS[43](), CODE).encode(0)


def test_the_full_spec_ranges_are_advertised() -> None:
    ranges = {key: (HANDLERS[key].min_version, HANDLERS[key].max_version) for key in REQUESTS}
    assert ranges == {34: (0, 2), 35: (0, 4), 43: (0, 2), 45: (0, 0), 46: (0, 0)}
