"""Admin state in etcd: topic configs, ACL rows and SCRAM users, written compare-and-swap and seen by every watch."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path

import pytest

from rockafka.cluster import ClusterSnapshot, KeyLayout, UnknownTopicError
from rockafka.cluster.etcd import Etcd
from rockafka.cluster.local_etcd import LocalEtcd
from rockafka.cluster.member import ClusterMember, MemberSettings
from rockafka.cluster.metadata import ClusterMetadata
from rockafka.cluster.view import ClusterView
from rockafka.facade.security import AclStore, CredentialStore, ScramCredential, ScramMechanism, binding
from rockafka.testing import Cluster

WAIT_S = 20.0
ROW = {
    "resource_type": "TOPIC",
    "name": "orders",
    "pattern_type": "LITERAL",
    "principal": "User:alice",
    "host": "*",
    "operation": "READ",
    "permission": "ALLOW",
}
ALICE = {"SCRAM-SHA-256": {"iterations": 4096, "salt": "c2FsdA==", "stored_key": "c3Q=", "server_key": "c2s="}}


def _run(etcd: LocalEtcd, name: str, body: Callable[[list[ClusterMember]], Awaitable[None]]) -> None:
    async def scenario() -> None:
        members = []
        try:
            for node in (1, 2):
                settings = MemberSettings([etcd.endpoint], name, f"g{node}", node, "127.0.0.1", 9000 + node, 5)
                member = ClusterMember(settings)
                await member.start()
                members.append(member)
            assert members[0].view is not None
            await members[0].view.wait_for(lambda s: len(s.live_groups()) == 2, WAIT_S)  # topics need live groups
            await body(members)
        finally:
            for member in members:
                await member.stop()

    asyncio.run(asyncio.wait_for(scenario(), 60))


def _parts(member: ClusterMember) -> tuple[ClusterMetadata, ClusterView]:
    assert member.metadata is not None and member.view is not None
    return member.metadata, member.view


def test_concurrent_config_changes_through_two_brokers_both_land(etcd: LocalEtcd, cluster_name: str) -> None:
    async def body(members: list[ClusterMember]) -> None:
        (first, first_view), (second, second_view) = _parts(members[0]), _parts(members[1])
        await first.create_topic(first_view.snapshot, "orders", 2, {"retention.ms": "1000"})

        def adding(key: str, value: str) -> Callable[[Mapping[str, str]], dict[str, str]]:
            return lambda current: {**current, key: value}

        await asyncio.gather(
            first.alter_topic_configs("orders", adding("max.message.bytes", "2000")),
            second.alter_topic_configs("orders", adding("cleanup.policy", "compact")),
        )
        expected = {"retention.ms": "1000", "max.message.bytes": "2000", "cleanup.policy": "compact"}
        for view in (first_view, second_view):
            await view.wait_for(lambda s: "orders" in s.topics and s.topics["orders"].configs == expected, WAIT_S)
        with pytest.raises(UnknownTopicError):
            await first.alter_topic_configs("missing", adding("retention.ms", "1"))

    _run(etcd, cluster_name, body)


def test_a_refused_config_change_writes_nothing(etcd: LocalEtcd, cluster_name: str) -> None:
    async def body(members: list[ClusterMember]) -> None:
        metadata, view = _parts(members[0])
        await metadata.create_topic(view.snapshot, "orders", 1, {})
        before = await metadata.etcd.get(metadata.layout.topic("orders"))

        def refuse(current: Mapping[str, str]) -> dict[str, str]:
            raise ValueError("not this one")

        with pytest.raises(ValueError, match="not this one"):
            await metadata.alter_topic_configs("orders", refuse)
        assert await metadata.etcd.get(metadata.layout.topic("orders")) == before

    _run(etcd, cluster_name, body)


def test_acl_rows_and_users_written_through_one_broker_reach_the_other(etcd: LocalEtcd, cluster_name: str) -> None:
    async def body(members: list[ClusterMember]) -> None:
        (metadata, _), (_, other_view) = _parts(members[0]), _parts(members[1])
        written_at = await metadata.update_acls(lambda rows: [*rows, ROW])
        entry = await metadata.etcd.get(metadata.layout.acls())
        assert entry is not None and entry.mod_revision == written_at  # what a change's answer waits to see
        users_at = await metadata.update_users(["alice", "bob"], lambda current: {"alice": ALICE, "bob": None})
        assert users_at > written_at
        seen = await other_view.wait_for(lambda s: bool(s.acls) and "alice" in s.users, WAIT_S)
        assert [dict(row) for row in seen.acls] == [ROW]
        assert seen.users["alice"] == ALICE and "bob" not in seen.users

        assert await metadata.update_acls(lambda rows: None) == 0  # nothing to change: nothing written
        await metadata.update_acls(lambda rows: [])
        await metadata.update_users(["alice"], lambda current: {"alice": None})
        seen = await other_view.wait_for(lambda s: not s.acls and not s.users, WAIT_S)
        assert seen.acls == ()

    _run(etcd, cluster_name, body)


def test_security_state_is_seeded_once_and_never_again(etcd: LocalEtcd, cluster_name: str) -> None:
    async def body(members: list[ClusterMember]) -> None:
        (first, _), (second, second_view) = _parts(members[0]), _parts(members[1])
        assert await first.seed_security([ROW], {"alice": ALICE})
        seen = await second_view.wait_for(lambda s: "alice" in s.users, WAIT_S)
        assert [dict(row) for row in seen.acls] == [ROW]
        await first.update_acls(lambda rows: [])  # every ACL deleted: the key stays, empty
        assert not await second.seed_security([ROW], {"mallory": ALICE})
        seen = await second_view.wait_for(lambda s: not s.acls, WAIT_S)
        assert "mallory" not in seen.users

    _run(etcd, cluster_name, body)


def test_the_first_broker_seeds_the_cluster_from_its_data_directory_files(tmp_path: Path) -> None:
    data_dir = tmp_path / "broker-1" / "data"
    credential = ScramCredential.from_salted_password(ScramMechanism.SCRAM_SHA_512, b"salt", b"salted" * 8, 4096)
    CredentialStore(data_dir).apply([("alice", credential)], [])
    AclStore(data_dir).add([binding(2, "orders", 3, "User:alice", "*", 3, 3)])
    with Cluster(groups=1, subprocess=False, data_root=tmp_path) as cluster:

        async def seeded() -> ClusterSnapshot:
            etcd = await Etcd.connect([cluster.etcd.endpoint])
            view = ClusterView(etcd, KeyLayout(cluster.name))
            try:
                await view.start()
                return await view.wait_for(lambda s: "alice" in s.users, WAIT_S)
            finally:
                await view.stop()
                await etcd.close()

        snapshot = asyncio.run(seeded())
    assert [dict(row) for row in snapshot.acls] == [
        {"resource_type": "TOPIC", "name": "orders", "pattern_type": "LITERAL", "principal": "User:alice",
         "host": "*", "operation": "READ", "permission": "ALLOW"}
    ]  # fmt: skip
    stored = snapshot.users["alice"]["SCRAM-SHA-512"]
    assert set(stored) == {"iterations", "salt", "stored_key", "server_key"}  # salted hashes, no password
    assert stored["stored_key"] == base64.b64encode(credential.stored_key).decode()
