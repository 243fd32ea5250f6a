"""ListPartitionReassignments v0: the reassignments in progress; on one broker there never are any.

The answer is always an empty topic list with error NONE, whether the request names no topics (null:
every reassigning partition) or some: Kafka's controller leaves out unknown topics and partitions and
partitions without a reassignment alike, so they are left out here too.

Version notes: v0 only, flexible.
Not implemented: ACL checks (CLUSTER DESCRIBE); ``timeout_ms`` is moot (the answer is immediate).
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.list_partition_reassignments import (
    ListPartitionReassignmentsRequest,
    ListPartitionReassignmentsResponse,
)

from .context import RequestContext
from .registry import register


def _error(request: ListPartitionReassignmentsRequest, code: ErrorCode) -> ListPartitionReassignmentsResponse:
    return ListPartitionReassignmentsResponse(error_code=code, error_message=code.name)


@register(46, 0, 0, _error)
def handle(ctx: RequestContext, request: ListPartitionReassignmentsRequest) -> ListPartitionReassignmentsResponse:
    return ListPartitionReassignmentsResponse(throttle_time_ms=0, error_code=ErrorCode.NONE, error_message=None)
