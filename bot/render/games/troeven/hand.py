"""2-Player Troeven: the player's private hand panel and the labels of his moves."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _
from bot.render.games._tricks import by_suit, card_of_action, trick_lines, trick_now
from bot.render.games._words import within_limits
from bot.render.games.cards import hand_picture_of, pretty, pretty_list, pretty_suit, suit_name
from bot.render.games.troeven.table import (
    deal_lines,
    layout_line,
    layouts_picture,
    stock_text,
    trump_line,
)
from bot.render.games.troeven.words import suit_of
from bot.render.presenter import Picture, Seating, Section, View


def hand_sections(
    view: View, legal: Sequence[str], seating: Seating, hidden: frozenset[str] = frozenset()
) -> list[Section]:
    seat = seating.viewer if seating.viewer is not None else view.get("seat")
    hand = [str(c) for c in view.get("hand") or []]
    sections: list[Section] = []
    if view.get("version") == "layout" and isinstance(seat, int):
        # Both layouts are the panel's picture (the stacks show what covers what): written out
        # only where no picture is shown (the terminal).
        if "hand" not in hidden:
            sections += _layout_sections(view, seating, seat, hand)
    else:
        if "hand" not in hidden:
            sections.append(Section(_("Your hand"), by_suit(hand), role="hand"))
        if "stock_size" in view:
            sections.append(Section(_("Stock"), stock_text(view, seating)))
    sections.append(Section(_("Trumps"), trump_line(view, seating)))
    table = () if "table" in hidden else trick_lines(view, seating) + deal_lines(view, seating)
    if table:
        sections.append(Section(_("This deal"), "\n".join(table), role="table"))
    move = _move_line(view, legal, hand)
    if move:
        sections.append(Section(_("Your move"), move, role="move"))
    return within_limits(sections)


def _layout_sections(view: View, seating: Seating, seat: int, hand: list[str]) -> list[Section]:
    counts = view.get("face_down_counts") or []
    face_down = int(counts[seat]) if seat < len(counts) else 0
    under = (
        _("Face down: {n}, unknown to all until the card on them is played", n=face_down)
        if face_down
        else _("No face-down cards left")
    )
    mine = _("Face up: {cards}", cards=by_suit(hand)) + "\n" + under
    opponent = layout_line(view, seating, 1 - seat)
    return [
        Section(_("Your layout"), mine, role="hand"),
        Section(_("Opponent"), opponent, role="hand"),
    ]


def _move_line(view: View, legal: Sequence[str], hand: list[str]) -> str:
    if not legal:
        return ""
    if view.get("phase") == "trump":
        moves = " · ".join(action_label(a) for a in legal)
        return _("Name trumps (any suit): {moves}", moves=moves)
    cards = [c for a in legal if (c := card_of_action(a, "play"))]
    trick = trick_now(view)
    if not trick:
        return _("Your lead: any card")
    led = suit_of(trick[0][1])
    trump = str(view.get("trump") or "")
    if len(cards) >= len(hand):
        if int(view.get("stock_size") or 0) > 0:
            return _("While the stock lasts you may play any card")
        if not any(suit_of(c) == led for c in hand):
            return _("No {suit}: play any card", suit=suit_name(led))
        return _("Play any card")
    shown = pretty_list(cards)
    if all(suit_of(c) == led for c in cards):
        return _("Follow {suit}: {cards}", suit=pretty_suit(led), cards=shown)
    if all(suit_of(c) == trump for c in cards):
        return _("No {suit}: you must trump: {cards}", suit=suit_name(led), cards=shown)
    return _("Follow {suit} or trump: {cards}", suit=pretty_suit(led), cards=shown)


def hand_picture(view: View, seating: Seating) -> Picture | None:
    if view.get("version") == "layout":
        return layouts_picture(view, seating)
    return hand_picture_of(view)


def action_label(action: str) -> str:
    words = action.split()
    if words and words[0] == "play" and (card := card_of_action(action, "play")):
        return pretty(card)
    if len(words) == 2 and words[0] == "trump":
        return pretty_suit(words[1])
    return action[:80]


def you_did(action: str) -> str:
    words = action.split()
    if words and words[0] == "play" and (card := card_of_action(action, "play")):
        return _("You played {card}", card=pretty(card))
    if len(words) == 2 and words[0] == "trump":
        return _("You named trumps: {suit}", suit=pretty_suit(words[1]))
    return _("You: {move}", move=action_label(action))
