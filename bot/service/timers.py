"""Turn deadlines and the AI that moves for a seat: pure functions the service calls.

A seat's deadline is set when it becomes awaited, and again after each of its own moves (the
``timer`` option is the time for one move); a seat still awaited after somebody else moved keeps
its deadline. AI seats get no deadline: they move by themselves after ``ai_delay``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine import Game, TimedWindow, ai
from engine.options import TURN_CLOCKS

#: The level the AI plays a timed-out move with (the best one there is among these).
TIMEOUT_LEVELS = ("normal", "easy")


def timeout_level() -> str:
    for level in TIMEOUT_LEVELS:
        if level in ai.LEVELS:
            return level
    return ai.LEVELS[0]


def move_seed(table_id: int, move_number: int, seat: int) -> int:
    """Deterministic seed for the AI's move number ``move_number`` (1-based) at a table."""
    return (table_id * 1_000_003 + move_number) * 16 + seat


def decide(game: str, level: str, seed: int, view: dict[str, Any], legal: list[str]) -> str:
    """The AI's choice from plain data only (so it may run on another thread)."""
    return ai.make_player(game, level, seed).choose(view, legal)


def timer_seconds(options: Mapping[str, Any]) -> float | None:
    """Seconds per move from the ``timer`` option (seconds, or a turn-based clock such as
    ``"24h"``); None when off (or absent)."""
    value = options.get("timer")
    if isinstance(value, str):
        value = TURN_CLOCKS.get(value)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    return float(value)


#: A clock from this many seconds per move up makes a turn-based table: its players are not
#: watching the table, so they are told when their turn comes (turn pings, ``/notify``).
TURN_BASED_FROM = min(TURN_CLOCKS.values())

#: The move clock a timed window's own seconds are meant for: a live table's default timer.
WINDOW_REFERENCE = 60.0


def turn_based(options: Mapping[str, Any]) -> bool:
    """Is this a turn-based table (a move clock of hours or days)?"""
    seconds = timer_seconds(options)
    return seconds is not None and seconds >= TURN_BASED_FROM


def window_seconds(seconds: float, options: Mapping[str, Any]) -> float:
    """How long a timed window stays open at this table. A live table: the game's own seconds
    (a few, as set). A turn-based table: the same share of a move's clock as those seconds are of
    a live table's minute (10 s of 60: a sixth; 4 h at a 24 h clock), since nobody answers a
    window of seconds in a game played once a day, and a window of a whole clock would make
    every discard wait as long as a move; answering it (or everyone passing) still closes it
    early."""
    clock = timer_seconds(options)
    if clock is None or clock < TURN_BASED_FROM:
        return seconds
    return seconds * clock / WINDOW_REFERENCE


def next_deadlines(
    *,
    awaited: Iterable[int],
    ai_seats: Iterable[int],
    previous: Mapping[int, float],
    acted: int | None,
    now: float,
    seconds: float | None,
) -> dict[int, float]:
    """The deadline of every awaited human seat after a move by ``acted`` (None: none yet)."""
    if seconds is None:
        return {}
    skip = set(ai_seats)
    out: dict[int, float] = {}
    for seat in awaited:
        if seat in skip:
            continue
        kept = previous.get(seat)
        out[seat] = kept if kept is not None and seat != acted else now + seconds
    return out


# -- timed windows (a game's ``Game.timed_window``) -------------------------------------------


def window_open(game: Game) -> bool:
    """Is a window open that closes by itself? (Read from the game: windows are public.)"""
    return game.timed_window() is not None


def next_window_deadline(
    game: Game,
    *,
    previous: float | None,
    before: TimedWindow | None,
    now: float,
    options: Mapping[str, Any] | None = None,
) -> float | None:
    """The deadline of the open window: kept while the same window stays open; a window that
    opened with this move (a new key) gets its seconds (``window_seconds``: scaled at a
    turn-based table of ``options``) from now."""
    window = game.timed_window()
    if window is None:
        return None
    fresh = before is None or previous is None or before.key != window.key
    seconds = window_seconds(window.seconds, options or {})
    return now + seconds if fresh else previous
