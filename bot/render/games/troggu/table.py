"""Troggu: the public table message (heading, sections, picture)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import N_, _
from bot.render.games._words import cap, cards, names_and, points, said, whom, within_limits
from bot.render.games.cards import picture_letters, pretty
from bot.render.games.troggu.verdict import scores_section, verdict
from bot.render.games.troggu.words import (
    BIDS,
    INDEX,
    card_points,
    contract_name,
    suit,
    trick_pairs,
    trick_text,
)
from bot.render.presenter import Picture, Seating, Section, View
from engine.troggu import tricks
from engine.troggu.scoring import BIG, HALF, MISERE_RATE
from engine.troggu.spec import PARTNER_PLAYERS


def heading(view: View, seating: Seating) -> str:
    number, deals = view.get("hand_number"), view.get("deals")
    if deals:
        return _("deal {number} of {deals}", number=number, deals=deals)
    return _("deal {number}", number=number)


def table_sections(view: View, seating: Seating) -> list[Section]:
    last = view.get("last_hand")
    if view.get("phase") == "over" and isinstance(last, Mapping):
        title = _("Deal {number} over", number=last.get("hand_number"))
        return within_limits(
            [Section(title, verdict(last, seating)), scores_section(view, None, seating)]
        )
    # A glance at the live message: the contract, the trick (its cards are in the picture: the
    # text says who is winning it, who took the last and the tricks per player), the scores.
    contract = contract_section(view, seating)
    lines, partner = contract.text.splitlines(), _partner_line(view, seating)
    if partner in lines[1:]:
        # The partner beside the contract: one line less to read.
        lines.remove(partner)
        lines[0] += f" · {partner}"
        contract = Section(contract.title, "\n".join(lines), role=contract.role)
    sections = [contract, _glance_section(view, seating)]
    sections.append(scores_section(view, None, seating))
    return within_limits(sections)


def _glance_section(view: View, seating: Seating) -> Section:
    """The trick in play as a line beside its picture, who took the last one, the tricks per
    player (the dealer, before the play)."""
    dealt = said(seating, view.get("dealer"), N_("you dealt"), N_("{name} dealt"))
    if view.get("phase") != "play":
        return Section(_("Players"), dealt)
    trick = trick_sections(view, seating, last=False)[0]
    lines = trick.text.splitlines()
    if trick_pairs(view.get("trick")):
        lines = lines[1:]  # the cards: the picture shows them
    previous = view.get("last_trick")
    if previous:
        worth = points(card_points([c for __, c in trick_pairs(previous.get("cards"))]))
        winner = seating.who(previous.get("winner"))
        lines.append(f"{_('Last trick')} → **{winner}** ({worth})")
    won = list(view.get("tricks_taken") or [])
    counts = " · ".join(f"{whom(seating, seat)} {int(n)}" for seat, n in enumerate(won))
    # i18n: tricks taken this deal per player: ``Ann 1 · Bob 2 · Cid 0 · Dee 1``
    lines.append(_("Tricks: {counts}", counts=counts) + f" · {dealt}")
    return Section(trick.title, "\n".join(lines))


def contract_section(view: View, seating: Seating) -> Section:
    phase = view.get("phase")
    if phase == "bidding":
        return Section(_("Bidding"), _bidding_text(view, seating))
    contract = view.get("contract")
    declarer = view.get("declarer")
    name = contract_name(contract)
    if contract == "misere":
        text = _(
            "Everyone passed. Nobody takes the Tapp; whoever takes the most card points "
            "pays {rate} to each player with fewer.",
            rate=MISERE_RATE,
        )
        return Section(_("Misère"), text)
    # i18n: {contract} is Tapp or Solo.
    lines = [
        said(
            seating,
            declarer,
            N_("**{contract}** by you"),
            N_("**{contract}** by {name}"),
            contract=name,
        )
        + _forced(view)
    ]
    if phase == "discard":
        left = int(view.get("discards_left") or 0)
        size = int(view.get("tapp_size") or 0)
        lines.append(
            said(
                seating,
                declarer,
                N_(
                    "The Tapp ({cards}) went into your hand; as many go face down: {left} "
                    "still to discard."
                ),
                N_(
                    "The Tapp ({cards}) went into {name}'s hand; as many go face down: {left} "
                    "still to discard."
                ),
                cards=cards(size),
                left=left,
            )
        )
    elif contract == "solo":
        lines.append(_("The Tapp went unseen to the Soloist's pile."))
    partner = _partner_line(view, seating)
    if partner:
        lines.append(partner)
    partners = _known_partner(view, seating)
    if partners:
        side = cap(names_and([whom(seating, declarer), *partners]))
        need = _(
            "{names} need more than {half} of 114 card points (over {big} doubles, every "
            "trick triples).",
            names=side,
            half=HALF,
            big=BIG,
        )
    else:
        need = said(
            seating,
            declarer,
            N_(
                "You need more than {half} of 114 card points (over {big} doubles, every "
                "trick triples)."
            ),
            N_(
                "{name} needs more than {half} of 114 card points (over {big} doubles, every "
                "trick triples)."
            ),
            half=HALF,
            big=BIG,
        )
    lines.append(need)
    return Section(_("Contract"), "\n".join(lines))


def _known_partner(view: View, seating: Seating) -> list[str]:
    partner = view.get("partner")
    return [whom(seating, partner)] if isinstance(partner, int) else []


def _forced(view: View) -> str:
    return " ({})".format(_("forced: everyone passed")) if view.get("forced") else ""


def _bidding_text(view: View, seating: Seating) -> str:
    players = int(view.get("players") or len(seating.names))
    dealer = int(view.get("dealer") or 0)
    bids = list(view.get("bids") or [None] * players)
    parts = []
    for k in range(1, players + 1):
        seat = (dealer + k) % players
        bid = bids[seat] if seat < len(bids) else None
        parts.append(f"{seating.who(seat)} {_(BIDS[bid]) if bid in BIDS else '…'}")
    size = int(view.get("tapp_size") or 0)
    text = " · ".join(parts) + "\n"
    text += _("Pass, Tapp or Solo; the Tapp holds {cards} face down.", cards=cards(size))
    if view.get("declarer") is not None:
        text += " " + _("After a Tapp only a Solo overcalls.")
    return text


def _partner_line(view: View, seating: Seating) -> str:
    players = int(view.get("players") or len(seating.names))
    declarer = view.get("declarer")
    if view.get("contract") != "tapp" or players < PARTNER_PLAYERS:
        return ""
    phase, called, partner = view.get("phase"), view.get("called"), view.get("partner")
    if phase == "discard":
        return _("Then he calls a partner's trump or plays alone.")
    if phase == "call":
        return said(
            seating,
            declarer,
            N_("You are calling a partner."),
            N_("{name} is calling a partner."),
        )
    if called is None:
        return said(seating, declarer, N_("You play alone."), N_("{name} plays alone."))
    card = pretty(called)
    if isinstance(partner, int):
        if seating.is_you(partner):
            return _("Partner: **you** (you hold {card}; secret until you play it).", card=card)
        return _("Partner: **{name}** (played {card}).", name=seating.name(partner), card=card)
    if view.get("partner_known"):
        return said(
            seating,
            declarer,
            N_("You called {card} but nobody else holds it: you play alone."),
            N_("{name} called {card} and plays alone."),
            card=card,
        )
    return _("Partner: whoever holds {card} (secret until it is played).", card=card)


def trick_sections(view: View, seating: Seating, last: bool = True) -> list[Section]:
    if view.get("phase") != "play":
        return []
    out = []
    number, per = view.get("trick_number"), view.get("tricks_per_deal")
    pairs = trick_pairs(view.get("trick"))
    lead = view.get("lead_suit")
    if pairs:
        text = trick_text(pairs, seating)
        # i18n: {suit} is a suit with its symbol ("🏆 cups") or "trumps".
        text += "\n" + _("{suit} led", suit=suit(str(lead))) if lead else ""
        # The last trick may hold a Fool held back, which never wins: nobody else knows.
        if number != per or "FOOL" not in [c for __, c in pairs]:
            seat = tricks.winner([[s, INDEX[c]] for s, c in pairs], None)
            card = pretty(dict(pairs)[seat])
            winning = said(
                seating,
                seat,
                N_("Your {card} is winning"),
                N_("{name}'s {card} is winning"),
                card=card,
            )
            text += f" · {winning}"
    else:
        to_act = list(view.get("to_act") or [])
        text = said(seating, to_act[0], N_("You lead."), N_("{name} leads.")) if to_act else "—"
    out.append(Section(_("Trick {number} of {per}", number=number, per=per), text))
    previous = view.get("last_trick")
    if previous and last:
        pairs = trick_pairs(previous.get("cards"))
        worth = points(card_points([c for __, c in pairs]))
        winner = seating.who(previous.get("winner"))
        out.append(
            Section(
                _("Last trick"),
                f"{trick_text(pairs, seating)} → **{winner}** ({worth})",
            )
        )
    return out


def table_picture(view: View, seating: Seating) -> Picture | None:
    if view.get("phase") != "play":
        return None
    names = list(seating.names)
    to_act = list(view.get("to_act") or [])
    highlight = to_act[0] if len(to_act) == 1 else None
    pairs = trick_pairs(view.get("trick"))
    if pairs:
        return Picture.of(
            "table_png",
            players=names,
            played=pairs,
            caption="",
            highlight=highlight,
            **picture_letters(),
        )
    last = view.get("last_trick")
    if last:
        winner = seating.name(last.get("winner"))
        return Picture.of(
            "table_png",
            players=names,
            played=trick_pairs(last.get("cards")),
            # Translated here: the picture is drawn on a worker that has no language.
            caption=_("last trick → {name}", name=winner),
            highlight=highlight,
            **picture_letters(),
        )
    return None
