"""2-Player Troeven's ``/rules`` in the reader's language, written for the table's options.

The words of ``engine.troeven.summary`` (which stays the engine's English summary for callers
without a language), said here with ``_()``. The game's name, Troeven, stays; the moves players
type stay in backticks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import _
from engine.troeven.spec import SPEC


def rules_text(options: Mapping[str, Any] | None = None) -> str:
    """The rules as they apply with ``options`` (missing options take their defaults)."""
    o = SPEC.defaults() if options is None else options
    version = o.get("version", "layout")
    strict = bool(o.get("strict_follow", False))
    lines = [
        _(
            "**2-Player Troeven** - 32 cards (A K Q J 10 9 8 7), card points A 4, K 3, Q 2, J 1: "
            "40 in each deal. The dealer alternates."
        )
    ]
    if version == "layout":
        lines.append(
            _(
                "**Layout version**: each player has 8 face-down cards, each covered by a "
                "face-up card (16 cards, 16 tricks). The non-dealer sees his first 4 face-up "
                "cards and names trumps (`trump s`, any suit). You play only face-up cards "
                "(`play 10h`); the card under a played card turns face up at once. Nobody, not "
                "even the owner, knows a face-down card before it turns up."
            )
        )
    else:
        lines.append(
            _(
                "**Stock version**: the non-dealer gets 4 cards and names trumps (`trump s`, any "
                "suit); then each player gets 8 cards and 16 form the stock. After each trick the "
                "winner draws first, then the loser, until the stock is gone (after trick 8)."
            )
        )
    lines.append(
        _(
            "The non-dealer leads the first trick, the winner of a trick leads the next. "
            "The highest trump wins, else the highest card of the suit led."
        )
    )
    if strict:
        follow = _("you must follow suit if you can")
    else:
        follow = _("you must follow suit or play a trump if you hold the suit led")
    if version == "layout":
        lines.append(
            _(
                "Obligations: {follow} (face-up cards count); if you have none of it, play any "
                "card.",
                follow=follow,
            )
        )
    else:
        lines.append(
            _(
                "Obligations: none while the stock lasts. Once it is gone, {follow}; if you have "
                "none of it, you must trump if you can, else play any card.",
                follow=follow,
            )
        )
    lines.append(
        _(
            "Scoring: both start at 7. The player with more card points in a deal goes down 1; "
            "if the dealer wins the deal, the trump caller also goes up 1. 20-20 changes "
            "nothing. The first to reach 0 wins."
        )
    )
    return "\n".join(lines)
