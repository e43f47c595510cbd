"""Play (a part of ``TableService``): one move pipeline for every move, typed or not.

A move is normalised once; the engine's refusal is the only rules check (whose turn, what is
legal: ``Game.apply`` validates completely before it changes anything); the service adds only
its own policy (the seat, the phase, an AI's seat, a move that happens by itself). The move is
committed (one action-log row; the game's snapshot every ``SNAPSHOT_EVERY`` moves, at a hand's
end and at the game's end), and yields the table's new ``TableSnapshot`` that its events, the
``ActResult`` and the next AI read."""

from __future__ import annotations

import dataclasses
import logging
import time
from typing import Any

import engine
from bot import metrics
from bot.i18n import _
from bot.i18n.refusals import refusal_text
from bot.service import table_settings, timers
from bot.service.core import ServiceCore
from bot.service.errors import (
    GAME_FAULTS,
    AiSeat,
    IllegalMove,
    NotAtTable,
    NotYourTurn,
    WrongPhase,
)
from bot.service.finished import FinishedGame
from bot.service.listeners import (
    ActionApplied,
    GameOver,
    HandEnded,
    PlayerAway,
    PlayerBack,
    TableEvent,
    TurnChanged,
)
from bot.service.models import (
    ActionSource,
    ActResult,
    EngineEvent,
    Seat,
    TableStatus,
)
from bot.service.tables import LiveTable, probe, seat_rows
from bot.storage import repository as repo
from engine import IllegalAction, normalize_action

log = logging.getLogger(__name__)

#: The engine's refusals of a seat that is not awaited: said with the awaited players' names.
NOT_YOUR_TURN = frozenset({"turn.not_yours", "turn.nobody"})

#: Moves between two stored snapshots of a game (a hand's end and the game's end store one too):
#: recovery replays at most this many moves per table; the moves between write no snapshot.
SNAPSHOT_EVERY = 32


