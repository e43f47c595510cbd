"""A table's service settings: how the service runs the table, not the rules of its game.

They are kept apart from the game's options (the ``settings`` column, not ``options``): the
engine resolves and checks the options and hands them to the game, which has no use for these
and would refuse names it does not declare; the host may also change them during play, when
the options are fixed. Stored as a small JSON object; a missing key means its default.

- ``away_after``: turns in a row decided by the timer after which a player is marked away (the
  AI then plays for him without waiting for his timer until he acts again).
- ``seats``: who may take an AI's or a vacated seat during play: ``open`` (any member) or
  ``closed`` (nobody; a player who left may still come back to his own seat).
- ``rematch_of``: the finished table a rematch lobby comes from (set by the service).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.service.errors import BadSetting

DEFAULT_AWAY_AFTER = 3
AWAY_AFTER_RANGE = range(1, 21)
#: ``open`` by default: a seat the AI keeps warm is one a member can take, as at a club's table.
SEATS_MODES = ("open", "closed")
DEFAULT_SEATS = "open"


def away_after(settings: Mapping[str, Any]) -> int:
    value = settings.get("away_after")
    return value if isinstance(value, int) and value in AWAY_AFTER_RANGE else DEFAULT_AWAY_AFTER


def seats_mode(settings: Mapping[str, Any]) -> str:
    value = settings.get("seats")
    return value if value in SEATS_MODES else DEFAULT_SEATS


def parse_away_after(value: Any) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        number = 0
    if number not in AWAY_AFTER_RANGE:
        raise BadSetting(
            f"`away_after` is a number of turns from {AWAY_AFTER_RANGE.start} to "
            f"{AWAY_AFTER_RANGE.stop - 1}."
        )
    return number


def parse_seats(value: Any) -> str:
    text = str(value).strip().lower()
    if text not in SEATS_MODES:
        raise BadSetting(f"`seats` is one of {', '.join(SEATS_MODES)}.")
    return text
