"""Troika (Kaiser): the end of a hand (its verdict), the scores, the score sheet and the final
message."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import N_, _, _n
from bot.render.games._tricks import sheet_pages
from bot.render.games._words import said, signed, signed_total, within_limits
from bot.render.games.cards import pretty_suit
from bot.render.games.troika.words import (
    bid_words,
    is_no_trump,
    options_of,
    points_detail,
    team_name,
    team_of,
)
from bot.render.presenter import Event, Seating, Section, View


def summary(event: Event, seating: Seating) -> list[Section]:
    team = int(event.get("declarer_team", team_of(int(event.get("seat") or 0))))
    other = 1 - team
    declarer = event.get("seat")
    bid = str(event.get("bid"))
    number = int(bid.split()[0])
    points = [int(p) for p in event.get("hand_points") or [0, 0]]
    tricks = [int(t) for t in event.get("tricks") or [0, 0]]
    changes = [int(c) for c in event.get("changes") or [0, 0]]
    scores = [int(s) for s in event.get("scores") or [0, 0]]
    before = [scores[t] - changes[t] for t in (0, 1)]
    made = bool(event.get("made"))
    double = is_no_trump(bid)
    hand = event.get("hand_number")

    short = number - points[team]
    name = team_name(seating, team)
    if made:
        verdict = _("made it")
        title = _("Hand {number}: {team} made it", number=hand, team=name)
    else:
        verdict = _("**set by {n}**", n=short)
        title = _("Hand {number}: {team} set by {n}", number=hand, team=name, n=short)
    head = said(
        seating,
        declarer,
        N_("You bid **{bid}**; {team} took **{took}** of {number} needed: {verdict}"),
        N_("{name} bid **{bid}**; {team} took **{took}** of {number} needed: {verdict}"),
        bid=bid_words(bid),
        team=name,
        took=points[team],
        number=number,
        verdict=verdict,
    )
    trumps = trumps_of(event, bid)
    if trumps:
        head += f"\n{trumps}"
    hand_points = "\n".join(
        f"{team_name(seating, t)} **{signed_total(points[t])}** "
        f"({points_detail(points[t], tricks[t])})"
        for t in (team, other)
    )
    lines = [
        _declarer_change(
            team, changes[team], points[team], number, made, double, seating
        ),  # fmt: skip
        _defender_change(
            event, other, changes[other], points[other], before[other], seating
        ),  # fmt: skip
    ]
    lines += [
        f"{team_name(seating, t)}: {signed_total(before[t])} → **{signed_total(scores[t])}**"
        for t in (0, 1)
    ]
    if event.get("raised"):
        cut = event.get("cut_off")
        target = event.get("target")
        if cut not in (None, "off"):
            lines.append(
                _(
                    "This made no trump raises the target to {target}, the cut-off to {cut}",
                    target=target,
                    cut=cut,
                )
            )
        else:
            lines.append(_("This made no trump raises the target to {target}", target=target))
    goal = _goal(event, seating)
    if goal:
        lines.append(goal)
    return within_limits(
        [
            Section(title, head),
            Section(_("Hand points"), hand_points),
            Section(_("Score"), "\n".join(lines)),
        ]
    )


def trumps_of(event: Event, bid: str) -> str:
    """The contract's trumps (``Trumps: ♥️ hearts``, ``No trumps``), once the hand is over and
    the table no longer shows them. The engine's ``hand_over`` does not carry them: the hand's
    earlier public events do (``hand_events``, given by the caller that saw them; "" without)."""
    if is_no_trump(bid):
        return _("No trumps")
    named = [
        e.get("suit")
        for e in event.get("hand_events") or ()
        if isinstance(e, Mapping) and e.get("type") == "trump" and e.get("suit")
    ]
    return _("Trumps: {suit}", suit=pretty_suit(str(named[-1]))) if named else ""


def _declarer_change(
    team: int,
    change: int,
    took: int,
    number: int,
    made: bool,
    double: bool,
    seating: Seating,
) -> str:
    if made:
        why = _("{n} taken × 2 for no trump") if double else _("{n} taken")
        why = why.format(n=took)
    elif abs(change) == number * (2 if double else 1):
        why = _("set: bid {n} × 2 for no trump") if double else _("set: bid {n}")
        why = why.format(n=number)
    else:
        why = _("set: {n} taken × 2 for no trump") if double else _("set: {n} taken")
        why = why.format(n=abs(took))
    return f"{team_name(seating, team)} **{signed(change)}** ({why})"


def _defender_change(
    event: Event, team: int, change: int, took: int, before: int, seating: Seating
) -> str:
    cut = event.get("cut_off", seating.options.get("max_non_bid"))
    name = team_name(seating, team)
    if change == took:
        return _("{team} **{change}** (defending)", team=name, change=signed(change))
    return _(
        "{team} **{change}**: at {score}, at or over the cut-off of {cut}, defenders add no "
        "points (only losses count)",
        team=name,
        change=signed(change),
        score=signed_total(before),
        cut=cut,
    )


def _goal(event: Event, seating: Seating) -> str:
    options = seating.options
    if options.get("end") == "rounds":
        rounds = int(options.get("rounds") or 0)
        return _("{n} of {rounds} hands played", n=event.get("hand_number"), rounds=rounds)
    target = event.get("target", options.get("target"))
    return _("First to {target}", target=target) if target is not None else ""


def scores_section(
    view: View | None, result: Mapping[str, Any] | None, seating: Seating, *, glance: bool = False
) -> Section:
    """The teams' scores, the target and the cut-off where it bites; ``glance``: the target on
    the scores' line (the live message counts its lines)."""
    teams = team_scores(view, result)
    if teams is None:
        return Section(_("Scores"), _("No scores yet"))
    line = " · ".join(f"{team_name(seating, t)} **{signed_total(teams[t])}**" for t in (0, 1))
    lines = [line]
    options = options_of(view, seating)
    if view is not None and result is None:
        if options.get("end") != "rounds" and view.get("target") is not None:
            target = view["target"]
            if options.get("target") not in (None, target):
                first = _(
                    "First to {target} (raised from {before} by a made no trump)",
                    target=target,
                    before=options["target"],
                )
            else:
                first = _("First to {target}", target=target)
            if glance:
                lines[0] += f" · {first}"
            else:
                lines.append(first)
        lines += _cut_off_lines(view, teams, seating)
    return Section(_("Scores"), "\n".join(lines))


