"""Stopping a part of the broker within a bound, so that one part that does not stop cannot hold a shutdown (or an
in-process restart) for ever.

A part's ``stop()`` cancels its tasks and awaits them. A task inside a ``grpc.aio`` call (every etcd request) may
swallow its cancel: a call whose answer is in as the cancel lands returns that answer, and the task goes on. Such a
part's ``stop()`` then never returns, and neither did the broker's: a broker restarting in its process to cut its log
back never restarted, and ignored SIGTERM after (the fault suite, 27 November). :func:`stop_within` waits for a
part's ``stop()`` at most ``timeout_s``; past it, it says which tasks are still waiting where, in one ERROR, cancels
the stop and goes on, so the store is still closed cleanly and the broker starts again or exits.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, Final

log = logging.getLogger(__name__)

#: How long one part of the broker may take to stop.
STOP_STEP_TIMEOUT_S: Final = 15.0


async def stop_within(what: str, stopping: Coroutine[Any, Any, None], timeout_s: float = STOP_STEP_TIMEOUT_S) -> None:
    """Await ``stopping`` (``what``'s stop) for ``timeout_s`` at most; its exception, if it ends in time, is raised."""
    task = asyncio.ensure_future(stopping)
    done, _ = await asyncio.wait({task}, timeout=timeout_s)
    if task in done:
        task.result()
        return
    log.error("stopping: %s did not stop within %g s; going on without it. Tasks still waiting: %s", what,
              timeout_s, waiting_tasks())  # fmt: skip
    task.cancel()


def waiting_tasks() -> str:
    """Every other task of the running loop, by name, with the line each waits at (innermost frame)."""
    current = asyncio.current_task()
    described = []
    for task in sorted(asyncio.all_tasks(), key=lambda t: t.get_name()):
        if task is current:
            continue
        frames = task.get_stack(limit=None)
        where = f"{frames[-1].f_code.co_filename}:{frames[-1].f_lineno}" if frames else "not started"
        described.append(f"{task.get_name()} ({where})")
    return "; ".join(described) or "none"
