"""Troggu's table options, presets, deal sizes and the `/rules` summary."""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


def rules_summary(options: Mapping[str, Any], players: int | None = None) -> str:
    """A readable summary of the rules with these options, for the bot's `/rules`."""
    deals = options.get("deals")
    deals_text = (
        "one deal per player (each player deals once)"
        if deals in (None, "auto")
        else f"{deals} deal{'s' if deals != 1 else ''}"
    )
    sizes = ", ".join(f"{n}: {c} each + {t}" for n, (c, t) in DEAL_SIZES.items())
    lines = [
        "**Troggu** (Swiss Tarot, 3-8 players). Deal, bidding and play go anticlockwise.",
        "**Deck**: 62 cards. Cups/Coins K Q N J 1 2 3 4 5 6; Swords/Batons K Q N J 10 9 8 7 6 5;"
        " trumps XXI (T21) down to I (T1); the Fool (FOOL) is the highest trump.",
        "**Card points**: Fool, XXI, I and Kings 5; Queens 4; Knights 3; Jacks 2; others 1"
        " (114 in all).",
        f"**Deal** (cards each + Tapp): {sizes}.",
        "**Bidding**: from the player after the dealer, once each: `pass`, `tapp` or `solo`."
        " Solo ends the bidding; after a Tapp only pass or solo. All pass: Misère (3-6"
        " players); at 7-8 the Fool's holder must play Tapp (else the holder of I, else"
        " Misère).",
        "**Tapp**: take the Tapp, then `discard` as many cards, one at a time; never the Fool,"
        " XXI, I or a King (Kings only if you hold all four). **Solo**: the Tapp goes unseen to"
        " your pile.",
        "**Partner** (7-8 players, Tapp): `call t12` (any trump but Fool, XXI, I) or `call"
        " none`. The holder of the called trump is your secret partner until he plays it.",
        "**Play**: follow suit, else trump, else anything; highest trump wins, else highest"
        " card of the suit led. If the Fool is your only trump when you must trump, you may"
        " hold it back and play another card: it then stays in hand to the last trick, never"
        " wins, goes to your pile and you give the trick's winner your lowest card.",
        "**Scoring**: the contract side wins more than 57 points: 10 (Tapp) / 20 (Solo) from"
        " each other player; double over 84; triple for every trick. Under 57 it pays the same"
        " (double under 30, triple with no trick); exactly 57 pays nothing. At 7-8 a partner"
        " takes two opponents' shares. Misère: whoever took the most points pays 10 to each"
        " player with fewer.",
        f"**Game**: {deals_text}; highest total wins, ties share the win.",
    ]
    return "\n".join(lines)


def _ai_players() -> dict[str, Callable[[int], Any]]:
    from engine.ai import troggu as ai
    from engine.ai.random_player import RandomPlayer

    return {
        "easy": lambda seed: RandomPlayer("troggu", seed),
        "normal": lambda seed: ai.TrogguNormal(seed),
        "hard": lambda seed: ai.TrogguHard(seed),
    }


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
    ai_players=_ai_players,
)
