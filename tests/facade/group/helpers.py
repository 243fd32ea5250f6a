"""Building blocks for the group coordinator tests: a real store in a temporary directory, requests, flows."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from rockafka.facade.clock import REAL_CLOCK, Clock, ManualClock
from rockafka.facade.group import GroupCoordinator, JoinRequest, JoinResult, SyncRequest, SyncResult
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.store import MessageStore, StoreConfig

T = TypeVar("T")
RANGE = (("range", b"range-subscription"),)


def open_store(root: Path, *, clock: Clock = REAL_CLOCK, **overrides: Any) -> MessageStore:
    """A small store in ``root``, its wall clock ``clock``'s."""
    settings: dict[str, Any] = {
        "commitlog_segment_bytes": 1 << 20,
        "consume_queue_units_per_file": 64,
        "index_slot_count": 16,
        "index_entry_count": 64,
        "preallocate": False,
        "flush_interval_ms": 50,
    }
    settings.update(overrides)
    return MessageStore.open(StoreConfig(root, **settings), clock=clock.now_ms)


def new_coordinator(store: MessageStore, *, timers: Clock = REAL_CLOCK, **overrides: int) -> GroupCoordinator:
    settings = {
        "min_session_timeout_ms": 10,
        "max_session_timeout_ms": 60_000,
        "initial_rebalance_delay_ms": 0,
        "max_group_size": 100,
    }
    settings.update(overrides)
    return GroupCoordinator(store, timers=timers, **settings)


def run(
    root: Path, scenario: Callable[[GroupCoordinator], Awaitable[T]], *, clock: ManualClock | None = None,
    **settings: int,
) -> T:  # fmt: skip
    """Run ``scenario`` against a started coordinator over a fresh store in ``root``; close everything after.
    With ``clock``, the coordinator's timers run on it (``elapse`` moves it on)."""

    async def main() -> T:
        store = open_store(root)
        coordinator = new_coordinator(store, timers=clock or REAL_CLOCK, **settings)
        coordinator.start()
        try:
            return await scenario(coordinator)
        finally:
            coordinator.shutdown()
            store.close()

    return asyncio.run(main())


def join_request(
    group: str = "g",
    member: str = "",
    *,
    instance: str | None = None,
    session_ms: int = 5_000,
    rebalance_ms: int = 2_000,
    protocols: tuple[tuple[str, bytes], ...] = RANGE,
    protocol_type: str = "consumer",
    known: bool = True,
    skip: bool = False,
    client: str = "client",
) -> JoinRequest:
    return JoinRequest(
        group_id=group,
        member_id=member,
        group_instance_id=instance,
        client_id=client,
        client_host="/127.0.0.1",
        session_timeout_ms=session_ms,
        rebalance_timeout_ms=rebalance_ms,
        protocol_type=protocol_type,
        protocols=protocols,
        require_known_member_id=known,
        supports_skip_assignment=skip,
    )


async def join(coordinator: GroupCoordinator, **kwargs: Any) -> JoinResult:
    """JoinGroup as v4+ clients do it: an empty id, MEMBER_ID_REQUIRED, then again with the given id."""
    first = await coordinator.join(join_request(**kwargs))
    if first.error is not ErrorCode.MEMBER_ID_REQUIRED:
        return first
    return await coordinator.join(join_request(**{**kwargs, "member": first.member_id}))


def sync_request(
    result: JoinResult, assignments: dict[str, bytes] | None = None, *, group: str = "g", instance: str | None = None
) -> SyncRequest:
    return SyncRequest(
        group_id=group,
        generation_id=result.generation_id,
        member_id=result.member_id,
        group_instance_id=instance,
        protocol_type=None,
        protocol_name=None,
        assignments=assignments or {},
    )


async def sync(coordinator: GroupCoordinator, result: JoinResult, **kwargs: Any) -> SyncResult:
    return await coordinator.sync(sync_request(result, **kwargs))


async def settle(seconds: float = 0.0) -> None:
    """Let timers and callbacks due within ``seconds`` run."""
    await asyncio.sleep(seconds)
    for _ in range(3):
        await asyncio.sleep(0)


async def elapse(clock: ManualClock, seconds: float) -> None:
    """Move the coordinator's clock ``seconds`` on (its due timers fire here), then let what they woke run."""
    await settle()
    clock.advance(seconds)
    await settle()
