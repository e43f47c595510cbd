"""Troggu: the player's private hand panel and the labels of his moves."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _, _n, _p
from bot.render.games._tricks import seats_of
from bot.render.games._words import cards, pack, within_limits
from bot.render.games.cards import face, hand_picture_of, hand_words, pretty, pretty_list
from bot.render.games.troggu.table import contract_section, table_sections, trick_sections
from bot.render.games.troggu.words import (
    BIDS,
    MOVE_LINE,
    SUIT_NAME,
    SUIT_WORD,
    card_points,
    grouped,
    suit,
)
from bot.render.one_state import kept, reader_in, shared
from bot.render.presenter import Picture, Seating, Section, View
from engine.troggu.scoring import HALF


def hand_sections(
    view: View, legal: Sequence[str], seating: Seating, hidden: frozenset[str] = frozenset()
) -> list[Section]:
    hand = [str(c) for c in view.get("hand") or []]
    if view.get("phase") == "over":
        return table_sections(view, seating)
    sections: list[Section] = []
    if "hand" not in hidden:
        title = _("Your hand ({cards})", cards=cards(len(hand)))
        sections.append(Section(title, grouped(hand), role="hand"))
    you = _you_lines(view, seating)
    # The contract changes seldom: written again only when it does.
    sections.append(kept(seating, "contract", _contract_reads(view),
                         lambda: contract_section(view, seating)))  # fmt: skip
    if you:
        sections.append(Section(_("You"), "\n".join(you)))
    # The trick names its players and who leads: the same for every other reader.
    named = [*seats_of(view.get("trick")), *list(view.get("to_act") or ())[:1]]
    key = ("trick_sections", reader_in(seating, named))
    sections += shared(key, lambda: tuple(trick_sections(view, seating, last=False)))
    if legal:
        sections += pack(_("Your move"), moves(legal), role="move")
    return within_limits(sections)


def _contract_reads(view: View) -> tuple[object, ...]:
    """All ``contract_section`` reads of the view (the bids, the contract, the Tapp, the
    partner): its text changes only when one of them does."""
    return tuple(view.get(key) for key in _CONTRACT_KEYS)


_CONTRACT_KEYS = (
    "phase",
    "contract",
    "declarer",
    "forced",
    "discards_left",
    "tapp_size",
    "players",
    "dealer",
    "bids",
    "called",
    "partner",
    "partner_known",
)


def moves(legal: Sequence[str]) -> list[str]:
    """The legal moves by verb: ``Play: K🏆 3🏆``, ``Pass · Tapp · Solo``."""
    by_verb: dict[str, list[str]] = {}
    for action in legal:
        verb, __, rest = action.partition(" ")
        by_verb.setdefault(verb if rest else "", []).append(rest or action)
    lines = []
    if "" in by_verb:
        lines.append(" · ".join(action_label(a) for a in by_verb.pop("")))
    for verb, rests in by_verb.items():
        shown = pretty_list([r for r in rests if r != "none"])
        if verb == "call" and "none" in rests:
            lines.append(_("Call: {cards} — or play alone", cards=shown))
        elif verb in MOVE_LINE:
            lines.append(_(MOVE_LINE[verb], cards=shown))
        else:
            lines.append(f"{verb.capitalize()}: {shown}")
    return lines


def _you_lines(view: View, seating: Seating) -> list[str]:
    lines = []
    seat = view.get("seat")
    phase = view.get("phase")
    if view.get("tapp") and phase == "discard":
        lines.append(_("The Tapp gave you: {cards}", cards=pretty_list(list(view["tapp"]))))
        left = int(view.get("discards_left") or 0)
        lines.append(
            _n(
                "Discard {n} more card face down: no 5-point card (Kings only when you "
                "hold all four).",
                "Discard {n} more cards face down: no 5-point card (Kings only when you "
                "hold all four).",
                left,
            )
        )
    if view.get("discards"):
        lines.append(_("Your discards: {cards}", cards=pretty_list(list(view["discards"]))))
    if view.get("fool_held_back"):
        lines.append(
            _(
                "You held the Fool back: it stays in your hand until the last trick, where "
                "it goes to your pile and you give the winner your lowest card."
            )
        )
    if phase == "play":
        pile = int(view.get("pile_points") or 0)
        lines.append(_n("Your pile: {n} card point.", "Your pile: {n} card points.", pile))
        lines += _suits_held(view)
        if seat in (view.get("to_act") or []):
            lines += _follow_hint(view)
    if phase == "call":
        lines.append(_("Call a trump from II to XX: its holder is your secret partner."))
    if phase == "bidding":
        hand = [str(c) for c in view.get("hand") or []]
        trumps = sum(face(c).family in ("trump", "fool") for c in hand)
        lines.append(
            _(
                "You hold {trumps} and {points} card points; a Tapp or Solo needs more "
                "than {half} of 114 with the Tapp.",
                trumps=_n("{n} trump", "{n} trumps", trumps),
                points=card_points(hand),
                half=HALF,
            )
        )
    return lines


def _suits_held(view: View) -> list[str]:
    """The key to the suit emoji of his cards (``🏆 cups · 🪄 batons``): a wand for batons or a
    trophy for cups need not be guessed from the move buttons."""
    line = hand_words(view.get("hand") or (), _suits_line)
    return [line] if line else []


def _suits_line(hand: Sequence[str]) -> str:
    held = {face(c).suit for c in hand}
    names = [suit(word) for word, code in SUIT_WORD.items() if code in held]
    # i18n: the Tarot suits in the player's hand with their symbols: "🏆 cups · 🪄 batons"
    return _("Your suits: {suits}", suits=" · ".join(names)) if names else ""


def _follow_hint(view: View) -> list[str]:
    """What the rules ask of the player to act, from the suit led and his hand."""
    lead = view.get("lead_suit")
    hand = [face(str(c)) for c in view.get("hand") or []]
    trumps = any(f.family == "trump" for f in hand) or (
        any(f.family == "fool" for f in hand) and not view.get("fool_held_back")
    )
    if lead in SUIT_WORD:
        if any(f.suit == SUIT_WORD[lead] for f in hand):
            return [_("Follow {suit}.", suit=suit(lead))]
        if trumps:
            # i18n: {suit} is a Tarot suit's name (cups, coins, swords, batons).
            return [_("No {suit}: you must play a trump.", suit=_(SUIT_NAME[lead]))]
        return [_("No {suit} and no trump: play any card.", suit=_(SUIT_NAME[lead]))]
    if lead == "trumps":
        if trumps:
            return [_("Trumps led: play a trump.")]
        return [_("No trump: play any card.")]
    return []


def hand_picture(view: View, seating: Seating) -> Picture | None:
    return hand_picture_of(view)


def action_label(action: str) -> str:
    verb, __, rest = action.strip().partition(" ")
    verb = verb.lower()
    if verb == "bid" and rest:
        verb, rest = rest.lower(), ""
    if verb in BIDS and not rest:
        return _(BIDS[verb])
    if verb == "play" and rest:
        return pretty(rest)
    if verb == "discard" and rest:
        return _("Discard {card}", card=pretty(rest))
    if verb == "call" and rest:
        if rest.lower() == "none":
            return _("Play alone")
        return _("Call {card}", card=pretty(rest))
    return action[:80]


def you_did(action: str) -> str:
    verb, __, rest = action.strip().partition(" ")
    verb = verb.lower()
    if verb == "bid" and rest:
        verb, rest = rest.lower(), ""
    if verb == "pass" and not rest:
        return _("You passed")
    if verb in ("tapp", "solo") and not rest:
        return _("You bid {bid}", bid=_(BIDS[verb]))
    if verb == "play" and rest:
        return _("You played {card}", card=pretty(rest))
    if verb == "discard" and rest:
        return _("You discarded {card}", card=pretty(rest))
    if verb == "call" and rest:
        if rest.lower() == "none":
            return _("You play alone")
        return _("You called {card}", card=pretty(rest))
    return _("You: {move}", move=action_label(action))


def move_words() -> dict[str, str]:
    """The word for calling no partner, as the reader types it (``/call none``)."""
    # i18n: typed to call no partner and play alone (`call none`): one short lower-case word
    return {"none": _p("move word", "none")}
