"""The picture workers run at a lower scheduling priority than the bot (``NICENESS``): on busy
cores the event loop's thread gets its core first."""

from __future__ import annotations

import functools
import os

import pytest

from bot.render.pipe_workers import NICENESS, PipeWorkers
from bot.workers import context as worker_context


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="POSIX only")
async def test_a_worker_runs_at_a_lower_priority_than_the_bot() -> None:
    workers = PipeWorkers(worker_context(), 1)
    try:
        theirs = await workers.run(functools.partial(os.getpriority, os.PRIO_PROCESS, 0))
    finally:
        workers.close()
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    assert theirs == min(ours + NICENESS, 19)
