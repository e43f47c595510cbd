"""The moves nobody types: what a table waits for next, and the AI that decides those moves.

A playing table has at most one play job in the service's ``Scheduler`` (key ``("play",
channel)``): the move of an AI seat or an away player (after the service's ``ai_delay``), the
move of a seat whose deadline passed (the AI moves for it; the event's source says
``timeout``), or the close of a timed window (``Game.timed_window``) when its time is up.
``next_move`` reads the table and says which, and when; the service arms it after every change
and fires it (``TableService.fire``).

A move the database refuses (a full disk, a locked or read-only file) is not lost and does not
stop the table: the service put the table back as it was, and the job is tried again after
``RETRY_FIRST`` seconds, doubling up to ``RETRY_MAX``. After ``STALL_AFTER`` failures in a row
one ``TableStalled`` event is sent (the players are told) and the retries go on at
``RETRY_MAX``; the first write that succeeds resumes the table. Any other error is the
service's to look at (``check_game``: a damaged game is set aside); it is not retried.

The slow AI levels (``TableService.ai_thread_levels``: the hard AI, 50-150 ms a decision) think
in a pool of ``AI_WORKERS`` processes: on a thread they held the GIL, so every other table
waited, and one worker capped the bot at a few dozen hard decisions a second. The pool starts on
the first such decision (its processes fork from a server that has the engine loaded) and stops
with the service. A decision gets ``AI_BUDGET`` seconds of wall-clock time from its submission;
past it, or if the pool broke (a worker killed), the normal AI decides in the event loop's
process instead (a few ms) and a broken pool is replaced by a fresh one: a table never stalls.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from bot import workers
from bot.service import timers
from bot.service.errors import IllegalMove
from bot.service.models import ActionSource, TableStatus
from bot.service.tables import LiveTable
from bot.storage.connection import DATABASE_ERRORS
from bot.storage.repository import StaleWrite

log = logging.getLogger(__name__)

#: Seconds before the first retry of a refused write; each next wait doubles, up to RETRY_MAX.
RETRY_FIRST = 0.5
RETRY_MAX = 30.0
#: Refused writes in a row after which the players are told (about 15 s of retrying).
STALL_AFTER = 5
#: Errors of a write that may succeed later: the driver retries them.
WRITE_ERRORS: tuple[type[BaseException], ...] = (*DATABASE_ERRORS, OSError, StaleWrite)


#: Processes the slow AI levels think in.
AI_WORKERS = 2
#: Wall-clock seconds a pooled decision may take from its submission (queueing included); past
#: it the normal AI decides instead.
AI_BUDGET = 0.8


def ai_pool() -> ProcessPoolExecutor:
    """A pool for AI decisions, its processes forked from the bot's fork server
    (``bot.workers``: the engine loaded in it)."""
    return ProcessPoolExecutor(max_workers=AI_WORKERS, mp_context=workers.context())


def retry_delay(failures: int) -> float:
    """The wait after ``failures`` refused writes in a row (1: the first)."""
    return min(RETRY_FIRST * 2 ** (failures - 1), RETRY_MAX)


@dataclass(frozen=True)
class PlayDue:
    """The scheduler's job of a playing table: its next move nobody types (``seat`` None and
    ``source`` TIMEOUT: the timed window's close). ``failures``: refused writes in a row;
    ``retry``: the wait after one is over (the table's next move is looked for afresh)."""

    channel_id: int
    table_id: int
    seat: int | None
    source: ActionSource
    failures: int = 0
    retry: bool = False


@dataclass(frozen=True)
class NextMove:
    """When a table's next driver move is due: ``after`` seconds (an AI's pause), or at the
    clock time ``at`` (a stored deadline)."""

    seat: int | None
    source: ActionSource
    at: float | None = None
    after: float = 0.0


def next_move(table: LiveTable, ai_delay: float) -> NextMove | None:
    """The table's next move nobody types, or None (it waits for a human, without a clock).
    An AI seat or an away player first; else the earliest deadline (a seat's, or the timed
    window's close)."""
    game = table.game
    if table.status is not TableStatus.PLAYING or game is None:
        return None
    seats = table.seats
    ai_seats = [s for s in game.to_act() if s in seats and seats[s].autoplay]
    if ai_seats:
        # One pause per window, not one per AI answering it (a window is short).
        same_window = table.answering_window and timers.window_open(game)
        pause = ai_delay if ai_delay > 0 and not same_window else 0.0
        return NextMove(ai_seats[0], ActionSource.AI, after=pause)
    table.answering_window = False
    due_times: list[tuple[float, int | None]] = [(at, s) for s, at in table.deadlines.items()]
    if table.window_deadline is not None:
        due_times.append((table.window_deadline, None))  # None: the window
    if not due_times:
        return None
    due, seat = min(due_times, key=lambda item: item[0])
    return NextMove(seat, ActionSource.TIMEOUT, at=due)


class Driver:
    """The AI's decisions for the moves nobody types (and ``/hint``), with its process pool."""

    def __init__(self, ai_thread_levels: frozenset[str]) -> None:
        self.ai_thread_levels = ai_thread_levels
        self._ai_pool: ProcessPoolExecutor | None = None
        #: See ``AI_BUDGET`` (tests shorten it).
        self.ai_budget = AI_BUDGET

    async def stop(self) -> None:
        """Stop the AI's processes."""
        pool, self._ai_pool = self._ai_pool, None
        if pool is not None:  # (joining the processes blocks: not on the event loop)
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    async def decide(
        self, name: str, level: str, seed: int, view: Mapping[str, Any], legal: list[str]
    ) -> str:
        """The AI's move for the seat whose ``view`` and ``legal`` moves these are (the
        table's snapshot: computed once per state). Slow levels think in the process pool so
        that the event loop (every other table) is not held up. An AI that raises is answered
        like one that chose an illegal move (``IllegalMove``)."""
        try:
            if level not in self.ai_thread_levels:
                return timers.decide(name, level, seed, dict(view), legal)
            return await self._decide_in_pool(name, level, seed, dict(view), legal)
        except (ValueError, LookupError, TypeError) as exc:
            raise IllegalMove(f"the AI failed: {exc}") from exc

    async def advise(self, name: str, seed: int, view: Mapping[str, Any], legal: list[str]) -> str:
        """The hard AI's move for a human's seat (``/hint``), thought out as the driver's own
        moves are: in the pool, within ``ai_budget`` (past it, the normal AI's choice)."""
        return await self.decide(name, "hard", seed, view, legal)

    async def _decide_in_pool(
        self, name: str, level: str, seed: int, view: dict[str, object], legal: list[str]
    ) -> str:
        """``timers.decide`` in the pool within ``ai_budget``; else the normal AI's choice."""
        if self._ai_pool is None:
            self._ai_pool = ai_pool()
        pool = self._ai_pool
        future: Future[str] | None = None
        try:
            future = pool.submit(timers.decide, name, level, seed, view, legal)
            return await asyncio.wait_for(asyncio.wrap_future(future), self.ai_budget)
        except BrokenProcessPool:
            log.warning("the AI's process pool broke: a fresh one takes over")
            if self._ai_pool is pool:
                self._ai_pool = None
                pool.shutdown(wait=False, cancel_futures=True)
        except TimeoutError:
            log.warning("the %s AI took over %.1f s: the normal AI moves", level, self.ai_budget)
            if future is not None:
                future.cancel()  # (if it still waits for a worker, no one computes it)
        return timers.decide(name, timers.timeout_level(), seed, view, legal)
