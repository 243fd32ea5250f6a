"""Stopping a task that makes etcd calls: :func:`cancel_and_wait`.

A cancel can be swallowed: ``grpc.aio`` returns a call's answer when it is in as the cancel lands, so the
coroutine that awaited the call runs on as if it had never been cancelled, and a stop that cancelled it once and
awaits it then waits for as long as the task's loop runs (for ever, for a loop that only a cancel ends; 65 s once,
for a demoted leader's ``stop``). :func:`cancel_and_wait` cancels again while the task runs on.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Final

#: How long a cancelled task may run on before it is cancelled again (a task that honours a cancel ends at once).
RECANCEL_S: Final = 0.5


async def cancel_and_wait(task: asyncio.Task[Any]) -> None:
    """Cancel ``task`` and return once it has ended, cancelling it again every ``RECANCEL_S`` while it runs on;
    raises what the task raised, but not its ``CancelledError``."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=RECANCEL_S)
    with contextlib.suppress(asyncio.CancelledError):
        await task