def _cut_off_lines(view: View, teams: list[int], seating: Seating) -> list[str]:
    """The cut-off, said only for a team it bites: at or over it and defending (or, before
    the contract, a team that may yet defend)."""
    cut = view.get("cut_off")
    if cut in (None, "off") or view.get("phase") == "over":
        return []
    contract = view.get("contract")
    declaring = contract.get("team") if isinstance(contract, Mapping) else None
    lines = []
    for t in (0, 1):
        if teams[t] < int(cut) or t == declaring:
            continue
        name = team_name(seating, t)
        if declaring is not None:
            line = _(
                "{team} at the cut-off ({cut}): defending this hand, they add no points, "
                "only losses",
                team=name,
                cut=cut,
            )
        else:
            line = _(
                "{team} at the cut-off ({cut}): if they defend, they add no points, only losses",
                team=name,
                cut=cut,
            )
        lines.append(line)
    return lines


def team_scores(view: View | None, result: Mapping[str, Any] | None) -> list[int] | None:
    if result is not None:
        teams = result.get("team_scores")
        if isinstance(teams, list) and len(teams) == 2:
            return [int(s) for s in teams]
        scores = result.get("scores")
        if isinstance(scores, list) and len(scores) == 4:
            return [int(scores[0]), int(scores[1])]
    scores = (view or {}).get("scores")
    if isinstance(scores, list) and len(scores) == 2:
        return [int(s) for s in scores]
    return None


def score_sheet(view: View | None, seating: Seating) -> list[Section]:
    rows = [r for r in (view or {}).get("history") or [] if isinstance(r, Mapping)]
    if not rows:
        return [scores_section(view, None, seating)]
    lines = [sheet_row(row, seating) for row in rows]
    sections = [Section(_("Score sheet"), sheet_header(seating))]
    sections += sheet_pages(_("Hands"), lines)
    sections.append(scores_section(view, None, seating))
    return within_limits(sections)


def sheet_header(seating: Seating) -> str:
    # i18n: the header of the score sheet's rows
    return _(
        "Hand · contract · {team} / {other}: change → total",
        team=team_name(seating, 0),
        other=team_name(seating, 1),
    )


def sheet_row(row: Mapping[str, Any], seating: Seating) -> str:
    """One scored hand as on the score sheet: who bid what, made or set, changes, totals."""
    bid = str(row.get("bid"))
    declarer = row.get("seat")
    team = team_of(int(declarer or 0))
    took = int((row.get("hand_points") or [0, 0])[team])
    changes = row.get("changes") or [0, 0]
    scores = row.get("scores") or [0, 0]
    mark = "✓" if row.get("made") else _("✗ set by {n}", n=int(bid.split()[0]) - took)
    totals = f"{signed_total(int(scores[0]))} / {signed_total(int(scores[1]))}"
    # i18n: a row of the score sheet: ``**3.** Ann 7 no: took 8 ✓ · +16 / +2 → **30 / 12**``
    return _(
        "**{number}.** {name} {bid}: took {took} {mark} · {changes} → **{totals}**",
        number=row.get("hand_number"),
        name=seating.name(declarer),
        bid=bid_words(bid),
        took=took,
        mark=mark,
        changes=f"{signed(int(changes[0]))} / {signed(int(changes[1]))}",
        totals=totals,
    )


def final(result: Mapping[str, Any], seating: Seating) -> list[Section]:
    teams = team_scores(None, result)
    winners = list(result.get("winners") or [])
    hands = result.get("hands")
    if teams is None or not winners:
        return [Section("", _("**Game over.**")), scores_section(None, result, seating)]
    team = team_of(int(winners[0]))
    params = {
        "team": team_name(seating, team),
        "score": signed_total(teams[team]),
        "other": signed_total(teams[1 - team]),
    }
    if hands:
        head = _n(
            "🏆 **{team} win**, {score} to {other} after {n} hand.",
            "🏆 **{team} win**, {score} to {other} after {n} hands.",
            int(hands),
            **params,
        )
    else:
        head = _("🏆 **{team} win**, {score} to {other}.", **params)
    return [Section("", head), scores_section(None, result, seating)]
