"""The picture workers' answers are read a few per turn of the event loop (``ANSWERS_PER_TURN``):
a pile of answers (the loop held up while the workers drew on) wakes their waiters over several
turns, not all in one, and every answer still arrives."""

from __future__ import annotations

import asyncio
import functools
import operator
import time

from bot.render.pipe_workers import ANSWERS_PER_TURN, PipeWorkers
from bot.workers import context as worker_context


async def test_a_pile_of_answers_is_read_a_few_per_turn_and_all_arrive() -> None:
    workers = PipeWorkers(worker_context(), 1)
    try:
        await workers.run(functools.partial(operator.add, 0, 0))  # the worker started
        count = ANSWERS_PER_TURN * 3 + 1
        futures = [workers.run(functools.partial(operator.mul, n, 10)) for n in range(count)]
        # The loop held up (no turn: this coroutine does not yield) while the worker answers
        # every job (trivial ones: a second is ample even on a busy machine).
        assert workers._pipes is not None
        assert workers._pipes.answers_in.poll(30)
        time.sleep(1.0)
        workers._readable()  # one turn's read
        assert sum(f.done() for f in futures) == ANSWERS_PER_TURN
        assert await asyncio.wait_for(asyncio.gather(*futures), 30) == [
            n * 10 for n in range(count)
        ]
    finally:
        workers.close()
