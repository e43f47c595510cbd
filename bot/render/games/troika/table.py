"""Troika (Kaiser): the public table message (heading, sections, picture)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import N_, _
from bot.render.games._tricks import trick_picture
from bot.render.games._words import said, signed_total, whom, within_limits
from bot.render.games.cards import pretty_suit
from bot.render.games.troika.verdict import scores_section, sheet_row
from bot.render.games.troika.words import (
    TEAMS,
    bid_words,
    is_no_trump,
    options_of,
    points_detail,
    team_name,
    team_of,
)
from bot.render.presenter import Picture, Seating, Section, View


def heading(view: View, seating: Seating) -> str:
    number = int(view.get("hand_number") or 1)
    options = options_of(view, seating)
    if options.get("end") == "rounds":
        rounds = int(options.get("rounds") or 0)
        if number > rounds:
            return _("hand {n} (extra hand: the scores were tied)", n=number)
        return _("hand {n} of {rounds}", n=number, rounds=rounds)
    return _("hand {n}", n=number)


def table_sections(view: View, seating: Seating) -> list[Section]:
    """What a glance at the live message asks, in two sections: this hand (who dealt, the
    contract, the hand points, the tricks per player and who took the last one) and the scores
    (with why they last changed)."""
    contract = view.get("contract")
    hand = glance_section(view, seating) if isinstance(contract, Mapping) else None
    scores = scores_section(view, None, seating, glance=True)
    last = last_hand_line(view, seating)
    if last:
        scores = Section(scores.title, f"{scores.text}\n{last}", role=scores.role)
    return within_limits([hand or contract_section(view, seating), scores])


def glance_section(view: View, seating: Seating) -> Section:
    """The contract and the hand so far, one line for each thing a player looks for."""
    contract = view["contract"]
    declarer = int(contract["declarer"])
    team = team_of(declarer)
    partner = TEAMS[team][1] if TEAMS[team][0] == declarer else TEAMS[team][0]
    bid = str(contract.get("bid", ""))
    head = said(
        seating,
        declarer,
        N_("You bid **{bid}** (partner {partner})"),
        N_("{name} bid **{bid}** (partner {partner})"),
        bid=bid_words(bid),
        partner=whom(seating, partner),
    )
    dealt = said(seating, view.get("dealer"), N_("you dealt"), N_("{name} dealt"))
    trumps = _trumps_line(view, seating, declarer, bid)
    if is_no_trump(bid):
        trumps += " · " + _("scores double")
    lines = [f"{head} · {dealt}", trumps, *_rule_lines(view, seating, contract, declarer)]
    number = int(contract.get("number") or 0)
    points = list(view.get("hand_points") or [])
    tricks = list(view.get("tricks_won") or [])
    if len(points) != 2 or len(tricks) != 2 or not any(tricks):
        lines.append(_("{team} need {n} hand points", team=team_name(seating, team), n=number))
        return Section(_("Contract"), "\n".join(lines))
    lines.append(
        # i18n: the declaring team's hand points so far: ``Ann & Cid **8** of 7 needed (5♥️ +5)``
        _(
            "{team} **{points}** of {n} needed{cards}",
            team=team_name(seating, team),
            points=signed_total(points[team]),
            n=number,
            cards=point_cards(points[team], tricks[team]),
        )
    )
    other = 1 - team
    lines.append(
        f"{team_name(seating, other)} **{signed_total(points[other])}**"
        f"{point_cards(points[other], tricks[other])}"
    )
    lines.append(tricks_line(view, seating))
    return Section(_("Contract"), "\n".join(lines))


def point_cards(points: int, tricks: int) -> str:
    """`` (5♥️ +5)``: the point cards in a team's hand points (nothing when there is none)."""
    detail = points_detail(points, tricks).split(", ")[1:]
    return f" ({', '.join(detail)})" if detail else ""


def tricks_line(view: View, seating: Seating) -> str:
    """``Tricks: Ann 1 · Bob 2 · Cid 0 · Dee 1``, and who took the last one once the picture
    shows the next trick instead."""
    won = [0] * len(seating.names or [0, 0, 0, 0])
    for trick in view.get("played_tricks") or []:
        winner = trick.get("winner") if isinstance(trick, Mapping) else None
        if isinstance(winner, int) and 0 <= winner < len(won):
            won[winner] += 1
    counts = " · ".join(f"{whom(seating, seat)} {n}" for seat, n in enumerate(won))
    # i18n: tricks taken this hand per player: ``Ann 1 · Bob 2 · Cid 0 · Dee 1``
    line = _("Tricks: {counts}", counts=counts)
    last = view.get("last_trick")
    if view.get("trick") and isinstance(last, Mapping) and isinstance(last.get("winner"), int):
        line += " · " + said(
            seating, last["winner"], N_("you took the last"), N_("{name} took the last")
        )
    return line


