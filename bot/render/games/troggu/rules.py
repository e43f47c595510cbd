"""Troggu: ``/rules`` in the reader's language, written for the table's options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import _, _n
from engine.troggu.spec import DEAL_SIZES, SPEC


def rules_text(options: Mapping[str, Any] | None = None) -> str:
    """The rules with these options in the reader's language (the engine's ``summary`` is
    the same text in English, for what runs without the bot)."""
    deals = {**SPEC.defaults(), **(options or {})}.get("deals")
    if deals in (None, "auto"):
        deals_text = _("one deal per player (each player deals once)")
    else:
        deals_text = _n("{n} deal", "{n} deals", int(deals))
    sizes = ", ".join(
        # i18n: Troggu's deal by table size: "4: 15 each + 2" (players: cards each + Tapp).
        _("{players}: {cards} each + {tapp}", players=n, cards=c, tapp=t)
        for n, (c, t) in DEAL_SIZES.items()
    )
    lines = [
        _("**Troggu** (Swiss Tarot, 3-8 players). Deal, bidding and play go anticlockwise."),
        _(
            "**Deck**: 62 cards. Cups/Coins K Q N J 1 2 3 4 5 6; Swords/Batons K Q N J 10 9 "
            "8 7 6 5; trumps XXI (T21) down to I (T1); the Fool (FOOL) is the highest trump."
        ),
        _(
            "**Card points**: Fool, XXI, I and Kings 5; Queens 4; Knights 3; Jacks 2; "
            "others 1 (114 in all)."
        ),
        _("**Deal** (cards each + Tapp): {sizes}.", sizes=sizes),
        _(
            "**Bidding**: from the player after the dealer, once each: `pass`, `tapp` or "
            "`solo`. Solo ends the bidding; after a Tapp only pass or solo. All pass: Misère "
            "(3-6 players); at 7-8 the Fool's holder must play Tapp (else the holder of I, "
            "else Misère)."
        ),
        _(
            "**Tapp**: take the Tapp, then `discard` as many cards, one at a time; never the "
            "Fool, XXI, I or a King (Kings only if you hold all four). **Solo**: the Tapp "
            "goes unseen to your pile."
        ),
        _(
            "**Partner** (7-8 players, Tapp): `call t12` (any trump but Fool, XXI, I) or "
            "`call none`. The holder of the called trump is your secret partner until he "
            "plays it."
        ),
        _(
            "**Play**: follow suit, else trump, else anything; highest trump wins, else "
            "highest card of the suit led. If the Fool is your only trump when you must "
            "trump, you may hold it back and play another card: it then stays in hand to the "
            "last trick, never wins, goes to your pile and you give the trick's winner your "
            "lowest card."
        ),
        _(
            "**Scoring**: the contract side wins more than 57 points: 10 (Tapp) / 20 (Solo) "
            "from each other player; double over 84; triple for every trick. Under 57 it "
            "pays the same (double under 30, triple with no trick); exactly 57 pays nothing. "
            "At 7-8 a partner takes two opponents' shares. Misère: whoever took the most "
            "points pays 10 to each player with fewer."
        ),
        _("**Game**: {deals}; highest total wins, ties share the win.", deals=deals_text),
    ]
    return "\n".join(lines)
