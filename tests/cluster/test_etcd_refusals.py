"""A member's etcd work redone after etcd refused it. etcd refuses writes for real here: a NOSPACE alarm (raised
and disarmed through etcd's own Alarm API) makes it refuse every put and lease grant, and a disarm makes it take
them again without any key changing, so no watch event wakes the member: only its own retry can. Each test starts
its own etcd (the alarm would refuse the other tests' writes)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import aetcd
import pytest

from rockafka.cluster import NO_LEADER, EtcdRefusedError
from rockafka.cluster.etcd import Etcd, parse_endpoint
from rockafka.cluster.layout import BrokerInfo
from rockafka.cluster.local_etcd import LocalEtcd
from rockafka.cluster.member import ClusterMember, MemberSettings

WAIT_S = 20.0


def _member(etcd: LocalEtcd, node: int, group: str) -> ClusterMember:
    settings = MemberSettings([etcd.endpoint], "refusals", group, node, "127.0.0.1", 9000 + node, lease_ttl_s=2)
    return ClusterMember(settings)


@asynccontextmanager
async def _alarm_client(server: LocalEtcd) -> AsyncIterator[aetcd.Client]:
    """A plain etcd client for the Alarm API (``create_alarm``: NOSPACE; ``disarm_alarm``)."""
    host, port = parse_endpoint(server.endpoint)
    client = aetcd.Client(host=host, port=port)
    try:
        yield client
    finally:
        await client.close()


async def _until(seen: Callable[[], bool], what: str) -> None:
    """Return once ``seen()``; bounded polling of in-process state that no watch reports."""
    deadline = asyncio.get_running_loop().time() + WAIT_S
    while not seen():
        assert asyncio.get_running_loop().time() < deadline, f"not seen within {WAIT_S} s: {what}"
        await asyncio.sleep(0.05)


def _run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 90))


def test_a_member_whose_registration_etcd_refused_registers_once_etcd_takes_writes() -> None:
    """Its lease expired; it took a new one, and etcd refused the registration under it. It used to give up there:
    the new lease lived on (refreshed, so never "expired" again), and the broker stayed out of the cluster."""
    refused: list[EtcdRefusedError] = []

    async def scenario(server: LocalEtcd) -> None:
        member = _member(server, 1, "g1")
        await member.start()
        connection = await Etcd.connect([server.endpoint])
        try:
            async with _alarm_client(server) as alarms:
                assert member.metadata is not None and member.view is not None
                register = member.metadata.register

                async def refused_the_first_time(info: BrokerInfo, lease_id: int) -> None:
                    if not refused:  # etcd refuses writes from now on: this registration is refused for real
                        await alarms.create_alarm()
                    try:
                        await register(info, lease_id)
                    except EtcdRefusedError as exc:
                        refused.append(exc)
                        raise

                member.metadata.register = refused_the_first_time  # type: ignore[method-assign]
                first_lease = member.lease_id
                await connection.revoke_lease(first_lease)  # as if it had expired: registration gone
                await member.view.wait_for(lambda s: 1 not in s.brokers, WAIT_S)
                await _until(lambda: bool(refused), "the registration under a new lease refused")
                assert "space exceeded" in str(refused[0])
                await alarms.disarm_alarm()
                again = await member.view.wait_for(lambda s: 1 in s.brokers, WAIT_S)
                assert again.brokers[1].group == "g1"
                entry = await connection.get(member.layout.broker(1))
                assert entry is not None and entry.lease == member.lease_id != first_lease
        finally:
            await connection.close()
            await member.stop()

    with LocalEtcd() as server:
        _run(lambda: scenario(server))


def test_an_election_etcd_refused_is_made_once_etcd_takes_writes(caplog: pytest.LogCaptureFixture) -> None:
    """The controller's write of a group whose leader left was refused; nothing in etcd changed after that (etcd
    took writes again, but no key moved), and the duty, which ran only at a change of the view, never wrote it:
    Metadata kept sending clients to the departed broker."""

    async def scenario(server: LocalEtcd) -> None:
        controller, leaving = _member(server, 1, "g1"), _member(server, 2, "g2")
        await controller.start()
        await leaving.start()
        view = controller.view
        assert view is not None
        try:
            async with _alarm_client(server) as alarms:
                await view.wait_for(lambda s: s.controller == 1 and {"g1", "g2"} <= set(s.groups), WAIT_S)
                await alarms.create_alarm()
                await leaving.stop()  # its lease is revoked (etcd takes a revoke under the alarm)
                await view.wait_for(lambda s: 2 not in s.brokers, WAIT_S)
                await _until(lambda: "controller duty failed" in caplog.text, "the election refused")
                assert view.snapshot.groups["g2"].leader == 2
                await alarms.disarm_alarm()
                after = await view.wait_for(lambda s: s.groups["g2"].leader == NO_LEADER, WAIT_S)
                assert after.groups["g2"].epoch == 1
        finally:
            await leaving.stop()
            await controller.stop()

    with LocalEtcd() as server, caplog.at_level(logging.WARNING, logger="rockafka.cluster.member"):
        _run(lambda: scenario(server))
