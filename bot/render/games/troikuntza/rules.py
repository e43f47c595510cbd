"""TroiKuntza: ``/rules`` in the reader's language, written for the table's options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import _, _n
from bot.render.games.troikuntza.words import contract_words
from engine.troikuntza.melds import CONTRACTS, contract_min_cards
from engine.troikuntza.spec import SPEC


def rules_text(options: Mapping[str, Any] | None = None) -> str:
    """The rules with these options in the reader's language (the engine's ``summary`` is
    the same text in English, for what runs without the bot)."""
    options = {**SPEC.defaults(), **(options or {})}
    decks = options.get("decks", "auto")
    if decks == "auto":
        deck_text = _("Decks (2, or one per two players at larger tables)")
    else:
        deck_text = _n("{n} deck", "{n} decks", int(decks))
    lines = [
        _(
            "**TroiKuntza**: contract rummy for {low} to 10 players, each for himself. "
            "{decks} of 52 cards + 2 jokers (wild). Seven rounds; lowest total wins.",
            low=3 if options.get("allow_three") else 4,
            decks=deck_text,
        ),
        _("Deal 11 cards each, turn up one card; the player left of the dealer starts."),
        _("**Contracts** (the whole contract at once to come out; melds may be longer):"),
    ]
    for i, code in enumerate(CONTRACTS, start=1):
        lines.append(
            "  "
            # i18n: one contract of TroiKuntza's seven rounds: "3. RR: 2 Runs (at least 8
            # cards)"; {code} is its short form (T = Troika, R = Run).
            + _n(
                "{number}. {code}: {contract} (at least {n} card)",
                "{number}. {code}: {contract} (at least {n} cards)",
                contract_min_cards(code),
                number=i,
                code=code,
                contract=contract_words(code),
            )
        )
    cap = options.get("reshuffles", 2)
    if cap == "unlimited":
        reshuffled = _("the discards are reshuffled into a new stock as often as needed")
    else:
        reshuffled = _n(
            "the discards are reshuffled into a new stock at most {n} time a round",
            "the discards are reshuffled into a new stock at most {n} times a round",
            int(cap),
        )
    strict = bool(options.get("discard_to_go_out"))
    lines.append(
        _(
            "**Troika**: 3+ cards of one rank. **Run**: 4+ cards in sequence in one suit; Ace "
            "low or high, never both (a low-Ace run never takes a King), no wrapping. Two "
            "runs of one suit in a contract must not overlap."
        )
    )
    if strict:
        turn = _(
            "**Turn**: `take` the top discard or `draw` from the stock; then `meld a b c | d "
            "e f` (the whole contract, nothing else that turn) or, on later turns, `layoff "
            "<card> <meld>` on any meld; then `discard <card>` (not the card you took, not "
            "one of your contract)."
        )
        end = _(
            "The round ends when someone has no cards left (after a final discard), or "
            "when a draw finds the stock empty with no discards left to reshuffle "
            "({reshuffled}). Hands score Joker 50, Ace 20, K/Q/J/10 10, 2-9 5.",
            reshuffled=reshuffled,
        )
    else:
        turn = _(
            "**Turn**: `take` the top discard or `draw` from the stock; then `meld a b c | d "
            "e f` (the whole contract, nothing else that turn) or, on later turns, `layoff "
            "<card> <meld>` on any meld; then `discard <card>` (not the card you took, not "
            "one of your contract), unless you go out by laying off all your cards (the one "
            "you took included)."
        )
        end = _(
            "The round ends when someone has no cards left, or when a draw finds the stock "
            "empty with no discards left to reshuffle ({reshuffled}). Hands score Joker 50, "
            "Ace 20, K/Q/J/10 10, 2-9 5.",
            reshuffled=reshuffled,
        )
    lines += [
        turn,
        _("A joker at the end of a run is bumped outward by the natural card it stands for."),
        _mayi_rules(options),
        end,
    ]
    if options.get("natural_majority"):
        lines.append(_("When coming out each meld needs at least as many natural cards as jokers."))
    return "\n".join(lines)


def _mayi_rules(options: Mapping[str, Any]) -> str:
    limit = int(options.get("mayi_limit", 3))
    window = int(options.get("mayi_window", 10))
    if limit == 0:
        return _("**May I** is off at this table.")
    if window:
        when = _(
            "after each discard others have {seconds}s to say `mayi` (or `pass`)",
            seconds=window,
        )
    else:
        when = _("after each discard others may say `mayi` until the player to act takes or draws")
    if options.get("mayi_after_out", True):
        return _n(
            "**May I**: {when}. If the player to act draws instead of taking, the caller "
            "nearest his left gets the discard plus a penalty card; then he may take the "
            "newly exposed card or draw. At most {n} May I per player per round.",
            "**May I**: {when}. If the player to act draws instead of taking, the caller "
            "nearest his left gets the discard plus a penalty card; then he may take the "
            "newly exposed card or draw. At most {n} May Is per player per round.",
            limit,
            when=when,
        )
    return _n(
        "**May I**: {when}. If the player to act draws instead of taking, the caller nearest "
        "his left gets the discard plus a penalty card; then he may take the newly exposed "
        "card or draw. At most {n} May I per player per round; not once you have come out.",
        "**May I**: {when}. If the player to act draws instead of taking, the caller nearest "
        "his left gets the discard plus a penalty card; then he may take the newly exposed "
        "card or draw. At most {n} May Is per player per round; not once you have come out.",
        limit,
        when=when,
    )
