"""What becomes of a request whose client leaves while it is pending (the connection cancels its outcome).

Handlers registered ``parks=True`` (Fetch, JoinGroup, SyncGroup, ShareFetch) only wait, and are cancelled. Every other
awaitable runs to its end, its answer dropped: EndTxn saves PrepareCommit and then writes markers, and a
cancellation between the two left the transaction half ended until the coordinator's retry pass found it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from rockafka.facade.dispatch import RequestDispatcher
from rockafka.facade.handlers import HANDLERS, ApiHandler
from rockafka.facade.protocol.framing import encode_request
from rockafka.facade.protocol.messages.list_offsets import ListOffsetsRequest, ListOffsetsResponse
from rockafka.facade.server import ConnectionInfo

LIST_OFFSETS = 2


def test_the_parking_apis_are_the_fetches_and_the_group_joins() -> None:
    assert sorted(key for key, handler in HANDLERS.items() if handler.parks) == [1, 11, 14, 78]


@pytest.mark.parametrize("parks", [False, True])
def test_a_departed_clients_request_runs_to_its_end_unless_it_only_parks(
    monkeypatch: pytest.MonkeyPatch, parks: bool
) -> None:
    steps: list[str] = []

    async def handle(ctx: Any, request: Any) -> ListOffsetsResponse:
        steps.append("saved")
        await asyncio.sleep(0.05)
        steps.append("completed")
        return ListOffsetsResponse()

    monkeypatch.setitem(HANDLERS, LIST_OFFSETS, ApiHandler(LIST_OFFSETS, 0, 9, handle, None, parks=parks))
    frame = encode_request(ListOffsetsRequest(), 2, 7)[4:]

    async def client_leaves() -> None:
        dispatcher = RequestDispatcher(broker=None)  # type: ignore[arg-type]  # the fake handler ignores it
        outcome = dispatcher.dispatch(frame, ConnectionInfo("127.0.0.1:1", "PLAINTEXT"))
        pending = asyncio.ensure_future(outcome)  # as the connection holds it
        await asyncio.sleep(0.01)
        pending.cancel()  # the connection's end of input
        await asyncio.sleep(0.2)

    asyncio.run(client_leaves())
    assert steps == (["saved"] if parks else ["saved", "completed"])
