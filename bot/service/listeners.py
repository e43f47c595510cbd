"""What the service tells its clients: one event class per kind, delivered to listeners.

Listeners get events of one table in order, after the change is committed. A listener that raises
is logged and ignored (it cannot undo a committed move). ``act`` returns only after the listeners
have seen the events of that action, so a client that renders in its listener has rendered by
then. Events triggered by timers or AI seats come from the service's background tasks.

Listeners are called while the table's lock is held (that is what keeps the order): a listener
may read the service (``get_table``, ``view``, ``legal_actions``) but must not await a change of
the same table (``act``, ``join``...); schedule it as a task instead, or it waits for itself.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from bot.service.models import ActionSource, EngineEvent, Seat, Table
from bot.service.snapshot import TableSnapshot

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableEvent:
    """Base: ``table`` is the table right after the change; ``snapshot`` its state then
    (``bot.service.snapshot``: the views and legal moves, computed once and shared; None
    once the table has ended)."""

    table: Table
    snapshot: TableSnapshot | None = field(default=None, kw_only=True, compare=False, repr=False)


@dataclass(frozen=True)
class TableOpened(TableEvent):
    pass


@dataclass(frozen=True)
class PlayerJoined(TableEvent):
    seat: Seat


@dataclass(frozen=True)
class SpectatorJoined(TableEvent):
    user_id: int


@dataclass(frozen=True)
class PlayerLeft(TableEvent):
    """A player left. During play ``replaced_by_ai`` is True: the AI took his seat."""

    seat: Seat
    replaced_by_ai: bool = False


@dataclass(frozen=True)
class PlayerKicked(TableEvent):
    seat: Seat
    by_user_id: int


@dataclass(frozen=True)
class PlayerAway(TableEvent):
    """The timer decided ``away_after`` of his turns in a row: the AI plays for him, without
    waiting for his timer, until he acts again."""

    seat: Seat


@dataclass(frozen=True)
class PlayerBack(TableEvent):
    """An away player used a command or a button: he plays his seat himself again."""

    seat: Seat


@dataclass(frozen=True)
class SeatTaken(TableEvent):
    """During play a human took a seat the AI held: ``seat`` as it is now, ``previous`` as it
    was (the AI seat, or the player who left). ``rejoined``: he came back to his own seat."""

    seat: Seat
    previous: Seat
    rejoined: bool = False


@dataclass(frozen=True)
class SettingsChanged(TableEvent):
    """The host changed the table's service settings (``Table.settings``)."""


@dataclass(frozen=True)
class RematchConfirmed(TableEvent):
    """A player of the finished game confirmed the rematch (the rematch lobby is ``table``);
    ``waiting`` are the players of that game who have not yet."""

    seat: Seat
    waiting: tuple[str, ...] = ()


@dataclass(frozen=True)
class HostChanged(TableEvent):
    """The host left the lobby; the next human seated became host."""

    host_id: int


@dataclass(frozen=True)
class OptionsChanged(TableEvent):
    pass


@dataclass(frozen=True)
class GameStarted(TableEvent):
    pass


@dataclass(frozen=True)
class ActionApplied(TableEvent):
    """A move. ``source`` says whether the player, an AI seat, or the timeout AI made it.

    ``events`` are the engine's events; show each only where ``event.visible_to(seat)``.
    """

    seat: int
    user_id: int | None
    action: str
    source: ActionSource
    events: tuple[EngineEvent, ...]
    move_number: int


@dataclass(frozen=True)
class TurnChanged(TableEvent):
    """Who is awaited now, each awaited human seat's deadline (epoch seconds), and when an open
    timed window closes by itself (``Game.timed_window``; None otherwise)."""

    to_act: tuple[int, ...]
    deadlines: Mapping[int, float] = field(default_factory=dict)
    window_deadline: float | None = None


@dataclass(frozen=True)
class HandEnded(TableEvent):
    """The engine's ``hand_over`` event (scores of the deal / round)."""

    details: Mapping[str, Any]


@dataclass(frozen=True)
class GameOver(TableEvent):
    """The game ended; ``result`` is ``Game.result()`` (scores, winners, ...)."""

    result: Mapping[str, Any]


@dataclass(frozen=True)
class AbandonVoted(TableEvent):
    user_id: int
    votes: int
    needed: int


@dataclass(frozen=True)
class TableAbandoned(TableEvent):
    """``by_user_id`` is None when a vote decided it (or no human was left)."""

    by_user_id: int | None
    reason: str


@dataclass(frozen=True)
class TableClosed(TableEvent):
    """The lobby emptied (the last human left): the table is gone, status abandoned."""


@dataclass(frozen=True)
class TableStalled(TableEvent):
    """The table's moves cannot be stored (the database refuses writes: a full disk, a locked
    or read-only file): the AI and timers stopped moving after several retries and keep
    retrying slowly. Sent once per stall; the table moves on by itself once a write succeeds
    (its next ``ActionApplied`` says so). ``reason`` is the database's error, for the log; tell
    the players their table is paused and that the server's admin has been told."""

    reason: str


@dataclass(frozen=True)
class TableSetAside(TableEvent):
    """The table's game raised when used (a damaged saved state): the table is set aside with
    status ``broken`` and its channel is free. ``reason`` is for the log; tell the players the
    table cannot go on and a server admin can close it (``/admin end``)."""

    reason: str


@runtime_checkable
class TableListener(Protocol):
    """Anything with this coroutine method can be passed to ``TableService.add_listener``."""

    async def on_table_event(self, event: TableEvent) -> None: ...


class Listeners:
    """The service's listener list; delivers an event to each, isolating their failures."""

    def __init__(self) -> None:
        #: Replaced, never changed in place: an event goes to the listeners there were when
        #: its delivery began, as a copy of a list would, without copying at every event.
        self._items: tuple[TableListener, ...] = ()

    def add(self, listener: TableListener) -> None:
        if listener not in self._items:
            self._items = (*self._items, listener)

    def remove(self, listener: TableListener) -> None:
        if listener in self._items:
            items = list(self._items)
            items.remove(listener)
            self._items = tuple(items)

    async def emit(self, events: list[TableEvent]) -> None:
        for event in events:
            for listener in self._items:
                try:
                    await listener.on_table_event(event)
                except Exception:  # a client's rendering bug must not break the table
                    log.exception("listener %r failed on %s", listener, type(event).__name__)


class RecordingListener:
    """Keeps every event (for tests and the terminal client)."""

    def __init__(self) -> None:
        self.events: list[TableEvent] = []

    async def on_table_event(self, event: TableEvent) -> None:
        self.events.append(event)

    def of_type(self, kind: type[TableEvent]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]
