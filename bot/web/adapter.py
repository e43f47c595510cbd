"""The web table's one coupling to the table service: subscribe, read a user's state, submit.

Everything the web package knows of the service goes through here, so that when the service
hands out one immutable snapshot per committed move (the ``service-split`` work) this module is
the only one to change. Until then it reads the service the way the Discord panels do:
``TableService.view`` (the user's seat view and legal moves, or the spectator view) from inside
a listener, where the table's lock is held and the state is the committed one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.service import GameOver, HandEnded, Table, TableEvent, TableService


@dataclass(frozen=True)
class UserState:
    """What one user may see of a table now. ``seat`` is his engine seat, or None: a watcher
    (or a player whose seat the AI took), who gets the public view and no moves."""

    table: Table
    seat: int | None
    view: Mapping[str, Any] | None
    legal: tuple[str, ...]


@dataclass(frozen=True)
class Change:
    """A committed change: the table right after it; at a hand's end the engine's
    ``hand_over`` details, at the game's end its result."""

    table: Table
    hand_over: Mapping[str, Any] | None = None
    result: Mapping[str, Any] | None = None


#: Called for every committed change, in commit order.
ChangeCallback = Callable[[Change], None]


class ServiceAdapter:
    def __init__(self, service: TableService) -> None:
        self.service = service
        self._callback: ChangeCallback | None = None

    def subscribe(self, callback: ChangeCallback) -> None:
        """``callback`` hears of every committed change (synchronously, in commit order: read
        the state there, send later)."""
        self._callback = callback
        self.service.add_listener(self)

    def unsubscribe(self) -> None:
        self.service.remove_listener(self)
        self._callback = None

    async def on_table_event(self, event: TableEvent) -> None:
        if self._callback is not None:
            hand_over = event.details if isinstance(event, HandEnded) else None
            result = event.result if isinstance(event, GameOver) else None
            self._callback(Change(event.table, hand_over, result))

    def table(self, channel_id: int) -> Table | None:
        return self.service.get_table(channel_id)

    def state(self, channel_id: int, user_id: int) -> UserState | None:
        """The user's view of the channel's table now; None when there is no table (or it
        cannot be read: the service sets it aside and says so elsewhere)."""
        try:
            seen = self.service.view(channel_id, user_id)
        except Exception:  # NoTable, TableBroken: the page shows "no table"
            return None
        return UserState(seen.table, seen.seat, seen.game, tuple(seen.legal))

    async def submit(self, channel_id: int, user_id: int, action: str) -> None:
        """The user's move, by exactly the path a Discord button takes (``TableService.act``:
        timers, AI seats, away marks, ratings and the table message follow). Raises the
        service's ``TableError`` refusals."""
        await self.service.act(channel_id, user_id, action)
