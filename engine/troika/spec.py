"""Troika's table options and presets (the schema the bot builds its commands from)."""

from __future__ import annotations

from engine.options import TIMER, GameSpec, Option
from engine.verbs import Arg, Verb

OPTIONS: tuple[Option, ...] = (
    Option(
        "kitty",
        False,
        "34 cards (adds 7H and 7S); two go to a kitty the declarer takes, then discards two.",
        choices=(True, False),
    ),
    Option("min_bid", 6, "The lowest bid allowed.", choices=(5, 6, 7, 8)),
    Option(
        "misdeal",
        True,
        "A hand with no ace, no court card and neither 5H nor 3S may be thrown in.",
        choices=(True, False),
    ),
    Option("no_trump", True, "Whether `no` (no trumps) bids exist.", choices=(True, False)),
    Option(
        "low",
        "off",
        "Low bids (card ranking reversed): off, with no-trump bids only, or always.",
        choices=("off", "no_trump", "always"),
    ),
    Option(
        "auction",
        "single",
        "single: one turn each, the dealer may equal the high bid; open: raise or drop out.",
        choices=("single", "open"),
    ),
    Option(
        "stick_dealer",
        True,
        "If everyone passes, the dealer must bid (off: the hand is thrown in).",
        choices=(True, False),
    ),
    Option(
        "trump_lead",
        False,
        "The declarer names no trump: the suit of his first lead becomes trumps.",
        choices=(True, False),
    ),
    Option(
        "set_penalty",
        "bid",
        "What a failed declaring team loses: its bid, or the points it took.",
        choices=("bid", "points"),
    ),
    Option(
        "max_non_bid",
        45,
        "Defenders at or above this score no longer add positive points (off: always add).",
        choices=(30, 35, 45, 47, 50, 55, 56, 60, "off"),
    ),
    Option(
        "no_trump_increase",
        False,
        "The first made no-trump contract raises the target and the cut-off by 10, once.",
        choices=(True, False),
    ),
    Option(
        "end",
        "points",
        "The game ends at a points target or after a number of hands.",
        choices=("points", "rounds"),
    ),
    Option("target", 52, "Points needed to win (end = points).", minimum=10, maximum=500),
    Option("rounds", 10, "Hands to play (end = rounds); a tie plays on.", minimum=1, maximum=100),
    Option(
        "first_dealer",
        None,
        "Seat of the first dealer, or random (deal face up until someone gets a Jack).",
        choices=(None, 0, 1, 2, 3),
    ),
    TIMER,
)

PRESETS = {
    "standard": {},
    "saskatchewan": {
        "kitty": True,
        "min_bid": 7,
        "low": "no_trump",
        "misdeal": False,
        "no_trump_increase": True,
    },
    "online": {"auction": "open", "set_penalty": "points"},
}


SPEC = GameSpec(
    name="troika",
    title="Troika",
    min_players=4,
    max_players=4,
    options=OPTIONS,
    presets=PRESETS,
    summary="Kaiser for two partnerships: bid, name trumps, take the 5H and dodge the 3S.",
    default_players=4,
    teams=2,
    verbs=(
        Verb(
            "bid",
            "Bid (e.g. 7, 7 no, 8 low) or pass",
            (Arg("bid", "Your bid; the list shows your legal bids"),),
            also=("pass", "misdeal"),
        ),
        Verb("pass", "Pass"),
        Verb("misdeal", "Throw in your hand (a misdeal), when the options allow it"),
        Verb("trump", "Name trumps", (Arg("suit", "The trump suit"),)),
        Verb("discard", "Discard a card", (Arg("card", "The card to discard"),)),
        Verb("play", "Play a card", (Arg("card", "The card to play, e.g. AH, 10S"),)),
    ),
)
