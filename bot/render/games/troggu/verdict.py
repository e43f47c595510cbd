"""Troggu: the end of a hand (its verdict), the scores, the score sheet and the final
message."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import N_, _, _n, _p
from bot.render.games._words import (
    names_and,
    pack,
    said,
    seat_scores,
    signed,
    signed_total,
    table_block,
    whom,
    within_limits,
)
from bot.render.games.cards import pretty
from bot.render.games.troggu.words import contract_name
from bot.render.presenter import Event, Seating, Section, View
from engine.troggu.scoring import BASE, BIG, HALF, MISERE_RATE


def verdict(event: Event, seating: Seating) -> str:
    """``Bob's Tapp is made with 71 of 114 card points (over 57).``"""
    contract = event.get("contract")
    if contract == "misere":
        return _misere_verdict(event, seating)
    points = int(event.get("contract_points") or 0)
    multiple = int(event.get("multiple") or 0)
    rate = BASE.get(str(contract), 0) * abs(multiple)
    facts = {"contract": contract_name(contract), "points": points, "rate": rate}
    if multiple > 0:
        why = {
            1: _("over {half}", half=HALF),
            2: _("over {big}: double", big=BIG),
            3: _("every trick: triple"),
        }
        return _by_side(
            event,
            seating,
            # i18n: {contract} is Tapp or Solo; {why} says by how much ("over 57").
            N_(
                "Your {contract} is **made** with {points} of 114 card points ({why}): {rate} "
                "from each opponent."
            ),
            N_(
                "{name}'s {contract} is **made** with {points} of 114 card points ({why}): "
                "{rate} from each opponent."
            ),
            N_(
                "{name} & {partner}'s {contract} is **made** with {points} of 114 card points "
                "({why}): {rate} from each opponent."
            ),
            why=why[multiple],
            **facts,
        )
    if multiple < 0:
        why = {
            -1: _("under {half}", half=HALF),
            -2: _("under {small}: double", small=114 - BIG),
            -3: _("no trick: triple"),
        }
        return _by_side(
            event,
            seating,
            N_(
                "Your {contract} is **lost** with {points} of 114 card points ({why}): {rate} "
                "to each opponent."
            ),
            N_(
                "{name}'s {contract} is **lost** with {points} of 114 card points ({why}): "
                "{rate} to each opponent."
            ),
            N_(
                "{name} & {partner}'s {contract} is **lost** with {points} of 114 card points "
                "({why}): {rate} to each opponent."
            ),
            why=why[multiple],
            **facts,
        )
    return _by_side(
        event,
        seating,
        N_("Your {contract} took exactly {half} card points: nobody pays."),
        N_("{name}'s {contract} took exactly {half} card points: nobody pays."),
        N_("{name} & {partner}'s {contract} took exactly {half} card points: nobody pays."),
        half=HALF,
        **facts,
    )


def _misere_verdict(event: Event, seating: Seating) -> str:
    points = list(event.get("card_points") or [])
    if not points or len(set(points)) == 1:
        return _("Misère: everyone took the same card points, nobody pays.")
    top = max(points)
    losers = [s for s, p in enumerate(points) if p == top]
    if len(losers) > 1:
        return _(
            "Misère: {names} took the most ({top}) and pay {rate} to each player with fewer.",
            names=names_and([whom(seating, s) for s in losers]),
            top=top,
            rate=MISERE_RATE,
        )
    return said(
        seating,
        losers[0],
        N_("Misère: you took the most ({top}) and pay {rate} to each player with fewer."),
        N_("Misère: {name} took the most ({top}) and pays {rate} to each player with fewer."),
        top=top,
        rate=MISERE_RATE,
    )


def _by_side(
    event: Event, seating: Seating, yours: str, theirs: str, pair: str, **params: Any
) -> str:
    """A sentence about the contract side: the reader's own (``yours``), one declarer's
    (``theirs``: ``{name}``) or a declarer and his partner's (``pair``: ``{name}``,
    ``{partner}``, even when the reader is one of them, as at the table)."""
    declarer, partner = event.get("declarer"), event.get("partner")
    if isinstance(partner, int):
        return _(pair, name=seating.name(declarer), partner=seating.name(partner), **params)
    return said(seating, declarer, yours, theirs, **params)


