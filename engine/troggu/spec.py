"""Troggu's table options, presets and deal sizes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.options import TIMER, GameSpec, Option
from engine.verbs import Arg, Verb

MIN_PLAYERS, MAX_PLAYERS = 3, 8

#: players -> (cards each, cards in the Tapp).
DEAL_SIZES: dict[int, tuple[int, int]] = {
    3: (18, 8),
    4: (13, 10),
    5: (11, 7),
    6: (9, 8),
    7: (8, 6),
    8: (7, 6),
}

#: From this many players on, all-pass forces a Tapp and the Tappist calls a partner.
PARTNER_PLAYERS = 7

# `deals`: an integer 1-50, or "auto" (the default) meaning "one deal per player", so that each
# player deals once whatever the table size.
DEALS = Option(
    "deals",
    "auto",
    "How many deals the game lasts (1-50); auto = one deal per player.",
    minimum=1,
    maximum=50,
    extra=("auto",),
)

FIRST_DEALER = Option(
    "first_dealer",
    None,
    "Seat of the first dealer (0 = first seat); random = drawn from the game's seed.",
    minimum=0,
    maximum=MAX_PLAYERS - 1,
    extra=(None,),
)

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "quick": {"deals": 1},
}

SUMMARY = "Swiss Tarot for 3 to 8: bid Pass, Tapp or Solo and take more than 57 of 114 points."


def deals_for(options: Mapping[str, Any], players: int) -> int:
    deals = options.get("deals")
    return players if deals in (None, "auto") else int(deals)


SPEC = GameSpec(
    name="troggu",
    title="Troggu",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=(DEALS, FIRST_DEALER, TIMER),
    presets=PRESETS,
    summary=SUMMARY,
    default_players=4,
    verbs=(
        Verb(
            "bid",
            "Bid (e.g. tapp, solo) or pass",
            (Arg("bid", "Your bid; the list shows your legal bids"),),
            also=("pass", "tapp", "solo"),
        ),
        Verb("pass", "Pass"),
        Verb(
            "call",
            "Call a partner by a card",
            (Arg("card", "The card whose holder will be your partner, or none"),),
        ),
        Verb("discard", "Discard a card", (Arg("card", "The card to discard"),)),
        Verb("play", "Play a card", (Arg("card", "The card to play, e.g. AH, 10S"),)),
    ),
)
