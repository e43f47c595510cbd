"""The scheduler's jobs (a part of ``TableService``): arming them after a change, and
``fire``, the scheduler's one way back, making the moves nobody types (``driver.py``), closing
idle lobbies (``idle.py``), starting rematches without those who did not confirm
(``rematch_wait.py``) and sending turn digests (``digests.py``)."""

from __future__ import annotations

import logging
import random

from bot.service import timers
from bot.service.core import ServiceCore
from bot.service.digests import DigestDue
from bot.service.driver import STALL_AFTER, WRITE_ERRORS, PlayDue, next_move, retry_delay
from bot.service.errors import (
    IllegalMove,
)
from bot.service.idle import LobbyIdle, idle_key, idle_reason
from bot.service.listeners import (
    TableEvent,
    TableStalled,
)
from bot.service.models import (
    ActionSource,
    TableStatus,
)
from bot.service.rematch_wait import REMATCH_CONFIRM_SECONDS, RematchDue, rematch_key
from bot.service.tables import LiveTable

log = logging.getLogger(__name__)


class JobsMixin(ServiceCore):
    """The scheduler's jobs: see the module's docstring."""

    def wake(self, table: LiveTable, failures: int = 0) -> None:
        """Arm the table's next move nobody types (``driver.next_move``) after a change, or
        drop it (the table waits for a human without a clock). The caller holds the lock."""
        key = ("play", table.channel_id)
        plan = next_move(table, self.ai_delay)
        if plan is None:
            self.scheduler.cancel(key)
            return
        due = PlayDue(table.channel_id, table.id, plan.seat, plan.source, failures)
        ai = plan.source is ActionSource.AI
        self.scheduler.arm(key, due, at=plan.at, after=plan.after, busy=ai)

    def arm_idle(self, table: LiveTable) -> None:
        """Close the lobby ``table`` once nobody changed it for ``lobby_idle_seconds``."""
        idle = self.limits.lobby_idle_seconds
        if idle > 0 and table.status is TableStatus.LOBBY:
            job = LobbyIdle(table.channel_id, table.id)
            self.scheduler.arm(idle_key(table.channel_id), job, at=table.active_at + idle)

    def arm_rematch(self, table: LiveTable) -> None:
        """Start the rematch lobby ``table`` without those who did not confirm in time."""
        job = RematchDue(table.channel_id, table.id)
        due = table.created_at + REMATCH_CONFIRM_SECONDS
        self.scheduler.arm(rematch_key(table.channel_id), job, at=due)

    async def fire(self, job: object) -> None:
        """A job of the scheduler is due (its one way back to the service)."""
        if isinstance(job, PlayDue):
            await self._fire_play(job)
        elif isinstance(job, LobbyIdle):
            await self._fire_idle(job)
        elif isinstance(job, DigestDue):
            await self.fire_digest(job)
        elif isinstance(job, RematchDue):
            try:
                await self.expire_rematch(job.channel_id, job.table_id)
            except Exception:  # a refused write: the lobby stays as it is (the host may /start)
                log.exception(
                    "table %s: the rematch could not start without the others", job.table_id
                )

    async def _fire_play(self, due: PlayDue) -> None:
        table = self._tables.get(due.channel_id)
        if table is None or table.id != due.table_id:
            return
        try:
            await self._drive(table, due)
        except WRITE_ERRORS as exc:
            await self._refused(table, due.failures + 1, exc)
            return
        except Exception as exc:  # the game raised, or refused a move of ours
            await self.check_game(table, exc)
            return
        if due.failures:
            log.info("table %s: writes succeed again; the table goes on", table.id)

    async def _drive(self, table: LiveTable, due: PlayDue) -> None:
        """The due move (lock taken): an AI's, a timed-out seat's, or the window's close; if
        the table changed meanwhile, its next move is armed instead."""
        async with self.locked(table.channel_id):
            if not self.is_live(table) or table.game is None:
                return
            if due.retry:  # a refused write's wait is over: the table's next move, afresh
                self.wake(table, due.failures)
                return
            if due.source is ActionSource.AI:
                # One pause per window: the next AI answering this window moves at once.
                table.answering_window = timers.window_open(table.game)
            events = await self._move(table, due.seat, due.source)
            if events is None:  # someone moved meanwhile, or the time is not up: look again
                self.wake(table, due.failures)
                return
            await self._announce(table.channel_id, events)

    async def _move(
        self, table: LiveTable, seat: int | None, source: ActionSource
    ) -> list[TableEvent] | None:
        """The AI's move for ``seat``, or (``seat`` None) the close of the timed window; None
        if it is not due (any more). The lock is held."""
        game = table.game
        assert game is not None
        if seat is None:
            due = table.window_deadline
            if due is None or due > self.clock() or not game.to_act():
                return None
            window = game.timed_window()
            if window is None:
                return None
            return await self.apply(table, game.to_act()[0], window.action, source)
        if seat not in game.to_act():
            return None
        if source is ActionSource.TIMEOUT:
            due = table.deadlines.get(seat)
            if due is None or due > self.clock():
                return None
            level = timers.timeout_level()
        else:
            if not table.seats[seat].autoplay:
                return None  # the away player came back meanwhile
            level = table.seats[seat].ai_level or timers.timeout_level()
        seed = timers.move_seed(table.id, table.move_number + 1, seat)
        state = table.current_state()
        legal = list(state.legal(seat))
        try:
            # A timed-out player's view: his panel made it already. An AI's: read by it alone.
            view = state.view(seat) if source is ActionSource.TIMEOUT else state.own_view(seat)
            assert view is not None
            action = await self.driver.decide(game.name, level, seed, view, legal)
            return await self.apply(table, seat, action, source)
        except IllegalMove:
            # An AI that errs must not stall the table: play a legal move instead.
            log.exception("table %s: the %s AI failed at seat %s", table.id, level, seat)
            if not legal:
                raise
            action = random.Random(seed).choice(legal)
            return await self.apply(table, seat, action, source)

    async def _refused(self, table: LiveTable, failures: int, exc: BaseException) -> None:
        """A write was refused: try again later; tell the players once if it lasts."""
        delay = retry_delay(failures)
        log.warning(
            "table %s (channel %s): a move could not be stored (%s); try %d again in %.1f s",
            table.id,
            table.channel_id,
            exc,
            failures + 1,
            delay,
        )
        async with self.locked(table.channel_id):
            if not self.is_live(table):
                return
            if failures == STALL_AFTER:
                log.error("table %s: stalled after %d refused writes", table.id, failures)
                await self._announce(table.channel_id, [TableStalled(table.public(), str(exc))])
            # (waiting, like for a deadline: ``settle`` may return)
            retry = PlayDue(table.channel_id, table.id, None, ActionSource.AI, failures, True)
            self.scheduler.arm(("play", table.channel_id), retry, after=delay)

    async def _fire_idle(self, job: LobbyIdle) -> None:
        """Close the lobby if nobody changed it for ``lobby_idle_seconds``, else wait again."""
        idle = self.limits.lobby_idle_seconds
        async with self.locked(job.channel_id):
            table = self._tables.get(job.channel_id)
            if table is None or table.id != job.table_id or table.status is not TableStatus.LOBBY:
                return
            if self.clock() - table.active_at < idle:
                self.arm_idle(table)  # changed meanwhile
                return
            try:
                await self.close_table(table, idle_reason(idle))
            except Exception:  # a refused write: tried again after another period
                log.exception("table %s: the idle lobby could not be closed", table.id)
                if self.is_live(table):
                    table.active_at = self.clock()
                    self.arm_idle(table)