def summary(event: Event, seating: Seating) -> list[Section]:
    number = event.get("hand_number")
    contract = event.get("contract")
    declarer = event.get("declarer")
    name = contract_name(contract)
    if declarer is not None:
        title = _(
            "Deal {number}: {contract} by {name}",
            number=number,
            contract=name,
            name=seating.who(declarer),
        )
    else:
        title = _("Deal {number}: {contract}", number=number, contract=name)
    head = [verdict(event, seating)]
    called = event.get("called")
    if called is not None:
        partner = event.get("partner")
        card = pretty(str(called))
        if isinstance(partner, int):
            head.append(_("Partner: {name} (held {card}).", name=seating.who(partner), card=card))
        else:
            head.append(_("{card} was called; nobody else held it.", card=card))
    if contract == "misere" and event.get("tapp_points"):
        tapp = int(event["tapp_points"])
        head.append(
            _n(
                "The Tapp ({n} point) counted for nobody.",
                "The Tapp ({n} points) counted for nobody.",
                tapp,
            )
        )
    rows = []
    card_pts = list(event.get("card_points") or [])
    tricks = list(event.get("tricks") or [])
    payments = list(event.get("payments") or [])
    scores = list(event.get("scores") or [])
    side = {declarer, event.get("partner")} - {None}
    for seat in range(len(card_pts)):
        trick_count = _n("{n} trick", "{n} tricks", int(tricks[seat])) if seat < len(tricks) else ""
        rows.append(
            # i18n: a seat's line at the end of a deal: "Ann ★: 40 pts, 5 tricks → +20
            # (total 35)"; {mark} is " ★" for the contract side.
            _(
                "{name}{mark}: {points} pts, {tricks} → **{pay}** (total {total})",
                name=seating.who(seat),
                mark=" ★" if seat in side else "",
                points=card_pts[seat],
                tricks=trick_count,
                pay=signed(int(payments[seat])) if seat < len(payments) else "0",
                total=signed_total(int(scores[seat])) if seat < len(scores) else "",
            )
        )
    sections = [Section(title, "\n".join(head))]
    sections += pack(_("Card points → payment"), rows)
    return within_limits(sections)


def scores_section(
    view: View | None, result: Mapping[str, Any] | None, seating: Seating
) -> Section:
    return seat_scores(view, result, seating)


def score_sheet(view: View | None, seating: Seating) -> list[Section]:
    """One row per deal as on paper: the contract, made ✓ or lost ✗, every seat's payment
    (the declarer's marked ``*``), then the totals."""
    history = list((view or {}).get("history") or [])
    if not history:
        return [scores_section(view, None, seating)]
    header = [_p("score sheet", "Deal"), *(n[:6] + " " for n in seating.names)]
    rows = [_sheet_row(deal, len(seating.names)) for deal in history]
    totals = [
        _p("score sheet", "Total"),
        *(signed_total(int(s)) + " " for s in (view or {}).get("scores") or []),
    ]
    # About 12 rows per field; the latest deals first go in when they cannot all fit.
    chunks: list[list[list[str]]] = []
    for start in range(0, len(rows), 12):
        chunks.append(rows[start : start + 12])
    shown = chunks[-4:]
    sections = []
    if len(chunks) > len(shown):
        earlier = sum(len(c) for c in chunks[: len(chunks) - len(shown)])
        earlier_deals = _n("+{n} earlier deal above", "+{n} earlier deals above", earlier)
        sections.append(Section(_("Score sheet"), earlier_deals))
    for i, chunk in enumerate(shown):
        last = i == len(shown) - 1
        title = _("Score sheet") if not sections else _("Score sheet (more)")
        body = [*chunk, totals] if last and len(totals) == len(header) else chunk
        text = table_block(header, body, 9)
        if last:
            text += "\n" + _("✓ made · ✗ lost · * the contract side")
        sections.append(Section(title, text))
    return within_limits(sections)


def _sheet_row(deal: Mapping[str, Any], players: int) -> list[str]:
    contract = str(deal.get("contract"))
    multiple = int(deal.get("multiple") or 0)
    mark = "" if contract == "misere" else "✓" if multiple > 0 else "✗" if multiple else "="
    label = f"{deal.get('hand_number')} {contract_name(contract)} {mark}".strip()
    payments = list(deal.get("payments") or [0] * players)
    side = {deal.get("declarer"), deal.get("partner")}
    cells = [signed(int(p)) + ("*" if s in side else " ") for s, p in enumerate(payments)]
    return [label, *cells]


def final(result: Mapping[str, Any], seating: Seating) -> list[Section]:
    scores = list(result.get("scores") or [])
    winners = [seating.name(w) for w in result.get("winners") or []]
    best = signed_total(max(scores) if scores else 0)
    names = names_and(winners) or _("Nobody")
    deals = int(result.get("deals") or 0)
    if len(winners) > 1 and deals:
        head = _n(
            "🏆 **{names} share the win** with {score} after {n} deal.",
            "🏆 **{names} share the win** with {score} after {n} deals.",
            deals,
            names=names,
            score=best,
        )
    elif len(winners) > 1:
        head = _("🏆 **{names} share the win** with {score}.", names=names, score=best)
    elif deals:
        head = _n(
            "🏆 **{names} won** with {score} after {n} deal.",
            "🏆 **{names} won** with {score} after {n} deals.",
            deals,
            names=names,
            score=best,
        )
    else:
        head = _("🏆 **{names} won** with {score}.", names=names, score=best)
    return within_limits([Section(_("Game over"), head), scores_section(None, result, seating)])
