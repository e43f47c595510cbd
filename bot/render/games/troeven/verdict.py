"""2-Player Troeven: the end of a hand (its verdict), the scores, the score sheet and the final
message."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import N_, _, _n
from bot.render.games._tricks import sheet_pages
from bot.render.games._words import said, whom, within_limits
from bot.render.games.cards import pretty_suit
from bot.render.games.troeven.words import DEAL_POINTS
from bot.render.presenter import Event, Seating, Section, View


def summary(event: Event, seating: Seating) -> list[Section]:
    points = [int(p) for p in event.get("points") or [0, 0]]
    tricks = [int(t) for t in event.get("tricks") or [0, 0]]
    changes = [int(c) for c in event.get("changes") or [0, 0]]
    scores = [int(s) for s in event.get("scores") or [0, 0]]
    before = [scores[s] - changes[s] for s in (0, 1)]
    winner = event.get("winner")
    dealer = event.get("dealer")
    caller = event.get("caller")
    number = event.get("hand_number")
    # i18n: no trumps were named
    trump = pretty_suit(str(event.get("trump"))) if event.get("trump") else _("none")
    split = "\n".join(
        f"{seating.who(s)} **{points[s]}** ({_n('{n} trick', '{n} tricks', tricks[s])})"
        for s in (0, 1)
    )
    split += "\n" + said(
        seating,
        dealer,
        N_("of {total} card points · trumps {trump}, named by {caller} · You dealt"),
        N_("of {total} card points · trumps {trump}, named by {caller} · {name} dealt"),
        total=DEAL_POINTS,
        trump=trump,
        caller=whom(seating, caller),
    )
    if winner is None:
        title = _("Deal {number}: 20–20", number=number)
        lines = [_("A tie: nobody moves")]
    else:
        title = _("Deal {number}: {name} wins it", number=number, name=seating.name(winner))
        lines = [
            said(
                seating,
                winner,
                N_("You go down 1: {before} → **{after}**"),
                N_("{name} goes down 1: {before} → **{after}**"),
                before=before[winner],
                after=scores[winner],
            )  # fmt: skip
        ]
        if winner == dealer and changes[1 - winner] > 0:
            loser = 1 - winner
            lines.append(
                said(
                    seating,
                    loser,
                    N_("The dealer won, so you (who named trumps) go up 1: {before} → **{after}**"),
                    N_(
                        "The dealer won, so {name} (who named trumps) goes up 1: "
                        "{before} → **{after}**"
                    ),
                    before=before[loser],
                    after=scores[loser],
                )
            )
    lines.append(_scores_line(scores, seating))
    return within_limits([Section(title, split), Section(_("Score"), "\n".join(lines))])


def _scores_line(scores: Sequence[int], seating: Seating) -> str:
    shown = " · ".join(f"{seating.who(s)} **{scores[s]}**" for s in range(len(scores)))
    return _("{scores} — first to 0 wins", scores=shown)


def scores_section(
    view: View | None, result: Mapping[str, Any] | None, seating: Seating
) -> Section:
    scores = (result or {}).get("scores") or (view or {}).get("scores")
    if not isinstance(scores, list) or len(scores) != 2:
        return Section(_("Scores"), _("No scores yet"))
    return Section(_("Scores"), _scores_line([int(s) for s in scores], seating))


def score_sheet(view: View | None, seating: Seating) -> list[Section]:
    rows = [r for r in (view or {}).get("history") or [] if isinstance(r, Mapping)]
    if not rows:
        return [scores_section(view, None, seating)]
    lines = []
    for row in rows:
        points = row.get("points") or [0, 0]
        scores = row.get("scores") or [0, 0]
        winner = row.get("winner")
        who = f"{seating.name(winner)} −1" if winner is not None else _("tie")
        if winner is not None and winner == row.get("dealer"):
            who += f", {seating.name(1 - winner)} +1"
        trump = pretty_suit(str(row["trump"])).split()[0] if row.get("trump") else "?"
        lines.append(
            f"**{row.get('hand_number')}.** {trump} {points[0]}–{points[1]} · {who} → "
            f"**{scores[0]}–{scores[1]}**"
        )
    # i18n: the header of the score sheet's rows
    head = _(
        "Deal · trumps · card points {name}–{other} · change → scores",
        name=seating.name(0),
        other=seating.name(1),
    )
    sections = [Section(_("Score sheet"), head)]
    sections += sheet_pages(_("Deals"), lines)
    sections.append(scores_section(view, None, seating))
    return within_limits(sections)


def final(result: Mapping[str, Any], seating: Seating) -> list[Section]:
    winners = list(result.get("winners") or [])
    played = result.get("hands_played")
    if not winners:
        return [Section("", _("**Game over.**")), scores_section(None, result, seating)]
    winner = winners[0]
    if played and seating.is_you(winner):
        head = _n(
            "🏆 **You reach 0 and win** after {n} deal.",
            "🏆 **You reach 0 and win** after {n} deals.",
            int(played),
        )
    elif played:
        head = _n(
            "🏆 **{name} reaches 0 and wins** after {n} deal.",
            "🏆 **{name} reaches 0 and wins** after {n} deals.",
            int(played),
            name=seating.name(winner),
        )
    else:
        head = said(
            seating, winner, N_("🏆 **You reach 0 and win**."),
            N_("🏆 **{name} reaches 0 and wins**."),
        )  # fmt: skip
    return [Section("", head), scores_section(None, result, seating)]
