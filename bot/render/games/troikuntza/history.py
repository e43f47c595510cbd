"""TroiKuntza: ``/history``, privately: what was played in this hand so far and how the
previous one ended."""

from __future__ import annotations

from bot.i18n import _
from bot.render.games._words import names_and, score_line, whom, within_limits
from bot.render.games.troikuntza.table import meld_sections, pile_section
from bot.render.games.troikuntza.words import contract_words
from bot.render.presenter import Seating, Section, View
from engine.troikuntza.melds import CONTRACTS


def hand_history(view: View, seating: Seating) -> list[Section]:
    """What this round has laid down so far and how the previous round scored. The discard
    pile shows only its top card (the rules hide the rest), so the round's discards are not
    listed: the melds on the table, who has come out, the May Is used and the pile's top."""
    sections = [pile_section(view, seating)]
    melds = meld_sections(view, seating)
    sections += melds or [Section(_("Melds"), _("None laid down yet."))]
    players = int(view.get("players") or len(seating.names))
    out = [whom(seating, s) for s, done in enumerate(view.get("out") or []) if done]
    if out:
        lines = [_("Come out: {names}", names=names_and(out))]
    else:
        lines = [_("Nobody has come out yet.")]
    used = list((view.get("mayi") or {}).get("used") or [])
    calls = [f"{whom(seating, s)} {used[s]}" for s in range(min(players, len(used))) if used[s]]
    if calls:
        lines.append(_("May Is used: {calls}", calls=" · ".join(calls)))
    sections.append(Section(_("This round"), "\n".join(lines)))
    rounds = list(view.get("round_points") or [])
    if rounds:
        number = len(rounds)
        contract = contract_words(CONTRACTS[min(number, len(CONTRACTS)) - 1])
        last = " · ".join(f"{whom(seating, s)} **{p}**" for s, p in enumerate(rounds[-1][:players]))
        totals = score_line(seating, list(view.get("scores") or []))
        text = last + "\n" + _("Totals: {scores}", scores=totals)
        title = _("Round {number} — {contract}", number=number, contract=contract)
        sections.append(Section(title, text))
    return within_limits(sections)
