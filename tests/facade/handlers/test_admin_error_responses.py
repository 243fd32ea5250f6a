"""The admin handlers' whole-request error responses: every advertised version encodes, every item carries the code.

The dispatcher answers with these when a handler fails as a whole (an :class:`ApiError` or an unexpected
exception): each topic, resource or partition of the request must come back with the error code, at the
request's own version (the request is round-tripped through that version first, as the broker decodes it).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from rockafka.facade.handlers import HANDLERS
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.message import ApiMessage
from rockafka.facade.protocol.messages import alter_configs as ac
from rockafka.facade.protocol.messages import create_partitions as cp
from rockafka.facade.protocol.messages import create_topics as ct
from rockafka.facade.protocol.messages import delete_records as dr
from rockafka.facade.protocol.messages import delete_topics as dt
from rockafka.facade.protocol.messages import describe_cluster as dc
from rockafka.facade.protocol.messages import describe_configs as dcf
from rockafka.facade.protocol.messages import incremental_alter_configs as iac

CODE = ErrorCode.UNKNOWN_SERVER_ERROR
TOPIC_ID = uuid.UUID(int=7)


def _delete_topics(version: int) -> dt.DeleteTopicsRequest:
    if version >= 6:
        return dt.DeleteTopicsRequest(topics=[dt.DeleteTopicState(name="a"), dt.DeleteTopicState(topic_id=TOPIC_ID)])
    return dt.DeleteTopicsRequest(topic_names=["a", "b"])


REQUESTS: dict[int, Callable[[int], ApiMessage]] = {
    19: lambda v: ct.CreateTopicsRequest(topics=[ct.CreatableTopic(name="a"), ct.CreatableTopic(name="b")]),
    20: _delete_topics,
    21: lambda v: dr.DeleteRecordsRequest(
        topics=[dr.DeleteRecordsTopic(name="a", partitions=[dr.DeleteRecordsPartition(partition_index=0)] * 2)]
    ),
    32: lambda v: dcf.DescribeConfigsRequest(
        resources=[dcf.DescribeConfigsResource(resource_type=2, resource_name="a", configuration_keys=None)]
    ),
    33: lambda v: ac.AlterConfigsRequest(resources=[ac.AlterConfigsResource(resource_type=2, resource_name="a")]),
    37: lambda v: cp.CreatePartitionsRequest(topics=[cp.CreatePartitionsTopic(name="a", count=2, assignments=None)]),
    44: lambda v: iac.IncrementalAlterConfigsRequest(
        resources=[iac.AlterConfigsResource(resource_type=4, resource_name="0")]
    ),
    60: lambda v: dc.DescribeClusterRequest(),
}


ITEM_CODES: dict[int, Callable[[Any], list[int]]] = {
    19: lambda r: [topic.error_code for topic in r.topics],
    20: lambda r: [item.error_code for item in r.responses],
    21: lambda r: [part.error_code for topic in r.topics for part in topic.partitions],
    32: lambda r: [item.error_code for item in r.results],
    33: lambda r: [item.error_code for item in r.responses],
    37: lambda r: [item.error_code for item in r.results],
    44: lambda r: [item.error_code for item in r.responses],
    60: lambda r: [r.error_code],
}
ITEMS = {19: 2, 20: 2, 21: 2, 32: 1, 33: 1, 37: 1, 44: 1, 60: 1}
CASES = [(key, v) for key in sorted(REQUESTS) for v in range(HANDLERS[key].min_version, HANDLERS[key].max_version + 1)]


@pytest.mark.parametrize(("api_key", "version"), CASES, ids=[f"api{k}-v{v}" for k, v in CASES])
def test_error_response_encodes_with_the_code_on_every_item(api_key: int, version: int) -> None:
    handler = HANDLERS[api_key]
    sent = REQUESTS[api_key](version)
    request = type(sent).decode(sent.encode(version), version)
    assert handler.error_response is not None
    response = handler.error_response(request, CODE)
    decoded = type(response).decode(response.encode(version), version)
    assert ITEM_CODES[api_key](decoded) == [CODE] * ITEMS[api_key]


def test_every_advertised_version_of_the_admin_apis_is_covered() -> None:
    """The full spec ranges are advertised (kafkajs ignores minVersion: each must really work)."""
    ranges = {key: (HANDLERS[key].min_version, HANDLERS[key].max_version) for key in REQUESTS}
    assert ranges == {19: (0, 7), 20: (0, 6), 21: (0, 2), 32: (0, 4), 33: (0, 2), 37: (0, 3), 44: (0, 1), 60: (0, 1)}
