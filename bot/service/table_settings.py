"""A table's service settings: how the service runs the table, not the rules of its game.

They are kept apart from the game's options (the ``settings`` column, not ``options``): the
engine resolves and checks the options and hands them to the game, which has no use for these
and would refuse names it does not declare; the host may also change them during play, when
the options are fixed. Stored as a small JSON object; a missing key means its default.

- ``away_after``: turns in a row decided by the timer after which a player is marked away (the
  AI then plays for him without waiting for his timer until he acts again).
- ``seats``: who may take an AI's or a vacated seat during play: ``open`` (any member),
  ``invite`` (only the members the host invited) or ``closed`` (nobody; a player who left may
  still come back to his own seat).
- ``invited``: the user ids the host invited (``/tableinvite``); they count when ``seats`` is
  ``invite``.
- ``rematch_of``: the finished table a rematch lobby comes from (set by the service).
- ``hints``: whether ``/hint`` may show a player the hard AI's move (``on``/``off``; off by
  default, so a server's game stays rated).
- ``hinted``: set by the service once hints were on during play; the game is then not rated,
  even if the host turns them off again (a rematch starts without it).
- ``thread``: a table opened in its own thread (``bot.app.threads``): ``{"parent": the channel
  the thread belongs to, "post": the lobby post there}`` (the table's channel is the thread; a
  rematch in the thread keeps it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import _
from bot.service.errors import BadSetting

DEFAULT_AWAY_AFTER = 3
AWAY_AFTER_RANGE = range(1, 21)
#: ``open`` by default: a seat the AI keeps warm is one a member can take, as at a club's table.
SEATS_MODES = ("open", "invite", "closed")
DEFAULT_SEATS = "open"
HINTS_MODES = ("off", "on")
#: Off by default: a hinted game is not rated, and a server's games are rated ones.
DEFAULT_HINTS = "off"

#: A bound on the stored list, so one table's settings stay a small JSON object.
MAX_INVITED = 50


def away_after(settings: Mapping[str, Any]) -> int:
    value = settings.get("away_after")
    return value if isinstance(value, int) and value in AWAY_AFTER_RANGE else DEFAULT_AWAY_AFTER


def seats_mode(settings: Mapping[str, Any]) -> str:
    value = settings.get("seats")
    return value if value in SEATS_MODES else DEFAULT_SEATS


def hints_mode(settings: Mapping[str, Any]) -> str:
    value = settings.get("hints")
    return value if value in HINTS_MODES else DEFAULT_HINTS


def was_hinted(settings: Mapping[str, Any]) -> bool:
    """Were hints on at some point of the game? (Then it is not rated.)"""
    return settings.get("hinted") is True or hints_mode(settings) == "on"


def invited(settings: Mapping[str, Any]) -> tuple[int, ...]:
    """The user ids the host invited (a malformed stored value counts as nobody)."""
    value = settings.get("invited")
    if not isinstance(value, list):
        return ()
    return tuple(v for v in value if isinstance(v, int) and not isinstance(v, bool))


def with_invited(settings: Mapping[str, Any], user_id: int) -> dict[str, Any]:
    """``settings`` with ``user_id`` invited; raises BadSetting when the list is full."""
    already = invited(settings)
    if user_id in already:
        return dict(settings)
    if len(already) >= MAX_INVITED:
        raise BadSetting(_("A table keeps at most {count} invitations.", count=MAX_INVITED))
    return {**settings, "invited": [*already, user_id]}


def thread_of(settings: Mapping[str, Any]) -> tuple[int, int] | None:
    """(parent channel, lobby post) of a table in its own thread, else None (a malformed
    stored value counts as no thread)."""
    value = settings.get("thread")
    if not isinstance(value, Mapping):
        return None
    parent, post = value.get("parent"), value.get("post")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (parent, post)):
        return None
    return parent, post


def parse_away_after(value: Any) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        number = 0
    if number not in AWAY_AFTER_RANGE:
        raise BadSetting(
            _(
                "`away_after` is a number of turns from {low} to {high}.",
                low=AWAY_AFTER_RANGE.start,
                high=AWAY_AFTER_RANGE.stop - 1,
            )  # fmt: skip
        )
    return number


def parse_seats(value: Any) -> str:
    text = str(value).strip().lower()
    if text not in SEATS_MODES:
        raise BadSetting(_("`seats` is one of {modes}.", modes=", ".join(SEATS_MODES)))
    return text


def parse_hints(value: Any) -> str:
    text = str(value).strip().lower()
    if text not in HINTS_MODES:
        raise BadSetting(_("`hints` is one of {modes}.", modes=", ".join(HINTS_MODES)))
    return text
