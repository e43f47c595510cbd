"""TroiKuntza's table options, presets and player range."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from engine.options import TIMER, GameSpec, Option
from engine.verbs import Arg, Verb

MAX_PLAYERS = 10
ROUNDS = 7
HAND_SIZE = 11
CARDS_PER_DECK = 54  # 52 + 2 jokers

OPTIONS: tuple[Option, ...] = (
    Option("allow_three", False, "Let 3 players play (normally 4 to 10).", choices=(True, False)),
    Option(
        "decks",
        "auto",
        "Decks of 52 cards + 2 jokers (auto = max(2, players / 2 rounded up)).",
        minimum=2,
        maximum=6,
        extra=("auto",),
    ),
    Option(
        "natural_majority",
        False,
        "When coming out, each meld needs at least as many natural cards as jokers.",
        choices=(True, False),
    ),
    Option(
        "discard_to_go_out",
        False,
        "Going out always needs a final discard (no going out by laying off the last cards).",
        choices=(True, False),
    ),
    Option(
        "mayi_window",
        # 10 s: on a phone a player must see the new discard, judge whether he wants it and
        # tap `mayi`; 5 s was often gone before that. `fast` keeps 3 s for quick tables.
        10,
        "Seconds to call May I after a discard: to read it on a phone, decide, tap (0: none).",
        minimum=0,
        maximum=30,
    ),
    Option("mayi_limit", 3, "May Is each player may complete per round.", minimum=0, maximum=10),
    Option(
        "mayi_after_out",
        True,
        "Players who have come out may still call May I.",
        choices=(True, False),
    ),
    Option(
        "reshuffles",
        2,
        "Times per round the discards are shuffled into a new stock; when the stock runs out "
        "once more the round ends (a round where nobody can go out must end; unlimited = the "
        "written rule, no cap).",
        minimum=0,
        maximum=5,
        extra=("unlimited",),
    ),
    Option(
        "first_dealer",
        None,
        "Seat of the first dealer (random = drawn from the seed).",
        minimum=0,
        maximum=MAX_PLAYERS - 1,
        extra=(None,),
    ),
    TIMER,
)


def player_range(options: Mapping[str, Any]) -> tuple[int, int]:
    return (3 if options.get("allow_three") else 4, MAX_PLAYERS)


def deck_count(players: int, options: Mapping[str, Any]) -> int:
    decks = options.get("decks", "auto")
    if decks == "auto" or decks is None:
        return max(2, math.ceil(players / 2))
    return int(decks)


SPEC = GameSpec(
    name="troikuntza",
    title="TroiKuntza",
    min_players=3,
    max_players=MAX_PLAYERS,
    options=OPTIONS,
    presets={
        "standard": {},
        "strict": {"natural_majority": True, "discard_to_go_out": True},
        "fast": {"mayi_window": 3},
    },
    summary="Contract rummy with May I: seven rounds of Troikas and Runs, lowest total wins.",
    default_players=4,
    player_range=player_range,
    lowest_wins=True,
    verbs=(
        Verb("take", "Take the top discard"),
        Verb("draw", "Draw from the stock"),
        Verb("mayi", 'Call "May I" for the top discard'),
        Verb("pass", "Pass"),
        Verb(
            "meld",
            "Lay down your contract",
            (Arg("melds", "The melds; the list offers the contracts you can make"),),
        ),
        Verb(
            "layoff",
            "Lay off a card on a meld",
            (Arg("card", "The card to lay off"), Arg("meld", "The meld to put it on")),
        ),
        Verb("discard", "Discard a card", (Arg("card", "The card to discard"),)),
    ),
    service_actions=frozenset({"close"}),
)
