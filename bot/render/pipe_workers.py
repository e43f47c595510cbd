"""Worker processes fed and read by the event loop itself, through two pipes: no helper thread.

``concurrent.futures.ProcessPoolExecutor`` hands each job to a manager thread, which hands it to
a queue's feeder thread, which pickles it for a worker; the answer comes back through the
manager thread, which wakes the loop through its self-pipe. Three threads and four or five
passes of the GIL per picture: each time the loop's thread lets go of the GIL (the very write
that wakes the manager) a helper may take it and keep it up to the switch interval. Under load
(``bench/load.py`` at 1,000 tables) that wait was the event loop's most frequent stall, and the
helpers' wake-ups cost CPU of their own.

Here the loop pickles each job straight into the pipe every worker reads its next job from (a
few hundred bytes: the write does not wait), and reads the answers, tagged with their job's
number, from the pipe they all write to, when it is readable (``loop.add_reader``): the loop's
thread is the only one. Whichever worker is free takes the next job, so a long one (a replay's
animation) holds up no picture behind it. Up to ``IN_PIPE`` jobs wait in the pipe, so that the
workers go on drawing while the loop is busy elsewhere (with a few, they idled at a loaded
1,000-table bench while the pictures queued up); more wait in a line here.

With two workers or more, the first reads a pipe of its own, and is given the next picture (a
quick job) while it has fewer than ``FIRST_DEPTH``: the others take, from the shared pipe, what
comes while it is busy, and the long jobs (a replay's animation: never the first's, so that no
picture waits behind one there). A worker keeps what it drew before (a layouts picture's bands,
a card's pastes), and one that draws most pictures finds more of it: replaying a 1,000-table
minute's 21,871 pictures in one process, a layouts picture's bands were found kept 81% of the
time, against 74% by either of two processes sharing them at random; CPU per picture 0.51 ms
against 0.62 ms.

A worker that dies (killed, out of memory) may have died holding the pipe's lock: every worker
is replaced, and the jobs not answered are sent again once; a job whose workers died twice
fails with ``BrokenProcessPool``, as an executor's would.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import itertools
import logging
import os
import select
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from multiprocessing.synchronize import Lock
from typing import Any

from bot.render.cache import keep_nothing

try:
    import fcntl
except ImportError:  # not on Windows
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

Job = Callable[[], Any]

#: Jobs sent to the pipe and not yet taken by a worker, at most: one pickles to 150-400 bytes,
#: so they fit in a pipe's buffer (64 KB) and the loop's write never waits.
IN_PIPE = 64
#: Quick jobs sent to the first worker's own pipe and not answered yet, at most (see the
#: module). The pictures of a move are asked for together (the table's, the players' panels):
#: replaying a 1,000-table minute's pictures at their pace, with one at a time the first
#: worker drew 40% of them, with 4 89%.
FIRST_DEPTH = 4
#: Answers read at most per turn of the event loop. Each wakes what waited for its picture (a
#: panel's payload built and sent: ~0.7 ms of the loop's thread at 1,000 tables), all in the
#: same later turn. The workers draw on while the loop is held up (a collection, a core taken
#: by another process), so after a 100 ms hold some 30 answers wait, and read at once they made
#: the next turns ~20 ms long for every click waiting behind them; a few per turn, the clicks
#: go in between. (At ~350 pictures a second, 8 a turn keep up with turns up to ~20 ms long;
#: an idle loop turns in well under a millisecond.)
ANSWERS_PER_TURN = 8
#: Seconds a worker is given to end when the pool closes, before it is killed.
STOP_WAIT = 2.0
#: How much lower than the bot's a worker's scheduling priority is (``os.nice``). When the
#: cores are all busy (1,000 tables on two cores: the pictures take most of one) the kernel
#: then gives the event loop's thread its core first, and a click waits less for the loop; a
#: picture, which the player gets after the click's acknowledgement anyway, waits a little
#: more. (Measured with ``bench/load.py --parts``: the loop's turns, not any one part, made
#: the slowest acknowledgements.)
NICENESS = 5


def serve(jobs: Connection, answers: Connection, taking: Lock | None, answering: Lock) -> None:
    """A worker: take the next ``(number, job)``, answer ``(number, True, value)`` or
    ``(number, False, exception)``, until the pipe is closed (or None is read). ``taking``:
    the lock of a pipe shared with other workers (None: the pipe is this worker's own)."""
    with contextlib.suppress(AttributeError, OSError):  # (not on Windows; a sandbox may refuse)
        os.nice(NICENESS)
    # What the worker starts with (the fork server's modules, the card faces drawn there)
    # lives as long as it does: out of the collector's way, a full collection walks only what
    # the worker made since (its caches), and does not write to every inherited object's
    # header (which copies each page it shares with the fork server).
    gc.freeze()
    keep_nothing()  # the pool's cache answers first: see ``keep_nothing``
    while True:
        with taking if taking is not None else contextlib.nullcontext():
            try:
                message = jobs.recv()
            except (EOFError, OSError):
                return
        if message is None:
            return
        number, job = message
        try:
            answer: tuple[int, bool, Any] = (number, True, job())
        except BaseException as error:  # the job's failure is the caller's to see
            answer = (number, False, error)
        # The pickler's own buffer, sent as it is: not copied into bytes first (a picture's
        # 10-16 KB).
        try:
            payload = ForkingPickler.dumps(answer)
        except Exception as error:  # a value or an exception that does not pickle
            failure = RuntimeError(f"{type(error).__name__}: {error}")
            payload = ForkingPickler.dumps((number, False, failure))
        with answering:
            answers.send_bytes(payload)


#: Bytes of answers the pipe holds before a worker's write waits for the loop to read: a
#: pipe's default 64 KB is 3-6 pictures, and under load the loop may read only every hundred
#: milliseconds or so while the workers go on drawing.
ANSWERS_BUFFER = 1 << 20


def _widen(conn: Connection) -> None:
    """Give the pipe under ``conn`` an ``ANSWERS_BUFFER`` (Linux; elsewhere, or past the
    system's limit, it keeps its size: only the workers' lead on the loop is shorter)."""
    setting = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if setting is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(conn.fileno(), setting, ANSWERS_BUFFER)


#: The job, its future, whether it was sent again already, whether it is quick (a picture: the
#: first worker's, see the module).
Pending = tuple[Job, "asyncio.Future[Any]", bool, bool]


class _Pipes:
    """One generation of workers and the pipes and locks they share; with two workers or more,
    the first reads a pipe of its own (``first_out``: see the module)."""

    def __init__(self, context: BaseContext, size: int) -> None:
        self.jobs_in, self.jobs_out = context.Pipe(duplex=False)  # workers read, loop writes
        self.answers_in, self.answers_out = context.Pipe(duplex=False)  # loop reads
        _widen(self.answers_in)
        #: Whether another answer waits (``answers_in.poll()`` makes, registers and closes a
        #: selector at every call: 2.6 us, against 0.3 for this one's ``poll(0)``).
        self.answers_ready = select.poll()
        self.answers_ready.register(self.answers_in.fileno(), select.POLLIN)
        # Kept: a lock the loop let go of could vanish before a worker has opened it.
        self.locks = (context.Lock(), context.Lock())  # taking a job, writing an answer
        first_in: Connection | None = None
        self.first_out: Connection | None = None
        if size > 1:
            first_in, self.first_out = context.Pipe(duplex=False)
        self.processes: list[BaseProcess] = []
        for n in range(size):
            own = n == 0 and first_in is not None
            jobs, taking = (first_in, None) if own else (self.jobs_in, self.locks[0])
            process = context.Process(  # type: ignore[attr-defined]
                target=serve,
                args=(jobs, self.answers_out, taking, self.locks[1]),
                daemon=True,
            )
            process.start()
            self.processes.append(process)
        # The workers hold their ends: the loop's copies would keep a dead pipe open.
        self.jobs_in.close()
        self.answers_out.close()
        if first_in is not None:
            first_in.close()

    def watch(self, loop: asyncio.AbstractEventLoop, owner: PipeWorkers) -> None:
        loop.add_reader(self.answers_in.fileno(), owner._readable)
        for process in self.processes:
            loop.add_reader(process.sentinel, owner._died)

    def unwatch(self, loop: asyncio.AbstractEventLoop | None) -> None:
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(Exception):
            loop.remove_reader(self.answers_in.fileno())
        for process in self.processes:
            with contextlib.suppress(Exception):
                loop.remove_reader(process.sentinel)

    def stop(self) -> None:
        # Ended, not asked to leave: a worker stuck behind a dead one's lock never reads, and
        # a word to it could wait forever on a full pipe. They hold nothing worth keeping.
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join(STOP_WAIT)
            if process.is_alive():
                process.kill()
                process.join(STOP_WAIT)
        for conn in (self.jobs_out, self.answers_in, self.first_out):
            with contextlib.suppress(Exception):
                if conn is not None:
                    conn.close()


class PipeWorkers:
    """``workers`` processes of ``context`` running jobs for one event loop (see the module)."""

    def __init__(self, context: BaseContext, workers: int) -> None:
        self.context = context
        self.size = workers
        self._pipes: _Pipes | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._numbers = itertools.count()
        #: Sent to the pipe, not answered yet, by number.
        self._sent: dict[int, Pending] = {}
        #: Not sent yet (``IN_PIPE`` are waiting in the pipe already).
        self._waiting: collections.deque[Pending] = collections.deque()
        #: The numbers of the jobs sent to the first worker's own pipe (see the module).
        self._at_first: set[int] = set()

    def pids(self) -> list[int]:
        """The workers' process ids (started ones)."""
        if self._pipes is None:
            return []
        return [p.pid for p in self._pipes.processes if p.pid is not None]

    def run(
        self, job: Job, quick: bool = False, into: asyncio.Future[Any] | None = None
    ) -> asyncio.Future[Any]:
        """``job()`` in a worker; its value (or its exception) in the future (``into``, made by
        the caller on the running loop, or a new one). Called from the loop's thread.
        ``quick``: a job of a few milliseconds at most (a picture), which the first worker may
        take (see the module); never a long one, which would hold up the quick ones queued
        behind it there."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._move_to(loop)
        if self._pipes is None:
            self._pipes = _Pipes(self.context, self.size)
            self._pipes.watch(loop, self)
        future = loop.create_future() if into is None else into
        self._waiting.append((job, future, False, quick))
        self._send()
        return future

    def _move_to(self, loop: asyncio.AbstractEventLoop) -> None:
        """Serve ``loop`` from now on (a bench or a test runs one loop after another): idle
        workers are kept, warm, and watched by the new loop; with answers still to come (for
        the old loop's futures) they are replaced."""
        old, self._loop = self._loop, loop
        pipes = self._pipes
        if pipes is not None:
            pipes.unwatch(old)
            if self._sent or not all(p.is_alive() for p in pipes.processes):
                pipes.stop()
                self._pipes = None
            else:
                pipes.watch(loop, self)
        self._sent.clear()
        self._waiting.clear()
        self._at_first.clear()

    def _send(self) -> None:
        pipes = self._pipes
        while self._waiting and pipes is not None:
            # A quick job to the first worker's own pipe while it has few, else to the pipe
            # the others share.
            job, future, _again, quick = self._waiting[0]
            first = pipes.first_out is not None and quick and self._first_takes()
            shared = len(self._sent) - len(self._at_first)
            if not first and shared >= IN_PIPE + self.size - (pipes.first_out is not None):
                return
            entry = self._waiting.popleft()
            if future.done():  # cancelled while it waited
                continue
            number = next(self._numbers)
            try:
                payload = bytes(ForkingPickler.dumps((number, job)))
            except Exception as error:  # the job does not pickle: its caller's error
                future.set_exception(error)
                continue
            self._sent[number] = entry
            try:
                if first:
                    assert pipes.first_out is not None
                    self._at_first.add(number)
                    pipes.first_out.send_bytes(payload)
                else:
                    pipes.jobs_out.send_bytes(payload)
            except OSError:  # every worker gone: ``_died`` sends it again
                return

    def _first_takes(self) -> bool:
        """Whether the first worker takes the next quick job: while it has fewer than
        ``FIRST_DEPTH``, or whenever the others may all be busy with long jobs (a quick one
        never waits behind a long one)."""
        if len(self._at_first) < FIRST_DEPTH:
            return True
        long_jobs = sum(not entry[3] for n, entry in self._sent.items() if n not in self._at_first)
        return long_jobs >= self.size - 1

    def _readable(self) -> None:
        """The answers the workers have written so far, ``ANSWERS_PER_TURN`` at most (the pipe
        stays readable: the loop calls again at its next turn for the rest)."""
        pipes = self._pipes
        if pipes is None:
            return
        try:
            for _ in range(ANSWERS_PER_TURN):
                number, ok, value = pipes.answers_in.recv()
                self._at_first.discard(number)
                entry = self._sent.pop(number, None)
                if entry is not None and not entry[1].done():
                    if ok:
                        entry[1].set_result(value)
                    else:
                        entry[1].set_exception(value)
                if not pipes.answers_ready.poll(0):
                    break
        except (EOFError, OSError):
            self._died()
            return
        self._send()

    def _died(self) -> None:
        """A worker died: every worker is replaced (the dead one may hold the pipe's lock) and
        the jobs not answered are sent again, once."""
        pipes, self._pipes = self._pipes, None
        if pipes is None:
            return
        pipes.unwatch(self._loop)
        with contextlib.suppress(EOFError, OSError):  # answers written before it died
            while pipes.answers_in.poll():
                number, ok, value = pipes.answers_in.recv()
                entry = self._sent.pop(number, None)
                if entry is not None and not entry[1].done():
                    (entry[1].set_result if ok else entry[1].set_exception)(value)
        pipes.stop()
        log.warning("a picture worker died: fresh ones take over")
        again: list[Pending] = []
        for job, future, sent_again, quick in self._sent.values():
            if future.done():
                continue
            if sent_again:
                future.set_exception(BrokenProcessPool("a worker died twice running this job"))
            else:
                again.append((job, future, True, quick))
        self._sent.clear()
        self._at_first.clear()
        self._waiting.extendleft(reversed(again))
        if self._loop is not None and not self._loop.is_closed():
            self._pipes = _Pipes(self.context, self.size)
            self._pipes.watch(self._loop, self)
            self._send()

    def close(self) -> None:
        """Stop the workers; jobs not answered yet fail."""
        pipes, self._pipes = self._pipes, None
        if pipes is not None:
            pipes.unwatch(self._loop)
            pipes.stop()
        for _job, future, *_ in [*self._sent.values(), *self._waiting]:
            if not future.done():
                with contextlib.suppress(RuntimeError):  # its loop is closed
                    future.set_exception(BrokenProcessPool("the pool closed"))
        self._sent.clear()
        self._waiting.clear()
        self._at_first.clear()
        self._loop = None
