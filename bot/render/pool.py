"""Rendering off the event loop: pictures are drawn in a small worker pool.

    png = await render(images.table_png, names, trick, caption="last trick")

``render`` runs a picture function (any module-level function returning PNG bytes) in the
pool and answers from a cache when the same picture was asked for before, so that an unchanged
picture is neither drawn nor encoded again; two identical requests in flight share one drawing.

Threads, not processes, by default: ``bench/render.py --pool`` draws 60-80 new table pictures
with each while a 5 ms timer runs on the event loop. Over six runs on 2 cores shared with other
work (load average 7-12): 2 threads took 0.5-1.1 s, 2 processes 0.9-2.9 s (start-up, pickling
the PNG bytes back, a face cache per process); the timer's 99th-percentile lateness was alike
(threads 19-54 ms, processes 17-38 ms; on the loop itself 30-80 ms), mostly the machine's load.
Pillow releases the GIL while it scales, pastes and encodes. Its FreeType calls keep the GIL,
which is what makes sharing the cached fonts between the threads safe (a free-threaded Python
would need processes). ``RenderPool("process")`` is there to measure again.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Literal

from bot.render.cache import LruBytes, call_key

PoolKind = Literal["thread", "process"]


class RenderPool:
    """A worker pool for pictures, with a cache of the PNG bytes it made."""

    def __init__(self, kind: PoolKind = "thread", workers: int = 2, cache_size: int = 128) -> None:
        if kind not in ("thread", "process"):
            raise ValueError(f"kind must be 'thread' or 'process', not {kind!r}")
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self.kind = kind
        self.workers = workers
        self.cache = LruBytes(cache_size)
        self._executor: Executor | None = None
        self._inflight: dict[Hashable, asyncio.Future[bytes]] = {}

    def executor(self) -> Executor:
        if self._executor is None:
            if self.kind == "thread":
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="render")
            else:
                # spawn: a fork of a process running discord.py's threads and loop is unsafe.
                context = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._executor

    async def render(self, fn: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
        return await self.render_keyed(call_key(fn, args, kwargs), fn, *args, **kwargs)

    async def render_keyed(
        self, key: Hashable, fn: Callable[..., bytes], *args: Any, **kwargs: Any
    ) -> bytes:
        """``render`` with the cache key given: inputs that are already hashable data (a
        ``Picture``) need not be frozen again at every request."""
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        pending = self._inflight.get(key)
        if pending is not None and pending.get_loop() is asyncio.get_running_loop():
            return await asyncio.shield(pending)
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.executor(), functools.partial(fn, *args, **kwargs))
        self._inflight[key] = future
        try:
            value = await asyncio.shield(future)
        finally:
            if self._inflight.get(key) is future:
                del self._inflight[key]
        self.cache.put(key, value)
        return value

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


#: The default pool's cache: every live hand (``images.HAND_CACHE``, the same bytes objects)
#: and the tables' pictures, 8-14 KB each. A miss costs the loop a trip to a worker thread
#: even when the drawing function's own cache has the picture.
DEFAULT_CACHE = 4096


@functools.lru_cache(maxsize=1)
def default_pool() -> RenderPool:
    return RenderPool(cache_size=DEFAULT_CACHE)


async def render(fn: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
    """``fn(*args, **kwargs)`` drawn in the default pool (or taken from its cache)."""
    return await default_pool().render(fn, *args, **kwargs)