class PlayMixin(ServiceCore):
    """Play: see the module's docstring."""

    async def act(self, channel_id: int, user_id: int, action: str) -> ActResult:
        """Apply the user's action for his seat; returns once committed and announced.
        Raises NoTable, WrongPhase, NotAtTable, AiSeat, NotYourTurn, IllegalMove."""
        received = time.perf_counter()
        async with self._table_op(channel_id) as table:
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotAtTable(_("You have no seat at this table."))
            if table.status is not TableStatus.PLAYING:
                raise WrongPhase(_("The game has not started yet."))
            if seat.is_ai:
                raise AiSeat(
                    _("You left this game: the AI plays your seat now (/join takes it back).")
                )
            if seat.away:
                await self._announce(channel_id, await self._back(table, seat))
            events = await self._apply(table, seat.index, action, ActionSource.PLAYER, user_id)
            metrics.ACTION_LATENCY.observe(time.perf_counter() - received)
            await self._announce(channel_id, events)
            applied = events[0]
            assert isinstance(applied, ActionApplied)
            return ActResult(
                applied.table,
                applied.seat,
                applied.action,
                applied.events,
                applied.move_number,
                snapshot=applied.snapshot,
            )

    async def come_back(self, channel_id: int, user_id: int) -> bool:
        """The user did something at the table (a command, a button): if he was away he plays
        his seat himself again (``PlayerBack``). True if he was away. Cheap when he was not
        (no lock taken): clients call it on every interaction."""
        table = self._tables.get(channel_id)
        seat = None if table is None else table.seat_of(user_id)
        if seat is None or not seat.away:
            return False
        async with self._table_op(channel_id) as table:
            seat = table.seat_of(user_id)
            if seat is None or not seat.away:
                return False
            await self._announce(channel_id, await self._back(table, seat))
            return True

    async def _back(self, table: LiveTable, seat: Seat) -> list[TableEvent]:
        """The away player is back (lock held): he plays himself again; if he is awaited his
        timer starts now."""
        saved = table.checkpoint()
        back = dataclasses.replace(seat, timeouts=0, away_at=None)
        table.seats = {**table.seats, seat.index: back}
        game = table.game
        if game is not None and table.status is TableStatus.PLAYING:
            now = self.clock()
            table.deadlines = self._deadlines_for(table, game, table.deadlines, None, now)
        await self._save(table, saved)
        public = table.public()
        events: list[TableEvent] = [PlayerBack(public, back)]
        if game is not None and table.deadlines != saved["deadlines"]:
            events.append(
                TurnChanged(
                    public, tuple(game.to_act()), dict(table.deadlines), table.window_deadline
                )
            )
        self.wake(table)
        return events

    async def apply(
        self, table: LiveTable, seat: int, action: str, source: ActionSource
    ) -> list[TableEvent]:
        """A driver's move (an AI seat, a timed-out seat, a window's close); the caller holds
        the channel lock. Returns the events to announce."""
        return await self._apply(table, seat, action, source, None)

    async def _apply(
        self,
        table: LiveTable,
        seat: int,
        action: str,
        source: ActionSource,
        user_id: int | None,
    ) -> list[TableEvent]:
        """Apply and commit one move (caller holds the channel lock); returns its events, the
        ``ActionApplied`` first (``act`` makes the player's ``ActResult`` of it: the moves nobody
        types need none). The move is normalised once; the engine's refusal is the only rules
        check (whose turn, what is legal): the service adds only its own policy (a move that
        happens by itself is not typed)."""
        game = table.game
        assert game is not None and table.snapshot is not None
        try:
            text = normalize_action(action)
        except IllegalAction as exc:
            raise IllegalMove(refusal_text(exc)) from None
        if (
            source is ActionSource.PLAYER
            and text in table.spec.service_actions
            and seat in table.public().to_act  # (out of turn, the engine's refusal comes first)
        ):
            raise IllegalMove(_("That happens by itself when its time is up."))
        before = game.timed_window()
        try:
            raw = game.apply(seat, text)
        except IllegalAction as exc:  # refused: the game is exactly as it was
            if exc.key in NOT_YOUR_TURN:
                raise NotYourTurn(self._not_your_turn(table)) from None
            raise IllegalMove(refusal_text(exc)) from None
        except GAME_FAULTS:
            # A game that fails its probe is damaged (its reads raise too): kept for the
            # service's check, which sets the table aside. One that passes may be half-changed
            # by the failed move: the committed one is taken back.
            if _sound(game, list(table.seats)):
                table.game = table.committed_game()
                table.game_changed()
            raise
        except BaseException:  # the game may be half-changed: take the committed one back
            table.game = table.committed_game()
            table.game_changed()
            raise
        table.game_changed()
        # From here the game has changed: any failure below puts the committed snapshot back.
        try:
            move = table.move_number + 1
            now = self.clock()
            # (one pass: the count here, the events below)
            hands_over = [e for e in raw if e.get("type") == "hand_over"]
            hands = table.hands + len(hands_over)
            over = game.is_over()
            snapshot = None
            if over or hands_over or move - table.snapshot_move >= SNAPSHOT_EVERY:
                snapshot = game.to_json()
            result = game.result() if over else None
            presence = self._presence_after(table, seat, source, now)
            seats = table.seats if presence is None else {**table.seats, seat: presence}
            deadlines = (
                {} if over else self._deadlines_for(table, game, table.deadlines, seat, now, seats)
            )
            window = None
            if not over:
                window = timers.next_window_deadline(
                    game,
                    previous=table.window_deadline,
                    before=before,
                    now=now,
                    options=table.options,
                )
            table_id = table.id
            rows = None if presence is None else seat_rows(seats)

            def write(conn: Any) -> None:
                if rows is not None:  # (before mark_ended: the result reads the seats)
                    repo.replace_seats(conn, table_id, rows)
                repo.record_action(
                    conn,
                    table_id,
                    move_number=move,
                    seat=seat,
                    action=text,
                    source=source.value,
                    user_id=user_id,
                    at=now,
                    hands=hands,
                    deadlines=deadlines,
                    window_deadline=window,
                    snapshot=snapshot,
                )
                if over:
                    repo.mark_ended(
                        conn,
                        table_id,
                        status=TableStatus.FINISHED.value,
                        ended_at=now,
                        result=result,
                        record=True,
                    )

            await self._commit(write)
        except BaseException:
            table.game = table.committed_game()
            raise
        metrics.count_action(source.value)
        table.logged(move, seat, text, snapshot)
        table.hands = hands
        was_away = table.seats[seat].away if seat in table.seats else False
        table.seats = seats
        table.deadlines, table.window_deadline = deadlines, window
        engine_events = tuple([EngineEvent(data=e, private_to=e.get("private_to")) for e in raw])
        if over:
            table.status, table.ended_at, table.result = TableStatus.FINISHED, now, result
            self._forget(table)
            self._finished[table.channel_id] = FinishedGame.of(table)
        # The state this move left, read by every listener, the reply and the next AI.
        state = table.current_state()
        public = state.table
        events: list[TableEvent] = [
            ActionApplied(public, seat, user_id, text, source, engine_events, move, snapshot=state)
        ]
        if presence is not None and presence.away and not was_away:
            events.append(PlayerAway(public, presence, snapshot=state))
        events += [HandEnded(public, e, snapshot=state) for e in hands_over]
        if over:
            assert result is not None
            events.append(GameOver(public, result, snapshot=state))
        else:
            events.append(
                TurnChanged(public, public.to_act, dict(deadlines), window, snapshot=state)
            )
            self.wake(table)
        return events

    def _presence_after(
        self, table: LiveTable, index: int, source: ActionSource, now: float
    ) -> Seat | None:
        """The seat after its move if the move changes its presence, else None: a move the
        timer decided (its deadline passed: not a window's close) counts one more timeout in
        a row, marking him away at ``away_after``; a move of his own clears the count."""
        seat = table.seats.get(index)
        if seat is None or seat.user_id is None or seat.is_ai:
            return None
        if source is ActionSource.TIMEOUT:
            due = table.deadlines.get(index)
            if due is None or due > now:
                return None  # the window closed by itself: nobody was late
            timeouts = seat.timeouts + 1
            away = seat.away_at
            if away is None and timeouts >= table_settings.away_after(table.settings):
                away = now
            return dataclasses.replace(seat, timeouts=timeouts, away_at=away)
        if source is ActionSource.PLAYER and (seat.timeouts or seat.away_at is not None):
            return dataclasses.replace(seat, timeouts=0, away_at=None)
        return None


def _sound(game: engine.Game, seats: list[int]) -> bool:
    """The game passes its probe (``tables.probe``)."""
    try:
        probe(game, seats)
    except Exception:
        return False
    return True
