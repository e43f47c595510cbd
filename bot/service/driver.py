"""The driver: the moves nobody types. AI seats, away players, timed-out seats, timed windows.

Each playing table has at most one driver task. It makes the moves of AI seats (after the
service's ``ai_delay``) and of seats whose deadline passed (the AI moves for them; the event's
source says ``timeout``), and closes a timed window (``Game.timed_window``) when its time is up. A
change to the table replaces a sleeping driver (``wake``).

A move the database refuses (a full disk, a locked or read-only file) is not lost and does not
stop the table: the service put the table back as it was, and the driver tries again after
``RETRY_FIRST`` seconds, doubling up to ``RETRY_MAX``. After ``STALL_AFTER`` failures in a row it
sends one ``TableStalled`` event (the players are told) and goes on retrying at ``RETRY_MAX``;
the first write that succeeds resumes the table. Every wait uses the service's ``sleep``, so tests
and SimCord move time by hand. Any other error is the service's to look at
(``TableService.check_game``: a damaged game is set aside); it is not retried.

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
import contextlib
import logging
import random
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

import engine
from bot import workers
from bot.service import timers
from bot.service.errors import IllegalMove
from bot.service.listeners import TableStalled
from bot.service.models import ActionSource, TableStatus
from bot.service.tables import LiveTable
from bot.storage.connection import DATABASE_ERRORS
from bot.storage.repository import StaleWrite

if TYPE_CHECKING:
    from bot.service.service import TableService

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


class Driver:
    """The driver tasks of one service's tables."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.running = False
        self._idle = asyncio.Event()
        self._ai_pool: ProcessPoolExecutor | None = None
        #: See ``AI_BUDGET`` (tests shorten it).
        self.ai_budget = AI_BUDGET

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> None:
        self.running = True

    async def stop(self, tables: list[LiveTable]) -> None:
        """Cancel every driver and wait for them; stop the AI's processes."""
        self.running = False
        tasks = [t.driver for t in tables if t.driver is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):  # stopping: moot
                await task
        pool, self._ai_pool = self._ai_pool, None
        if pool is not None:  # (joining the processes blocks: not on the event loop)
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    async def settle(self, tables: dict[int, LiveTable]) -> None:
        """Wait until no table has a move to make now (see ``TableService.settle``)."""
        while True:
            if not any(t.driver_busy for t in tables.values()):
                await asyncio.sleep(0)  # let a driver that was just woken look first
                if not any(t.driver_busy for t in tables.values()):
                    return
            self._idle.clear()
            await self._idle.wait()

    # -- waking -------------------------------------------------------------------------------
    def wake(self, table: LiveTable) -> None:
        """(Re)start the table's driver after a change; the caller holds the channel lock, so a
        running driver is sleeping or waiting for the lock and may be cancelled safely."""
        if not self.running:
            return
        old = table.driver
        running = old is not None and not old.done()
        if running and old is asyncio.current_task():
            return  # the driver itself made the move: its loop looks again
        if running:
            assert old is not None
            old.cancel()
        if not has_work(table):
            table.driver = None
            # The cancelled driver clears its mark only while it is still the table's driver:
            # cleared here, or ``settle`` would wait for this table forever.
            self._set_busy(table, False)
            return
        table.driver_busy = True  # until it has looked at the table
        table.driver = asyncio.create_task(self._drive(table), name=f"table-{table.id}-driver")

    def cancel(self, table: LiveTable) -> None:
        """The table is over: its driver stops (unless it is the caller)."""
        driver = table.driver
        if driver is not None and driver is not asyncio.current_task() and not driver.done():
            driver.cancel()

    # -- the loop -----------------------------------------------------------------------------
    async def _drive(self, table: LiveTable) -> None:
        failures = 0
        try:
            while table.status is TableStatus.PLAYING and table.game is not None:
                try:
                    if not await self._step(table):
                        return
                except WRITE_ERRORS as exc:
                    failures += 1
                    await self._refused(table, failures, exc)
                    continue
                if failures:
                    log.info("table %s: writes succeed again; the table goes on", table.id)
                failures = 0
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the game raised, or refused a move of ours
            await self.service.check_game(table, exc)
        finally:
            if table.driver is asyncio.current_task():
                self._set_busy(table, False)

    async def _step(self, table: LiveTable) -> bool:
        """Make the next driver move or wait for the next deadline; False: nothing to do."""
        game = table.game
        assert game is not None
        awaited = game.to_act()
        ai_seats = [s for s in awaited if s in table.seats and table.seats[s].autoplay]
        if ai_seats:
            self._set_busy(table, True)
            service = self.service
            same_window = table.answering_window and timers.window_open(game)
            if service.ai_delay > 0 and not same_window:
                await service.sleep(service.ai_delay)
            else:
                await asyncio.sleep(0)  # let the caller's turn finish first
            # One pause per window, not one per AI answering it (a window is short).
            table.answering_window = table.game is not None and timers.window_open(table.game)
            await self._move(table, ai_seats[0], ActionSource.AI)
            return True
        table.answering_window = False
        due_times: list[tuple[float, int | None]] = [(at, s) for s, at in table.deadlines.items()]
        if table.window_deadline is not None:
            due_times.append((table.window_deadline, None))  # None: the window
        if not due_times:
            return False
        due, seat = min(due_times, key=lambda item: item[0])
        wait = due - self.service.clock()
        if wait > 0:
            self._set_busy(table, False)
            await self.service.sleep(wait)
            return True
        self._set_busy(table, True)
        await self._move(table, seat, ActionSource.TIMEOUT)
        return True

    async def _refused(self, table: LiveTable, failures: int, exc: BaseException) -> None:
        """A write was refused: wait before the next try; tell the players once if it lasts."""
        delay = retry_delay(failures)
        log.warning(
            "table %s (channel %s): a move could not be stored (%s); try %d again in %.1f s",
            table.id,
            table.channel_id,
            exc,
            failures + 1,
            delay,
        )
        if failures == STALL_AFTER:
            log.error("table %s: stalled after %d refused writes", table.id, failures)
            service = self.service
            async with service.locked(table.channel_id):
                if service.is_live(table):
                    await service.announce(
                        table.channel_id, [TableStalled(table.public(), str(exc))]
                    )
        self._set_busy(table, False)  # waiting, like for a deadline: ``settle`` may return
        await self.service.sleep(delay)

    def _set_busy(self, table: LiveTable, busy: bool) -> None:
        table.driver_busy = busy
        if not busy:
            self._idle.set()

    # -- one move -----------------------------------------------------------------------------
    async def _move(self, table: LiveTable, seat: int | None, source: ActionSource) -> None:
        """The AI's move for ``seat``, or (``seat`` None) the close of the timed window."""
        service = self.service
        async with service.locked(table.channel_id):
            if not service.is_live(table) or table.game is None:
                return
            game = table.game
            if seat is None:
                due = table.window_deadline
                if due is None or due > service.clock() or not game.to_act():
                    return
                window = game.timed_window()
                if window is None:
                    return
                events = await service.apply(table, game.to_act()[0], window.action, source)
                await service.announce(table.channel_id, events)
                return
            if seat not in game.to_act():
                return  # someone moved meanwhile; the loop looks again
            if source is ActionSource.TIMEOUT:
                due = table.deadlines.get(seat)
                if due is None or due > service.clock():
                    return
                level = timers.timeout_level()
            else:
                if not table.seats[seat].autoplay:
                    return  # the away player came back meanwhile
                level = table.seats[seat].ai_level or timers.timeout_level()
            seed = timers.move_seed(table.id, table.move_number + 1, seat)
            legal = game.legal_actions(seat)
            try:
                action = await self._decide(game, seat, level, seed)
                events = await service.apply(table, seat, action, source)
            except IllegalMove:
                # An AI that errs must not stall the table: play a legal move instead.
                log.exception("table %s: the %s AI failed at seat %s", table.id, level, seat)
                if not legal:
                    raise
                action = random.Random(seed).choice(legal)
                events = await service.apply(table, seat, action, source)
            await service.announce(table.channel_id, events)

    async def _decide(self, game: engine.Game, seat: int, level: str, seed: int) -> str:
        """The AI's move. Slow levels think in the process pool so that the event loop (every
        other table) is not held up; the table's lock is held, so the game cannot change
        meanwhile, and the AI only reads the view and the legal list. An AI that raises is
        answered like one that chose an illegal move."""
        view, legal = game.view(seat), game.legal_actions(seat)
        try:
            if level not in self.service.ai_thread_levels:
                return timers.decide(game.name, level, seed, view, legal)
            return await self._decide_in_pool(game.name, level, seed, view, legal)
        except (ValueError, LookupError, TypeError) as exc:
            raise IllegalMove(f"the AI failed: {exc}") from exc

    async def advise(self, game: engine.Game, seat: int, seed: int) -> str:
        """The hard AI's move for a human's seat (``/hint``), thought out as the driver's own
        moves are: in the pool, within ``ai_budget`` (past it, the normal AI's choice). The
        view and the legal list are read before the first await, so the caller needs no lock."""
        return await self._decide(game, seat, "hard", seed)

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


def has_work(table: LiveTable) -> bool:
    """An AI seat or an away player is awaited, or a deadline is armed (most human moves need
    no driver)."""
    if table.deadlines or table.window_deadline is not None:
        return True
    if table.game is None:
        return False
    seats = table.seats
    return any(s in seats and seats[s].autoplay for s in table.game.to_act())
