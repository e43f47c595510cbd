"""Troeven's table options and presets (the schema the table service and slash commands use)."""

from __future__ import annotations

from engine.options import TIMER, GameSpec, Option
from engine.verbs import Arg, Verb

VERSION = Option(
    "version",
    "layout",
    "layout: 8 face-down cards each covered by a face-up card; "
    "stock: a hand of 8 and a 16-card stock to draw from.",
    choices=("layout", "stock"),
)
STRICT_FOLLOW = Option(
    "strict_follow",
    False,
    "Classic obligations: follow suit if able (trumping instead is not allowed); "
    "off = following suit or trumping are both allowed.",
    choices=(False, True),
)
FIRST_DEALER = Option(
    "first_dealer",
    None,
    "Seat of the first dealer (random = drawn from the game's seed).",
    choices=(None, 0, 1),
)


SPEC = GameSpec(
    name="troeven",
    title="2-Player Troeven",
    min_players=2,
    max_players=2,
    options=(VERSION, STRICT_FOLLOW, FIRST_DEALER, TIMER),
    presets={
        "standard": {},
        "layout": {"version": "layout"},
        "stock": {"version": "stock"},
        "classic": {"strict_follow": True},
    },
    summary="Two-player trick-taking from 7 down to 0: take more than 20 of the 40 card points.",
    default_players=2,
    # Each player counts down from 7 and the first at 0 wins: the lower score is the better.
    lowest_wins=True,
    verbs=(
        Verb("trump", "Name trumps", (Arg("suit", "The trump suit"),)),
        Verb("play", "Play a card", (Arg("card", "The card to play, e.g. AH, 10S"),)),
    ),
)
