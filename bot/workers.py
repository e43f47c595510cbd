"""The one way the bot starts worker processes: forked from a server process.

The AI's pool (``bot.service.driver``) and the picture pool (``bot.render.pool``) both run in
processes so that their work does not hold the event loop's GIL. Their processes fork from
multiprocessing's fork server: not from the bot itself, whose threads (the database's) a fork
could catch holding a lock, and without a fresh interpreter's start-up per worker (``spawn``:
about a second each). There is one fork server per process, started by the first pool that
needs it with *every* module either pool's workers use already imported, so the preload list
lives here and nowhere else.
"""

from __future__ import annotations

import functools
import multiprocessing
from multiprocessing.context import ForkServerContext

#: Imported once in the fork server: every worker starts with them loaded.
#: ``bot.render.ready_faces`` draws every card face the pictures use most: the workers inherit
#: them rather than each drawing them again (a second of CPU each, in the bot's first minute).
PRELOAD = ["engine", "bot.service.timers", "bot.render.games.images", "bot.render.ready_faces"]


@functools.lru_cache(maxsize=1)
def context() -> ForkServerContext:
    """The fork-server context every worker pool of the bot uses."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)
    return ctx
