"""The web table's one coupling to the table service: subscribe, read a user's state, submit.

Everything the web package knows of the service goes through here. A change's frames are
read from the committed snapshot its event carries (``bot.service.snapshot``: each seat's view
and legal moves computed once and shared with the Discord panels), never by pulling the table
back through the service; a page that connects, or asks again, reads the service's current
one (``TableService.view``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.service import GameOver, HandEnded, Table, TableEvent, TableService
from bot.service.snapshot import TableSnapshot


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
    ``hand_over`` details, at the game's end its result; ``snapshot``: the state it left (the
    events of one move share it; None once the table has ended)."""

    table: Table
    hand_over: Mapping[str, Any] | None = None
    result: Mapping[str, Any] | None = None
    snapshot: TableSnapshot | None = None


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
            self._callback(Change(event.table, hand_over, result, event.snapshot))

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

    def state_in(self, snapshot: TableSnapshot, user_id: int) -> UserState | None:
        """The user's view in ``snapshot`` (as ``state``: his seat if he plays it himself, else
        the public view), read from the snapshot's shared values. A snapshot the table has moved
        on from, or a game that raises, goes the service's way (``state``: its current state,
        its handling of a broken game)."""
        seat = snapshot.table.seat_of(user_id)
        index = seat.index if seat is not None and seat.is_human else None
        if snapshot.current:
            try:
                seen = snapshot.table_view(index)
            except Exception:  # noqa: BLE001 - the service's path says what broke
                pass
            else:
                return UserState(seen.table, seen.seat, seen.game, tuple(seen.legal))
        return self.state(snapshot.table.channel_id, user_id)

    async def submit(self, channel_id: int, user_id: int, action: str) -> None:
        """The user's move, by exactly the path a Discord button takes (``TableService.act``:
        timers, AI seats, away marks, ratings and the table message follow). Raises the
        service's ``TableError`` refusals."""
        await self.service.act(channel_id, user_id, action)
