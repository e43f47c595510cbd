"""The one owner of the service's delayed work: AI turns, move deadlines, timed windows, idle
lobbies, rematch waits and turn digests.

Each piece of work is a ``Job`` under a key (one per table and kind: ``("play", channel)``,
``("idle", channel)``, ``("rematch", channel)``; one per player: ``("digest", user)``); arming a
key replaces what it held, and ``cancel`` drops it. When a job is due the scheduler calls
``fire(job)`` on its target, the one narrow interface back (``Fired``): the scheduler knows
nothing of tables, and the service knows nothing of tasks.

Two kinds of wait, on the service's ``clock`` (epoch seconds) and ``sleep`` (so tests and
SimCord move time by hand):

- ``at``: an absolute time, what is stored (a move's deadline, a window's close, a lobby's or a
  rematch's expiry). The wait re-reads the clock after each sleep and sleeps again while the
  time has not come, so a clock of hours or days fits, a clock set back or forward is obeyed,
  and a deadline stored before a restart is simply armed again at start (one already passed
  fires at once).
- ``after``: a short pause that is not stored (the AI's thinking pause, the back-off of a
  refused write), slept once.

A job waits as a timer handle of the event loop (``loop.call_later``), and becomes a task only
once it is due: at 1,000 tables some 2,000 jobs wait at any time, and a task per waiting job
(its coroutine, its sleep's future and timer, its context) kept ~20,000 young objects alive for
each generation-1 collection to scan (``bench/gc_census.py``). That needs the loop's own clock
to sleep on: with another ``sleep`` (the tests' clock, SimCord's declared waits) a job waits in
its own task, sleeping with it, as before; the waits are the same either way.

``settle`` (tests, the terminal) waits until no job fires nor waits with ``busy`` (an AI about
to move): every table waits for a human or a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Protocol

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class Fired(Protocol):
    """The scheduler's one way back: a due job is handed to ``fire``."""

    async def fire(self, job: object) -> None: ...


