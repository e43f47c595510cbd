"""Troika (Kaiser) as its players read it: the contract, the hand points of each team, the
trick, the scores against the target or the rounds, the cut-off where it bites.

Words are Kaiser's: a *hand* (8 tricks), *hand points* (1 a trick, 5♥️ +5, 3♤ −3, 10 in all),
the *declarer* and his partner against the *defenders*, a *no trump* bid scoring double, the
*cut-off* (``max_non_bid``) above which defenders add no points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.render.games._tricks import (
    by_suit,
    card_of_action,
    history_sections,
    sheet_pages,
    trick_lines,
    trick_now,
    trick_picture,
)
from bot.render.games._words import (
    cap,
    does,
    pack,
    plural,
    signed,
    signed_total,
    whom,
    whose,
    within_limits,
)
from bot.render.games.cards import pretty, pretty_list, pretty_suit
from bot.render.presenter import Event, Picture, Presenter, Seating, Section, View

TEAMS = ((0, 2), (1, 3))
#: A team's hand points minus its tricks tell which point cards it took (5♥️ +5, 3♤ −3).
_POINT_CARDS = {0: (), 5: ("5H",), -3: ("3S",), 2: ("5H", "3S")}
_POINT_VALUE = {"5H": 5, "3S": -3}


def bid_words(bid: str) -> str:
    """An engine bid (``7``, ``7 no``, ``7 no low``, ``8 low``) as players say it."""
    words = str(bid).split()
    if not words:
        return str(bid)
    kind = " ".join(words[1:])
    return {
        "": words[0],
        "no": f"{words[0]} no trump",
        "no low": f"{words[0]} no trump low",
        "low": f"{words[0]} low",
    }.get(kind, str(bid))


def _is_no_trump(bid: str) -> bool:
    return "no" in str(bid).split()


def team_name(seating: Seating, team: int) -> str:
    """``Ann & Cid`` (``You & Cid`` for the reader's team, the reader first)."""
    seats = sorted(TEAMS[team], key=lambda seat: not seating.is_you(seat))
    return " & ".join(seating.who(seat) for seat in seats)


def _team_of(seat: int) -> int:
    return seat & 1


def _options(view: View | None, seating: Seating) -> Mapping[str, Any]:
    options = (view or {}).get("options")
    return options if isinstance(options, Mapping) and options else seating.options


def _trick_value(cards: list[str]) -> str:
    """A trick's hand points: 1, with 5♥️ +5 and 3♤ −3 (``+1``, ``+6``, ``−2``)."""
    return signed(1 + sum(_POINT_VALUE.get(c.upper(), 0) for c in cards))


def _points_detail(points: int, tricks: int) -> str:
    """``3 tricks, 5♥️ +5``: what made a team's hand points."""
    parts = [plural(tricks, "trick")]
    for card in _POINT_CARDS.get(points - tricks, ()):
        parts.append(f"{pretty(card)} {signed(_POINT_VALUE[card])}")
    return ", ".join(parts)


class TroikaPresenter(Presenter):
    game = "troika"
    quiet: ClassVar[frozenset[str]] = frozenset()

    # -- the table --------------------------------------------------------------------------------
    def heading(self, view: View, seating: Seating) -> str:
        number = int(view.get("hand_number") or 1)
        options = _options(view, seating)
        if options.get("end") == "rounds":
            rounds = int(options.get("rounds") or 0)
            if number > rounds:
                return f"hand {number} (extra hand: the scores were tied)"
            return f"hand {number} of {rounds}"
        return f"hand {number}"

    def table_sections(self, view: View, seating: Seating) -> list[Section]:
        sections = [self._contract_section(view, seating)]
        points = self._hand_points_section(view, seating)
        if points is not None:
            sections.append(points)
        sections.append(self.scores(view, None, seating))
        return within_limits(sections)

    def table_picture(self, view: View, seating: Seating) -> Picture | None:
        return trick_picture(view, seating)

    def _contract_section(self, view: View, seating: Seating) -> Section:
        contract = view.get("contract")
        if not isinstance(contract, Mapping):
            return Section("Bidding", "\n".join(self._bidding_lines(view, seating)))
        declarer = int(contract["declarer"])
        team = _team_of(declarer)
        partner = TEAMS[team][1] if TEAMS[team][0] == declarer else TEAMS[team][0]
        bid = str(contract.get("bid", ""))
        head = f"{does(seating, declarer, 'bid', 'bid')} **{bid_words(bid)}**"
        head += f" (partner {whom(seating, partner)})"
        if _is_no_trump(bid):
            head += " · scores double"
        lines = [head, self._trumps_line(view, seating, declarer, bid)]
        if contract.get("low"):
            # Rules name the point cards in words: a card symbol on the table means a real card.
            lines.append("Low: 7 beats 8 beats … beats A in every suit; the 5 and the 3 lowest")
        if view.get("phase") == "kitty":
            done = int(view.get("discard_count") or 0)
            lines.append(
                does(
                    seating, declarer, "takes the kitty and discards", "take the kitty and discard"
                )
                + f" 2 ({done} of 2 done)"
            )
        number = int(contract.get("number") or 0)
        lines.append(f"{team_name(seating, team)} need {number} hand points")
        return Section("Contract", "\n".join(lines))

    def _trumps_line(self, view: View, seating: Seating, declarer: int, bid: str) -> str:
        if _is_no_trump(bid):
            return "No trumps"
        if view.get("trump"):
            return f"Trumps: {pretty_suit(str(view['trump']))}"
        if _options(view, seating).get("trump_lead"):
            return f"Trumps: the suit {whom(seating, declarer)} leads first"
        return f"Trumps: {does(seating, declarer, 'names', 'name')} them"

    def _bidding_lines(self, view: View, seating: Seating) -> list[str]:
        options = _options(view, seating)
        dealer = view.get("dealer")
        lines = []
        draw = view.get("dealer_draw") or []
        if view.get("hand_number") == 1 and draw:
            # The first Jack came from a separate shuffle: named without its card, which may
            # well sit in someone's hand now.
            lines.append(f"{does(seating, draw[-1][0], 'drew', 'drew')} the first Jack")
        auction = "one bid each" if options.get("auction") != "open" else "raise or drop out"
        deals = does(seating, dealer, "deals", "deal")
        lines.append(f"{deals} · bids from {options.get('min_bid', 6)} · {auction}")
        bids = [
            f"{whom(seating, b['seat'])} "
            + ("passed" if b.get("bid") == "pass" else bid_words(str(b.get("bid"))))
            for b in view.get("bids") or []
            if isinstance(b, Mapping)
        ]
        lines.append(" · ".join(bids) if bids else "No bids yet")
        if options.get("auction") != "open" and view.get("high_bid"):
            equal = does(seating, dealer, "may equal", "may equal")
            lines.append(f"{equal} the high bid ({bid_words(view['high_bid'])}) as dealer")
        return lines

    def _hand_points_section(self, view: View, seating: Seating) -> Section | None:
        points = list(view.get("hand_points") or [])
        tricks = list(view.get("tricks_won") or [])
        if len(points) != 2 or len(tricks) != 2 or not any(tricks):
            return None
        lines = [
            f"{team_name(seating, t)} **{signed_total(points[t])}** "
            f"({_points_detail(points[t], tricks[t])})"
            for t in (0, 1)
        ]
        return Section("Hand points", "\n".join(lines))

    # -- the hand ---------------------------------------------------------------------------------
    def hand_sections(self, view: View, legal: Sequence[str], seating: Seating) -> list[Section]:
        seat = seating.viewer if seating.viewer is not None else view.get("seat")
        hand = [str(c) for c in view.get("hand") or []]
        lines = [by_suit(hand)]
        if isinstance(seat, int):
            partner = (seat + 2) % 4
            lines.append(f"Partner: {seating.name(partner)}")
        sections = [Section("Your hand", "\n".join(lines))]
        sections.append(self._contract_section(view, seating))
        table = trick_lines(view, seating)
        if table:
            sections.append(Section("Trick", "\n".join(table)))
        points = self._hand_points_section(view, seating)
        if points is not None:
            sections.append(points)
        move = self._move_lines(view, legal, hand)
        if move:
            sections += pack("Your move", move)
        return within_limits(sections)

    def _move_lines(self, view: View, legal: Sequence[str], hand: list[str]) -> list[str]:
        if not legal:
            return []
        phase = view.get("phase")
        if phase == "bidding":
            lines = ["Bid or pass: " + " · ".join(self.action_label(a) for a in legal
                                                   if a != "misdeal")]  # fmt: skip
            if "misdeal" in legal:
                lines.append(
                    "No ace, no court card, neither the 5 of hearts nor the 3 of spades: "
                    "you may throw this hand in (misdeal)"
                )
            return lines
        if phase == "trump":
            return ["Name trumps: " + " · ".join(self.action_label(a) for a in legal)]
        if phase == "kitty":
            lines = []
            if view.get("kitty"):
                lines.append(f"From the kitty: {pretty_list(list(view['kitty']))}")
            if view.get("discards"):
                lines.append(f"Discarded: {pretty_list(list(view['discards']))}")
            left = 2 - int(view.get("discard_count") or 0)
            lines.append(
                f"Discard {plural(left, 'more card')} face down (never the 5 of hearts or the "
                "3 of spades)"
            )
            return lines
        if phase == "play":
            cards = [c for a in legal if (c := card_of_action(a, "play"))]
            trick = trick_now(view)
            if not trick:
                return ["Your lead: any card"]
            led = trick[0][1][-1]
            if len(cards) < len(hand):
                return [f"Follow {pretty_suit(led)}: {pretty_list(cards)}"]
            return [f"No {pretty_suit(led).split()[-1]}: play any card"]
        return []

    def hand_picture(self, view: View, seating: Seating) -> Picture | None:
        hand = [str(c) for c in view.get("hand") or []]
        return Picture.of("hand_png", cards=hand) if hand else None

    # -- actions ----------------------------------------------------------------------------------
    def action_label(self, action: str) -> str:
        words = action.split()
        verb = words[0] if words else ""
        if verb == "play" and (card := card_of_action(action, "play")):
            return pretty(card)
        if verb == "discard" and (card := card_of_action(action, "discard")):
            return f"Discard {pretty(card)}"
        if verb == "bid" and len(words) > 1:
            return bid_words(" ".join(words[1:]))
        if verb == "trump" and len(words) == 2:
            return pretty_suit(words[1])
        if action == "pass":
            return "Pass"
        if action == "misdeal":
            return "Misdeal (throw the hand in)"
        return action[:80]

    def you_did(self, action: str) -> str:
        words = action.split()
        verb = words[0] if words else ""
        if verb == "play" and (card := card_of_action(action, "play")):
            return f"You played {pretty(card)}"
        if verb == "discard" and (card := card_of_action(action, "discard")):
            return f"You discarded {pretty(card)}"
        if verb == "bid" and len(words) > 1:
            return f"You bid {bid_words(' '.join(words[1:]))}"
        if verb == "trump" and len(words) == 2:
            return f"You named trumps: {pretty_suit(words[1])}"
        if action == "pass":
            return "You passed"
        if action == "misdeal":
            return "You threw the hand in (misdeal)"
        return f"You: {self.action_label(action)}"

    # -- narration --------------------------------------------------------------------------------
    def tell(self, event: Event, seating: Seating) -> str | None:
        kind = str(event.get("type", ""))
        seat = event.get("seat")
        if kind == "deal":
            dealer = event.get("dealer", seat)
            return f"Hand {event.get('hand_number')}: {does(seating, dealer, 'deals', 'deal')}"
        if kind == "bid":
            return f"{does(seating, seat, 'bids', 'bid')} {bid_words(str(event.get('bid')))}"
        if kind == "pass":
            return does(seating, seat, "passes", "pass")
        if kind == "misdeal":
            cards = pretty_list([str(c) for c in event.get("cards") or []])
            return f"{does(seating, seat, 'throws', 'throw')} the hand in (misdeal): {cards}"
        if kind == "thrown_in":
            return "Everybody passed: the hand is thrown in and the deal passes on"
        if kind == "contract":
            bid = bid_words(str(event.get("bid", event.get("contract"))))
            return f"{does(seating, seat, 'wins', 'win')} the bidding: {bid}"
        if kind == "trump":
            suit = pretty_suit(str(event.get("suit")))
            if seating.options.get("trump_lead"):  # the declarer's first lead fixed them
                return f"{cap(whose(seating, seat))} first lead makes {suit} trumps"
            return f"{does(seating, seat, 'names', 'name')} trumps: {suit}"
        if kind == "kitty":
            count = int(event.get("count") or 2)
            return f"{does(seating, seat, 'takes', 'take')} the {plural(count, 'kitty card')}"
        if kind == "kitty_cards":
            return f"You take {pretty_list([str(c) for c in event.get('cards') or []])}"
        if kind == "discard":
            return f"You discard {pretty(str(event.get('card')))}"
        if kind == "discarded":
            left = int(event.get("left") or 0)
            tail = f" ({left} to go)" if left else ""
            return f"{does(seating, seat, 'discards', 'discard')} a card face down{tail}"
        if kind == "play":
            return f"{does(seating, seat, 'plays', 'play')} {pretty(str(event.get('card')))}"
        if kind == "trick":
            return self._trick_line(event, seating)
        if kind == "target_raised":
            cut = event.get("cut_off")
            tail = f" and the cut-off to {cut}" if cut not in (None, "off") else ""
            return f"The no trump raises the target to {event.get('target')}{tail}"
        if kind == "hand_over":
            return self._hand_over_line(event, seating)
        if kind == "game_over":
            return self._game_over_line(event, seating)
        raise self.unknown(event)

    def _trick_line(self, event: Event, seating: Seating) -> str:
        seat = event.get("seat")
        value = int(event.get("points") or 0)
        cards = [str(c).upper() for c in event.get("cards") or []]
        special = [pretty(c) for c in ("5H", "3S") if c in cards]
        extra = f", with {' and '.join(special)}" if special else ""
        return f"{does(seating, seat, 'takes', 'take')} the trick: {signed(value)}{extra}"

    def _hand_over_line(self, event: Event, seating: Seating) -> str:
        team = int(event.get("declarer_team", _team_of(int(event.get("seat") or 0))))
        bid = bid_words(str(event.get("bid")))
        points = list(event.get("hand_points") or [0, 0])
        outcome = (
            f"made {bid}" if event.get("made") else f"were set by {self._set_by(event)} on {bid}"
        )
        return (
            f"Hand {event.get('hand_number')}: {team_name(seating, team)} {outcome} "
            f"(took {points[team]})"
        )

    @staticmethod
    def _set_by(event: Event) -> int:
        team = int(event.get("declarer_team", 0))
        number = int(str(event.get("bid", "0")).split()[0])
        return number - int((event.get("hand_points") or [0, 0])[team])

    def _game_over_line(self, event: Event, seating: Seating) -> str:
        scores = list(event.get("team_scores") or [])
        winners = list(event.get("winners") or [])
        if not winners or len(scores) != 2:
            return "Game over"
        team = _team_of(int(winners[0]))
        return (
            f"🏆 {team_name(seating, team)} win, {signed_total(scores[team])} to "
            f"{signed_total(scores[1 - team])}"
        )

    # -- end of a hand ----------------------------------------------------------------------------
    def summary(self, event: Event, seating: Seating) -> list[Section]:
        team = int(event.get("declarer_team", _team_of(int(event.get("seat") or 0))))
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
        double = _is_no_trump(bid)
        hand = event.get("hand_number")

        verdict = "made it" if made else f"**set by {number - points[team]}**"
        title = f"Hand {hand}: {team_name(seating, team)} " + (
            "made it" if made else f"set by {number - points[team]}"
        )
        head = (
            f"{does(seating, declarer, 'bid', 'bid')} **{bid_words(bid)}**; "
            f"{team_name(seating, team)} took **{points[team]}** of {number} needed: {verdict}"
        )
        hand_points = "\n".join(
            f"{team_name(seating, t)} **{signed_total(points[t])}** "
            f"({_points_detail(points[t], tricks[t])})"
            for t in (team, other)
        )
        lines = [
            self._declarer_change(
                team, changes[team], points[team], number, made, double, seating
            ),  # fmt: skip
            self._defender_change(
                event, other, changes[other], points[other], before[other], seating
            ),  # fmt: skip
        ]
        lines += [
            f"{team_name(seating, t)}: {signed_total(before[t])} → **{signed_total(scores[t])}**"
            for t in (0, 1)
        ]
        if event.get("raised"):
            cut = event.get("cut_off")
            tail = f", the cut-off to {cut}" if cut not in (None, "off") else ""
            lines.append(f"This made no trump raises the target to {event.get('target')}{tail}")
        goal = self._goal(event, seating)
        if goal:
            lines.append(goal)
        return within_limits(
            [
                Section(title, head),
                Section("Hand points", hand_points),
                Section("Score", "\n".join(lines)),
            ]
        )

    def _declarer_change(
        self,
        team: int,
        change: int,
        took: int,
        number: int,
        made: bool,
        double: bool,
        seating: Seating,
    ) -> str:
        times = " × 2 for no trump" if double else ""
        if made:
            why = f"{took} taken{times}"
        elif abs(change) == number * (2 if double else 1):
            why = f"set: bid {number}{times}"
        else:
            why = f"set: {abs(took)} taken{times}"
        return f"{team_name(seating, team)} **{signed(change)}** ({why})"

    def _defender_change(
        self, event: Event, team: int, change: int, took: int, before: int, seating: Seating
    ) -> str:
        cut = event.get("cut_off", seating.options.get("max_non_bid"))
        name = team_name(seating, team)
        if change == took:
            return f"{name} **{signed(change)}** (defending)"
        return (
            f"{name} **{signed(change)}**: at {signed_total(before)}, at or over the cut-off "
            f"of {cut}, defenders add no points (only losses count)"
        )

    def _goal(self, event: Event, seating: Seating) -> str:
        options = seating.options
        if options.get("end") == "rounds":
            rounds = int(options.get("rounds") or 0)
            return f"{event.get('hand_number')} of {rounds} hands played"
        target = event.get("target", options.get("target"))
        return f"First to {target}" if target is not None else ""

    # -- scores -----------------------------------------------------------------------------------
    def scores(
        self, view: View | None, result: Mapping[str, Any] | None, seating: Seating
    ) -> Section:
        teams = self._team_scores(view, result)
        if teams is None:
            return Section("Scores", "No scores yet")
        line = " · ".join(f"{team_name(seating, t)} **{signed_total(teams[t])}**" for t in (0, 1))
        lines = [line]
        options = _options(view, seating)
        if view is not None and result is None:
            if options.get("end") != "rounds" and view.get("target") is not None:
                target = view["target"]
                first = f"First to {target}"
                if options.get("target") not in (None, target):
                    first += f" (raised from {options['target']} by a made no trump)"
                lines.append(first)
            lines += self._cut_off_lines(view, teams, seating)
        return Section("Scores", "\n".join(lines))

    @staticmethod
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
            when = "defending this hand" if declaring is not None else "if they defend"
            lines.append(
                f"{team_name(seating, t)} at the cut-off ({cut}): {when}, they add no points, "
                "only losses"
            )
        return lines

    @staticmethod
    def _team_scores(view: View | None, result: Mapping[str, Any] | None) -> list[int] | None:
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

    def score_sheet(self, view: View | None, seating: Seating) -> list[Section]:
        rows = [r for r in (view or {}).get("history") or [] if isinstance(r, Mapping)]
        if not rows:
            return [self.scores(view, None, seating)]
        lines = [self._sheet_row(row, seating) for row in rows]
        sections = [Section("Score sheet", self._sheet_header(seating))]
        sections += sheet_pages("Hands", lines)
        sections.append(self.scores(view, None, seating))
        return within_limits(sections)

    @staticmethod
    def _sheet_header(seating: Seating) -> str:
        return (
            f"Hand · contract · {team_name(seating, 0)} / {team_name(seating, 1)}: change → total"
        )

    @staticmethod
    def _sheet_row(row: Mapping[str, Any], seating: Seating) -> str:
        """One scored hand as on the score sheet: who bid what, made or set, changes, totals."""
        bid = str(row.get("bid"))
        declarer = row.get("seat")
        team = _team_of(int(declarer or 0))
        took = int((row.get("hand_points") or [0, 0])[team])
        changes = row.get("changes") or [0, 0]
        scores = row.get("scores") or [0, 0]
        mark = "✓" if row.get("made") else f"✗ set by {int(bid.split()[0]) - took}"
        totals = f"{signed_total(int(scores[0]))} / {signed_total(int(scores[1]))}"
        return (
            f"**{row.get('hand_number')}.** {seating.name(declarer)} {bid_words(bid)}: "
            f"took {took} {mark} · {signed(int(changes[0]))} / {signed(int(changes[1]))} "
            f"→ **{totals}**"
        )

    # -- /history ---------------------------------------------------------------------------------
    def history(self, view: View, seating: Seating) -> list[Section]:
        """The contract, this hand's tricks (who led, the cards, who took it, its hand points)
        and the previous hand's row of the score sheet."""
        sections = []
        if view.get("contract") or view.get("bids"):
            sections.append(self._contract_section(view, seating))
        sections += history_sections(view, seating, _trick_value)
        rows = [r for r in view.get("history") or [] if isinstance(r, Mapping)]
        if rows:
            text = f"{self._sheet_header(seating)}\n{self._sheet_row(rows[-1], seating)}"
            sections.append(Section("Previous hand", text))
        return within_limits(sections)

    def final(self, result: Mapping[str, Any], seating: Seating) -> list[Section]:
        teams = self._team_scores(None, result)
        winners = list(result.get("winners") or [])
        hands = result.get("hands")
        if teams is None or not winners:
            return [Section("", "**Game over.**"), self.scores(None, result, seating)]
        team = _team_of(int(winners[0]))
        after = f" after {plural(int(hands), 'hand')}" if hands else ""
        head = (
            f"🏆 **{team_name(seating, team)} win**, {signed_total(teams[team])} to "
            f"{signed_total(teams[1 - team])}{after}."
        )
        return [Section("", head), self.scores(None, result, seating)]
