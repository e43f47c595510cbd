"""2-Player Troeven as its players read it: both layouts (face-up cards, how many face-down
under them) or the stock, the trump, the card points of the deal (40 in all, more than 20
wins), and the scores counting down from 7, first to 0. Every word is in the reader's language
(``bot.i18n``); the game's name, Troeven, stays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.i18n import N_, _, _n
from bot.render.games._tricks import (
    by_suit,
    card_of_action,
    history_sections,
    last_trick,
    sheet_pages,
    trick_lines,
    trick_now,
    trick_picture,
)
from bot.render.games._words import said, whom, within_limits
from bot.render.games.cards import (
    face,
    picture_letters,
    pretty,
    pretty_list,
    pretty_suit,
    suit_name,
)
from bot.render.games.troeven.rules import rules_text
from bot.render.presenter import Event, Picture, Presenter, Seating, Section, View
from engine.troeven.cards import CARD_OF_CODE, POINTS

DEAL_POINTS = 40
TRICKS = 16
#: Marks a face-up card lying on a face-down one.
COVERS = "⁺"


def _card_points(cards: list[str]) -> str:
    """A trick's card points (A 4, K 3, Q 2, J 1)."""
    value = sum(POINTS[CARD_OF_CODE[c.upper()]] for c in cards if c.upper() in CARD_OF_CODE)
    return _n("{n} point", "{n} points", value)


def _places(view: View, seat: int) -> list[Mapping[str, Any]]:
    layout = view.get("layout")
    if not isinstance(layout, list) or not 0 <= seat < len(layout):
        return []
    return [p for p in layout[seat] if isinstance(p, Mapping)]


def _suit_of(code: str) -> str:
    return face(code).suit


