"""Troika (Kaiser) as its players read it: the contract, the hand points of each team, the
trick, the scores against the target or the rounds, the cut-off where it bites.

Words are Kaiser's: a *hand* (8 tricks), *hand points* (1 a trick, 5♥️ +5, 3♤ −3, 10 in all),
the *declarer* and his partner against the *defenders*, a *no trump* bid scoring double, the
*cut-off* (``max_non_bid``) above which defenders add no points. Every word is in the reader's
language (``bot.i18n``); the game's name, Troika (Kaiser), stays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.i18n import N_, _, _n, _p
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
    names_and,
    pack,
    said,
    signed,
    signed_total,
    whom,
    within_limits,
)
from bot.render.games.cards import picture_letters, pretty, pretty_list, pretty_suit, suit_name
from bot.render.games.troika.rules import rules_text
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
    number = words[0]
    if kind == "":
        return number
    if kind == "no":
        return _("{n} no trump", n=number)
    if kind == "no low":
        return _("{n} no trump low", n=number)
    if kind == "low":
        # i18n: a low contract (7 beats 8 ... beats A)
        return _("{n} low", n=number)
    return str(bid)


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
    parts = [_n("{n} trick", "{n} tricks", tricks)]
    for card in _POINT_CARDS.get(points - tricks, ()):
        parts.append(f"{pretty(card)} {signed(_POINT_VALUE[card])}")
    return ", ".join(parts)


class TroikaPresenter(Presenter):
    game = "troika"
    quiet: ClassVar[frozenset[str]] = frozenset()

    def rules(self, options: Mapping[str, Any] | None = None) -> str:
        return rules_text(options)

    # -- the table --------------------------------------------------------------------------------
    def heading(self, view: View, seating: Seating) -> str:
        number = int(view.get("hand_number") or 1)
        options = _options(view, seating)
        if options.get("end") == "rounds":
            rounds = int(options.get("rounds") or 0)
            if number > rounds:
                return _("hand {n} (extra hand: the scores were tied)", n=number)
            return _("hand {n} of {rounds}", n=number, rounds=rounds)
        return _("hand {n}", n=number)

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
            return Section(_("Bidding"), "\n".join(self._bidding_lines(view, seating)))
        declarer = int(contract["declarer"])
        team = _team_of(declarer)
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
        if _is_no_trump(bid):
            head += " · " + _("scores double")
        lines = [head, self._trumps_line(view, seating, declarer, bid)]
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
        number = int(contract.get("number") or 0)
        # i18n: {team} is two names (``Ann & Cid``, ``You & Cid``)
        lines.append(_("{team} need {n} hand points", team=team_name(seating, team), n=number))
        return Section(_("Contract"), "\n".join(lines))

    def _trumps_line(self, view: View, seating: Seating, declarer: int, bid: str) -> str:
        if _is_no_trump(bid):
            return _("No trumps")
        if view.get("trump"):
            return _("Trumps: {suit}", suit=pretty_suit(str(view["trump"])))
        if _options(view, seating).get("trump_lead"):
            return said(
                seating,
                declarer,
                N_("Trumps: the suit you lead first"),
                N_("Trumps: the suit {name} leads first"),
            )
        return said(seating, declarer, N_("Trumps: You name them"), N_("Trumps: {name} names them"))

    def _bidding_lines(self, view: View, seating: Seating) -> list[str]:
        options = _options(view, seating)
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
        return Section(_("Hand points"), "\n".join(lines))

    # -- the hand ---------------------------------------------------------------------------------
    def hand_sections(self, view: View, legal: Sequence[str], seating: Seating) -> list[Section]:
        seat = seating.viewer if seating.viewer is not None else view.get("seat")
        hand = [str(c) for c in view.get("hand") or []]
        lines = [by_suit(hand)]
        if isinstance(seat, int):
            partner = (seat + 2) % 4
            lines.append(_("Partner: {name}", name=seating.name(partner)))
        sections = [Section(_("Your hand"), "\n".join(lines))]
        sections.append(self._contract_section(view, seating))
        table = trick_lines(view, seating)
        if table:
            sections.append(Section(_("Trick"), "\n".join(table)))
        points = self._hand_points_section(view, seating)
        if points is not None:
            sections.append(points)
        move = self._move_lines(view, legal, hand)
        if move:
            sections += pack(_("Your move"), move)
        return within_limits(sections)

    def _move_lines(self, view: View, legal: Sequence[str], hand: list[str]) -> list[str]:
        if not legal:
            return []
        phase = view.get("phase")
        if phase == "bidding":
            moves = " · ".join(self.action_label(a) for a in legal if a != "misdeal")
            lines = [_("Bid or pass: {moves}", moves=moves)]
            if "misdeal" in legal:
                lines.append(
                    _(
                        "No ace, no court card, neither the 5 of hearts nor the 3 of spades: "
                        "you may throw this hand in (misdeal)"
                    )
                )
            return lines
        if phase == "trump":
            moves = " · ".join(self.action_label(a) for a in legal)
            return [_("Name trumps: {moves}", moves=moves)]
        if phase == "kitty":
            lines = []
            if view.get("kitty"):
                lines.append(_("From the kitty: {cards}", cards=pretty_list(list(view["kitty"]))))
            if view.get("discards"):
                lines.append(_("Discarded: {cards}", cards=pretty_list(list(view["discards"]))))
            left = 2 - int(view.get("discard_count") or 0)
            lines.append(
                _n(
                    "Discard {n} more card face down (never the 5 of hearts or the 3 of spades)",
                    "Discard {n} more cards face down (never the 5 of hearts or the 3 of spades)",
                    left,
                )
            )
            return lines
        if phase == "play":
            cards = [c for a in legal if (c := card_of_action(a, "play"))]
            trick = trick_now(view)
            if not trick:
                return [_("Your lead: any card")]
            led = trick[0][1][-1]
            if len(cards) < len(hand):
                return [
                    _("Follow {suit}: {cards}", suit=pretty_suit(led), cards=pretty_list(cards))
                ]
            return [_("No {suit}: play any card", suit=suit_name(led))]
        return []

    def hand_picture(self, view: View, seating: Seating) -> Picture | None:
        hand = [str(c) for c in view.get("hand") or []]
        return Picture.of("hand_png", cards=hand, **picture_letters()) if hand else None

    # -- actions ----------------------------------------------------------------------------------
    def action_label(self, action: str) -> str:
        words = action.split()
        verb = words[0] if words else ""
        if verb == "play" and (card := card_of_action(action, "play")):
            return pretty(card)
        if verb == "discard" and (card := card_of_action(action, "discard")):
            return _("Discard {card}", card=pretty(card))
        if verb == "bid" and len(words) > 1:
            return bid_words(" ".join(words[1:]))
        if verb == "trump" and len(words) == 2:
            return pretty_suit(words[1])
        if action == "pass":
            return _p("button", "Pass")
        if action == "misdeal":
            return _("Misdeal (throw the hand in)")
        return action[:80]

    def you_did(self, action: str) -> str:
        words = action.split()
        verb = words[0] if words else ""
        if verb == "play" and (card := card_of_action(action, "play")):
            return _("You played {card}", card=pretty(card))
        if verb == "discard" and (card := card_of_action(action, "discard")):
            return _("You discarded {card}", card=pretty(card))
        if verb == "bid" and len(words) > 1:
            return _("You bid {bid}", bid=bid_words(" ".join(words[1:])))
        if verb == "trump" and len(words) == 2:
            return _("You named trumps: {suit}", suit=pretty_suit(words[1]))
        if action == "pass":
            return _("You passed")
        if action == "misdeal":
            return _("You threw the hand in (misdeal)")
        return _("You: {move}", move=self.action_label(action))

    # -- narration --------------------------------------------------------------------------------
    def tell(self, event: Event, seating: Seating) -> str | None:
        kind = str(event.get("type", ""))
        seat = event.get("seat")
        if kind == "deal":
            dealer = event.get("dealer", seat)
            number = event.get("hand_number")
            return said(
                seating, dealer, N_("Hand {number}: You deal"), N_("Hand {number}: {name} deals"),
                number=number,
            )  # fmt: skip
        if kind == "bid":
            bid = bid_words(str(event.get("bid")))
            return said(seating, seat, N_("You bid {bid}"), N_("{name} bids {bid}"), bid=bid)
        if kind == "pass":
            return said(seating, seat, N_("You pass"), N_("{name} passes"))
        if kind == "misdeal":
            cards = pretty_list([str(c) for c in event.get("cards") or []])
            return said(
                seating,
                seat,
                N_("You throw the hand in (misdeal): {cards}"),
                N_("{name} throws the hand in (misdeal): {cards}"),
                cards=cards,
            )
        if kind == "thrown_in":
            return _("Everybody passed: the hand is thrown in and the deal passes on")
        if kind == "contract":
            bid = bid_words(str(event.get("bid", event.get("contract"))))
            return said(
                seating, seat, N_("You win the bidding: {bid}"),
                N_("{name} wins the bidding: {bid}"), bid=bid,
            )  # fmt: skip
        if kind == "trump":
            suit = pretty_suit(str(event.get("suit")))
            if seating.options.get("trump_lead"):  # the declarer's first lead fixed them
                return said(
                    seating, seat, N_("Your first lead makes {suit} trumps"),
                    N_("{name}'s first lead makes {suit} trumps"), suit=suit,
                )  # fmt: skip
            return said(
                seating, seat, N_("You name trumps: {suit}"), N_("{name} names trumps: {suit}"),
                suit=suit,
            )  # fmt: skip
        if kind == "kitty":
            count = int(event.get("count") or 2)
            if seating.is_you(seat):
                return _n("You take the {n} kitty card", "You take the {n} kitty cards", count)
            return _n(
                "{name} takes the {n} kitty card",
                "{name} takes the {n} kitty cards",
                count,
                name=seating.name(seat),
            )
        if kind == "kitty_cards":
            cards = pretty_list([str(c) for c in event.get("cards") or []])
            return _("You take {cards}", cards=cards)
        if kind == "discard":
            return _("You discard {card}", card=pretty(str(event.get("card"))))
        if kind == "discarded":
            left = int(event.get("left") or 0)
            line = said(
                seating, seat, N_("You discard a card face down"),
                N_("{name} discards a card face down"),
            )  # fmt: skip
            # i18n: after "Ann discards a card face down": how many more the declarer discards
            return line + " " + _("({n} to go)", n=left) if left else line
        if kind == "play":
            card = pretty(str(event.get("card")))
            return said(seating, seat, N_("You play {card}"), N_("{name} plays {card}"), card=card)
        if kind == "trick":
            return self._trick_line(event, seating)
        if kind == "target_raised":
            cut = event.get("cut_off")
            target = event.get("target")
            if cut not in (None, "off"):
                return _(
                    "The no trump raises the target to {target} and the cut-off to {cut}",
                    target=target,
                    cut=cut,
                )
            return _("The no trump raises the target to {target}", target=target)
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
        line = said(
            seating, seat, N_("You take the trick: {value}"), N_("{name} takes the trick: {value}"),
            value=signed(value),
        )  # fmt: skip
        if not special:
            return line
        # i18n: after "Ann takes the trick: +6": the point cards in it ({cards}: 5♥️ and 3♤)
        return line + _(", with {cards}", cards=names_and(special))

    def _hand_over_line(self, event: Event, seating: Seating) -> str:
        team = int(event.get("declarer_team", _team_of(int(event.get("seat") or 0))))
        bid = bid_words(str(event.get("bid")))
        points = list(event.get("hand_points") or [0, 0])
        number, name, took = event.get("hand_number"), team_name(seating, team), points[team]
        if event.get("made"):
            return _(
                "Hand {number}: {team} made {bid} (took {took})",
                number=number, team=name, bid=bid, took=took,
            )  # fmt: skip
        return _(
            "Hand {number}: {team} were set by {short} on {bid} (took {took})",
            number=number, team=name, short=self._set_by(event), bid=bid, took=took,
        )  # fmt: skip

    @staticmethod
    def _set_by(event: Event) -> int:
        team = int(event.get("declarer_team", 0))
        number = int(str(event.get("bid", "0")).split()[0])
        return number - int((event.get("hand_points") or [0, 0])[team])

    def _game_over_line(self, event: Event, seating: Seating) -> str:
        scores = list(event.get("team_scores") or [])
        winners = list(event.get("winners") or [])
        if not winners or len(scores) != 2:
            return _("Game over")
        team = _team_of(int(winners[0]))
        return _(
            "🏆 {team} win, {score} to {other}",
            team=team_name(seating, team),
            score=signed_total(scores[team]),
            other=signed_total(scores[1 - team]),
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
        goal = self._goal(event, seating)
        if goal:
            lines.append(goal)
        return within_limits(
            [
                Section(title, head),
                Section(_("Hand points"), hand_points),
                Section(_("Score"), "\n".join(lines)),
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
        self, event: Event, team: int, change: int, took: int, before: int, seating: Seating
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

    def _goal(self, event: Event, seating: Seating) -> str:
        options = seating.options
        if options.get("end") == "rounds":
            rounds = int(options.get("rounds") or 0)
            return _("{n} of {rounds} hands played", n=event.get("hand_number"), rounds=rounds)
        target = event.get("target", options.get("target"))
        return _("First to {target}", target=target) if target is not None else ""

    # -- scores -----------------------------------------------------------------------------------
    def scores(
        self, view: View | None, result: Mapping[str, Any] | None, seating: Seating
    ) -> Section:
        teams = self._team_scores(view, result)
        if teams is None:
            return Section(_("Scores"), _("No scores yet"))
        line = " · ".join(f"{team_name(seating, t)} **{signed_total(teams[t])}**" for t in (0, 1))
        lines = [line]
        options = _options(view, seating)
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
                lines.append(first)
            lines += self._cut_off_lines(view, teams, seating)
        return Section(_("Scores"), "\n".join(lines))

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
                    "{team} at the cut-off ({cut}): if they defend, they add no points, "
                    "only losses",
                    team=name,
                    cut=cut,
                )
            lines.append(line)
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
        sections = [Section(_("Score sheet"), self._sheet_header(seating))]
        sections += sheet_pages(_("Hands"), lines)
        sections.append(self.scores(view, None, seating))
        return within_limits(sections)

    @staticmethod
    def _sheet_header(seating: Seating) -> str:
        # i18n: the header of the score sheet's rows
        return _(
            "Hand · contract · {team} / {other}: change → total",
            team=team_name(seating, 0),
            other=team_name(seating, 1),
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
            sections.append(Section(_("Previous hand"), text))
        return within_limits(sections)

    def final(self, result: Mapping[str, Any], seating: Seating) -> list[Section]:
        teams = self._team_scores(None, result)
        winners = list(result.get("winners") or [])
        hands = result.get("hands")
        if teams is None or not winners:
            return [Section("", _("**Game over.**")), self.scores(None, result, seating)]
        team = _team_of(int(winners[0]))
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
        return [Section("", head), self.scores(None, result, seating)]
