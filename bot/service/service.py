"""The table service: every table operation, persisted, serialized per table, with turn timers.

Clients (the Discord cogs, the terminal table, tests) call these coroutines with plain ids and
names, catch ``TableError`` (player-facing message), and render ``TableEvent``s from listeners.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from bot.service.listeners import TableListener
from bot.service.models import AbandonResult, ActResult, Table, TableView

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class TableService:
    """One active table per channel id; games in memory, every change committed to SQLite.

    ``clock`` gives the wall-clock now in epoch seconds (stored deadlines); timers wait with
    ``sleep`` (default ``asyncio.sleep``, which SimCord virtualises). ``ai_delay`` is the pause
    before an AI seat moves (0 in tests).
    """

    def __init__(
        self,
        database_path: Path | str,
        *,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        ai_delay: float = 0.0,
    ) -> None:
        raise NotImplementedError

    @classmethod
    def from_settings(cls, settings: Any, *, clock: Clock = time.time) -> TableService:
        """A service on ``settings.database_path`` with ``settings.ai_delay``."""
        raise NotImplementedError

    # -- life cycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the database (migrating it), load every table in lobby or play, re-arm timers
        (a deadline that passed while down fires at once) and let AI seats carry on."""
        raise NotImplementedError

    async def close(self) -> None:
        """Cancel timers and AI tasks, wait for pending commits, close the database."""
        raise NotImplementedError

    async def settle(self) -> None:
        """Wait until no AI move or due timer is pending (tests; the terminal between turns)."""
        raise NotImplementedError

    def add_listener(self, listener: TableListener) -> None:
        raise NotImplementedError

    def remove_listener(self, listener: TableListener) -> None:
        raise NotImplementedError

    # -- reading ------------------------------------------------------------------------------
    def get_table(self, channel_id: int) -> Table | None:
        """The channel's table in lobby or play, or None."""
        raise NotImplementedError

    def tables(self) -> list[Table]:
        """Every table in lobby or play."""
        raise NotImplementedError

    def view(self, channel_id: int, user_id: int) -> TableView:
        """The user's seat view, or the spectator view if he holds no seat. Raises NoTable."""
        raise NotImplementedError

    def legal_actions(self, channel_id: int, user_id: int) -> list[str]:
        """What the user may do now (buttons, autocomplete); [] if not his turn / not seated."""
        raise NotImplementedError

    def deadlines(self, channel_id: int) -> dict[int, float]:
        """Each awaited human seat's deadline (epoch seconds); {} if the timer is off."""
        raise NotImplementedError

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
        raise NotImplementedError

    async def join(
        self,
        channel_id: int,
        user_id: int,
        name: str,
        seat: int | None = None,
        team: int | None = None,
    ) -> Table:
        """Take a seat in the lobby (the first free one, or the given seat / a seat of the
        given team: Troika's teams are 0 = seats 0+2, 1 = seats 1+3).
        Raises NoTable, WrongPhase, AlreadySeated, TableFull."""
        raise NotImplementedError

    async def spectate(self, channel_id: int, user_id: int) -> Table:
        """Watch the table (any status). Seated users are not spectators."""
        raise NotImplementedError

    async def leave(self, channel_id: int, user_id: int) -> Table:
        """Leave. In the lobby the seat frees (host passes to the next human; an empty lobby
        closes); during play the AI takes the seat. Raises NotAtTable."""
        raise NotImplementedError

    async def add_ai(
        self, channel_id: int, user_id: int, level: str = "easy", seat: int | None = None
    ) -> Table:
        """Host seats an AI of ``level`` (engine.ai.LEVELS) in the lobby."""
        raise NotImplementedError

    async def kick(self, channel_id: int, host_id: int, seat: int) -> Table:
        """Host removes the occupant of ``seat`` (human or AI) from the lobby; during play the
        AI takes a kicked human's seat."""
        raise NotImplementedError

    async def set_options(
        self,
        channel_id: int,
        user_id: int,
        options: Mapping[str, Any] | None = None,
        preset: str | None = None,
    ) -> Table:
        """Host changes the preset and/or options in the lobby (values may be text)."""
        raise NotImplementedError

    async def start_game(self, channel_id: int, user_id: int) -> Table:
        """Host starts the game when the number of seats fits. Raises CannotStart."""
        raise NotImplementedError

    # -- play ---------------------------------------------------------------------------------
    async def act(self, channel_id: int, user_id: int, action: str) -> ActResult:
        """Apply the user's action for his seat; returns once committed and announced.
        Raises NoTable, WrongPhase, NotAtTable, AiSeat, NotYourTurn, IllegalMove."""
        raise NotImplementedError

    async def abandon(self, channel_id: int, user_id: int) -> AbandonResult:
        """The host abandons at once; a seated human's call is a vote (a majority of the seated
        humans abandons). A game in play is recorded as abandoned."""
        raise NotImplementedError
