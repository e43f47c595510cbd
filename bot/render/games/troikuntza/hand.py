"""TroiKuntza: the player's private hand panel and the labels of his moves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.i18n import _, _p
from bot.render.games._words import cards, pack, points, within_limits
from bot.render.games.cards import hand_picture_of, hand_words, pretty, pretty_list
from bot.render.games.troikuntza.table import mayi_section, meld_sections, pile_section
from bot.render.games.troikuntza.words import (
    DONE,
    ENDS,
    LABELS,
    contract_words,
    fit,
    hand_text,
    round_number,
)
from bot.render.one_state import reader_in, shared
from bot.render.presenter import CardGroups, Picture, Seating, Section, View
from engine.troikuntza.melds import RUN_MIN, TROIKA_MIN, card_points


def hand_sections(
    view: View, legal: Sequence[str], seating: Seating, hidden: frozenset[str] = frozenset()
) -> list[Section]:
    hand = [str(c) for c in view.get("hand") or []]
    sections: list[Section] = []
    if "hand" not in hidden:
        sections.append(Section(hand_words(hand, _hand_title), hand_text(hand), role="hand"))
    # What the table shows is the same for every reader it does not name (``one_state``).
    sections.append(shared(("contract",), lambda: Section(_("Contract"), contract_text(view))))
    you = _you_lines(view, seating)
    if you:
        sections.append(Section(_("You"), "\n".join(you)))
    current = [view.get("current")]
    key = ("pile", reader_in(seating, current))
    sections.append(shared(key, lambda: pile_section(view, seating, private=True)))
    window = view.get("mayi") or {}
    named = [*current, *(window.get("calls") or ()), *(window.get("eligible") or ())]
    mayi = shared(("mayi", reader_in(seating, named)), lambda: mayi_section(view, seating))
    if mayi is not None:
        sections.append(mayi)
    # The melds are on the table message; here only when he may lay off on them.
    layoff = any(action.startswith("layoff ") for action in legal)
    if layoff or "table" not in hidden:
        owners = [m.get("owner") for m in view.get("melds") or () if isinstance(m, Mapping)]
        key = ("melds", reader_in(seating, owners))
        melds = list(shared(key, lambda: tuple(meld_sections(view, seating))))
        if not layoff:
            melds = [replace(section, role="table") for section in melds]
        sections += melds
    if legal:
        sections += pack(_("Your move"), moves(legal, hand), role="move")
    return within_limits(sections)


def _hand_title(hand: Sequence[str]) -> str:
    """``Your hand (11 cards, 85 points)``."""
    worth = sum(card_points(c) for c in hand)
    return _("Your hand ({cards}, {points})", cards=cards(len(hand)), points=points(worth))


def contract_text(view: View) -> str:
    text = contract_words(view.get("contract")) or view.get("contract_text") or ""
    least = int(view.get("min_cards") or 0)
    if least:
        return _(
            "Round {number}: {contract} (at least {cards}), the whole contract at once.",
            number=round_number(view),
            contract=text,
            cards=cards(least),
        )
    return _(
        "Round {number}: {contract}, the whole contract at once.",
        number=round_number(view),
        contract=text,
    )


def _you_lines(view: View, seating: Seating) -> list[str]:
    seat = view.get("seat")
    lines = []
    out = list(view.get("out") or [])
    if isinstance(seat, int) and seat < len(out) and out[seat]:
        if view.get("melded_this_turn") and view.get("current") == seat:
            lines.append(_("You came out this turn: lay-offs wait for your next turn."))
        else:
            lines.append(_("You have laid down your contract: lay off on any meld."))
    taken = view.get("taken")
    if taken and view.get("current") == seat and view.get("phase") == "play":
        lines.append(_("You took {card}: you may not discard it this turn.", card=pretty(taken)))
    mayi = view.get("mayi") or {}
    limit = int(mayi.get("limit") or 0)
    used = list(mayi.get("used") or [])
    if limit and isinstance(seat, int) and seat < len(used):
        left = limit - int(used[seat])
        lines.append(_("May I's left: {left} of {limit}.", left=left, limit=limit))
    return lines


def moves(legal: Sequence[str], hand: Sequence[str]) -> list[str]:
    """The legal moves grouped: ``Take · Draw``, one line per suggested meld, lay-offs and
    discards on a line each (discards in the hand's order)."""
    simple, melds, layoffs, discards = [], [], [], []
    for action in legal:
        verb = action.split(" ", 1)[0]
        if verb == "meld":
            melds.append(action_label(action))
        elif verb == "layoff":
            layoffs.append(action_label(action))
        elif verb == "discard":
            discards.append(action.split(" ", 1)[1].upper())
        else:
            simple.append(action_label(action))
    lines = []
    if simple:
        lines.append(" · ".join(simple))
    lines += [_("Lay down: {meld}", meld=m) for m in melds]
    if layoffs:
        lines.append(_("Lay off: {moves}", moves=" · ".join(layoffs)))
    if discards:
        # The buttons and the picture show the cards: when (nearly) any may go, say so rather
        # than list the hand a third time (it took three lines of a phone).
        kept = sorted({str(c).upper() for c in hand} - set(discards))
        if not kept:
            lines.append(_("Discard any card"))
        elif len(kept) <= 2 and len(discards) > 4:
            lines.append(_("Discard any card but {cards}", cards=pretty_list(kept)))
        else:
            order = {code: i for i, code in reversed(list(enumerate(hand)))}
            discards.sort(key=lambda c: order.get(c, len(order)))
            lines.append(_("Discard: {cards}", cards=pretty_list(discards)))
    return lines


def card_groups(view: View, legal: Sequence[str]) -> CardGroups | None:
    """His contract's melds, to fill with cards of his choice, when he may come out now (the
    legal list then proposes a few ways; he may want another)."""
    contract = str(view.get("contract") or "")
    if not contract or not any(action.startswith("meld ") for action in legal):
        return None
    groups = []
    for number, kind in enumerate(contract, start=1):
        if kind == "T":
            groups.append((_("Meld {number}: a Troika", number=number), TROIKA_MIN))
        else:
            groups.append((_("Meld {number}: a Run", number=number), RUN_MIN))
    prompt = _("Pick the cards of each meld, then lay them down.")
    return CardGroups("meld", _("Choose my melds"), prompt, tuple(groups))


def hand_picture(view: View, seating: Seating) -> Picture | None:
    return hand_picture_of(view)


def action_label(action: str) -> str:
    verb, __, rest = action.strip().partition(" ")
    verb = verb.lower()
    words = rest.split()
    if verb in LABELS and not rest:
        return _(LABELS[verb])
    if verb == "meld" and rest:
        groups = [pretty_list(g.split()) for g in rest.split("|")]
        return fit(" | ".join(groups))
    if verb == "layoff" and len(words) >= 2:
        card, meld = pretty(words[0]), words[1].lstrip("#")
        if len(words) > 2:
            end = ENDS.get(words[2].lower())
            # i18n: {end} is "low end" or "high end": where a joker goes on a run.
            end_text = _(end) if end else _("{end} end", end=words[2])
            return fit(_("{card} on meld {meld} ({end})", card=card, meld=meld, end=end_text))
        return fit(_("{card} on meld {meld}", card=card, meld=meld))
    if verb == "discard" and len(words) == 1:
        return _("Discard {card}", card=pretty(words[0]))
    return fit(action)


def you_did(action: str) -> str:
    verb, __, rest = action.strip().partition(" ")
    verb = verb.lower()
    words = rest.split()
    if verb in DONE and not rest:
        return _(DONE[verb])
    if verb == "meld" and rest:
        return fit(_("You laid down {melds}", melds=action_label(action)), 200)
    if verb == "layoff" and len(words) >= 2:
        return _("You laid off {layoff}", layoff=action_label(action))
    if verb == "discard" and len(words) == 1:
        return _("You discarded {card}", card=pretty(words[0]))
    return _("You: {move}", move=action_label(action))


def move_words() -> dict[str, str]:
    """The words for the end of a run a joker goes to, as the reader types them
    (``/layoff jk 3 low``)."""
    return {
        # i18n: typed after a meld's number: a joker laid off at the run's low end (`low`)
        "low": _p("move word", "low"),
        # i18n: typed after a meld's number: a joker laid off at the run's high end (`high`)
        "high": _p("move word", "high"),
    }
