"""The table service: every table operation, persisted, serialized per table, with turn timers.

Clients (the Discord cogs, the terminal table, tests) call these coroutines with plain ids and
names, catch ``TableError`` (player-facing message), and render ``TableEvent``s from listeners.

How it holds together:
- One asyncio lock per channel serializes every change of that channel's table; tables of other
  channels never wait for it. A change is validated, then written (``Database.write``, group
  commit), and only then applied to the live record and acknowledged; if the write fails the
  live record (and the game, from its last committed snapshot) is put back.
- Games stay in memory. Each action appends one action-log row and updates the table's move
  number (the write guard); the game's snapshot is written only every ``SNAPSHOT_EVERY`` moves,
  at a hand's end and at the game's start and end. Loading a table (start-up) and undoing a
  failed commit replay the logged actions after the snapshot on it (games are deterministic).
  An ended game's actions are compacted into one compressed row (``bot.storage.action_log``).
- Listeners get a table's events in commit order (a second lock hands the turn over before the
  channel lock is released), and ``act`` returns once its events were delivered.
- Each playing table has at most one background "driver" task (``driver.py``): it makes the
  moves of AI seats and of seats whose deadline passed, and retries a move the database refused.
- One table never takes the others down: a stored table that cannot be read, or whose game
  raises when used, is set aside with status ``broken`` and its reason (its channel is free;
  ``guild_tables`` lists it and ``close_broken`` closes it), and the command that met it gets a
  ``TableBroken`` refusal.
- ``Limits`` (limits.py) bound the lobbies a user or a server holds, how fast a user opens
  tables, and the costly AI seats of a server; a lobby left idle is closed by a sweep.

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
import dataclasses
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from bot import metrics
from bot.i18n import N_, _
from bot.i18n.later import later
from bot.i18n.refusals import excerpt, refusal_text
from bot.service import table_settings, timers
from bot.service.broken import BrokenTables, reason_of
from bot.service.driver import STALL_AFTER, WRITE_ERRORS, Driver, PlayDue, next_move, retry_delay
from bot.service.errors import (
    GAME_FAULTS,
    AiSeat,
    AlreadySeated,
    CannotStart,
    IllegalMove,
    NoTable,
    NotAtTable,
    NotHost,
    NotYourTurn,
    OtherShard,
    TableBroken,
    TableError,
    TableExists,
    TableFull,
    UnknownGame,
    WrongPhase,
)
from bot.service.flow import FlowMixin, _Finished
from bot.service.gc_tuning import tune_gc
from bot.service.idle import LobbyIdle, idle_key, idle_reason
from bot.service.limits import Limits, Quotas
from bot.service.listeners import (
    AbandonVoted,
    ActionApplied,
    GameOver,
    GameStarted,
    HandEnded,
    HostChanged,
    Listeners,
    OptionsChanged,
    PlayerAway,
    PlayerBack,
    PlayerJoined,
    PlayerKicked,
    PlayerLeft,
    SeatTaken,
    SettingsChanged,
    SpectatorJoined,
    TableAbandoned,
    TableClosed,
    TableEvent,
    TableListener,
    TableOpened,
    TableSetAside,
    TableStalled,
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
    TableSummary,
    TableView,
    seat_label,
)
from bot.service.paused import refused_writes
from bot.service.rematch_wait import REMATCH_CONFIRM_SECONDS, RematchDue, rematch_key
from bot.service.scheduler import Scheduler
from bot.service.snapshot import TableSnapshot
from bot.service.switch_interval import tune_switch_interval
from bot.service.tables import LiveTable, TableRecord, probe, seat_rows, team_of
from bot.shards import Shards
from bot.storage import action_log
from bot.storage import repository as repo
from bot.storage.backends import database_for
from bot.storage.connection import INTEGRITY_ERRORS
from bot.storage.shard_locks import ShardLocks
from engine import IllegalAction, ai, normalize_action

log = logging.getLogger(__name__)

#: The engine's refusals of a seat that is not awaited: said with the awaited players' names.
NOT_YOUR_TURN = frozenset({"turn.not_yours", "turn.nobody"})

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

#: Moves between two stored snapshots of a game (a hand's end and the game's end store one too):
#: recovery replays at most this many moves per table; the moves between write no snapshot.
SNAPSHOT_EVERY = 32


@dataclass
class _ChannelLock:
    """A channel's lock and how many callers hold or wait for it (to prune the map)."""

    lock: asyncio.Lock
    users: int = 0


