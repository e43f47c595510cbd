"""A picture worker starts with what it inherited frozen out of the garbage collector's way,
and keeps no PNG bytes of its own (the render pool's cache answers first)."""

from __future__ import annotations

import gc

from bot.render.cache import keeps
from bot.render.pipe_workers import PipeWorkers
from bot.workers import context as worker_context


async def test_a_worker_freezes_what_it_inherited_and_keeps_no_pictures() -> None:
    workers = PipeWorkers(worker_context(), 1)
    try:
        frozen = await workers.run(gc.get_freeze_count)
        keeping = await workers.run(keeps)
    finally:
        workers.close()
    assert frozen > 10_000  # the fork server's modules and card faces
    assert keeping is False
    assert keeps()  # this process (the bot's) still keeps its own
