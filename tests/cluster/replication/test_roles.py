"""``role_in`` (``cluster/replication/roles.py``): the part a member plays in its group, from a snapshot built of
real etcd keys (``layout.py``'s encodings), and the registration of the replication listener (``member.py``)."""

from __future__ import annotations

import pytest

from rockafka.cluster import NO_LEADER, ClusterError, ClusterSnapshot, GroupState, KeyLayout, snapshot_from_keys
from rockafka.cluster.layout import encode_broker, encode_group
from rockafka.cluster.member import REPLICATION_LISTENER, ClusterMember, MemberSettings
from rockafka.cluster.replication.roles import Role, role_in

LAYOUT = KeyLayout("test")


def _member(node: int, replication: tuple[str, int] | None) -> tuple[bytes, bytes]:
    settings = MemberSettings(
        endpoints=["127.0.0.1:2379"], cluster_name="test", group="g", node_id=node, host="127.0.0.1",
        port=9000 + node, lease_ttl_s=3, listeners={"PLAINTEXT": ("127.0.0.1", 9000 + node)},
        replication=replication,
    )  # fmt: skip
    return LAYOUT.broker(node), encode_broker(settings.registration())


def _snapshot(leader: int | None, *members: tuple[bytes, bytes]) -> ClusterSnapshot:
    keys = list(members)
    if leader is not None:
        keys.append((LAYOUT.group("g"), encode_group(GroupState("g", leader, 4))))
    return snapshot_from_keys(LAYOUT, keys, 1)


def test_the_leader_leads_and_the_others_follow_its_replication_address() -> None:
    snapshot = _snapshot(1, _member(1, ("127.0.0.1", 7001)), _member(2, ("127.0.0.1", 7002)))
    assert snapshot.brokers[1].listeners[REPLICATION_LISTENER] == ("127.0.0.1", 7001)
    assert snapshot.brokers[1].address("PLAINTEXT") == ("127.0.0.1", 9001)  # clients' listeners unchanged
    lead, follow = role_in(snapshot, 1, "g"), role_in(snapshot, 2, "g")
    assert lead == Role(1, 4) and lead.leads
    assert follow == Role(1, 4, ("127.0.0.1", 7001)) and not follow.leads


def test_no_part_without_a_live_leader_that_serves_replication() -> None:
    assert role_in(_snapshot(None, _member(2, ("127.0.0.1", 7002))), 2, "g") is None  # no group state yet
    assert role_in(_snapshot(NO_LEADER, _member(2, ("127.0.0.1", 7002))), 2, "g") is None
    assert role_in(_snapshot(1, _member(2, ("127.0.0.1", 7002))), 2, "g") is None  # leader 1 is not registered
    assert role_in(_snapshot(1, _member(1, None), _member(2, ("127.0.0.1", 7002))), 2, "g") is None


def test_a_client_listener_may_not_take_the_replication_listeners_name() -> None:
    settings = MemberSettings(
        endpoints=["127.0.0.1:2379"], cluster_name="test", group="g", node_id=1, host="127.0.0.1", port=9001,
        lease_ttl_s=3, listeners={REPLICATION_LISTENER: ("127.0.0.1", 9001)}, replication=("127.0.0.1", 7001),
    )  # fmt: skip
    with pytest.raises(ClusterError, match="may not be named REPLICATION"):
        ClusterMember(settings)
