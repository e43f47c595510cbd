"""bench/gc_census.py's counting: young objects claimed by their owner, on the bench's side or
the bot's (the figures themselves are the bench's business)."""

from __future__ import annotations

import asyncio

from bench import gc_census, load
from bot.service.scheduler import _Entry


async def test_owners_claim_their_containers_and_asyncio_parts_by_side() -> None:
    job = ["payload", {"nested": [1, 2]}]
    entry = _Entry(job, at=None, after=0.0, busy=False)
    stats = load.Stats()
    task = asyncio.get_running_loop().create_task(load.monitor_stalls(stats))
    await asyncio.sleep(0)  # it sleeps: a coroutine, a future, a timer handle, a context
    try:
        objects = [entry, job, job[1], job[1]["nested"], task, task.get_coro(), stats]
        owners, unclaimed = gc_census.census(objects)
    finally:
        task.cancel()
    # The bot's entry claims its job's containers (4 objects); the bench's task its coroutine.
    assert owners[("bot", "bot.service.scheduler._Entry")] == 4
    assert owners[("bench", "Task <- monitor_stalls")] == 2
    assert owners[("bench", "bench.load.Stats")] == 1
    assert unclaimed == 0
    assert gc_census.side_of_file(gc_census.__file__) == "bench"
    assert gc_census.side_of_file(asyncio.__file__) == "other"
