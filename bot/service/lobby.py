"""Lobbies and seats (a part of ``TableService``): opening a table, joining (also an AI's or
a vacated seat during play), the table's settings and options, AI seats, watching, and dealing
the game when the host starts it."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from typing import Any

import engine
from bot import metrics
from bot.i18n import N_, _
from bot.i18n.refusals import excerpt, refusal_text
from bot.service import deal_seeds, table_settings, timers
from bot.service.core import ServiceCore
from bot.service.errors import (
    AlreadySeated,
    CannotStart,
    NotAtTable,
    OtherShard,
    TableExists,
    TableFull,
    UnknownGame,
    WrongPhase,
)
from bot.service.listeners import (
    GameStarted,
    OptionsChanged,
    PlayerJoined,
    SeatTaken,
    SettingsChanged,
    SpectatorJoined,
    TableEvent,
    TableOpened,
    TurnChanged,
)
from bot.service.models import (
    Seat,
    Table,
    TableStatus,
)
from bot.service.paused import refused_writes
from bot.service.tables import LiveTable, team_of
from bot.storage import repository as repo
from bot.storage.connection import INTEGRITY_ERRORS
from engine import IllegalAction, ai

log = logging.getLogger(__name__)


class LobbyMixin(ServiceCore):
    """Lobbies and seats: see the module's docstring."""

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
        settings: Mapping[str, Any] | None = None,
    ) -> Table:
        """Open a lobby; the host takes seat 0. Raises TableExists, UnknownGame, the
        ``LimitReached`` refusals (cooldown, lobbies per user and per server), and OtherShard
        for a server of another process's shards. ``settings``: the table's first service
        settings (``table_settings``; a table in its own thread records its thread there)."""
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
                settings=dict(settings or {}),
            )
            await self._insert_open(table, now)
            events: list[TableEvent] = [TableOpened(table.public())]
            await self._announce(channel_id, events)
        return table.public()

    def check_open(self, guild_id: int | None, host_id: int) -> None:
        """Raise now what ``open_table`` would refuse for the server or the host (another
        process's shards, the lobby limits): a client checks it before it makes something
        for the table (its own thread). ``open_table`` checks again."""
        if not self.shards.owns(guild_id):
            raise OtherShard()
        self.quotas.check_open(self._tables.values(), host_id, guild_id, self.clock())

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
            seed = deal_seeds.new_seed()
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
            game, previous=None, before=None, now=now, options=table.options
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
