"""Troika (Kaiser): the player's private hand panel and the labels of his moves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.i18n import _, _n, _p
from bot.render.games._tricks import by_suit, card_of_action, trick_lines, trick_now
from bot.render.games._words import pack, within_limits
from bot.render.games.cards import hand_picture_of, pretty, pretty_list, pretty_suit, suit_name
from bot.render.games.troika.table import contract_section, hand_points_section
from bot.render.games.troika.words import bid_words, options_of
from bot.render.one_state import kept
from bot.render.presenter import Picture, Seating, Section, View


def hand_sections(
    view: View, legal: Sequence[str], seating: Seating, hidden: frozenset[str] = frozenset()
) -> list[Section]:
    seat = seating.viewer if seating.viewer is not None else view.get("seat")
    hand = [str(c) for c in view.get("hand") or []]
    sections: list[Section] = []
    if "hand" not in hidden:
        lines = [by_suit(hand)]
        if isinstance(seat, int):
            partner = (seat + 2) % 4
            lines.append(_("Partner: {name}", name=seating.name(partner)))
        sections.append(Section(_("Your hand"), "\n".join(lines), role="hand"))
    # The contract and the hand points change seldom: written again only when they do.
    sections.append(kept(seating, "contract", _contract_reads(view, seating),
                         lambda: contract_section(view, seating)))  # fmt: skip
    table = trick_lines(view, seating)
    if table:
        sections.append(Section(_("Trick"), "\n".join(table)))
    if "table" not in hidden:
        reads = (view.get("hand_points"), view.get("tricks_won"))
        points = kept(seating, "hand points", reads, lambda: hand_points_section(view, seating))
        if points is not None:
            sections.append(replace(points, role="table"))
    move = _move_lines(view, legal, hand)
    if move:
        sections += pack(_("Your move"), move, role="move")
    return within_limits(sections)


def _contract_reads(view: View, seating: Seating) -> tuple[object, ...]:
    """All ``contract_section`` reads of the view (its bidding's lines, its trumps' line, its
    rules' lines): its text changes only when one of them does."""
    return (
        view.get("contract"),
        view.get("trump"),
        view.get("phase"),
        view.get("discard_count"),
        options_of(view, seating),
        view.get("dealer"),
        view.get("dealer_draw"),
        view.get("hand_number"),
        view.get("bids"),
        view.get("high_bid"),
    )


def _move_lines(view: View, legal: Sequence[str], hand: list[str]) -> list[str]:
    if not legal:
        return []
    phase = view.get("phase")
    if phase == "bidding":
        bids = [a for a in legal if a.startswith("bid ")]
        if len(bids) > 2:
            # The bids are in the select below: their range, not all of them again (they filled
            # four lines of a phone above the cards).
            lines = [
                _(
                    "Bid from {low} to {high}, or pass",
                    low=action_label(bids[0]),
                    high=action_label(bids[-1]),
                )
            ]
        else:
            moves = " · ".join(action_label(a) for a in legal if a != "misdeal")
            lines = [_("Bid or pass: {moves}", moves=moves)]
        if "misdeal" in legal:
            lines.append(
                _(
                    "No ace, no court card, neither the 5 of hearts nor the 3 of spades: "
                    "you may throw this hand in (misdeal)"
                )
            )
        return lines
    if phase == "trump":
        moves = " · ".join(action_label(a) for a in legal)
        return [_("Name trumps: {moves}", moves=moves)]
    if phase == "kitty":
        lines = []
        if view.get("kitty"):
            lines.append(_("From the kitty: {cards}", cards=pretty_list(list(view["kitty"]))))
        if view.get("discards"):
            lines.append(_("Discarded: {cards}", cards=pretty_list(list(view["discards"]))))
        left = 2 - int(view.get("discard_count") or 0)
        lines.append(
            _n(
                "Discard {n} more card face down (never the 5 of hearts or the 3 of spades)",
                "Discard {n} more cards face down (never the 5 of hearts or the 3 of spades)",
                left,
            )
        )
        return lines
    if phase == "play":
        cards = [c for a in legal if (c := card_of_action(a, "play"))]
        trick = trick_now(view)
        if not trick:
            return [_("Your lead: any card")]
        led = trick[0][1][-1]
        if any(card[-1] == led for card in hand):  # he holds the suit led: he must follow
            return [_("Follow {suit}: {cards}", suit=pretty_suit(led), cards=pretty_list(cards))]
        return [_("No {suit}: play any card", suit=suit_name(led))]
    return []


def hand_picture(view: View, seating: Seating) -> Picture | None:
    return hand_picture_of(view)


def action_label(action: str) -> str:
    words = action.split()
    verb = words[0] if words else ""
    if verb == "play" and (card := card_of_action(action, "play")):
        return pretty(card)
    if verb == "discard" and (card := card_of_action(action, "discard")):
        return _("Discard {card}", card=pretty(card))
    if verb == "bid" and len(words) > 1:
        return bid_words(" ".join(words[1:]))
    if verb == "trump" and len(words) == 2:
        return pretty_suit(words[1])
    if action == "pass":
        return _p("button", "Pass")
    if action == "misdeal":
        return _("Misdeal (throw the hand in)")
    return action[:80]


def you_did(action: str) -> str:
    words = action.split()
    verb = words[0] if words else ""
    if verb == "play" and (card := card_of_action(action, "play")):
        return _("You played {card}", card=pretty(card))
    if verb == "discard" and (card := card_of_action(action, "discard")):
        return _("You discarded {card}", card=pretty(card))
    if verb == "bid" and len(words) > 1:
        return _("You bid {bid}", bid=bid_words(" ".join(words[1:])))
    if verb == "trump" and len(words) == 2:
        return _("You named trumps: {suit}", suit=pretty_suit(words[1]))
    if action == "pass":
        return _("You passed")
    if action == "misdeal":
        return _("You threw the hand in (misdeal)")
    return _("You: {move}", move=action_label(action))


def move_words() -> dict[str, str]:
    """The words after a bid's number as the reader types them (``/bid 7 no``)."""
    return {
        # i18n: typed after a bid's number for no trump (`bid 7 no`): one short lower-case word
        "no": _p("move word", "no"),
        # i18n: typed after a bid's number for a low contract (`bid 8 low`): one short word
        "low": _p("move word", "low"),
    }
