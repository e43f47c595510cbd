"""The service's public data: immutable snapshots handed to clients (Discord, terminal, tests).

Clients never get the service's live objects: every operation returns a fresh ``Table`` (or
``TableView`` / ``ActResult``) describing the table right after the operation committed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from bot.i18n import _
from bot.storage.seat import Seat  # (the one shape of a seat: also the stored row)

if TYPE_CHECKING:
    from bot.service.snapshot import TableSnapshot


def seat_label(index: int) -> str:
    """A seat as players read it: they count seats from 1 (the engine and storage from 0)."""
    return _("seat {number}", number=index + 1)


class TableStatus(StrEnum):
    """lobby -> playing -> finished; lobby or playing -> abandoned.

    ``broken``: the stored table could not be read or its game raised when used; it is set
    aside (its channel is free for a new table) until a server admin closes it (abandoned).
    """

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    BROKEN = "broken"


class ActionSource(StrEnum):
    """Who made a move: the seated player, the AI of an AI seat, or the AI after a timeout."""

    PLAYER = "player"
    AI = "ai"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class Table:
    """A snapshot of one table.

    ``options`` are the resolved options (defaults, then preset, then overrides); ``overrides``
    only what the host set. ``deadlines`` maps each awaited human seat to its deadline in epoch
    seconds (from the service clock); empty when the timer is off or nobody is awaited.
    """

    id: int
    channel_id: int
    guild_id: int | None
    game: str
    title: str
    preset: str | None
    options: Mapping[str, Any]
    overrides: Mapping[str, Any]
    host_id: int
    status: TableStatus
    seats: tuple[Seat, ...]
    spectators: tuple[int, ...] = ()
    min_players: int = 0
    max_players: int = 0
    created_at: float = 0.0
    started_at: float | None = None
    ended_at: float | None = None
    move_number: int = 0
    to_act: tuple[int, ...] = ()
    deadlines: Mapping[int, float] = field(default_factory=dict)
    abandon_votes: tuple[int, ...] = ()
    result: Mapping[str, Any] | None = None
    #: When the open timed window (``Game.timed_window``) closes by itself (epoch seconds).
    window_deadline: float | None = None
    #: The service's settings of the table (``bot.service.table_settings``).
    settings: Mapping[str, Any] = field(default_factory=dict)

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat ``user_id`` holds (also one the AI took over after he left), or None."""
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    def seat(self, index: int) -> Seat | None:
        for seat in self.seats:
            if seat.index == index:
                return seat
        return None

    def name_of(self, index: int) -> str:
        seat = self.seat(index)
        return seat.name if seat else seat_label(index)

    @property
    def humans(self) -> tuple[Seat, ...]:
        """Seats still played by their human."""
        return tuple(s for s in self.seats if s.is_human)


@dataclass(frozen=True)
class EngineEvent:
    """An engine event as produced by ``Game.apply`` (``data`` is the engine's dict).

    ``private_to`` is the seat allowed to see it (None: everyone). Clients must show a private
    event only to that seat's user.
    """

    data: Mapping[str, Any]
    private_to: int | None = None

    @property
    def type(self) -> str:
        return str(self.data.get("type", ""))

    def visible_to(self, seat: int | None) -> bool:
        return self.private_to is None or self.private_to == seat


@dataclass(frozen=True)
class ActResult:
    """What ``TableService.act`` returns once the action is committed."""

    table: Table
    seat: int
    action: str
    events: tuple[EngineEvent, ...]
    move_number: int
    #: The state the move left (``bot.service.snapshot``): what the acting player's reply reads.
    snapshot: TableSnapshot | None = field(default=None, kw_only=True, compare=False, repr=False)


@dataclass(frozen=True)
class Hint:
    """What ``TableService.hint`` returns: the hard AI's move for the player's seat, and the
    view it chose from (the presenter reads its one-line reason there)."""

    table: Table
    seat: int
    action: str
    view: Mapping[str, Any]


@dataclass(frozen=True)
class TableView:
    """What one user sees: his seat's engine view, or the spectator view.

    ``game`` is None in the lobby. ``legal`` is what the user may do now (empty when it is not
    his turn, or he is a spectator). ``deadline`` is his seat's deadline (epoch seconds) if any.
    """

    table: Table
    seat: int | None
    game: Mapping[str, Any] | None
    legal: tuple[str, ...] = ()
    deadline: float | None = None


@dataclass(frozen=True)
class AbandonResult:
    """Outcome of an abandon request: done at once (host, or the vote reached a majority)."""

    table: Table
    abandoned: bool
    votes: int
    needed: int


@dataclass(frozen=True)
class TableSummary:
    """One line of a guild's table list (``TableService.guild_tables``): an open table, or a
    broken one set aside (``reason`` says why; ``/admin end`` in its channel closes it)."""

    table_id: int
    channel_id: int
    guild_id: int | None
    title: str
    status: TableStatus
    players: tuple[str, ...] = ()
    move_number: int = 0
    reason: str | None = None
