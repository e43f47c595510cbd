"""Leaving and endings (a part of ``TableService``): a player leaving or kicked (in the lobby
his seat frees; during play the AI takes it), abandoning (the host at once, the others by
vote), an admin's forced end and closing tables set aside, and the end of a table itself."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any

from bot.i18n import N_, _
from bot.i18n.later import later
from bot.service import timers
from bot.service.core import ServiceCore
from bot.service.errors import (
    GAME_FAULTS,
    NotAtTable,
    NotHost,
    WrongPhase,
)
from bot.service.listeners import (
    AbandonVoted,
    HostChanged,
    PlayerKicked,
    PlayerLeft,
    TableAbandoned,
    TableClosed,
    TableEvent,
)
from bot.service.models import (
    AbandonResult,
    Seat,
    Table,
    TableStatus,
    TableSummary,
)
from bot.service.paused import refused_writes
from bot.service.tables import LiveTable
from bot.storage import action_log
from bot.storage import repository as repo

log = logging.getLogger(__name__)


class EndingsMixin(ServiceCore):
    """Leaving and endings: see the module's docstring."""

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

    async def close_table(self, table: LiveTable, reason: str) -> None:
        """Abandon ``table`` for ``reason`` and tell its channel (an idle lobby's job; the caller
        holds the channel lock)."""
        events = await self._end(table, TableStatus.ABANDONED, None, reason)
        await self._announce(table.channel_id, events)
