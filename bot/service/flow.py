"""The table service's hints, invitations and rematches (a part of ``TableService``).

A rematch opens a lobby and seats players as the lobby does: ``FlowMixin`` is built on
``LobbyMixin`` (and so on ``ServiceCore``) and uses only their members."""

from __future__ import annotations

import contextlib
import logging

from bot.i18n import N_, _
from bot.i18n.refusals import excerpt
from bot.service import table_settings, timers
from bot.service.errors import (
    GAME_FAULTS,
    AlreadySeated,
    CannotStart,
    NoTable,
    NotAtTable,
    NotYourTurn,
    TableExists,
    WrongPhase,
)
from bot.service.finished import FinishedGame, user_id_of
from bot.service.listeners import (
    RematchConfirmed,
    SettingsChanged,
    TableEvent,
    TableOpened,
)
from bot.service.lobby import LobbyMixin
from bot.service.models import (
    Hint,
    Seat,
    Table,
    TableStatus,
)
from bot.service.paused import refused_writes
from bot.service.tables import LiveTable, TableRecord, team_of
from bot.storage import repository as repo
from engine import IllegalAction

log = logging.getLogger(__name__)


class FlowMixin(LobbyMixin):
    """Hints, invitations and rematches (a part of ``TableService``, on its lobby part)."""

    # -- hints --------------------------------------------------------------------------------
    async def hint(self, channel_id: int, user_id: int) -> Hint:
        """The hard AI's move for the user's seat, for him alone (``/hint``). Nothing changes.
        Raises NoTable, NotAtTable (not a player), WrongPhase (no game yet, hints off),
        NotYourTurn (also when the game moved on while the AI thought)."""
        table = self._require(channel_id)
        seat = table.seat_of(user_id)
        if seat is None or not seat.is_human:
            raise NotAtTable(_("Only a player at this table can ask for a hint."))
        game = table.game
        if table.status is not TableStatus.PLAYING or game is None:
            raise WrongPhase(_("The game has not started yet."))
        if table_settings.hints_mode(table.settings) != "on":
            raise WrongPhase(
                _(
                    "Hints are off at this table. The host may turn them on with "
                    "`/tablesettings hints:on` (a game with hints is not rated)."
                )
            )
        try:
            state = table.current_state()
            legal = list(state.legal(seat.index))
            view = state.view(seat.index)
        except GAME_FAULTS as exc:
            raise self._fault_soon(table, exc) from exc
        if not legal or view is None:
            raise NotYourTurn(self._not_your_turn(table))
        move = table.move_number
        # The seed of the AI's own move here: the hint is the move the hard AI would make.
        seed = timers.move_seed(table.id, move + 1, seat.index)
        action = await self.driver.advise(game.name, seed, view, legal)
        if self._tables.get(channel_id) is not table or table.move_number != move:
            raise NotYourTurn(_("The game moved on while the AI thought: ask again."))
        return Hint(table=table.public(), seat=seat.index, action=action, view=view)

    async def invite(self, channel_id: int, host_id: int, user_id: int) -> Table:
        """The host invites a member: with ``seats = invite`` he may take an AI's or a vacated
        seat during play (stored with the settings, so it outlives a restart and a rematch).
        Raises NotHost, AlreadySeated (he plays here), BadSetting (too many); nothing changes."""
        async with self._table_op(channel_id) as table:
            self._require_host(table, host_id, N_("Only the host ({name}) can invite players."))
            seat = table.seat_of(user_id)
            if seat is not None and seat.is_human:
                raise AlreadySeated(
                    _("{name} already has a seat at this table.", name=excerpt(seat.name))
                )
            settings = table_settings.with_invited(table.settings, user_id)
            if settings == table.settings:
                return table.public()
            saved = table.checkpoint()
            table.settings = settings
            await self._save(table, saved)
            await self._announce(channel_id, [SettingsChanged(table.public())])
            return table.public()

    # -- rematch ------------------------------------------------------------------------------
    async def rematch(self, channel_id: int, user_id: int, name: str) -> Table:
        """Play the channel's last finished game again: the same game, options, settings, AI
        seats (same seats, same levels) and a new seed. The first of its players to ask opens
        the lobby (he is its host) and sits at his old seat; each other player confirms the
        same way and gets his old seat back; once every one of them has, the game starts by
        itself, or ``REMATCH_CONFIRM_SECONDS`` after the lobby opened without those who did
        not answer (``expire_rematch``). Until then the lobby is an ordinary one: the host may
        /start without them, and anyone may /join a free seat. A player who pressed too late
        takes back the seat the AI kept for him. Raises NoTable (no finished game), NotAtTable
        (he did not play it), TableExists (another table is open here)."""
        async with self.locked(channel_id), refused_writes(channel_id):
            current = self._tables.get(channel_id)
            old = self._finished.get(channel_id)
            if old is None:
                old = await self._last_finished(channel_id)
            if old is None:
                raise NoTable(_("There is no finished game in this channel to play again."))
            mine = next((s for s in old.players() if s.user_id == user_id), None)
            if current is not None:
                if current.settings.get("rematch_of") != old.id:
                    raise TableExists(_("This channel already has a table: join it, or watch it."))
                if mine is None:
                    raise NotAtTable(
                        _(
                            "Only the players of the last game confirm the rematch; /join takes"
                            " a free seat."
                        )
                    )
                events = await self._confirm_rematch(current, old, mine, name)
                await self._announce(channel_id, events)
                return current.public()
            if mine is None:
                raise NotAtTable(_("Only the players of the last game can start a rematch."))
            table = await self._open_rematch(channel_id, old, mine, name)
            events: list[TableEvent] = [TableOpened(table.public())]
            events += await self._confirm_rematch(table, old, mine, name, seated=True)
            if table.status is TableStatus.LOBBY:
                self.arm_rematch(table)
            await self._announce(channel_id, events)
            return table.public()

    async def expire_rematch(self, channel_id: int, table_id: int) -> None:
        """The rematch lobby ``table_id`` waited long enough (``rematch_wait``): each player of
        the finished game who has not confirmed gets his old seat (or a free one) as a seat he
        left, so the AI plays it and any member may take it when the table's seats allow (he
        himself takes it back with Rematch or /join); then the game starts. If the seats then
        do not fit the game (the host changed them), the lobby stays open as it is."""
        async with self.locked(channel_id):
            table = self._tables.get(channel_id)
            if table is None or table.id != table_id or table.status is not TableStatus.LOBBY:
                return
            old = self._finished.get(channel_id)
            if old is None:
                old = await self._last_finished(channel_id)
            if old is None or old.id != table.settings.get("rematch_of"):
                return
            missing = [p for p in old.players() if table.seat_of(user_id_of(p)) is None]
            free = [i for i in range(len(old.seats)) if i not in table.seats]
            now = self.clock()
            kept = {
                index: Seat(
                    index=index,
                    name=p.name,
                    user_id=user_id_of(p),
                    ai_level=timers.timeout_level(),
                    team=team_of(table.game_name, index),
                    left_at=now,
                )  # fmt: skip
                for p, index in self._old_seats(missing, free)
            }
            try:
                table.spec.check_players(len(table.seats) + len(kept), table.options)
            except IllegalAction:
                return
            saved = table.checkpoint()
            table.seats = {**table.seats, **kept}
            try:
                events = await self._start(table)
            except BaseException:
                table.restore(saved)
                raise
            await self._announce(channel_id, events)

    @staticmethod
    def _old_seats(players: list[Seat], free: list[int]) -> list[tuple[Seat, int]]:
        """Each player's old seat if it is free, else the next free one (none left: no seat)."""
        placed = [(p, p.index) for p in players if p.index in free]
        rest = [i for i in free if i not in {index for _, index in placed}]
        placed += zip((p for p in players if p.index not in free), rest, strict=False)
        return sorted(placed, key=lambda pair: pair[1])

    async def _last_finished(self, channel_id: int) -> FinishedGame | None:
        row = await self.db.run(lambda c: repo.last_finished(c, channel_id))
        if row is None:
            return None
        try:
            return FinishedGame.of(TableRecord(**TableRecord.decode(row)))
        except Exception:  # an unreadable old table: no rematch of it, nothing else is hurt
            log.exception("channel %s: the last finished table cannot be read", channel_id)
            return None

    async def _open_rematch(
        self, channel_id: int, old: FinishedGame, mine: Seat, name: str
    ) -> LiveTable:
        now = self.clock()
        seats = {
            s.index: Seat(index=s.index, name=s.name, ai_level=s.ai_level, team=s.team)
            for s in old.seats.values()
            if s.user_id is None  # the AI seats (a player who left leaves his seat free)
        }
        seats[mine.index] = Seat(index=mine.index, name=name, user_id=user_id_of(mine),
                                 team=mine.team)  # fmt: skip
        table = LiveTable(
            id=0,
            channel_id=channel_id,
            guild_id=old.guild_id,
            game_name=old.game_name,
            host_id=user_id_of(mine),
            status=TableStatus.LOBBY,
            created_at=now,
            preset=old.preset,
            overrides=dict(old.overrides),
            options=dict(old.options),
            # (the rematch is a new game: hints it had do not make this one unrated by themselves)
            settings={
                **{k: v for k, v in old.settings.items() if k != "hinted"},
                "rematch_of": old.id,
            },
            seats=seats,
            active_at=now,
        )
        # The lobby limits hold as for /new (the hard AI seats were the finished game's).
        self.quotas.check_open(self._tables.values(), table.host_id, table.guild_id, now)
        await self._insert_open(table, now)
        return table

    async def _confirm_rematch(
        self, table: LiveTable, old: FinishedGame, mine: Seat, name: str, seated: bool = False
    ) -> list[TableEvent]:
        """The player of the old game is in (lock held): his old seat (or a free one); the
        game starts once every player of the old game is seated."""
        seat = table.seat_of(user_id_of(mine))
        if seat is None:
            if table.status is not TableStatus.LOBBY:
                raise WrongPhase(_("The rematch has already started; /join may take a free seat."))
            index = mine.index if mine.index not in table.seats else None
            index = self._free_seat(table, index, None)
            seat = Seat(index=index, name=name, user_id=user_id_of(mine),
                        team=team_of(table.game_name, index))  # fmt: skip
            saved = table.checkpoint()
            table.seats = {**table.seats, index: seat}
            if seat.user_id in table.spectators:
                table.spectators.remove(seat.user_id)
            await self._save(table, saved)
        elif seat.left and table.status is TableStatus.PLAYING:
            # Too late: the game started without him; he takes back the seat the AI kept.
            return await self._take_seat(table, user_id_of(mine), name, None, None, None)
        elif not seated:
            return []  # (he had confirmed already)
        waiting = [p.name for p in old.players() if table.seat_of(user_id_of(p)) is None]
        events: list[TableEvent] = [RematchConfirmed(table.public(), seat, tuple(waiting))]
        if not waiting and table.status is TableStatus.LOBBY:
            with contextlib.suppress(CannotStart):  # (the host may still change the seats)
                events += await self._start(table)
        return events
