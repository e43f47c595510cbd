"""The table service: every table operation, persisted, serialized per table, with turn timers.

Clients (the Discord cogs, the terminal table, tests) call these coroutines with plain ids and
names, catch ``TableError`` (player-facing message), and render ``TableEvent``s from listeners.

How it holds together:
- One asyncio lock per channel serializes every change of that channel's table; tables of other
  channels never wait for it. A change is validated, then written (``Database.write``, group
  commit), and only then applied to the live record and acknowledged; if the write fails the
  live record (and the game, from its last committed snapshot) is put back.
- Games stay in memory; each action stores ``game.to_json()`` and one action-log row.
- Listeners get a table's events in commit order (a second lock hands the turn over before the
  channel lock is released), and ``act`` returns once its events were delivered.
- Each playing table has at most one background "driver" task: it makes the moves of AI seats
  (after ``ai_delay``) and of seats whose deadline passed (the AI moves for them, the event's
  source says ``timeout``). A change to the table replaces a sleeping driver.

Choices where the brief is silent:
- Leaving during play, or being kicked, hands the seat to the AI (level of timed-out moves);
  when no human is left playing the game is abandoned.
- Abandon: the host at once; anyone else seated casts a vote, and a strict majority of the
  humans still playing abandons. An abandoned game in play is recorded (no winners); a lobby
  is just closed.
- The host leaving the lobby passes the host role to the next human seat; the last human
  leaving closes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import engine
from bot.service import timers
from bot.service.errors import (
    AiSeat,
    AlreadySeated,
    CannotStart,
    IllegalMove,
    NoTable,
    NotAtTable,
    NotHost,
    NotYourTurn,
    TableError,
    TableExists,
    TableFull,
    UnknownGame,
    WrongPhase,
)
from bot.service.gc_tuning import tune_gc
from bot.service.listeners import (
    AbandonVoted,
    ActionApplied,
    GameOver,
    GameStarted,
    HandEnded,
    HostChanged,
    Listeners,
    OptionsChanged,
    PlayerJoined,
    PlayerKicked,
    PlayerLeft,
    SpectatorJoined,
    TableAbandoned,
    TableClosed,
    TableEvent,
    TableListener,
    TableOpened,
    TurnChanged,
)
from bot.service.models import (
    AbandonResult,
    ActionSource,
    ActResult,
    EngineEvent,
    Seat,
    Table,
    TableStatus,
    TableView,
    seat_label,
)
from bot.service.tables import LiveTable, team_of
from bot.storage import repository as repo
from bot.storage.db import Database
from engine import IllegalAction, ai, normalize_action

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class TableService:
    """One active table per channel id; games in memory, every change committed to SQLite.

    ``clock`` gives the wall-clock now in epoch seconds (stored deadlines); timers wait with
    ``sleep`` (default ``asyncio.sleep``, which SimCord virtualises). ``ai_delay`` is the pause
    before an AI seat moves (0 in tests). ``local``: a terminal session (negative channel ids).
    ``ai_thread_levels``: AI levels that think on a worker thread (the slow ones).
    """

    def __init__(
        self,
        database_path: Path | str,
        *,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        ai_delay: float = 0.0,
        local: bool = False,
        ai_thread_levels: frozenset[str] = frozenset({"hard"}),
    ) -> None:
        self.db = Database(database_path)
        #: Terminal tables use negative channel ids; a service loads either those (``local``)
        #: or the Discord ones, so the bot and a terminal session never drive the same table.
        self.local = local
        #: AI levels whose decisions run on a worker thread (they take up to ~65 ms).
        self.ai_thread_levels = ai_thread_levels
        self._ai_pool: ThreadPoolExecutor | None = None
        self.clock = clock
        self.sleep = sleep
        self.ai_delay = ai_delay
        self._listeners = Listeners()
        self._tables: dict[int, LiveTable] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._driver_idle = asyncio.Event()
        self._started = False

    @classmethod
    def from_settings(cls, settings: Any, *, clock: Clock = time.time) -> TableService:
        """A service on ``settings.database_path`` with ``settings.ai_delay``."""
        return cls(settings.database_path, clock=clock, ai_delay=settings.ai_delay)

    # -- life cycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the database (migrating it), load every table in lobby or play, re-arm timers
        (a deadline that passed while down fires at once) and let AI seats carry on."""
        await self.db.open()
        rows = await self.db.run(repo.load_open_tables)
        for row in rows:
            if (row.channel_id < 0) != self.local:
                continue
            try:
                table = self._from_row(row)
            except Exception:  # one unreadable table must not keep the bot down
                log.exception("table %s (channel %s) could not be loaded", row.id, row.channel_id)
                continue
            self._tables[table.channel_id] = table
        # The loaded games leave the collector's scans (see gc_tuning: GC pauses made the p99).
        tune_gc()
        self._started = True
        for table in self._tables.values():
            if table.status is TableStatus.PLAYING:
                self._wake(table)

    async def close(self) -> None:
        """Cancel timers and AI tasks, wait for pending commits, close the database."""
        drivers = [t.driver for t in self._tables.values() if t.driver is not None]
        for task in drivers:
            task.cancel()
        for task in drivers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._started = False
        await self.db.close()
        self._tables.clear()
        if self._ai_pool is not None:
            self._ai_pool.shutdown(wait=True)
            self._ai_pool = None

    async def settle(self) -> None:
        """Wait until no AI move or due timeout is pending: every table waits for a human (or
        for a deadline still in the future). For tests, and the terminal between turns."""
        while True:
            if not any(t.driver_busy for t in self._tables.values()):
                await asyncio.sleep(0)  # let a driver that was just woken look first
                if not any(t.driver_busy for t in self._tables.values()):
                    return
            self._driver_idle.clear()
            await self._driver_idle.wait()

    def add_listener(self, listener: TableListener) -> None:
        self._listeners.add(listener)

    def remove_listener(self, listener: TableListener) -> None:
        self._listeners.remove(listener)

    # -- reading ------------------------------------------------------------------------------
    def get_table(self, channel_id: int) -> Table | None:
        """The channel's table in lobby or play, or None."""
        table = self._tables.get(channel_id)
        return None if table is None else table.public()

    def tables(self) -> list[Table]:
        """Every table in lobby or play."""
        return [t.public() for t in self._tables.values()]

    def view(self, channel_id: int, user_id: int) -> TableView:
        """The user's seat view, or the spectator view if he holds no seat. Raises NoTable."""
        table = self._require(channel_id)
        seat = table.seat_of(user_id)
        index = seat.index if seat is not None and seat.is_human else None
        if table.game is None:
            return TableView(table=table.public(), seat=index, game=None)
        legal = self._legal(table, index)
        return TableView(
            table=table.public(),
            seat=index,
            game=table.game.view(index),
            legal=tuple(legal),
            deadline=None if index is None else table.deadlines.get(index),
        )

    def public_view(self, channel_id: int) -> dict[str, Any] | None:
        """What a spectator sees of the game (None in the lobby or with no table here)."""
        table = self._tables.get(channel_id)
        return None if table is None or table.game is None else table.game.view(None)

    def legal_actions(self, channel_id: int, user_id: int) -> list[str]:
        """What the user may do now (buttons, autocomplete); [] if not his turn / not seated."""
        table = self._tables.get(channel_id)
        if table is None:
            return []
        seat = table.seat_of(user_id)
        return self._legal(table, seat.index if seat is not None and seat.is_human else None)

    def deadlines(self, channel_id: int) -> dict[int, float]:
        """Each awaited human seat's deadline (epoch seconds); {} if the timer is off."""
        table = self._tables.get(channel_id)
        return {} if table is None else dict(table.deadlines)

    # -- lobby --------------------------------------------------------------------------------
    async def open_table(
        self,
        channel_id: int,
        guild_id: int | None,
        host_id: int,
        host_name: str,
        game: str,
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
    ) -> Table:
        """Open a lobby; the host takes seat 0. Raises TableExists, UnknownGame."""
        key = str(game).strip().lower()
        spec = engine.GAMES.get(key)
        if spec is None:
            raise UnknownGame(f"There is no game `{game}`. Games: {', '.join(engine.GAMES)}.")
        try:
            resolved = spec.resolve(preset, options)
            overrides = {name: spec.option(name).parse(v) for name, v in (options or {}).items()}
        except IllegalAction as exc:
            raise UnknownGame(str(exc)) from None
        preset_key = preset.strip().lower() if preset else None
        async with self._lock(channel_id):
            if channel_id in self._tables:
                raise TableExists(
                    f"This channel already has a {self._tables[channel_id].spec.title} table."
                    " Join it, or ask its host to abandon it first."
                )
            now = self.clock()
            host = Seat(index=0, name=host_name, user_id=host_id, team=team_of(key, 0))
            table = LiveTable(
                id=0,
                channel_id=channel_id,
                guild_id=guild_id,
                spec=spec,
                preset=preset_key,
                overrides=overrides,
                options=resolved,
                host_id=host_id,
                status=TableStatus.LOBBY,
                seed=seed,
                created_at=now,
                seats={0: host},
            )
            rows = table.seat_rows()

            def write(conn: Any) -> int:
                return repo.insert_table(
                    conn,
                    channel_id=channel_id,
                    guild_id=guild_id,
                    game=key,
                    preset=preset_key,
                    overrides=overrides,
                    options=resolved,
                    host_id=host_id,
                    seed=seed,
                    created_at=now,
                    seats=rows,
                )

            try:
                table.id = await self._commit(write)
            except sqlite3.IntegrityError:  # an open table of another process (terminal/bot)
                raise TableExists("This channel already has an open table.") from None
            self._tables[channel_id] = table
            events: list[TableEvent] = [TableOpened(table.public())]
            await self._announce(channel_id, events)
        return table.public()

    async def join(
        self,
        channel_id: int,
        user_id: int,
        name: str,
        seat: int | None = None,
        team: int | None = None,
        partner_id: int | None = None,
    ) -> Table:
        """Take a seat in the lobby (the first free one, or the given seat / a seat of the
        given team: Troika's teams are 0 = seats 0+2, 1 = seats 1+3; ``partner_id``: a seat of
        that seated user's team). Raises NoTable, WrongPhase, AlreadySeated, NotAtTable,
        TableFull."""
        async with self._lock(channel_id):
            table = self._require(channel_id)
            if table.seat_of(user_id) is not None:
                raise AlreadySeated("You already have a seat at this table.")
            if table.status is not TableStatus.LOBBY:
                raise WrongPhase("The game has already started; you can watch it.")
            if partner_id is not None:
                partner = table.seat_of(partner_id)
                if partner is None:
                    raise NotAtTable("The partner you chose has no seat at this table.")
                if partner.team is None:
                    raise TableFull(f"{table.spec.title} has no teams.")
                team = partner.team
            index = self._free_seat(table, seat, team)
            team_no = team_of(table.game_name, index)
            new = Seat(index=index, name=name, user_id=user_id, team=team_no)
            saved = table.checkpoint()
            table.seats[index] = new
            if user_id in table.spectators:
                table.spectators.remove(user_id)
            await self._save_lobby(table, saved)
            await self._announce(channel_id, [PlayerJoined(table.public(), new)])
            return table.public()

    async def spectate(self, channel_id: int, user_id: int) -> Table:
        """Watch the table (any status). Seated users are not spectators."""
        async with self._lock(channel_id):
            table = self._require(channel_id)
            seat = table.seat_of(user_id)
            if seat is not None and seat.is_human:
                raise AlreadySeated("You have a seat at this table; you see it from there.")
            if user_id in table.spectators:
                return table.public()
            saved = table.checkpoint()
            table.spectators.append(user_id)
            await self._save_lobby(table, saved)
            await self._announce(channel_id, [SpectatorJoined(table.public(), user_id)])
            return table.public()

    async def leave(self, channel_id: int, user_id: int) -> Table:
        """Leave. In the lobby the seat frees (host passes to the next human; an empty lobby
        closes); during play the AI takes the seat. Raises NotAtTable."""
        async with self._lock(channel_id):
            table = self._require(channel_id)
            seat = table.seat_of(user_id)
            if seat is None or not seat.is_human:
                if user_id in table.spectators:
                    saved = table.checkpoint()
                    table.spectators.remove(user_id)
                    await self._save_lobby(table, saved)
                    return table.public()
                raise NotAtTable("You have no seat at this table.")
            if table.status is TableStatus.LOBBY:
                events = await self._remove_from_lobby(table, seat, kicked_by=None)
            else:
                events = await self._hand_to_ai(table, seat, kicked_by=None)
            await self._announce(channel_id, events)
            return table.public()

    async def add_ai(
        self, channel_id: int, user_id: int, level: str = "normal", seat: int | None = None
    ) -> Table:
        """Host seats an AI of ``level`` (engine.ai.LEVELS) in the lobby."""
        key = str(level).strip().lower()
        if key not in ai.LEVELS:
            raise UnknownGame(f"There is no AI level `{level}`. Levels: {', '.join(ai.LEVELS)}.")
        async with self._lock(channel_id):
            table = self._require(channel_id)
            self._require_host(table, user_id, "add an AI")
            if table.status is not TableStatus.LOBBY:
                raise WrongPhase("The game has already started.")
            index = self._free_seat(table, seat, None)
            count = 1 + sum(1 for s in table.seats.values() if s.user_id is None)
            new = Seat(
                index=index,
                name=f"AI {count} ({key})",
                ai_level=key,
                team=team_of(table.game_name, index),
            )
            saved = table.checkpoint()
            table.seats[index] = new
            await self._save_lobby(table, saved)
            await self._announce(channel_id, [PlayerJoined(table.public(), new)])
            return table.public()

    async def kick(self, channel_id: int, host_id: int, seat: int) -> Table:
        """Host removes the occupant of ``seat`` (human or AI) from the lobby; during play the
        AI takes a kicked human's seat."""
        async with self._lock(channel_id):
            table = self._require(channel_id)
            self._require_host(table, host_id, "kick a player")
            target = table.seats.get(seat)
            if target is None:
                raise NotAtTable(f"Nobody sits at {seat_label(seat)}.")
            if target.user_id == host_id:
                raise NotHost("You cannot kick yourself; leave the table instead.")
            if table.status is TableStatus.LOBBY:
                events = await self._remove_from_lobby(table, target, kicked_by=host_id)
            elif target.is_human:
                events = await self._hand_to_ai(table, target, kicked_by=host_id)
            else:
                raise WrongPhase("The AI already plays that seat.")
            await self._announce(channel_id, events)
            return table.public()

    async def set_options(
        self,
        channel_id: int,
        user_id: int,
        options: Mapping[str, Any] | None = None,
        preset: str | None = None,
    ) -> Table:
        """Host changes the preset and/or options in the lobby (values may be text)."""
        async with self._lock(channel_id):
            table = self._require(channel_id)
            self._require_host(table, user_id, "change the options")
            if table.status is not TableStatus.LOBBY:
                raise WrongPhase("Options can only change before the game starts.")
            spec = table.spec
            new_preset = preset.strip().lower() if preset else table.preset
            try:
                overrides = dict(table.overrides)
                for name, value in (options or {}).items():
                    overrides[name] = spec.option(name).parse(value)
                resolved = spec.resolve(new_preset, overrides)
            except IllegalAction as exc:
                raise UnknownGame(str(exc)) from None
            saved = table.checkpoint()
            table.preset, table.overrides, table.options = new_preset, overrides, resolved
            await self._save_lobby(table, saved)
            await self._announce(channel_id, [OptionsChanged(table.public())])
            return table.public()

    async def start_game(self, channel_id: int, user_id: int) -> Table:
        """Host starts the game when the number of seats fits. Raises CannotStart."""
        async with self._lock(channel_id):
            table = self._require(channel_id)
            self._require_host(table, user_id, "start the game")
            if table.status is not TableStatus.LOBBY:
                raise WrongPhase("The game has already started.")
            count = len(table.seats)
            try:
                table.spec.check_players(count, table.options)
            except IllegalAction as exc:
                raise CannotStart(str(exc)) from None
            seed = table.seed
            if seed is None:
                seed = random.SystemRandom().randrange(2**53)
            try:
                game = engine.new_game(table.game_name, count, options=table.options, seed=seed)
            except IllegalAction as exc:
                raise CannotStart(str(exc)) from None
            saved = table.checkpoint()
            # Seats keep their order; gaps left by people who left the lobby close up.
            ordered = sorted(table.seats.values(), key=lambda s: s.index)
            table.seats = {
                i: Seat(
                    index=i,
                    name=s.name,
                    user_id=s.user_id,
                    ai_level=s.ai_level,
                    team=team_of(table.game_name, i),
                )
                for i, s in enumerate(ordered)
            }
            now = self.clock()
            snapshot = game.to_json()
            deadlines = self._deadlines_for(table, game, {}, None, now)
            window = timers.next_window_deadline(game, previous=None, before=None, now=now)
            stored = dict(deadlines)
            if window is not None:
                stored[timers.WINDOW_KEY] = window
            rows = table.seat_rows()
            table_id = table.id

            def write(conn: Any) -> None:
                repo.replace_seats(conn, table_id, rows)
                repo.mark_started(
                    conn,
                    table_id,
                    started_at=now,
                    seed=seed,
                    snapshot=snapshot,
                    snapshot_version=engine.SNAPSHOT_VERSION,
                    deadlines=stored,
                )

            await self._commit_or_restore(table, saved, write)
            table.status = TableStatus.PLAYING
            table.seed, table.game, table.snapshot = seed, game, snapshot
            table.started_at, table.move_number, table.deadlines = now, 0, deadlines
            table.window_deadline = window
            public = table.public()
            events: list[TableEvent] = [
                GameStarted(public),
                TurnChanged(public, tuple(game.to_act()), dict(deadlines), window),
            ]
            self._wake(table)
            await self._announce(channel_id, events)
            return public

    # -- play ---------------------------------------------------------------------------------
    async def act(self, channel_id: int, user_id: int, action: str) -> ActResult:
        """Apply the user's action for his seat; returns once committed and announced.
        Raises NoTable, WrongPhase, NotAtTable, AiSeat, NotYourTurn, IllegalMove."""
        async with self._lock(channel_id):
            table = self._require(channel_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotAtTable("You have no seat at this table.")
            if table.status is not TableStatus.PLAYING:
                raise WrongPhase("The game has not started yet.")
            if seat.is_ai:
                raise AiSeat("You left this game: the AI plays your seat now.")
            result, events = await self._apply(
                table, seat.index, action, ActionSource.PLAYER, user_id
            )
            await self._announce(channel_id, events)
            return result

    async def force_end(self, channel_id: int, by_user_id: int, reason: str) -> Table:
        """End the channel's table at once, recorded as abandoned (a server admin's decision:
        the caller checks the permission). ``reason`` is told to the table."""
        async with self._lock(channel_id):
            table = self._require(channel_id)
            events = await self._end(table, TableStatus.ABANDONED, None, reason, by=by_user_id)
            await self._announce(channel_id, events)
            return table.public()

    async def abandon(self, channel_id: int, user_id: int) -> AbandonResult:
        """The host abandons at once; a seated human's call is a vote (a majority of the seated
        humans abandons). A game in play is recorded as abandoned."""
        async with self._lock(channel_id):
            table = self._require(channel_id)
            seat = table.seat_of(user_id)
            is_host = user_id == table.host_id
            if not is_host and (seat is None or not seat.is_human):
                raise NotAtTable("Only the host or a seated player can ask to abandon the table.")
            humans = [s.user_id for s in table.humans()]
            needed = len(humans) // 2 + 1
            if is_host:
                events = await self._end(
                    table, TableStatus.ABANDONED, None, "the host ended it", by=user_id
                )
                await self._announce(channel_id, events)
                return AbandonResult(table.public(), True, len(table.abandon_votes), needed)
            saved = table.checkpoint()
            if user_id not in table.abandon_votes:
                table.abandon_votes.append(user_id)
            votes = sum(1 for v in table.abandon_votes if v in humans)
            if votes >= needed:
                events = await self._end(table, TableStatus.ABANDONED, None, "the players voted")
                events.insert(0, AbandonVoted(table.public(), user_id, votes, needed))
                await self._announce(channel_id, events)
                return AbandonResult(table.public(), True, votes, needed)
            await self._save_lobby(table, saved)
            events = [AbandonVoted(table.public(), user_id, votes, needed)]
            await self._announce(channel_id, events)
            return AbandonResult(table.public(), False, votes, needed)

    # -- internals: moves ---------------------------------------------------------------------
    async def _apply(
        self,
        table: LiveTable,
        seat: int,
        action: str,
        source: ActionSource,
        user_id: int | None,
    ) -> tuple[ActResult, list[TableEvent]]:
        """Validate, apply, commit one move (caller holds the channel lock)."""
        game = table.game
        assert game is not None
        if seat not in game.to_act():
            try:
                reason = game.out_of_turn_reason(seat, normalize_action(action))
            except IllegalAction as exc:
                raise IllegalMove(str(exc)) from None
            if reason:  # the game knows better than "not your turn" (May Is used up)
                raise IllegalMove(reason)
            raise NotYourTurn(self._not_your_turn(table))
        if source is ActionSource.PLAYER and self._is_service_action(table, action):
            raise IllegalMove("That happens by itself when its time is up.")
        before = game.timed_window()
        try:
            raw = game.apply(seat, action)
        except IllegalAction as exc:
            raise IllegalMove(str(exc)) from None
        # From here the game has changed: any failure below puts the committed snapshot back.
        try:
            text = normalize_action(action)
            move = table.move_number + 1
            now = self.clock()
            snapshot = game.to_json()
            hands = table.hands + sum(1 for e in raw if e.get("type") == "hand_over")
            over = game.is_over()
            result = game.result() if over else None
            deadlines = {} if over else self._deadlines_for(table, game, table.deadlines, seat, now)
            window = None
            if not over:
                window = timers.next_window_deadline(
                    game, previous=table.window_deadline, before=before, now=now
                )
            stored = dict(deadlines)
            if window is not None:
                stored[timers.WINDOW_KEY] = window
            table_id = table.id

            def write(conn: Any) -> None:
                repo.record_action(
                    conn,
                    table_id,
                    move_number=move,
                    seat=seat,
                    action=text,
                    source=source.value,
                    user_id=user_id,
                    at=now,
                    snapshot=snapshot,
                    hands=hands,
                    deadlines=stored,
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
            assert table.snapshot is not None
            table.game = engine.load(table.snapshot)
            raise
        table.move_number, table.snapshot, table.hands = move, snapshot, hands
        table.deadlines, table.window_deadline = deadlines, window
        engine_events = tuple(EngineEvent(data=e, private_to=e.get("private_to")) for e in raw)
        if over:
            table.status, table.ended_at, table.result = TableStatus.FINISHED, now, result
            self._forget(table)
        public = table.public()
        events: list[TableEvent] = [
            ActionApplied(public, seat, user_id, text, source, engine_events, move)
        ]
        events += [HandEnded(public, e) for e in raw if e.get("type") == "hand_over"]
        if over:
            assert result is not None
            events.append(GameOver(public, result))
        else:
            events.append(TurnChanged(public, tuple(game.to_act()), dict(deadlines), window))
            self._wake(table)
        return ActResult(public, seat, text, engine_events, move), events

    def _deadlines_for(
        self,
        table: LiveTable,
        game: engine.Game,
        previous: Mapping[int, float],
        acted: int | None,
        now: float,
    ) -> dict[int, float]:
        return timers.next_deadlines(
            awaited=game.to_act(),
            ai_seats=[s.index for s in table.seats.values() if s.is_ai],
            previous=previous,
            acted=acted,
            now=now,
            seconds=timers.timer_seconds(table.options),
        )

    def _is_service_action(self, table: LiveTable, action: str) -> bool:
        reserved = table.spec.service_actions
        try:
            return normalize_action(action) in reserved
        except IllegalAction:
            return False

    def _legal(self, table: LiveTable, seat: int | None) -> list[str]:
        if seat is None or table.game is None or table.status is not TableStatus.PLAYING:
            return []
        if seat not in table.game.to_act():
            return []
        return list(table.game.legal_actions(seat))

    def _not_your_turn(self, table: LiveTable) -> str:
        seats = table.seats
        waiting = [seats[s].name if s in seats else seat_label(s) for s in table.to_act()]
        return f"It is not your turn: waiting for {', '.join(waiting) or 'nobody'}."

    # -- internals: the driver (AI seats and timeouts) ------------------------------------------
    def _wake(self, table: LiveTable) -> None:
        """(Re)start the table's driver after a change; the caller holds the channel lock, so a
        running driver is sleeping or waiting for the lock and may be cancelled safely."""
        if not self._started:
            return
        old = table.driver
        running = old is not None and not old.done()
        if running and old is asyncio.current_task():
            return  # the driver itself made the move: its loop looks again
        if running:
            assert old is not None
            old.cancel()
        if not self._has_driver_work(table):
            table.driver = None
            return
        table.driver_busy = True  # until it has looked at the table
        table.driver = asyncio.create_task(self._drive(table), name=f"table-{table.id}-driver")

    @staticmethod
    def _has_driver_work(table: LiveTable) -> bool:
        """An AI seat is awaited, or a deadline is armed (most human moves need no driver)."""
        if table.deadlines or table.window_deadline is not None:
            return True
        if table.game is None:
            return False
        seats = table.seats
        return any(s in seats and seats[s].is_ai for s in table.game.to_act())

    async def _drive(self, table: LiveTable) -> None:
        answering = False  # the AI seats are answering one May I window
        try:
            while table.status is TableStatus.PLAYING and table.game is not None:
                awaited = table.game.to_act()
                ai_seats = [s for s in awaited if s in table.seats and table.seats[s].is_ai]
                if ai_seats:
                    self._set_busy(table, True)
                    # One pause per window, not one per AI answering it (a window is short).
                    same_window = answering and timers.window_open(table.game)
                    if self.ai_delay > 0 and not same_window:
                        await self.sleep(self.ai_delay)
                    else:
                        await asyncio.sleep(0)  # let the caller's turn finish first
                    answering = table.game is not None and timers.window_open(table.game)
                    await self._driver_move(table, ai_seats[0], ActionSource.AI)
                    continue
                due_times = table.stored_deadlines()
                if not due_times:
                    return
                seat, due = min(due_times.items(), key=lambda item: item[1])
                wait = due - self.clock()
                if wait > 0:
                    self._set_busy(table, False)
                    await self.sleep(wait)
                    continue
                self._set_busy(table, True)
                await self._driver_move(table, seat, ActionSource.TIMEOUT)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the AI driver stopped", table.id)
        finally:
            if table.driver is asyncio.current_task():
                self._set_busy(table, False)

    def _set_busy(self, table: LiveTable, busy: bool) -> None:
        table.driver_busy = busy
        if not busy:
            self._driver_idle.set()

    async def _driver_move(self, table: LiveTable, seat: int, source: ActionSource) -> None:
        async with self._lock(table.channel_id):
            if self._tables.get(table.channel_id) is not table or table.game is None:
                return
            game = table.game
            if seat == timers.WINDOW_KEY:
                due = table.window_deadline
                if due is None or due > self.clock() or not game.to_act():
                    return
                window = game.timed_window()
                if window is None:
                    return
                close = window.action
                _, events = await self._apply(table, game.to_act()[0], close, source, None)
                await self._announce(table.channel_id, events)
                return
            if seat not in game.to_act():
                return  # someone moved meanwhile; the loop looks again
            if source is ActionSource.TIMEOUT:
                due = table.deadlines.get(seat)
                if due is None or due > self.clock():
                    return
                level = timers.timeout_level()
            else:
                level = table.seats[seat].ai_level or timers.timeout_level()
            move = table.move_number + 1
            seed = timers.move_seed(table.id, move, seat)
            try:
                action = await self._decide(game, seat, level, seed)
                _, events = await self._apply(table, seat, action, source, None)
            except (IllegalMove, ValueError):
                # An AI that errs must not stall the table: play a legal move instead.
                log.exception("table %s: the %s AI failed at seat %s", table.id, level, seat)
                legal = game.legal_actions(seat)
                if not legal:
                    raise
                action = random.Random(seed).choice(legal)
                _, events = await self._apply(table, seat, action, source, None)
            await self._announce(table.channel_id, events)

    async def _decide(self, game: engine.Game, seat: int, level: str, seed: int) -> str:
        """The AI's move. Slow levels think on a worker thread so that the event loop (every
        other table) is not held up for tens of milliseconds; the table's lock is held, so the
        game cannot change meanwhile, and the AI only reads the view and the legal list."""
        view, legal = game.view(seat), game.legal_actions(seat)
        if level not in self.ai_thread_levels:
            return timers.decide(game.name, level, seed, view, legal)
        if self._ai_pool is None:
            self._ai_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="troika-ai")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._ai_pool, timers.decide, game.name, level, seed, view, legal
        )

    # -- internals: lobby and endings ---------------------------------------------------------
    async def _remove_from_lobby(
        self, table: LiveTable, seat: Seat, kicked_by: int | None
    ) -> list[TableEvent]:
        saved = table.checkpoint()
        del table.seats[seat.index]
        if seat.user_id is not None and seat.user_id in table.abandon_votes:
            table.abandon_votes.remove(seat.user_id)
        humans = table.humans()
        if not humans:
            events = await self._end(table, TableStatus.ABANDONED, None, "everybody left")
            return [PlayerLeft(table.public(), seat), TableClosed(table.public()), *events[1:]]
        new_host = None
        if seat.user_id == table.host_id:
            table.host_id = min(humans, key=lambda s: s.index).user_id or table.host_id
            new_host = table.host_id
        await self._save_lobby(table, saved)
        public = table.public()
        first: TableEvent = (
            PlayerKicked(public, seat, kicked_by)
            if kicked_by is not None
            else PlayerLeft(public, seat)
        )
        events: list[TableEvent] = [first]
        if new_host is not None:
            events.append(HostChanged(public, new_host))
        return events

    async def _hand_to_ai(
        self, table: LiveTable, seat: Seat, kicked_by: int | None
    ) -> list[TableEvent]:
        """During play: the AI takes the human's seat (the user stays on record)."""
        saved = table.checkpoint()
        now = self.clock()
        replaced = Seat(
            index=seat.index,
            name=seat.name,
            user_id=seat.user_id,
            ai_level=timers.timeout_level(),
            team=seat.team,
            left=True,
        )
        table.seats[seat.index] = replaced
        table.left_at[seat.index] = now
        table.deadlines.pop(seat.index, None)
        if seat.user_id in table.abandon_votes:
            table.abandon_votes.remove(seat.user_id)
        if not table.humans():
            events = await self._end(table, TableStatus.ABANDONED, None, "no human is left")
            return [PlayerLeft(table.public(), replaced, True), *events]
        if seat.user_id == table.host_id:
            table.host_id = min(table.humans(), key=lambda s: s.index).user_id or table.host_id
        rows, deadlines, table_id = table.seat_rows(), table.stored_deadlines(), table.id
        fields = _lobby_fields(table)

        def write(conn: Any) -> None:
            repo.replace_seats(conn, table_id, rows)
            repo.update_deadlines(conn, table_id, deadlines)
            repo.update_lobby(conn, table_id, **fields)

        await self._commit_or_restore(table, saved, write)
        public = table.public()
        events: list[TableEvent] = [
            PlayerKicked(public, replaced, kicked_by)
            if kicked_by is not None
            else PlayerLeft(public, replaced, True)
        ]
        if table.host_id != saved["host_id"]:
            events.append(HostChanged(public, table.host_id))
        self._wake(table)
        return events

    async def _end(
        self,
        table: LiveTable,
        status: TableStatus,
        result: dict[str, Any] | None,
        reason: str,
        by: int | None = None,
    ) -> list[TableEvent]:
        """Close the table (abandoned here; a finished game ends in ``_apply``)."""
        saved = table.checkpoint()
        now = self.clock()
        played = table.status is TableStatus.PLAYING
        if played and result is None and table.game is not None:
            result = {"abandoned": True, "scores_so_far": table.game.view(None).get("scores")}
        rows, table_id = table.seat_rows(), table.id

        def write(conn: Any) -> None:
            repo.replace_seats(conn, table_id, rows)
            repo.mark_ended(
                conn, table_id, status=status.value, ended_at=now, result=result, record=played
            )

        await self._commit_or_restore(table, saved, write)
        table.status, table.ended_at, table.result = status, now, result
        table.deadlines, table.window_deadline = {}, None
        self._forget(table)
        public = table.public()
        return [TableAbandoned(public, by, reason)]

    def _forget(self, table: LiveTable) -> None:
        """The table is over: the channel is free; its driver stops (unless it is us)."""
        if self._tables.get(table.channel_id) is table:
            del self._tables[table.channel_id]
        driver = table.driver
        if driver is not None and driver is not asyncio.current_task() and not driver.done():
            driver.cancel()

    async def _save_lobby(self, table: LiveTable, saved: dict[str, Any]) -> None:
        rows, table_id, fields = table.seat_rows(), table.id, _lobby_fields(table)

        def write(conn: Any) -> None:
            repo.replace_seats(conn, table_id, rows)
            repo.update_lobby(conn, table_id, **fields)

        await self._commit_or_restore(table, saved, write)

    # -- internals: plumbing ------------------------------------------------------------------
    async def _commit_or_restore(
        self, table: LiveTable, saved: dict[str, Any], write: Callable[[Any], Any]
    ) -> None:
        """Commit ``write``; if it fails, put ``table`` back as ``saved`` (memory never
        disagrees with the disk)."""
        try:
            await self._commit(write)
        except BaseException:
            table.restore(saved)
            raise

    async def _commit(self, write: Callable[[Any], Any]) -> Any:
        """Group-commit ``write``; a cancelled caller still waits for the outcome, so memory
        never disagrees with the disk."""
        task = self.db.submit(write)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            while not task.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.shield(task)
            if task.exception() is not None:
                raise task.exception() from None  # type: ignore[misc]
            raise

    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def _announce(self, channel_id: int, events: list[TableEvent]) -> None:
        """Deliver events; called with the channel lock held, so a table's events arrive in
        commit order (see listeners.py: a listener must not await a change of that table)."""
        if not events:
            return
        await self._listeners.emit(events)

    def _require(self, channel_id: int) -> LiveTable:
        table = self._tables.get(channel_id)
        if table is None:
            raise NoTable()
        return table

    def _require_host(self, table: LiveTable, user_id: int, what: str) -> None:
        if user_id != table.host_id:
            host = table.seat_of(table.host_id)
            name = host.name if host else "the host"
            raise NotHost(f"Only the host ({name}) can {what}.")

    def _free_seat(self, table: LiveTable, seat: int | None, team: int | None) -> int:
        size = table.spec.max_players
        if seat is not None:
            if not 0 <= seat < size:
                raise TableFull(f"There is no {seat_label(seat)}: seats are 1 to {size}.")
            if seat in table.seats:
                taken = f"{seat_label(seat).capitalize()} is taken by {table.seats[seat].name}."
                raise TableFull(taken)
            return seat
        candidates = [i for i in range(size) if i not in table.seats]
        if team is not None:
            if team_of(table.game_name, 0) is None:
                raise TableFull(f"{table.spec.title} has no teams.")
            candidates = [i for i in candidates if team_of(table.game_name, i) == team]
            if not candidates:
                raise TableFull("That team is full.")
        if not candidates:
            raise TableFull(f"The table is full ({size} players).")
        return candidates[0]

    def _from_row(self, row: repo.TableRow) -> LiveTable:
        spec = engine.GAMES[row.game]
        seats = {
            r.seat: Seat(
                index=r.seat,
                name=r.name,
                user_id=r.user_id,
                ai_level=r.ai_level,
                team=r.team,
                left=r.left_at is not None,
            )
            for r in row.seats
        }
        table = LiveTable(
            id=row.id,
            channel_id=row.channel_id,
            guild_id=row.guild_id,
            spec=spec,
            preset=row.preset,
            overrides=row.overrides,
            options=row.options,
            host_id=row.host_id,
            status=TableStatus(row.status),
            seed=row.seed,
            created_at=row.created_at,
            seats=seats,
            spectators=row.spectators,
            abandon_votes=row.abandon_votes,
            started_at=row.started_at,
            ended_at=row.ended_at,
            move_number=row.move_number,
            hands=row.hands,
            deadlines={s: d for s, d in row.deadlines.items() if s != timers.WINDOW_KEY},
            window_deadline=row.deadlines.get(timers.WINDOW_KEY),
            left_at={r.seat: r.left_at for r in row.seats if r.left_at is not None},
        )
        if table.status is TableStatus.PLAYING:
            if row.snapshot is None:
                raise ValueError("a table in play has no snapshot")
            table.game = engine.load(row.snapshot)
            table.snapshot = row.snapshot
        return table


def _lobby_fields(table: LiveTable) -> dict[str, Any]:
    """The table-row fields ``repo.update_lobby`` stores, copied now (the write runs later)."""
    return {
        "preset": table.preset,
        "overrides": dict(table.overrides),
        "options": dict(table.options),
        "host_id": table.host_id,
        "spectators": list(table.spectators),
        "abandon_votes": list(table.abandon_votes),
    }


__all__ = ["TableError", "TableService"]
