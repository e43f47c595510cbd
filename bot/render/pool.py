"""Rendering off the event loop: pictures are drawn in a small pool of worker processes.

    png = await render(images.table_png, names, trick, caption="last trick")

``render`` runs a picture function (any module-level function returning PNG bytes) in the
pool and answers from a cache when the same picture was asked for before, so that an unchanged
picture is neither drawn nor encoded again; two identical requests in flight share one drawing.

Processes by default, forked from the bot's fork server (``bot.workers``, the drawing module
loaded there and the usual card faces drawn: ``bot.render.ready_faces``). Drawing a hand is
mostly Python code under the GIL (Pillow releases it only while it scales, pastes and encodes):
in threads it competed with the event loop for the GIL.
Measured with ``bench/load.py`` at 1,000 tables (40 s, the same machine and minute, load
2.2-2.5): threads, click-to-acknowledgement p50 10.4 ms, p99 40.3 ms, loop stall p99 10.0 ms;
processes 3.7 ms, 36.3 ms, 6.8 ms. The price: the PNG bytes pickled back (8-14 KB a picture)
and a face cache per worker. ``RenderPool("thread")`` is kept to measure again (and for a
free-threaded Python). The processes are fed by the event loop itself, one pipe each, with no
helper thread (``bot.render.pipe_workers``, which says why); a worker killed is replaced and its
picture drawn by the fresh one (a table never loses its pictures to one dead worker).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import os
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, Literal

from bot.render.cache import LruBytes, call_key
from bot.render.pipe_workers import PipeWorkers
from bot.workers import context as worker_context

log = logging.getLogger(__name__)

PoolKind = Literal["thread", "process"]


class RenderPool:
    """A worker pool for pictures, with a cache of the PNG bytes it made."""

    def __init__(self, kind: PoolKind = "process", workers: int = 2, cache_size: int = 128) -> None:
        if kind not in ("thread", "process"):
            raise ValueError(f"kind must be 'thread' or 'process', not {kind!r}")
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self.kind = kind
        self.workers = workers
        self.cache = LruBytes(cache_size)
        self._executor: Executor | None = None
        self._processes: PipeWorkers | None = None
        self._inflight: dict[Hashable, _Drawing] = {}

    def executor(self) -> Executor:
        """The thread pool of a ``"thread"`` pool."""
        if self.kind != "thread":
            raise TypeError("a process pool runs its workers itself (``processes``)")
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="render")
        return self._executor

    def processes(self) -> PipeWorkers:
        """The workers of a ``"process"`` pool (fed by the event loop: ``PipeWorkers``)."""
        if self.kind != "process":
            raise TypeError("a thread pool has no processes")
        if self._processes is None:
            self._processes = PipeWorkers(worker_context(), self.workers)
        return self._processes

    async def start(self) -> None:
        """Start the workers now: a process pool's take a moment (forked, then importing what
        the fork server had not), which the first pictures need not wait for. One job each:
        the first a quick one (the first worker's own, ``PipeWorkers``), the others not."""
        await asyncio.gather(*(self._submit(os.getpid, n == 0) for n in range(self.workers)))

    async def render(self, fn: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
        """``fn(*args, **kwargs)`` drawn by a worker, however long it takes (a replay's
        animation), or taken from the cache."""
        return await self._render(call_key(fn, args, kwargs), False, fn, args, kwargs)

    async def render_keyed(
        self, key: Hashable, fn: Callable[..., bytes], *args: Any, **kwargs: Any
    ) -> bytes:
        """A picture (a few milliseconds of drawing at most), by the cache key given: inputs
        that are already hashable data (a ``Picture``) need not be frozen again at every
        request. Pictures go to the worker that drew the last ones when it is free
        (``PipeWorkers``: what it kept from them saves drawing)."""
        return await self._render(key, True, fn, args, kwargs)

    async def _render(
        self,
        key: Hashable,
        quick: bool,
        fn: Callable[..., bytes],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> bytes:
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        pending = self._inflight.get(key)
        if pending is not None and pending.get_loop() is asyncio.get_running_loop():
            return await pending.wait()
        drawing = self._submit(functools.partial(fn, *args, **kwargs), quick)
        self._inflight[key] = drawing
        try:
            value = await drawing.wait()
        finally:
            if self._inflight.get(key) is drawing:
                del self._inflight[key]
        self.cache.put(key, value)
        return value

    def _submit(self, job: Callable[[], Any], quick: bool = False) -> _Drawing:
        """``job()`` in a worker (a dead process worker is replaced: ``PipeWorkers``), its value
        in the future the worker's answer resolves. Not a
        task awaiting it: a task would wake one turn of the loop after the answer came, and only
        then wake the picture's waiters, another turn later (a turn is milliseconds long at
        1,000 busy tables; ~350 pictures a second are drawn there)."""
        loop = asyncio.get_running_loop()
        drawing = _Drawing(loop)
        if self.kind == "process":
            self.processes().run(job, quick, into=drawing)
        else:
            done = self.executor().submit(job)
            done.add_done_callback(functools.partial(_from_thread, loop, drawing))
        return drawing

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
        if self._processes is not None:
            self._processes.close()
            self._processes = None


class _Drawing(asyncio.Future[Any]):
    """A picture on its way, shared by all who ask for it meanwhile (``RenderPool._render``):
    each awaits a future of his own (``wait``), resolved at once when this one is, so that a
    waiter cancelled (a panel redrawn anew) leaves the drawing and the other waiters be.
    ``asyncio.shield`` did the same from a done-callback: a turn of the loop later (a turn is
    milliseconds long at 1,000 busy tables), and two callbacks and a future more per wait (0.73
    a move in ``bench/loop_counts.py``). Its resolvers call ``set_result`` or ``set_exception``
    from Python: the picture workers (``PipeWorkers``), a thread's answer (``_from_thread``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(loop=loop)
        self._waiters: list[asyncio.Future[Any]] = []

    def wait(self) -> asyncio.Future[Any]:
        """The caller's own future of the picture (itself once drawn: awaited at once)."""
        if self.done():
            return self
        waiter = self.get_loop().create_future()
        self._waiters.append(waiter)
        return waiter

    def set_result(self, result: Any) -> None:
        super().set_result(result)
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(result)

    def set_exception(self, exception: type | BaseException) -> None:
        super().set_exception(exception)
        error = self.exception()  # (retrieved here: each waiter's own future raises it)
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_exception(error)

    def cancel(self, msg: Any | None = None) -> bool:
        if not super().cancel(msg):
            return False
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            waiter.cancel(msg)
        return True


def _from_thread(
    loop: asyncio.AbstractEventLoop, drawing: _Drawing, done: concurrent.futures.Future[Any]
) -> None:
    """A thread pool's answer (on its thread): handed to the loop, as ``run_in_executor``'s."""
    with contextlib.suppress(RuntimeError):  # (its loop closed meanwhile: nobody waits)
        loop.call_soon_threadsafe(_answered, drawing, done)


def _answered(drawing: _Drawing, done: concurrent.futures.Future[Any]) -> None:
    if drawing.done():
        return
    if done.cancelled():  # (the pool closed before it ran)
        drawing.cancel()
        return
    error = done.exception()
    if error is not None:
        drawing.set_exception(error)
    else:
        drawing.set_result(done.result())


#: The default pool's cache: every live hand (``images.HAND_CACHE``, the same bytes objects)
#: and the tables' pictures, 8-14 KB each. A miss costs the loop a trip to a worker thread
#: even when the drawing function's own cache has the picture.
DEFAULT_CACHE = 4096


_default: list[RenderPool] = []


def default_pool() -> RenderPool:
    """The bot's pool (processes), made at first use."""
    if not _default:
        _default.append(RenderPool(cache_size=DEFAULT_CACHE))
    return _default[0]


def use_default_pool(pool: RenderPool) -> RenderPool | None:
    """Make ``pool`` the default; the one it replaces (if any) is returned, not closed. The
    tests' SimCord world needs threads: it freezes ``time.monotonic`` while the loop runs, and
    a process start polls its siblings with a zero timeout measured on that clock (forever)."""
    previous = _default.pop() if _default else None
    _default.append(pool)
    return previous


@contextlib.contextmanager
def drawing_in_threads(workers: int = 2) -> Iterator[RenderPool]:
    """The default pool is a thread pool inside the block (a SimCord world: see
    ``use_default_pool``), then closed and the one it replaced put back."""
    pool = RenderPool("thread", workers, cache_size=DEFAULT_CACHE)
    previous = use_default_pool(pool)
    try:
        yield pool
    finally:
        pool.close()
        if previous is not None:
            use_default_pool(previous)


async def render(fn: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
    """``fn(*args, **kwargs)`` drawn in the default pool (or taken from its cache)."""
    return await default_pool().render(fn, *args, **kwargs)