class TroevenPresenter(Presenter):
    game = "troeven"
    unit = N_("deal")
    #: ``deal_complete`` only repeats the layouts the table message shows.
    quiet: ClassVar[frozenset[str]] = frozenset({"deal_complete"})

    def rules(self, options: Mapping[str, Any] | None = None) -> str:
        return rules_text(options)

    # -- the table --------------------------------------------------------------------------------
    def heading(self, view: View, seating: Seating) -> str:
        return _("deal {n}", n=int(view.get("hand_number") or 1))

    def table_sections(self, view: View, seating: Seating) -> list[Section]:
        sections = [Section(_("Trumps"), self._trump_line(view, seating))]
        if view.get("version") == "layout":
            sections.append(Section(_("Layouts"), self._layouts_text(view, seating)))
        else:
            sections.append(Section(_("Stock"), self._stock_text(view, seating)))
        table = trick_lines(view, seating)
        deal = self._deal_lines(view, seating)
        if table or deal:
            sections.append(Section(_("This deal"), "\n".join(table + deal)))
        sections.append(self.scores(view, None, seating))
        return within_limits(sections)

    def _trump_line(self, view: View, seating: Seating) -> str:
        caller = view.get("caller")
        if view.get("trump"):
            suit = pretty_suit(str(view["trump"]))
            return _("{suit} (named by {name})", suit=suit, name=whom(seating, caller))
        return said(
            seating,
            caller,
            N_("You name trumps, seeing your first 4 cards"),
            N_("{name} names trumps, seeing their first 4 cards"),
        )

    def _layout_line(self, view: View, seating: Seating, seat: int) -> str:
        cells = []
        for place in _places(view, seat):
            up, down = place.get("up"), bool(place.get("face_down"))
            if up:
                cells.append(pretty(str(up)) + (COVERS if down else ""))
            elif down:
                cells.append("🂠")
        counts = view.get("face_down_counts") or []
        hidden = int(counts[seat]) if seat < len(counts) else 0
        shown = " ".join(cells) or _("no cards left")
        # i18n: a player's layout: {cards} the face-up cards, {n} how many lie face down
        return _("**{name}** ({n} face down): {cards}", name=seating.who(seat), n=hidden,
                 cards=shown)  # fmt: skip

    def _layouts_text(self, view: View, seating: Seating) -> str:
        lines = [self._layout_line(view, seating, seat) for seat in (0, 1)]
        lines.append(
            _("{mark} lies on a face-down card, which turns up when it is played", mark=COVERS)
        )
        return "\n".join(lines)

    def _stock_text(self, view: View, seating: Seating) -> str:
        if view.get("phase") == "trump":
            return _("Dealt once trumps are named: 8 cards each, 16 in the stock")
        size = int(view.get("stock_size") or 0)
        sizes = list(view.get("hand_sizes") or [])
        held = " · ".join(
            _n("{name} {n} card", "{name} {n} cards", int(sizes[s]), name=seating.who(s))
            for s in (0, 1)
            if s < len(sizes)
        )
        follow = _("follow suit") if view.get("strict_follow") else _("follow suit or trump")
        stock = (
            _n(
                "{n} card left; the trick's winner draws first; no need to follow",
                "{n} cards left; the trick's winner draws first; no need to follow",
                size,
            )
            if size
            else _(
                "Empty: now {follow}; with none of the suit led, trump if you can", follow=follow
            )  # fmt: skip
        )
        return f"{stock}\n{held}"

    def _deal_lines(self, view: View, seating: Seating) -> list[str]:
        points = list(view.get("hand_points") or [])
        tricks = list(view.get("tricks_won") or [])
        played = int(view.get("tricks_played") or 0)
        if not played or len(points) != 2 or len(tricks) != 2:
            return []
        taken = " · ".join(f"{whom(seating, s)} **{points[s]}**" for s in (0, 1))
        won = " · ".join(f"{whom(seating, s)} {tricks[s]}" for s in (0, 1))
        return [
            _("Card points: {taken} (more than 20 wins)", taken=taken),
            _("Tricks: {won} ({played} of {total} played)", won=won, played=played, total=TRICKS),
        ]

    def table_picture(self, view: View, seating: Seating) -> Picture | None:
        if view.get("version") != "layout":
            return trick_picture(view, seating)
        rows: list[tuple[str, list[str | None]]] = []
        played = trick_now(view)
        # i18n: a label on the picture (about 12 characters fit)
        title = _("On the table")
        if not played:
            played, winner = last_trick(view)
            # Who took it is in the text: a label holds ~12 characters.
            # i18n: a label on the picture (about 12 characters fit)
            title = _("Last trick")
        if played:
            rows.append((title, [card for _seat, card in played]))
        for seat in (0, 1):
            cells: list[str | None] = []
            for place in _places(view, seat):
                if place.get("up"):
                    cells.append(str(place["up"]))
                elif place.get("face_down"):
                    cells.append(None)  # a card back
            counts = view.get("face_down_counts") or []
            hidden = int(counts[seat]) if seat < len(counts) else 0
            rows.append((f"{seating.name(seat)} {hidden}↓", cells))  # ↓: face-down cards
        return Picture.of("rows_png", rows=rows, **picture_letters())

    # -- the hand ---------------------------------------------------------------------------------
    def hand_sections(self, view: View, legal: Sequence[str], seating: Seating) -> list[Section]:
        seat = seating.viewer if seating.viewer is not None else view.get("seat")
        hand = [str(c) for c in view.get("hand") or []]
        sections: list[Section] = []
        if view.get("version") == "layout" and isinstance(seat, int):
            counts = view.get("face_down_counts") or []
            hidden = int(counts[seat]) if seat < len(counts) else 0
            under = (
                _("Face down: {n}, unknown to all until the card on them is played", n=hidden)
                if hidden
                else _("No face-down cards left")
            )
            mine = _("Face up: {cards}", cards=by_suit(hand)) + "\n" + under
            sections.append(Section(_("Your layout"), mine))
            other = 1 - seat
            sections.append(Section(_("Opponent"), self._layout_line(view, seating, other)))
        else:
            sections.append(Section(_("Your hand"), by_suit(hand)))
            if "stock_size" in view:
                sections.append(Section(_("Stock"), self._stock_text(view, seating)))
        sections.append(Section(_("Trumps"), self._trump_line(view, seating)))
        table = trick_lines(view, seating) + self._deal_lines(view, seating)
        if table:
            sections.append(Section(_("This deal"), "\n".join(table)))
        move = self._move_line(view, legal, hand)
        if move:
            sections.append(Section(_("Your move"), move))
        return within_limits(sections)

    def _move_line(self, view: View, legal: Sequence[str], hand: list[str]) -> str:
        if not legal:
            return ""
        if view.get("phase") == "trump":
            moves = " · ".join(self.action_label(a) for a in legal)
            return _("Name trumps (any suit): {moves}", moves=moves)
        cards = [c for a in legal if (c := card_of_action(a, "play"))]
        trick = trick_now(view)
        if not trick:
            return _("Your lead: any card")
        led = _suit_of(trick[0][1])
        trump = str(view.get("trump") or "")
        if len(cards) >= len(hand):
            if int(view.get("stock_size") or 0) > 0:
                return _("While the stock lasts you may play any card")
            if not any(_suit_of(c) == led for c in hand):
                return _("No {suit}: play any card", suit=suit_name(led))
            return _("Play any card")
        shown = pretty_list(cards)
        if all(_suit_of(c) == led for c in cards):
            return _("Follow {suit}: {cards}", suit=pretty_suit(led), cards=shown)
        if all(_suit_of(c) == trump for c in cards):
            return _("No {suit}: you must trump: {cards}", suit=suit_name(led), cards=shown)
        return _("Follow {suit} or trump: {cards}", suit=pretty_suit(led), cards=shown)

    def hand_picture(self, view: View, seating: Seating) -> Picture | None:
        hand = [str(c) for c in view.get("hand") or []]
        return Picture.of("hand_png", cards=hand, **picture_letters()) if hand else None

    # -- actions ----------------------------------------------------------------------------------
    def action_label(self, action: str) -> str:
        words = action.split()
        if words and words[0] == "play" and (card := card_of_action(action, "play")):
            return pretty(card)
        if len(words) == 2 and words[0] == "trump":
            return pretty_suit(words[1])
        return action[:80]

    def you_did(self, action: str) -> str:
        words = action.split()
        if words and words[0] == "play" and (card := card_of_action(action, "play")):
            return _("You played {card}", card=pretty(card))
        if len(words) == 2 and words[0] == "trump":
            return _("You named trumps: {suit}", suit=pretty_suit(words[1]))
        return _("You: {move}", move=self.action_label(action))

    # -- narration --------------------------------------------------------------------------------
    def tell(self, event: Event, seating: Seating) -> str | None:
        kind = str(event.get("type", ""))
        owner = event.get("private_to")
        seat = event.get("seat")
        if kind == "deal":
            return self._deal_line(event, seating)
        if kind == "cards":
            return _(
                "You get {cards}", cards=pretty_list([str(c) for c in event.get("cards") or []])
            )
        if kind == "trump":
            suit = pretty_suit(str(event.get("suit")))
            return said(
                seating, seat, N_("You name trumps: {suit}"), N_("{name} names trumps: {suit}"),
                suit=suit,
            )  # fmt: skip
        if kind == "play":
            card = pretty(str(event.get("card")))
            return said(seating, seat, N_("You play {card}"), N_("{name} plays {card}"), card=card)
        if kind == "turn_up":
            card = pretty(str(event.get("card")))
            return said(
                seating, seat, N_("Your card under it turns up: {card}"),
                N_("{name}'s card under it turns up: {card}"), card=card,
            )  # fmt: skip
        if kind == "trick":
            points = int(event.get("points") or 0)
            value = (
                _n("{n} card point", "{n} card points", points) if points else _("no card points")
            )
            winner = event.get("winner", seat)
            return said(
                seating, winner, N_("You take the trick ({value})"),
                N_("{name} takes the trick ({value})"), value=value,
            )  # fmt: skip
        if kind == "draw":
            if owner is not None:
                return _("You draw {card}", card=pretty(str(event.get("card"))))
            size = int(event.get("stock_size") or 0)
            if size % 2:  # the trick's winner drew; told once both have drawn
                return None
            return (
                _n(
                    "Both draw: {n} card left in the stock",
                    "Both draw: {n} cards left in the stock",
                    size,
                )  # fmt: skip
                if size
                else _("Both draw the last cards: the stock is empty")
            )
        if kind == "hand_over":
            return self._hand_over_line(event, seating)
        if kind == "game_over":
            winners = list(event.get("winners") or [])
            if not winners:
                return _("Game over")
            return said(
                seating, winners[0], N_("🏆 You reach 0 and win"),
                N_("🏆 {name} reaches 0 and wins"),
            )  # fmt: skip
        raise self.unknown(event)

    def _deal_line(self, event: Event, seating: Seating) -> str:
        dealer = event.get("dealer", event.get("seat"))
        caller = event.get("caller")
        number = event.get("hand_number")
        if seating.is_you(dealer):
            line = _("Deal {number}: You deal; {caller} names trumps", number=number,
                     caller=seating.name(caller))  # fmt: skip
        elif seating.is_you(caller):
            line = _("Deal {number}: {dealer} deals; You name trumps", number=number,
                     dealer=seating.name(dealer))  # fmt: skip
        else:
            line = _("Deal {number}: {dealer} deals; {caller} names trumps", number=number,
                     dealer=seating.name(dealer), caller=seating.name(caller))  # fmt: skip
        if event.get("face_up"):
            cards = pretty_list([str(c) for c in event["face_up"]])
            # i18n: after "… names trumps": the face-up cards the caller sees
            line += " " + _("from {cards}", cards=cards)
        return line

    def _hand_over_line(self, event: Event, seating: Seating) -> str:
        points = list(event.get("points") or [0, 0])
        winner = event.get("winner")
        score = f"{seating.who(0)} {points[0]} – {seating.who(1)} {points[1]}"
        number = event.get("hand_number")
        if winner is None:
            return _("Deal {number}: {score}, a tie: nobody moves", number=number, score=score)
        scores = list(event.get("scores") or [])
        if len(scores) == 2:
            return said(
                seating, winner, N_("Deal {number}: {score}: You go down to {to}"),
                N_("Deal {number}: {score}: {name} goes down to {to}"),
                number=number, score=score, to=scores[winner],
            )  # fmt: skip
        return said(
            seating, winner, N_("Deal {number}: {score}: You go down"),
            N_("Deal {number}: {score}: {name} goes down"), number=number, score=score,
        )  # fmt: skip

    # -- end of a deal ----------------------------------------------------------------------------
    def summary(self, event: Event, seating: Seating) -> list[Section]:
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
                        N_(
                            "The dealer won, so you (who named trumps) go up 1: "
                            "{before} → **{after}**"
                        ),
                        N_(
                            "The dealer won, so {name} (who named trumps) goes up 1: "
                            "{before} → **{after}**"
                        ),
                        before=before[loser],
                        after=scores[loser],
                    )
                )
        lines.append(self._scores_line(scores, seating))
        return within_limits([Section(title, split), Section(_("Score"), "\n".join(lines))])

    # -- scores -----------------------------------------------------------------------------------
    def _scores_line(self, scores: Sequence[int], seating: Seating) -> str:
        shown = " · ".join(f"{seating.who(s)} **{scores[s]}**" for s in range(len(scores)))
        return _("{scores} — first to 0 wins", scores=shown)

    def scores(
        self, view: View | None, result: Mapping[str, Any] | None, seating: Seating
    ) -> Section:
        scores = (result or {}).get("scores") or (view or {}).get("scores")
        if not isinstance(scores, list) or len(scores) != 2:
            return Section(_("Scores"), _("No scores yet"))
        return Section(_("Scores"), self._scores_line([int(s) for s in scores], seating))

    def score_sheet(self, view: View | None, seating: Seating) -> list[Section]:
        rows = [r for r in (view or {}).get("history") or [] if isinstance(r, Mapping)]
        if not rows:
            return [self.scores(view, None, seating)]
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
        sections.append(self.scores(view, None, seating))
        return within_limits(sections)

    # -- /history ---------------------------------------------------------------------------------
    def history(self, view: View, seating: Seating) -> list[Section]:
        """This deal's tricks (who led, the cards, who took it, its card points) and how the
        previous deal ended."""
        sections = []
        if view.get("trump"):
            sections.append(Section(_("Trumps"), pretty_suit(str(view["trump"]))))
        sections += history_sections(view, seating, _card_points)
        last = view.get("last_hand")
        if isinstance(last, Mapping):
            event = {"type": "hand_over", "seat": last.get("winner"), **last}
            sections += self.summary(event, seating)
        return within_limits(sections)

    def final(self, result: Mapping[str, Any], seating: Seating) -> list[Section]:
        winners = list(result.get("winners") or [])
        played = result.get("hands_played")
        if not winners:
            return [Section("", _("**Game over.**")), self.scores(None, result, seating)]
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
        return [Section("", head), self.scores(None, result, seating)]
