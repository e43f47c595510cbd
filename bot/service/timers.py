"""Turn deadlines and the AI that moves for a seat: pure functions the service calls.

A seat's deadline is set when it becomes awaited, and again after each of its own moves (the
``timer`` option is the time for one move); a seat still awaited after somebody else moved keeps
its deadline. AI seats get no deadline: they move by themselves after ``ai_delay``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine import Game, ai

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
    """Seconds per move from the ``timer`` option; None when off (or absent)."""
    value = options.get("timer")
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    return float(value)


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


# -- TroiKuntza's May I window ------------------------------------------------------------------
#: Actions only the service sends (never accepted from a player): closing the May I window.
SERVICE_ACTIONS: dict[str, frozenset[str]] = {"troikuntza": frozenset({"close"})}
#: The action that closes a timed window, per game.
CLOSE_ACTION: dict[str, str] = {"troikuntza": "close"}


def window_open(game: Game) -> bool:
    """Is a timed window (TroiKuntza's May I) open? Read from the state: it is public."""
    if game.name not in CLOSE_ACTION:
        return False
    mayi = game.state.get("mayi") or {}
    return bool(mayi.get("open")) and int(game.options.get("mayi_window") or 0) > 0


def window_seconds(game: Game) -> float:
    return float(game.options.get("mayi_window") or 0)


def next_window_deadline(
    game: Game,
    *,
    previous: float | None,
    was_open: bool,
    events: Iterable[Mapping[str, Any]],
    now: float,
) -> float | None:
    """The deadline of the open window: kept while the same window stays open; a window that
    opened with this move (or a new round) gets ``mayi_window`` seconds from now."""
    if not window_open(game):
        return None
    fresh = not was_open or previous is None
    fresh = fresh or any(e.get("type") in {"discard", "hand_over", "deal"} for e in events)
    return now + window_seconds(game) if fresh else previous
