"""ListGroups v0-5: every group, with its protocol type (and state, v4+; type, v5+).

Version notes: v3 is the first flexible version; v4+ filter by states (KIP-518; names as Kafka prints
them, compared case-insensitively); v5+ filter by group type (KIP-848): ``classic``,
``consumer`` or ``share`` (KIP-932).
Groups known only by committed offsets are listed as Empty with protocol type "". In a cluster a broker lists
only the groups it coordinates, as Kafka's brokers do: admin clients ask every broker and merge the lists.

Authorization: DESCRIBE on the cluster lists every group; otherwise only the groups the principal may DESCRIBE.
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.list_groups import ListedGroup, ListGroupsRequest, ListGroupsResponse
from rockafka.facade.security.acl import AclOperation, ResourceType

from .context import RequestContext
from .coordination import coordinates_group
from .registry import register


def _error(request: ListGroupsRequest, code: ErrorCode) -> ListGroupsResponse:
    return ListGroupsResponse(error_code=code)


@register(16, 0, 5, _error)
def handle(ctx: RequestContext, request: ListGroupsRequest) -> ListGroupsResponse:
    listings = ctx.broker.groups.list_groups(request.states_filter, request.types_filter)
    everything = ctx.authorize(AclOperation.DESCRIBE, ResourceType.CLUSTER)
    groups = [
        ListedGroup(
            group_id=listing.group_id,
            protocol_type=listing.protocol_type,
            group_state=listing.state,
            group_type=listing.group_type,
        )
        for listing in listings
        if (everything or ctx.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, listing.group_id))
        and coordinates_group(ctx, listing.group_id)
    ]
    return ListGroupsResponse(error_code=ErrorCode.NONE, groups=groups)
