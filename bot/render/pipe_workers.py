"""Worker processes fed and read by the event loop itself, one pipe each: no helper thread.

``concurrent.futures.ProcessPoolExecutor`` hands each job to a manager thread, which hands it to
a queue's feeder thread, which pickles it for a worker; the answer comes back through the
manager thread, which wakes the loop through its self-pipe. Three threads and four or five
passes of the GIL per picture: each time the loop's thread lets go of the GIL (the very write
that wakes the manager) a helper may take it and keep it up to the switch interval. Under load
(``bench/load.py`` at 1,000 tables) that wait was the event loop's most frequent stall, and the
helpers' wake-ups cost CPU of their own.

Here the loop pickles a job straight into a worker's pipe (a few hundred bytes: the write does
not wait) and reads the answers when the pipe is readable (``loop.add_reader``): the loop's
thread is the only one. A worker holds up to ``DEPTH`` jobs, so that it goes on drawing while
the loop is busy elsewhere; more wait in a line. A worker that dies (killed, out of memory) is
replaced and its jobs given to the fresh one once; dying again, a job fails with
``BrokenProcessPool``, as an executor's would.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any

log = logging.getLogger(__name__)

Job = Callable[[], Any]

#: Seconds a worker is given to leave when the pool closes, before it is terminated.
STOP_WAIT = 2.0


def serve(conn: Connection) -> None:
    """A worker: run each job sent, answer ``(True, value)`` or ``(False, exception)``; None
    (or the pool's end of the pipe closed) stops it."""
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            answer: tuple[bool, Any] = (True, job())
        except BaseException as error:  # the job's failure is the caller's to see
            answer = (False, error)
        try:
            conn.send(answer)
        except Exception as error:  # an answer or exception that does not pickle
            conn.send((False, RuntimeError(f"{type(error).__name__}: {error}")))


#: Jobs a worker holds at once (one drawn, the others waiting in its pipe). The loop reads the
#: answers only when it turns, which under load may be hundreds of milliseconds after they are
#: written: the jobs waiting in the pipe keep the worker drawing meanwhile (with 3 or 8, the
#: workers idled at a loaded 1,000-table bench while pictures queued up). A job pickles to
#: 150-400 bytes, so 64 of them sit in the pipe's buffer (about 200 KB) without the loop's write
#: ever waiting for a worker that is itself waiting to write its answer.
DEPTH = 64

Pending = tuple[Job, "asyncio.Future[Any]", bool]  # the job, its future, retried once already


class _Worker:
    __slots__ = ("process", "conn", "pending")

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        #: The jobs sent, in order: the worker answers them in that order.
        self.pending: collections.deque[Pending] = collections.deque()


class PipeWorkers:
    """``workers`` processes of ``context`` running jobs for one event loop (see the module)."""

    def __init__(self, context: BaseContext, workers: int) -> None:
        self.context = context
        self.size = workers
        self._workers: list[_Worker] = []
        self._waiting: collections.deque[Pending] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None

    def pids(self) -> list[int]:
        """The workers' process ids (started ones)."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def run(self, job: Job) -> asyncio.Future[Any]:
        """``job()`` in a worker; its value (or its exception) in the future. Called from the
        loop's thread."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._move_to(loop)
        while len(self._workers) < self.size:
            self._workers.append(self._spawn())
        future: asyncio.Future[Any] = loop.create_future()
        self._waiting.append((job, future, False))
        self._dispatch()
        return future

    def _move_to(self, loop: asyncio.AbstractEventLoop) -> None:
        """Serve ``loop`` from now on (a bench or a test runs one loop after another): an idle
        worker is kept, warm, and read by the new loop; one with answers still to come is
        replaced (they were for the old loop's futures)."""
        old, self._loop = self._loop, loop
        for worker in list(self._workers):
            if old is not None and not old.is_closed():
                with contextlib.suppress(Exception):
                    old.remove_reader(worker.conn.fileno())
            if worker.pending or not worker.process.is_alive():
                worker.pending.clear()
                self._drop(worker)
            else:
                loop.add_reader(worker.conn.fileno(), self._readable, worker)
        self._waiting.clear()

    def _spawn(self) -> _Worker:
        ours, theirs = self.context.Pipe(duplex=True)
        process = self.context.Process(target=serve, args=(theirs,), daemon=True)  # type: ignore[attr-defined]
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        assert self._loop is not None
        self._loop.add_reader(ours.fileno(), self._readable, worker)
        return worker

    def _dispatch(self) -> None:
        """Send waiting jobs to the least busy workers, up to ``DEPTH`` each."""
        while self._waiting and self._workers:
            worker = min(self._workers, key=lambda w: len(w.pending))
            if len(worker.pending) >= DEPTH:
                return
            job, future, retried = entry = self._waiting.popleft()
            if future.done():  # cancelled while it waited
                continue
            try:
                worker.conn.send(job)
            except (OSError, EOFError):
                self._waiting.appendleft(entry)
                self._lost(worker)
                return
            except Exception as error:  # the job does not pickle: its caller's error
                future.set_exception(error)
                continue
            worker.pending.append(entry)

    def _readable(self, worker: _Worker) -> None:
        """Every answer the worker has written so far."""
        try:
            while True:
                ok, value = worker.conn.recv()
                _job, future, _retried = worker.pending.popleft()
                if not future.done():
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
                if not worker.pending or not worker.conn.poll():
                    break
        except (EOFError, OSError):
            self._lost(worker)
            return
        self._dispatch()

    def _lost(self, worker: _Worker) -> None:
        """The worker died: a fresh one takes its place, and its jobs once more."""
        self._drop(worker)
        for job, future, retried in reversed(worker.pending):
            if future.done():
                continue
            if retried:
                future.set_exception(BrokenProcessPool("a worker died twice running this job"))
            else:
                self._waiting.appendleft((job, future, True))
        worker.pending.clear()
        log.warning("a picture worker died: a fresh one takes over")
        if self._loop is not None and not self._loop.is_closed():
            self._workers.append(self._spawn())
        self._dispatch()

    def _drop(self, worker: _Worker) -> None:
        if worker in self._workers:
            self._workers.remove(worker)
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(Exception):
                self._loop.remove_reader(worker.conn.fileno())
        with contextlib.suppress(Exception):
            worker.conn.close()
        worker.process.join(0.1)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(STOP_WAIT)

    def close(self) -> None:
        """Stop the workers; jobs not answered yet fail."""
        workers, self._workers = self._workers, []
        for worker in workers:
            with contextlib.suppress(Exception):
                worker.conn.send(None)
        for worker in workers:
            if self._loop is not None and not self._loop.is_closed():
                with contextlib.suppress(Exception):
                    self._loop.remove_reader(worker.conn.fileno())
            worker.process.join(STOP_WAIT)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(STOP_WAIT)
            with contextlib.suppress(Exception):
                worker.conn.close()
            self._waiting.extendleft(reversed(worker.pending))
            worker.pending.clear()
        while self._waiting:
            _job, future, _retried = self._waiting.popleft()
            if not future.done():
                with contextlib.suppress(RuntimeError):
                    future.set_exception(BrokenProcessPool("the pool closed"))
        self._loop = None
