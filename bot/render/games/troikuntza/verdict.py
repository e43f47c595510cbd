"""TroiKuntza: the end of a hand (its verdict), the scores, the score sheet and the final
message."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import N_, _, _p
from bot.render.games._words import (
    names_and,
    pack,
    said,
    seat_scores,
    signed_total,
    table_block,
    within_limits,
)
from bot.render.games.cards import pretty_list
from bot.render.games.troikuntza.words import contract_words
from bot.render.presenter import Event, Seating, Section, View
from engine.troikuntza.melds import CONTRACTS


def summary(event: Event, seating: Seating) -> list[Section]:
    title = _(
        "Round {number} — {contract}",
        number=event.get("round"),
        contract=contract_words(event.get("contract")),
    )
    round_points = list(event.get("points") or [])
    hands = list(event.get("hands") or [])
    scores = list(event.get("scores") or [])
    rows = []
    for seat in range(len(round_points)):
        held = [str(c) for c in hands[seat]] if seat < len(hands) else []
        rows.append(
            # i18n: a player's line at the end of a round: his cards left ("out" when he has
            # none), their points and his running total.
            _(
                "{name}: {cards} → **{points}** (total {total})",
                name=seating.who(seat),
                cards=pretty_list(held) if held else _("out"),
                points=round_points[seat],
                total=signed_total(int(scores[seat])) if seat < len(scores) else "",
            )
        )
    if event.get("reason") == "out" and event.get("went_out") is not None:
        how = said(seating, event.get("went_out"), N_("You went out."), N_("{name} went out."))
    else:
        how = _("The stock ran out; everyone scores his hand.")
    sections = [Section(title, how + " " + _("Lowest total wins."))]
    sections += pack(_("Cards left → points"), rows)
    return within_limits(sections)


def scores_section(
    view: View | None, result: Mapping[str, Any] | None, seating: Seating
) -> Section:
    return seat_scores(view, result, seating, lowest_wins=True)


def score_sheet(view: View | None, seating: Seating) -> list[Section]:
    """One row per round as on paper: the round's points of every player, then totals."""
    history = list((view or {}).get("round_points") or [])
    if not history:
        return [scores_section(view, None, seating)]
    header = [_p("score sheet", "Round"), *(n[:6] for n in seating.names)]
    rows = [
        [f"{i} {CONTRACTS[min(i, len(CONTRACTS)) - 1]}", *(str(p) for p in points)]
        for i, points in enumerate(history, start=1)
    ]
    totals = [
        _p("score sheet", "Total"),
        *(signed_total(int(s)) for s in (view or {}).get("scores") or []),
    ]
    if len(totals) == len(header):
        rows.append(totals)
    # i18n: the legend of TroiKuntza's score sheet, whose rows name contracts "TTR" etc.
    legend = _("T = Troika, R = Run · lowest total wins")
    text = table_block(header, rows, 8) + "\n" + legend
    return within_limits([Section(_("Score sheet"), text)])


def final(result: Mapping[str, Any], seating: Seating) -> list[Section]:
    scores = list(result.get("scores") or [])
    winners = [seating.name(w) for w in result.get("winners") or []]
    best = signed_total(min(scores) if scores else 0)
    names = names_and(winners) or _("Nobody")
    if len(winners) > 1:
        head = _("🏆 **{names} share the win** with {score} points.", names=names, score=best)
    else:
        head = _("🏆 **{names} won** with {score} points.", names=names, score=best)
    return within_limits([Section(_("Game over"), head), scores_section(None, result, seating)])