@dataclass(eq=False, slots=True)
class _Entry:
    job: object
    at: float | None
    after: float
    busy: bool
    #: The loop's timer while it waits (``sleep`` is the loop's own), else None.
    handle: asyncio.Handle | None = field(default=None, repr=False)
    #: Its task: from its arming (another ``sleep``) or from when it is due, until it has fired.
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Scheduler:
    """Keyed delayed jobs: each waits as a timer of the loop, and fires in a task of its own."""

    def __init__(self, clock: Clock, sleep: Sleep) -> None:
        self.clock = clock
        self.sleep = sleep
        #: The loop's own sleep: a job waits as a timer handle (see the module's docstring).
        self._timers = sleep is asyncio.sleep
        #: One bound method for every timer (not one made per arming).
        self._wake_cb = self._wake
        self.target: Fired | None = None
        self.running = False
        #: The loop it was started on: handed to asyncio rather than looked up per call (on
        #: CPython 3.11 each ``get_running_loop``, ``current_task()`` included, is a ``getpid``
        #: system call; a move arms and drops its table's job several times).
        self._loop: asyncio.AbstractEventLoop | None = None
        #: The jobs waiting, and those firing (a key may have one of each: a firing job that
        #: armed its successor).
        self._waiting: dict[Hashable, _Entry] = {}
        self._firing: dict[Hashable, _Entry] = {}
        self._idle = asyncio.Event()

    # -- life cycle ---------------------------------------------------------------------------
    def start(self, target: Fired) -> None:
        """Fire due jobs at ``target``; called on the loop the jobs wait in."""
        self.target = target
        self.running = True
        self._loop = asyncio.get_running_loop()

    async def stop(self) -> None:
        """Cancel every job and wait for their tasks."""
        self.running = False
        entries = [*self._waiting.values(), *self._firing.values()]
        self._waiting, self._firing = {}, {}
        for entry in entries:
            if entry.handle is not None:
                entry.handle.cancel()
                entry.handle = None
        tasks = [e.task for e in entries if e.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):  # stopping: moot
                await task
        self._idle.set()

    # -- arming -------------------------------------------------------------------------------
    def arm(
        self,
        key: Hashable,
        job: object,
        *,
        at: float | None = None,
        after: float = 0.0,
        busy: bool = False,
    ) -> None:
        """Fire ``job`` at the clock time ``at`` (stored deadlines), or ``after`` seconds (a
        pause not stored; 0: at the loop's next turn), replacing what ``key`` held.

        The caller holds what keeps the job's subject still (its channel's lock): a replaced
        job is then sleeping or waiting for that lock, and is cancelled safely; a job the
        calling task is firing itself finishes, and the new one waits for its own time."""
        if not self.running:
            return
        self._drop(key)
        entry = _Entry(job, at, after, busy)
        self._waiting[key] = entry
        loop = self._loop
        assert loop is not None  # (running: started)
        if not self._timers:
            entry.task = loop.create_task(self._run(key, entry, True), name=f"job-{key}")
        elif at is not None:
            entry.handle = loop.call_later(max(at - self.clock(), 0.0), self._wake_cb, key, entry)
        elif after > 0:
            entry.handle = loop.call_later(after, self._wake_cb, key, entry)
        else:  # the loop's next turn: let the caller's change finish first
            entry.handle = loop.call_soon(self._wake_cb, key, entry)

    def cancel(self, key: Hashable) -> None:
        """Forget ``key``'s job (one the calling task is firing finishes)."""
        self._drop(key)
        self._idle.set()

    def armed(self, key: Hashable) -> bool:
        """``key`` has a job waiting (tests, the idle lobbies)."""
        return key in self._waiting

    def _drop(self, key: Hashable) -> None:
        current = asyncio.current_task(self._loop)
        for entries in (self._waiting, self._firing):
            old = entries.get(key)
            if old is None or old.task is current:
                continue
            del entries[key]
            if old.handle is not None:
                old.handle.cancel()
                old.handle = None
            if old.task is not None and not old.task.done():
                old.task.cancel()
            # A task cancelled before its first step never runs ``_run``'s cleanup: its
            # coroutine holds the entry, the entry the task (a cycle), and ``settle`` must look
            # again.
            old.task = None
            self._idle.set()

    # -- waiting and firing -------------------------------------------------------------------
    def _wake(self, key: Hashable, entry: _Entry) -> None:
        """A job's timer: due, it starts the job's task; a stored time not yet come on the
        clock (re-read: a clock of days, a clock set back) sets the timer again."""
        if self._waiting.get(key) is not entry:
            return
        loop = self._loop
        assert loop is not None  # (its timer ran on it)
        if entry.at is not None and (left := entry.at - self.clock()) > 0:
            entry.handle = loop.call_later(left, self._wake_cb, key, entry)
            return
        entry.handle = None
        entry.task = loop.create_task(self._run(key, entry, False), name=f"job-{key}")

    async def _sleep_until_due(self, entry: _Entry) -> None:
        if entry.at is not None:
            while (left := entry.at - self.clock()) > 0:
                await self.sleep(left)
        elif entry.after > 0:
            await self.sleep(entry.after)
        else:
            await asyncio.sleep(0)  # let the caller's change finish first

    async def _run(self, key: Hashable, entry: _Entry, wait: bool) -> None:
        """Fire the job (once ``wait``-ed with ``sleep``, when it is not the loop's own)."""
        try:
            if wait:
                await self._sleep_until_due(entry)
            if self._waiting.get(key) is not entry or self.target is None:
                return
            del self._waiting[key]
            self._firing[key] = entry
            await self.target.fire(entry.job)
        except asyncio.CancelledError:
            # A replaced or dropped job. Its task keeps the CancelledError, whose traceback
            # holds this frame, whose ``entry`` holds the task: a cycle that only the garbage
            # collector frees. Every move replaces its table's job, so at 1,000 tables these
            # made a good part of what each generation-1 collection scanned (~190 ms of the
            # loop's thread each; ``bench/load.py --parts``). Cut it here.
            entry.task = None
            raise
        except Exception:  # the target handles its own errors; this is a last resort
            log.exception("the scheduled job %r failed", entry.job)
        finally:
            if self._firing.get(key) is entry:
                del self._firing[key]
            self._idle.set()

    def busy(self) -> bool:
        """A job fires, or waits marked ``busy`` (an AI about to move). A deadline waiting is
        not busy, even once its time has come: it then wakes and fires (busy)."""
        return bool(self._firing) or any(e.busy for e in self._waiting.values())

    async def settle(self) -> None:
        """Wait until no job fires or is busy (see the module's docstring)."""
        while True:
            if not self.busy():
                await asyncio.sleep(0)  # let a job that was just armed look first
                if not self.busy():
                    return
            self._idle.clear()
            await self._idle.wait()