class TableService(FlowMixin):
    """One active table per channel id; games in memory, every change committed to the
    database (``database``: a SQLite file's path, or a ``postgresql://`` URL).

    ``clock`` gives the wall-clock now in epoch seconds (stored deadlines); timers wait with
    ``sleep`` (default ``asyncio.sleep``, which SimCord virtualises). ``ai_delay`` is the pause
    before an AI seat moves (0 in tests). ``local``: a terminal session (negative channel ids).
    ``ai_thread_levels``: AI levels that think in the AI's process pool (the slow ones; they are
    also the "hard AI" of ``limits``). ``limits``: see ``Limits`` (defaults there).
    ``shards``: the Discord shards this process runs (default: all); it loads and opens only
    the tables of their servers, so processes with other shard ranges share the database.
    """

    def __init__(
        self,
        database: Path | str,
        *,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        ai_delay: float = 0.0,
        local: bool = False,
        ai_thread_levels: frozenset[str] = frozenset({"hard"}),
        limits: Limits | None = None,
        shards: Shards | None = None,
        hold_shards: bool = False,
    ) -> None:
        self.db = database_for(database)
        self.shards = shards if shards is not None else Shards()
        #: With ``hold_shards`` (the bot's process: ``from_settings``), on PostgreSQL, this
        #: process's hold on its shards: taken at start, before any table is loaded, and
        #: watched; ``on_shards_lost`` hears of a lost hold. None: no hold (SQLite's instance
        #: lock serves one process; tests build services sharing a database on purpose).
        self.shard_locks = (
            ShardLocks(database, self.shards.count, self.shards.ids, on_lost=self._shards_lost)
            if hold_shards
            else None
        )
        self.on_shards_lost: Callable[[str], Any] | None = None
        #: Terminal tables use negative channel ids; a service loads either those (``local``)
        #: or the Discord ones, so the bot and a terminal session never drive the same table.
        self.local = local
        #: AI levels whose decisions run in a process pool (50-150 ms each; see driver.py).
        self.ai_thread_levels = ai_thread_levels
        self.limits = limits if limits is not None else Limits()
        self.clock = clock
        self.sleep = sleep
        self.ai_delay = ai_delay
        #: The AI's decisions (and its process pool) for the moves nobody types.
        self.driver = Driver(ai_thread_levels)
        #: Every delayed job: AI turns, deadlines, timed windows, idle lobbies, rematch waits.
        self.scheduler = Scheduler(clock, sleep)
        self._listeners = Listeners()
        self._tables: dict[int, LiveTable] = {}
        #: Tables set aside (status broken) until an admin closes them.
        self.broken = BrokenTables()
        self._locks: dict[int, _ChannelLock] = {}
        self.quotas = Quotas(self.limits)
        #: Each channel's last finished game (a rematch plays it again; after a restart it is
        #: read back from the database).
        self._finished: dict[int, _Finished] = {}
        #: Checks of games that raised on a read (``_fault_soon``).
        self._checks: set[asyncio.Task[None]] = set()

    @classmethod
    def from_settings(cls, settings: Any, *, clock: Clock = time.time) -> TableService:
        """A service on ``settings.database`` (DATABASE_URL, else the SQLite file) with
        ``settings.ai_delay``, serving the servers of ``settings.shards``."""
        return cls(
            settings.database,
            clock=clock,
            ai_delay=settings.ai_delay,
            shards=settings.shards,
            hold_shards=True,
        )

    # -- life cycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the database (migrating it), load every table in lobby or play of our shards'
        servers (the others belong to other processes: never touched here), re-arm timers
        (a deadline that passed while down fires at once) and let AI seats carry on.

        A table that cannot be read or whose game raises when used is set aside (status
        ``broken``, logged once with its reason): it never keeps the others from starting."""
        await self.db.open()
        if self.shard_locks is not None:
            try:  # another process serving one of our shards: refuse to start (ShardLockError)
                await self.shard_locks.acquire()
            except BaseException:
                await self.db.close()
                raise
            if self.shard_locks.held:
                self.shard_locks.watch()
        statuses = (TableStatus.LOBBY, TableStatus.PLAYING, TableStatus.BROKEN)
        rows = await self.db.run(lambda c: repo.load_tables(c, [s.value for s in statuses]))
        now = self.clock()
        for row in rows:
            channel = row.columns.get("channel_id")
            if not isinstance(channel, int) or (channel < 0) != self.local:
                continue
            if not self.shards.owns(row.columns.get("guild_id")):
                continue
            if row.columns.get("status") == TableStatus.BROKEN.value:
                self.broken.add_row(row, row.columns.get("broken_reason"))
                continue
            try:
                table = self._load(row, now)
            except Exception as exc:  # one unreadable table must not keep the bot down
                await self._set_aside_row(row, reason_of(exc))
                continue
            self._tables[table.channel_id] = table
        # The loaded games leave the collector's scans (see gc_tuning: GC pauses made the p99).
        tune_gc()
        # The loop's thread gets the GIL back quickly from the worker threads.
        tune_switch_interval()
        self.scheduler.start(self)
        for table in self._tables.values():
            if table.status is TableStatus.PLAYING:
                self.wake(table)
            elif table.status is TableStatus.LOBBY:
                self.arm_idle(table)
                if "rematch_of" in table.settings:
                    self.arm_rematch(table)

    async def close(self) -> None:
        """Cancel timers and AI tasks, wait for pending commits, close the database."""
        for check in list(self._checks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await check
        await self.scheduler.stop()
        await self.driver.stop()
        await self.db.close()
        if self.shard_locks is not None:
            await self.shard_locks.release()
        self._tables.clear()

    def _shards_lost(self, reason: str) -> None:
        """The shard locks' connection is gone: another process may hold our shards now. The
        write guard refuses any write over its moves meanwhile; the application stops."""
        log.critical("lost the hold on %s (%s): stopping", self.shards, reason)
        if self.on_shards_lost is not None:
            self.on_shards_lost(reason)

    async def settle(self) -> None:
        """Wait until no AI move or due timeout is pending: every table waits for a human (or
        for a deadline still in the future). For tests, and the terminal between turns."""
        await self.scheduler.settle()

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

    def guild_tables(self, guild_id: int | None) -> list[TableSummary]:
        """The guild's open tables, then those set aside (broken), each oldest first."""
        open_tables = [
            t.summary()
            for t in sorted(self._tables.values(), key=lambda t: t.id)
            if t.guild_id == guild_id
        ]
        return open_tables + self.broken.of_guild(guild_id)

    def snapshot(self, channel_id: int) -> TableSnapshot | None:
        """The current state of the channel's table in lobby or play (``snapshot.py``): what
        a client that connects reads first; events carry the later ones. None: no table."""
        table = self._tables.get(channel_id)
        return None if table is None else table.current_state()

    def view(self, channel_id: int, user_id: int) -> TableView:
        """The user's seat view, or the spectator view if he holds no seat. Raises NoTable,
        TableBroken. Made once per state of the table and shared: read it, never change it."""
        table = self._require(channel_id)
        seat = table.seat_of(user_id)
        index = seat.index if seat is not None and seat.is_human else None
        try:
            return table.current_state().table_view(index)
        except GAME_FAULTS as exc:
            raise self._fault_soon(table, exc) from exc

    def public_view(self, channel_id: int) -> dict[str, Any] | None:
        """What a spectator sees of the game (None in the lobby or with no table here)."""
        table = self._tables.get(channel_id)
        if table is None or table.game is None:
            return None
        try:
            view = table.current_state().public_view
        except GAME_FAULTS as exc:
            self._fault_soon(table, exc)
            return None
        return None if view is None else dict(view)

    def legal_actions(self, channel_id: int, user_id: int) -> list[str]:
        """What the user may do now (buttons, autocomplete); [] if not his turn / not seated."""
        table = self._tables.get(channel_id)
        if table is None:
            return []
        seat = table.seat_of(user_id)
        index = seat.index if seat is not None and seat.is_human else None
        try:
            return list(table.current_state().legal(index))
        except GAME_FAULTS as exc:
            self._fault_soon(table, exc)
            return []

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
        """Open a lobby; the host takes seat 0. Raises TableExists, UnknownGame, the
        ``LimitReached`` refusals (cooldown, lobbies per user and per server), and OtherShard
        for a server of another process's shards."""
        if not self.shards.owns(guild_id):
            raise OtherShard()
        key = str(game).strip().lower()
        spec = engine.GAMES.get(key)
        if spec is None:
            raise UnknownGame(
                _("There is no game `{game}`. Games: {games}.", game=excerpt(game),
                  games=", ".join(engine.GAMES))
            )  # fmt: skip
        try:
            resolved = spec.resolve(preset, options)
            overrides = {name: spec.option(name).parse(v) for name, v in (options or {}).items()}
        except IllegalAction as exc:
            raise UnknownGame(refusal_text(exc)) from None
        preset_key = preset.strip().lower() if preset else None
        async with self.locked(channel_id), refused_writes(channel_id):
            if channel_id in self._tables:
                raise TableExists(
                    _("This channel already has a {game} table. Join it, or ask its host to"
                      " abandon it first.", game=_(self._tables[channel_id].spec.title))
                )  # fmt: skip
            now = self.clock()
            self.quotas.check_open(self._tables.values(), host_id, guild_id, now)
            host = Seat(index=0, name=host_name, user_id=host_id, team=team_of(key, 0))
            table = LiveTable(
                id=0,
                channel_id=channel_id,
                guild_id=guild_id,
                game_name=key,
                host_id=host_id,
                status=TableStatus.LOBBY,
                created_at=now,
                preset=preset_key,
                overrides=overrides,
                options=resolved,
                seed=seed,
                seats={0: host},
                active_at=now,
            )
            await self._insert_open(table, now)
            events: list[TableEvent] = [TableOpened(table.public())]
            await self._announce(channel_id, events)
        return table.public()

    async def _insert_open(self, table: LiveTable, now: float) -> None:
        """Store a new lobby (lock held; the lobby limits checked) and hold it in memory.
        Raises TableExists if another process opened a table in its channel meanwhile."""
        host, guild = table.host_id, table.guild_id
        columns, rows = table.columns(), table.seat_rows()
        try:
            with self.quotas.opening(host, guild, now):
                table.id = await self._commit(lambda c: repo.insert_table(c, columns, rows))
        except INTEGRITY_ERRORS:  # an open table of another process (terminal/bot)
            raise TableExists(_("This channel already has an open table.")) from None
        self._tables[table.channel_id] = table
        metrics.TABLES_OPENED.labels(game=table.game_name).inc()
        self.arm_idle(table)

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
        given team, in games with fixed teams: team ``t`` holds the seats ``s`` with
        ``s % teams == t``; ``partner_id``: a seat of
        that seated user's team). During play: a player who left takes his own seat back, and
        anyone may take a seat the AI holds if the table's ``seats`` setting is ``open`` (or
        ``invite`` and the host invited him: ``_take_seat``). Raises NoTable, WrongPhase,
        AlreadySeated, NotAtTable, TableFull."""
        async with self._table_op(channel_id) as table:
            if table.status is TableStatus.PLAYING:
                events = await self._take_seat(table, user_id, name, seat, team, partner_id)
                await self._announce(channel_id, events)
                return table.public()
            if table.seat_of(user_id) is not None:
                raise AlreadySeated(_("You already have a seat at this table."))
            if table.status is not TableStatus.LOBBY:
                raise WrongPhase(_("The game has already started; you can watch it."))
            team = self._partner_team(table, partner_id, team)
            index = self._free_seat(table, seat, team)
            team_no = team_of(table.game_name, index)
            new = Seat(index=index, name=name, user_id=user_id, team=team_no)
            saved = table.checkpoint()
            table.seats[index] = new
            if user_id in table.spectators:
                table.spectators.remove(user_id)
            await self._save(table, saved)
            await self._announce(channel_id, [PlayerJoined(table.public(), new)])
            return table.public()

    async def _take_seat(
        self,
        table: LiveTable,
        user_id: int,
        name: str,
        seat: int | None,
        team: int | None,
        partner_id: int | None,
    ) -> list[TableEvent]:
        """During play (lock held): the user takes a seat the AI holds. His own seat if he
        left it (always allowed, unless the host removed him); else, if the table's seats are
        open (or invite, and he is invited), the given seat or the first AI-held one (of
        ``team`` / the partner's team). The seat keeps its number and team; his timer starts
        if the seat is awaited."""
        mine = table.seat_of(user_id)
        if mine is not None and mine.is_human:
            raise AlreadySeated(_("You already have a seat at this table."))
        if mine is not None:
            if mine.kicked:
                raise NotAtTable(_("The host removed you from this game; you can watch it."))
            if seat is not None and seat != mine.index:
                raise TableFull(
                    _("You left seat {number}: /join without a seat takes it back.",
                      number=mine.index + 1)
                )  # fmt: skip
            target = mine
        else:
            mode = table_settings.seats_mode(table.settings)
            if mode == "closed":
                raise WrongPhase(
                    _("The game has already started and its seats are closed; you can watch it.")
                )
            if mode == "invite" and user_id not in table_settings.invited(table.settings):
                host = table.seat_of(table.host_id)
                if host is not None:
                    raise WrongPhase(
                        _("This table takes only invited players: ask the host ({name}) to invite"
                          " you.", name=excerpt(host.name))
                    )  # fmt: skip
                raise WrongPhase(
                    _("This table takes only invited players: ask the host to invite you.")
                )
            team = self._partner_team(table, partner_id, team)
            target = self._ai_seat(table, seat, team)
        taken = Seat(index=target.index, name=name, user_id=user_id, team=target.team)
        saved = table.checkpoint()
        table.seats = {**table.seats, target.index: taken}
        if user_id in table.spectators:
            table.spectators.remove(user_id)
        game = table.game
        assert game is not None
        table.deadlines = self._deadlines_for(table, game, table.deadlines, None, self.clock())
        await self._save(table, saved)
        public = table.public()
        events: list[TableEvent] = [SeatTaken(public, taken, target, rejoined=mine is not None)]
        if target.index in game.to_act():
            events.append(
                TurnChanged(
                    public, tuple(game.to_act()), dict(table.deadlines), table.window_deadline
                )
            )
        self.wake(table)
        return events

    @staticmethod
    def _partner_team(table: LiveTable, partner_id: int | None, team: int | None) -> int | None:
        """The team asked for: the partner's if one was chosen (he must hold a seat, and the
        game have teams), else ``team``."""
        if partner_id is None:
            return team
        partner = table.seat_of(partner_id)
        if partner is None:
            raise NotAtTable(_("The partner you chose has no seat at this table."))
        if partner.team is None:
            raise TableFull(_("{game} has no teams.", game=_(table.spec.title)))
        return partner.team

    def _ai_seat(self, table: LiveTable, seat: int | None, team: int | None) -> Seat:
        """The seat the AI holds that a member may take (``seat``, or the first of ``team``)."""
        if seat is not None:
            target = table.seats.get(seat)
            if target is None:
                size = len(table.seats)
                raise TableFull(_("There is no seat {number}: seats are 1 to {size}.",
                                  number=seat + 1, size=size))  # fmt: skip
            if not target.is_ai:
                raise TableFull(_("Seat {number} is taken by {name}.", number=seat + 1,
                                  name=excerpt(target.name)))  # fmt: skip
            return target
        free = [s for s in sorted(table.seats.values(), key=lambda s: s.index) if s.is_ai]
        if team is not None:
            if team_of(table.game_name, 0) is None:
                raise TableFull(_("{game} has no teams.", game=_(table.spec.title)))
            free = [s for s in free if s.team == team]
            if not free:
                raise TableFull(_("No seat of that team is free: its seats are all played."))
        if not free:
            raise TableFull(_("Every seat is played by a member; you can watch the game."))
        return free[0]

    async def set_settings(
        self,
        channel_id: int,
        user_id: int,
        *,
        seats: str | None = None,
        away_after: int | str | None = None,
        hints: str | None = None,
    ) -> Table:
        """The host changes the table's service settings (``table_settings``), in the lobby or
        during play. Raises NotHost, BadSetting (nothing changes)."""
        async with self._table_op(channel_id) as table:
            self._require_host(
                table, user_id, N_("Only the host ({name}) can change the table's settings.")
            )
            settings = dict(table.settings)
            if seats is not None:
                settings["seats"] = table_settings.parse_seats(seats)
            if away_after is not None:
                settings["away_after"] = table_settings.parse_away_after(away_after)
            if hints is not None:
                settings["hints"] = table_settings.parse_hints(hints)
                # Hints on at any moment of play leave the game unrated, even once turned off.
                if table.status is TableStatus.PLAYING and (
                    table_settings.was_hinted(table.settings) or table_settings.was_hinted(settings)
                ):
                    settings["hinted"] = True
            if settings == table.settings:
                return table.public()
            saved = table.checkpoint()
            table.settings = settings
            await self._save(table, saved)
            await self._announce(channel_id, [SettingsChanged(table.public())])
            return table.public()

    async def spectate(self, channel_id: int, user_id: int) -> Table:
        """Watch the table (any status). Seated users are not spectators."""
        async with self._table_op(channel_id) as table:
            seat = table.seat_of(user_id)
            if seat is not None and seat.is_human:
                raise AlreadySeated(_("You have a seat at this table; you see it from there."))
            if user_id in table.spectators:
                return table.public()
            saved = table.checkpoint()
            table.spectators.append(user_id)
            await self._save(table, saved)
            await self._announce(channel_id, [SpectatorJoined(table.public(), user_id)])
            return table.public()

    async def leave(self, channel_id: int, user_id: int) -> Table:
        """Leave. In the lobby the seat frees (host passes to the next human; an empty lobby
        closes); during play the AI takes the seat. Raises NotAtTable."""
        async with self._table_op(channel_id) as table:
            seat = table.seat_of(user_id)
            if seat is None or not seat.is_human:
                if user_id in table.spectators:
                    saved = table.checkpoint()
                    table.spectators.remove(user_id)
                    await self._save(table, saved)
                    return table.public()
                raise NotAtTable(_("You have no seat at this table."))
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
            raise UnknownGame(
                _("There is no AI level `{level}`. Levels: {levels}.", level=excerpt(level),
                  levels=", ".join(ai.LEVELS))
            )  # fmt: skip
        async with self._table_op(channel_id) as table:
            self._require_host(table, user_id, N_("Only the host ({name}) can add an AI."))
            if table.status is not TableStatus.LOBBY:
                raise WrongPhase(_("The game has already started."))
            index = self._free_seat(table, seat, None)
            self.quotas.check_ai(self._tables.values(), table.guild_id, key, self.ai_thread_levels)
            count = 1 + sum(1 for s in table.seats.values() if s.user_id is None)
            new = Seat(
                index=index,
                name=f"AI {count} ({key})",
                ai_level=key,
                team=team_of(table.game_name, index),
            )
            saved = table.checkpoint()
            table.seats[index] = new
            await self._save(table, saved)
            await self._announce(channel_id, [PlayerJoined(table.public(), new)])
            return table.public()

    async def kick(self, channel_id: int, host_id: int, seat: int, *, admin: bool = False) -> Table:
        """Host removes the occupant of ``seat`` (human or AI) from the lobby; during play the
        AI takes a kicked human's seat. ``admin`` (a server admin, the caller checked): he may
        remove an away player during play without being the host."""
        async with self._table_op(channel_id) as table:
            target = table.seats.get(seat)
            may_remove_away = admin and target is not None and target.away
            if not may_remove_away:
                self._require_host(table, host_id, N_("Only the host ({name}) can kick a player."))
            if target is None:
                raise NotAtTable(_("Nobody sits at seat {number}.", number=seat + 1))
            if target.user_id == host_id:
                raise NotHost(_("You cannot kick yourself; leave the table instead."))
            if table.status is TableStatus.LOBBY:
                events = await self._remove_from_lobby(table, target, kicked_by=host_id)
            elif target.is_human:
                events = await self._hand_to_ai(table, target, kicked_by=host_id)
            else:
                raise WrongPhase(_("The AI already plays that seat."))
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
        async with self._table_op(channel_id) as table:
            self._require_host(table, user_id, N_("Only the host ({name}) can change the options."))
            if table.status is not TableStatus.LOBBY:
                raise WrongPhase(_("Options can only change before the game starts."))
            spec = table.spec
            new_preset = preset.strip().lower() if preset else table.preset
            try:
                overrides = dict(table.overrides)
                for name, value in (options or {}).items():
                    overrides[name] = spec.option(name).parse(value)
                resolved = spec.resolve(new_preset, overrides)
            except IllegalAction as exc:
                raise UnknownGame(refusal_text(exc)) from None
            saved = table.checkpoint()
            table.preset, table.overrides, table.options = new_preset, overrides, resolved
            await self._save(table, saved)
            await self._announce(channel_id, [OptionsChanged(table.public())])
            return table.public()

    async def start_game(self, channel_id: int, user_id: int) -> Table:
        """Host starts the game when the number of seats fits. Raises CannotStart."""
        async with self._table_op(channel_id) as table:
            self._require_host(table, user_id, N_("Only the host ({name}) can start the game."))
            if table.status is not TableStatus.LOBBY:
                raise WrongPhase(_("The game has already started."))
            events = await self._start(table)
            await self._announce(channel_id, events)
            return table.public()

    async def _start(self, table: LiveTable) -> list[TableEvent]:
        """Deal the lobby's game (lock held); raises CannotStart if the seats do not fit."""
        count = len(table.seats)
        try:
            table.spec.check_players(count, table.options)
        except IllegalAction as exc:
            raise CannotStart(refusal_text(exc)) from None
        seed = table.seed
        if seed is None:
            seed = random.SystemRandom().randrange(2**53)
        try:
            game = engine.new_game(table.game_name, count, options=table.options, seed=seed)
        except IllegalAction as exc:
            raise CannotStart(refusal_text(exc)) from None
        saved = table.checkpoint()
        # Seats keep their order; gaps left by people who left the lobby close up.
        ordered = sorted(table.seats.values(), key=lambda s: s.index)
        # (``replace`` keeps ``left_at``: a rematch's seats kept for those who did not confirm.)
        table.seats = {
            i: dataclasses.replace(s, index=i, team=team_of(table.game_name, i))
            for i, s in enumerate(ordered)
        }
        now = self.clock()
        snapshot = game.to_json()
        table.status, table.seed, table.started_at = TableStatus.PLAYING, seed, now
        table.snapshot = table.initial_snapshot = snapshot
        table.snapshot_version, table.move_number = engine.SNAPSHOT_VERSION, 0
        table.snapshot_move, table.since_snapshot = 0, []
        table.deadlines = self._deadlines_for(table, game, {}, None, now)
        table.window_deadline = timers.next_window_deadline(
            game, previous=None, before=None, now=now
        )
        await self._save(table, saved)
        table.game = game
        public = table.public()
        events: list[TableEvent] = [
            GameStarted(public),
            TurnChanged(public, tuple(game.to_act()), dict(table.deadlines), table.window_deadline),
        ]
        self.wake(table)
        return events

    # -- play ---------------------------------------------------------------------------------
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
            result, events = await self._apply(
                table, seat.index, action, ActionSource.PLAYER, user_id
            )
            metrics.ACTION_LATENCY.observe(time.perf_counter() - received)
            await self._announce(channel_id, events)
            return result

    async def force_end(self, channel_id: int, by_user_id: int, reason: str) -> Table:
        """End the channel's table at once, recorded as abandoned (a server admin's decision:
        the caller checks the permission). ``reason`` is told to the table."""
        async with self._table_op(channel_id) as table:
            events = await self._end(table, TableStatus.ABANDONED, None, reason, by=by_user_id)
            await self._announce(channel_id, events)
            return table.public()

    async def close_broken(self, channel_id: int, guild_id: int | None) -> list[TableSummary]:
        """Close the tables of the channel that were set aside (status broken; an admin's
        decision): they become abandoned, with no result (their game cannot be read)."""
        closing = self.broken.in_channel(channel_id, guild_id)
        if not closing:
            return []
        now = self.clock()
        ids = [b.table_id for b in closing]
        columns = {"status": TableStatus.ABANDONED.value, "ended_at": now}

        def write(conn: Any) -> None:
            for table_id in ids:
                repo.update_table(conn, table_id, columns)
                action_log.compact(conn, table_id)

        async with refused_writes(channel_id):
            await self._commit(write)
        for table_id in ids:
            self.broken.remove(table_id)
        return closing

    async def abandon(self, channel_id: int, user_id: int) -> AbandonResult:
        """The host abandons at once; a seated human's call is a vote (a majority of the seated
        humans abandons). A game in play is recorded as abandoned."""
        async with self._table_op(channel_id) as table:
            seat = table.seat_of(user_id)
            is_host = user_id == table.host_id
            if not is_host and (seat is None or not seat.is_human):
                raise NotAtTable(
                    _("Only the host or a seated player can ask to abandon the table.")
                )
            humans = [s.user_id for s in table.humans()]
            needed = len(humans) // 2 + 1
            if is_host:
                events = await self._end(
                    table, TableStatus.ABANDONED, None, later("the host ended it"), by=user_id
                )
                await self._announce(channel_id, events)
                return AbandonResult(table.public(), True, len(table.abandon_votes), needed)
            saved = table.checkpoint()
            if user_id not in table.abandon_votes:
                table.abandon_votes.append(user_id)
            votes = sum(1 for v in table.abandon_votes if v in humans)
            if votes >= needed:
                events = await self._end(
                    table, TableStatus.ABANDONED, None, later("the players voted"), saved
                )
                events.insert(0, AbandonVoted(table.public(), user_id, votes, needed))
                await self._announce(channel_id, events)
                return AbandonResult(table.public(), True, votes, needed)
            await self._save(table, saved)
            events = [AbandonVoted(table.public(), user_id, votes, needed)]
            await self._announce(channel_id, events)
            return AbandonResult(table.public(), False, votes, needed)

    # -- internals: moves ---------------------------------------------------------------------
    async def apply(
        self, table: LiveTable, seat: int, action: str, source: ActionSource
    ) -> list[TableEvent]:
        """A driver's move (an AI seat, a timed-out seat, a window's close); the caller holds
        the channel lock. Returns the events to announce."""
        _, events = await self._apply(table, seat, action, source, None)
        return events

    async def _apply(
        self,
        table: LiveTable,
        seat: int,
        action: str,
        source: ActionSource,
        user_id: int | None,
    ) -> tuple[ActResult, list[TableEvent]]:
        """Apply and commit one move (caller holds the channel lock). The move is normalised
        once; the engine's refusal is the only rules check (whose turn, what is legal): the
        service adds only its own policy (a move that happens by itself is not typed)."""
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
            hands_ended = sum(1 for e in raw if e.get("type") == "hand_over")
            hands = table.hands + hands_ended
            over = game.is_over()
            snapshot = None
            if over or hands_ended or move - table.snapshot_move >= SNAPSHOT_EVERY:
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
                    game, previous=table.window_deadline, before=before, now=now
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
        engine_events = tuple(EngineEvent(data=e, private_to=e.get("private_to")) for e in raw)
        if over:
            table.status, table.ended_at, table.result = TableStatus.FINISHED, now, result
            self._forget(table)
            self._finished[table.channel_id] = _Finished.of(table)
        # The state this move left, read by every listener, the reply and the next AI.
        state = table.current_state()
        public = state.table
        events: list[TableEvent] = [
            ActionApplied(public, seat, user_id, text, source, engine_events, move, snapshot=state)
        ]
        if presence is not None and presence.away and not was_away:
            events.append(PlayerAway(public, presence, snapshot=state))
        events += [
            HandEnded(public, e, snapshot=state) for e in raw if e.get("type") == "hand_over"
        ]
        if over:
            assert result is not None
            events.append(GameOver(public, result, snapshot=state))
        else:
            events.append(
                TurnChanged(public, public.to_act, dict(deadlines), window, snapshot=state)
            )
            self.wake(table)
        return ActResult(public, seat, text, engine_events, move, snapshot=state), events

    def _deadlines_for(
        self,
        table: LiveTable,
        game: engine.Game,
        previous: Mapping[int, float],
        acted: int | None,
        now: float,
        seats: Mapping[int, Seat] | None = None,
    ) -> dict[int, float]:
        """Deadlines of the awaited humans; ``seats``: the seats as they will be (default the
        table's). AI seats and away players get none: the AI moves for them at once."""
        seats = table.seats if seats is None else seats
        return timers.next_deadlines(
            awaited=game.to_act(),
            ai_seats=[s.index for s in seats.values() if s.autoplay],
            previous=previous,
            acted=acted,
            now=now,
            seconds=timers.timer_seconds(table.options),
        )

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

    def _not_your_turn(self, table: LiveTable) -> str:
        seats = table.seats
        waiting = [excerpt(seats[s].name) if s in seats else seat_label(s) for s in table.to_act()]
        if not waiting:
            return _("It is not your turn: waiting for nobody.")
        return _("It is not your turn: waiting for {seats}.", seats=", ".join(waiting))

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
            events = await self._end(
                table, TableStatus.ABANDONED, None, later("everybody left"), saved
            )
            return [PlayerLeft(table.public(), seat), TableClosed(table.public()), *events[1:]]
        new_host = None
        if seat.user_id == table.host_id:
            table.host_id = min(humans, key=lambda s: s.index).user_id or table.host_id
            new_host = table.host_id
        await self._save(table, saved)
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
        replaced = Seat(
            index=seat.index,
            name=seat.name,
            user_id=seat.user_id,
            ai_level=timers.timeout_level(),
            team=seat.team,
            left_at=self.clock(),
            kicked=kicked_by is not None,
        )
        table.seats[seat.index] = replaced
        table.deadlines.pop(seat.index, None)
        if seat.user_id in table.abandon_votes:
            table.abandon_votes.remove(seat.user_id)
        if not table.humans():
            events = await self._end(
                table, TableStatus.ABANDONED, None, later("no human is left"), saved
            )
            return [PlayerLeft(table.public(), replaced, True), *events]
        if seat.user_id == table.host_id:
            table.host_id = min(table.humans(), key=lambda s: s.index).user_id or table.host_id
        await self._save(table, saved)
        public = table.public()
        events: list[TableEvent] = [
            PlayerKicked(public, replaced, kicked_by)
            if kicked_by is not None
            else PlayerLeft(public, replaced, True)
        ]
        if table.host_id != saved["host_id"]:
            events.append(HostChanged(public, table.host_id))
        self.wake(table)
        return events

    async def _end(
        self,
        table: LiveTable,
        status: TableStatus,
        result: dict[str, Any] | None,
        reason: str,
        saved: dict[str, Any] | None = None,
        by: int | None = None,
    ) -> list[TableEvent]:
        """Close the table (abandoned here; a finished game ends in ``_apply``). ``saved``: the
        checkpoint to put back if the write fails (the caller's, when it changed the table
        first)."""
        saved = table.checkpoint() if saved is None else saved
        now = self.clock()
        played = table.status is TableStatus.PLAYING
        if played and result is None and table.game is not None:
            try:
                scores = table.game.view(None).get("scores")
            except GAME_FAULTS:  # a damaged game still ends (an admin's /admin end)
                scores = None
            result = {"abandoned": True, "scores_so_far": scores}

        def build() -> Callable[[Any], None]:
            # Inside the guard: a row that cannot be built puts the status back with the rest.
            if played and table.game is not None:
                with contextlib.suppress(*GAME_FAULTS):  # (a damaged game keeps its snapshot)
                    table.snapshot, table.snapshot_move = table.game.to_json(), table.move_number
            table.status, table.ended_at = status, now
            table.deadlines, table.window_deadline = {}, None
            columns, rows, table_id = table.columns(), table.seat_rows(), table.id

            def write(conn: Any) -> None:
                repo.update_table(conn, table_id, columns, rows)
                if played:
                    repo.record_result(
                        conn, table_id, status=status.value, ended_at=now, result=result
                    )
                    action_log.compact(conn, table_id)

            return write

        await self._commit_or_restore(table, saved, build)
        table.version += 1  # (update_table counted the write)
        table.result = result
        self._forget(table)
        public = table.public()
        return [TableAbandoned(public, by, reason)]

    def _forget(self, table: LiveTable) -> None:
        """The table is over: the channel is free; its driver stops (unless it is us)."""
        if self._tables.get(table.channel_id) is table:
            del self._tables[table.channel_id]
        self.scheduler.cancel(("play", table.channel_id))
        self.scheduler.cancel(idle_key(table.channel_id))

    async def _save(self, table: LiveTable, saved: dict[str, Any]) -> None:
        """Store the table's record and seats (a change outside moves); put ``saved`` back if
        the write fails. A lobby's change makes it active again (see the idle sweep)."""

        def build() -> Callable[[Any], Any]:
            columns, rows, table_id = table.columns(), table.seat_rows(), table.id
            return lambda conn: repo.update_table(conn, table_id, columns, rows)

        await self._commit_or_restore(table, saved, build)
        table.version += 1  # (update_table counted the write)
        table.active_at = self.clock()

    # -- the scheduler's jobs -------------------------------------------------------------------
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
            view = state.view(seat)
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

    async def close_table(self, table: LiveTable, reason: str) -> None:
        """Abandon ``table`` for ``reason`` and tell its channel (the idle sweep's; the caller
        holds the channel lock)."""
        events = await self._end(table, TableStatus.ABANDONED, None, reason)
        await self._announce(table.channel_id, events)

    # -- internals: tables set aside ----------------------------------------------------------
    def _load(self, row: repo.StoredTable, now: float) -> LiveTable:
        """The live table of a stored row; raises (with the reason) if it cannot be used."""
        table = LiveTable(**TableRecord.decode(row), active_at=now)
        if table.status is TableStatus.PLAYING:
            if table.snapshot is None:
                raise ValueError("a table in play has no snapshot")
            if table.snapshot_move > table.move_number:  # it would load as the current game
                raise ValueError(
                    f"the snapshot (move {table.snapshot_move}) is ahead of the table's move "
                    f"number {table.move_number}"
                )
            game = engine.load(table.snapshot)
            # The moves logged after the snapshot, replayed (see SNAPSHOT_EVERY): exactly
            # those up to the move number, none missing and none beyond it.
            numbers = [a.move_number for a in row.tail]
            if numbers != list(range(table.snapshot_move + 1, table.move_number + 1)):
                raise ValueError(
                    f"the action log does not hold exactly the moves between the snapshot (move "
                    f"{table.snapshot_move}) and move {table.move_number} (it holds "
                    f"{len(numbers)} move(s) after the snapshot)"
                )
            # Every player of the game has a seat: a missing one stalls once it is awaited.
            if sorted(table.seats) != list(range(game.players)):
                raise ValueError(
                    f"the seats {sorted(table.seats)} do not cover the game's "
                    f"{game.players} players"
                )
            for logged in row.tail:
                game.apply(logged.seat, logged.action)
            table.since_snapshot = [(a.move_number, a.seat, a.action) for a in row.tail]
            probe(game, list(table.seats))
            table.game = game
        table.public()
        return table

    async def _set_aside_row(self, row: repo.StoredTable, reason: str) -> None:
        """At start-up: store that the row is broken (if the database lets us) and list it."""
        columns = row.columns
        log.error(
            "table %s (channel %s) is set aside as broken: %s",
            row.id,
            columns.get("channel_id"),
            reason,
        )
        marked = {"status": TableStatus.BROKEN.value, "broken_reason": reason}
        try:
            await self._commit(lambda conn: repo.update_table(conn, row.id, marked))
        except Exception:  # listed all the same; its channel stays taken in the database
            log.exception("table %s could not be marked broken", row.id)
        self.broken.add_row(row, reason)

    async def check_game(self, table: LiveTable, exc: BaseException) -> None:
        """The driver met an error: if the game fails the probe the table is set aside (see
        ``_fault``), else the driver stops until the next change. Takes the channel lock."""
        async with self.locked(table.channel_id):
            if self.is_live(table):
                await self._fault(table, exc)

    async def _set_aside(self, table: LiveTable, reason: str) -> None:
        log.error(
            "table %s (channel %s) is set aside as broken: %s",
            table.id,
            table.channel_id,
            reason,
        )
        table.status, table.broken_reason = TableStatus.BROKEN, reason
        marked = {"status": TableStatus.BROKEN.value, "broken_reason": reason}
        table_id = table.id
        try:
            await self._commit(lambda conn: repo.update_table(conn, table_id, marked))
        except Exception:  # set aside in memory all the same: its game cannot be used
            log.exception("table %s could not be marked broken", table.id)
        self._forget(table)
        self.broken.add_live(table, reason)
        await self._announce(table.channel_id, [TableSetAside(table.public(), reason)])

    async def _fault(self, table: LiveTable, exc: BaseException) -> TableError:
        """A command met an error of the game (lock held): if the game fails the probe, the
        table is set aside; either way the user gets a refusal, never the raw error."""
        log.error("table %s: the game raised", table.id, exc_info=exc)
        game = table.game
        if game is None:
            return TableError(_("That could not be done; the table is unchanged."))
        try:
            probe(game, list(table.seats))
        except Exception as failed:
            await self._set_aside(table, reason_of(failed))
            return TableBroken()
        return TableError(_("That could not be done (an error in the game); nothing changed."))

    def _fault_soon(self, table: LiveTable, exc: BaseException) -> TableError:
        """``_fault`` from a read (no lock held, not awaitable): checked in the background."""

        async def check() -> None:
            async with self.locked(table.channel_id):
                if self.is_live(table):
                    await self._fault(table, exc)

        task = asyncio.get_running_loop().create_task(check(), name=f"table-{table.id}-check")
        self._checks.add(task)  # (a task nobody references may be collected mid-way)
        task.add_done_callback(self._checks.discard)
        return TableBroken(
            _("This table's game could not be read; it is being checked. Try again in a moment.")
        )

    # -- internals: plumbing ------------------------------------------------------------------
    async def _commit_or_restore(
        self, table: LiveTable, saved: dict[str, Any], build: Callable[[], Callable[[Any], Any]]
    ) -> None:
        """Build the write (``build``: it may change the table first, and encodes its row) and
        commit it; if either fails, put ``table`` back as ``saved``: memory never disagrees
        with the disk, and a refusal leaves the table as it was. (A value that cannot be
        encoded, such as a caller's wrong-typed id, fails while the row is built.)"""
        try:
            write = build()
            await self._commit(write)
        except BaseException:
            table.restore(saved)
            raise

    async def _commit(self, write: Callable[[Any], Any]) -> Any:
        """Group-commit ``write``; a cancelled caller still waits for the outcome, so memory
        never disagrees with the disk."""
        task = self.db.submit(write)
        task.add_done_callback(_count_failure)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            while not task.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.shield(task)
            if task.exception() is not None:
                raise task.exception() from None  # type: ignore[misc]
            # Committed: the caller must bring memory up to the disk (raising here would make
            # it put the old game back, a move behind its database). The cancellation is
            # asked for again and lands at the caller's next await.
            current = asyncio.current_task()
            if current is not None:
                current.cancel()
            return task.result()

    @contextlib.asynccontextmanager
    async def locked(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's lock. The lock map keeps a channel only while it has a table or
        someone holds or waits for its lock (it does not grow with every channel ever used)."""
        entry = self._locks.get(channel_id)
        if entry is None:
            entry = self._locks[channel_id] = _ChannelLock(asyncio.Lock())
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0 and channel_id not in self._tables:
                del self._locks[channel_id]

    @contextlib.asynccontextmanager
    async def _table_op(self, channel_id: int) -> AsyncIterator[LiveTable]:
        """Hold the channel's lock and yield its table (NoTable if none); an error of the game
        becomes a refusal (``_fault``) instead of reaching the user, and so does a database
        that cannot take the change (``TablePaused``)."""
        async with self.locked(channel_id):
            table = self._require(channel_id)
            try:
                async with refused_writes(channel_id):
                    yield table
            except GAME_FAULTS as exc:
                raise await self._fault(table, exc) from exc

    def table_counts(self) -> dict[str, int]:
        """How many tables are in lobby, in play, and set aside (``/metrics``)."""
        counts = dict.fromkeys((TableStatus.LOBBY.value, TableStatus.PLAYING.value), 0)
        for table in self._tables.values():
            counts[table.status.value] = counts.get(table.status.value, 0) + 1
        counts[TableStatus.BROKEN.value] = len(self.broken)
        return counts

    async def ping(self, timeout: float = 2.0) -> bool:
        """The database answers a query within ``timeout`` seconds (``/healthz``)."""
        try:
            await asyncio.wait_for(self.db.run(lambda c: c.execute("SELECT 1").fetchall()), timeout)
        except Exception:  # closed, gone, locked up: not healthy, whatever the reason
            return False
        return True

    def live_tables(self) -> list[LiveTable]:
        """Every table in lobby or play (the service's own records: for its helpers)."""
        return list(self._tables.values())

    def is_live(self, table: LiveTable) -> bool:
        """The table is still its channel's open table (not ended or set aside meanwhile)."""
        return self._tables.get(table.channel_id) is table

    async def announce(self, channel_id: int, events: list[TableEvent]) -> None:
        """Deliver events (the driver's); the caller holds the channel lock."""
        await self._announce(channel_id, events)

    async def _announce(self, channel_id: int, events: list[TableEvent]) -> None:
        """Deliver events; called with the channel lock held, so a table's events arrive in
        commit order (see listeners.py: a listener must not await a change of that table)."""
        if not events:
            return
        table = self._tables.get(channel_id)
        if table is not None:
            # Each event carries the state it left (events of a move come with theirs).
            state = table.current_state()
            events = [
                dataclasses.replace(e, snapshot=state)
                if e.snapshot is None and e.table is state.table
                else e
                for e in events
            ]
        await self._listeners.emit(events)

    def _require(self, channel_id: int) -> LiveTable:
        table = self._tables.get(channel_id)
        if table is None:
            raise NoTable()
        return table

    def _require_host(self, table: LiveTable, user_id: int, refusal: str) -> None:
        """Raise NotHost with ``refusal`` (a sentence marked ``N_`` with a field ``{name}``,
        the host's name) unless ``user_id`` is the host."""
        if user_id != table.host_id:
            host = table.seat_of(table.host_id)
            # i18n: in "Only the host (the host) can ...", when the host has no seat
            name = excerpt(host.name) if host else _("the host")
            raise NotHost(_(refusal, name=name))

    def _free_seat(self, table: LiveTable, seat: int | None, team: int | None) -> int:
        size = table.spec.max_players
        if seat is not None:
            if not 0 <= seat < size:
                raise TableFull(_("There is no seat {number}: seats are 1 to {size}.",
                                  number=seat + 1, size=size))  # fmt: skip
            if seat in table.seats:
                taken = _("Seat {number} is taken by {name}.", number=seat + 1,
                          name=excerpt(table.seats[seat].name))  # fmt: skip
                raise TableFull(taken)
            return seat
        candidates = [i for i in range(size) if i not in table.seats]
        if team is not None:
            if team_of(table.game_name, 0) is None:
                raise TableFull(_("{game} has no teams.", game=_(table.spec.title)))
            candidates = [i for i in candidates if team_of(table.game_name, i) == team]
            if not candidates:
                raise TableFull(_("That team is full."))
        if not candidates:
            raise TableFull(_("The table is full ({size} players).", size=size))
        return candidates[0]


def _sound(game: engine.Game, seats: list[int]) -> bool:
    """The game passes its probe (``tables.probe``)."""
    try:
        probe(game, seats)
    except Exception:
        return False
    return True


def _count_failure(write: asyncio.Future[Any]) -> None:
    """A write the database refused or failed counts in ``/metrics``."""
    if not write.cancelled() and write.exception() is not None:
        metrics.count_database_error(write.exception())  # type: ignore[arg-type]


__all__ = ["TableError", "TableService"]