def last_hand_line(view: View, seating: Seating) -> str:
    """Why the scores last changed: the last scored hand's row of the score sheet."""
    rows = [r for r in view.get("history") or [] if isinstance(r, Mapping)]
    if not rows:
        return ""
    # i18n: {row} is a score sheet row: ``**3.** Ann 7: took 8 ✓ · +8 / +2 → **30 / 12**``
    return _("Last hand: {row}", row=sheet_row(rows[-1], seating))


def table_picture(view: View, seating: Seating) -> Picture | None:
    return trick_picture(view, seating)


def contract_section(view: View, seating: Seating) -> Section:
    contract = view.get("contract")
    if not isinstance(contract, Mapping):
        return Section(_("Bidding"), "\n".join(_bidding_lines(view, seating)))
    declarer = int(contract["declarer"])
    team = team_of(declarer)
    partner = TEAMS[team][1] if TEAMS[team][0] == declarer else TEAMS[team][0]
    bid = str(contract.get("bid", ""))
    head = said(
        seating,
        declarer,
        N_("You bid **{bid}** (partner {partner})"),
        N_("{name} bid **{bid}** (partner {partner})"),
        bid=bid_words(bid),
        partner=whom(seating, partner),
    )
    if is_no_trump(bid):
        head += " · " + _("scores double")
    lines = [head, _trumps_line(view, seating, declarer, bid)]
    lines += _rule_lines(view, seating, contract, declarer)
    number = int(contract.get("number") or 0)
    # i18n: {team} is two names (``Ann & Cid``, ``You & Cid``)
    lines.append(_("{team} need {n} hand points", team=team_name(seating, team), n=number))
    return Section(_("Contract"), "\n".join(lines))


def _rule_lines(
    view: View, seating: Seating, contract: Mapping[str, Any], declarer: int
) -> list[str]:
    """What the contract changes now: a low one's ranking, the kitty being taken."""
    lines = []
    if contract.get("low"):
        # Rules name the point cards in words: a card symbol on the table means a real card.
        lines.append(_("Low: 7 beats 8 beats … beats A in every suit; the 5 and the 3 lowest"))
    if view.get("phase") == "kitty":
        done = int(view.get("discard_count") or 0)
        lines.append(
            said(
                seating,
                declarer,
                N_("You take the kitty and discard 2 ({done} of 2 done)"),
                N_("{name} takes the kitty and discards 2 ({done} of 2 done)"),
                done=done,
            )
        )
    return lines


def _trumps_line(view: View, seating: Seating, declarer: int, bid: str) -> str:
    if is_no_trump(bid):
        return _("No trumps")
    if view.get("trump"):
        return _("Trumps: {suit}", suit=pretty_suit(str(view["trump"])))
    if options_of(view, seating).get("trump_lead"):
        return said(
            seating,
            declarer,
            N_("Trumps: the suit you lead first"),
            N_("Trumps: the suit {name} leads first"),
        )
    return said(seating, declarer, N_("Trumps: You name them"), N_("Trumps: {name} names them"))


def _bidding_lines(view: View, seating: Seating) -> list[str]:
    options = options_of(view, seating)
    dealer = view.get("dealer")
    lines = []
    draw = view.get("dealer_draw") or []
    if view.get("hand_number") == 1 and draw:
        # The first Jack came from a separate shuffle: named without its card, which may
        # well sit in someone's hand now.
        lines.append(
            said(
                seating,
                draw[-1][0],
                N_("You drew the first Jack"),
                N_("{name} drew the first Jack"),
            )
        )
    single = options.get("auction") != "open"
    auction = _("one bid each") if single else _("raise or drop out")
    lines.append(
        said(
            seating,
            dealer,
            N_("You deal · bids from {min} · {auction}"),
            N_("{name} deals · bids from {min} · {auction}"),
            min=options.get("min_bid", 6),
            auction=auction,
        )
    )
    bids = [
        said(seating, b["seat"], N_("you passed"), N_("{name} passed"))
        if b.get("bid") == "pass"
        else f"{whom(seating, b['seat'])} {bid_words(str(b.get('bid')))}"
        for b in view.get("bids") or []
        if isinstance(b, Mapping)
    ]
    lines.append(" · ".join(bids) if bids else _("No bids yet"))
    if options.get("auction") != "open" and view.get("high_bid"):
        lines.append(
            said(
                seating,
                dealer,
                N_("You may equal the high bid ({bid}) as dealer"),
                N_("{name} may equal the high bid ({bid}) as dealer"),
                bid=bid_words(view["high_bid"]),
            )
        )
    return lines


def hand_points_section(view: View, seating: Seating) -> Section | None:
    points = list(view.get("hand_points") or [])
    tricks = list(view.get("tricks_won") or [])
    if len(points) != 2 or len(tricks) != 2 or not any(tricks):
        return None
    lines = [
        f"{team_name(seating, t)} **{signed_total(points[t])}** "
        f"({points_detail(points[t], tricks[t])})"
        for t in (0, 1)
    ]
    return Section(_("Hand points"), "\n".join(lines))
