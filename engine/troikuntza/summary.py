"""The readable rules of TroiKuntza, following the table's options, in English.

The bot shows them in the reader's language from its presenter
(``TroiKuntzaPresenter.rules``), which says the same sentences marked for translation (the
engine has no catalogs); a test keeps the two texts equal in English. Change them together.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.troikuntza.melds import CONTRACTS, contract_min_cards, describe_contract


def summary(options: Mapping[str, Any]) -> str:
    players = "3 to 10" if options.get("allow_three") else "4 to 10"
    decks = options.get("decks", "auto")
    deck_text = (
        "Decks (2, or one per two players at larger tables)"
        if decks == "auto"
        else f"{decks} decks"
    )
    lines = [
        f"**TroiKuntza**: contract rummy for {players} players, each for himself. "
        f"{deck_text} of 52 cards + 2 jokers (wild). Seven rounds; lowest total wins.",
        "Deal 11 cards each, turn up one card; the player left of the dealer starts.",
        "**Contracts** (the whole contract at once to come out; melds may be longer):",
    ]
    for i, c in enumerate(CONTRACTS, start=1):
        lines.append(f"  {i}. {c}: {describe_contract(c)} (at least {contract_min_cards(c)} cards)")
    cap = options.get("reshuffles", 2)
    reshuffled = (
        "the discards are reshuffled into a new stock as often as needed"
        if cap == "unlimited"
        else f"the discards are reshuffled into a new stock at most {cap} time{_s(cap)} a round"
    )
    lines += [
        "**Troika**: 3+ cards of one rank. **Run**: 4+ cards in sequence in one suit; Ace low or "
        "high, never both (a low-Ace run never takes a King), no wrapping. Two runs of one suit "
        "in a contract must not overlap.",
        "**Turn**: `take` the top discard or `draw` from the stock; then `meld a b c | d e f` "
        "(the whole contract, nothing else that turn) or, on later turns, `layoff <card> <meld>` "
        "on any meld; then `discard <card>` (not the card you took, not one of your contract)"
        + (
            "."
            if options.get("discard_to_go_out")
            else ", unless you go out by laying off all your cards (the one you took included)."
        ),
        "A joker at the end of a run is bumped outward by the natural card it stands for.",
        mayi_text(options),
        "The round ends when someone has no cards left"
        + (" (after a final discard)" if options.get("discard_to_go_out") else "")
        + ", or when a draw finds the stock empty with no discards left to reshuffle "
        f"({reshuffled}). Hands score Joker 50, Ace 20, K/Q/J/10 10, 2-9 5.",
    ]
    if options.get("natural_majority"):
        lines.append("When coming out each meld needs at least as many natural cards as jokers.")
    return "\n".join(lines)


def mayi_text(options: Mapping[str, Any]) -> str:
    limit = int(options.get("mayi_limit", 3))
    window = int(options.get("mayi_window", 10))
    if limit == 0:
        return "**May I** is off at this table."
    if window:
        when = f"after each discard others have {window}s to say `mayi` (or `pass`)"
    else:
        when = "after each discard others may say `mayi` until the player to act takes or draws"
    after = "" if options.get("mayi_after_out", True) else "; not once you have come out"
    return (
        f"**May I**: {when}. If the player to act "
        "draws instead of taking, the caller nearest his left gets the discard plus a penalty "
        "card; then he may take the newly exposed card or draw. "
        f"At most {limit} May I{_s(limit)} per player per round{after}."
    )


def _s(count: object) -> str:
    return "" if count == 1 else "s"
