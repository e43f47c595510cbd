"""2-Player Troeven as its players read it: both layouts (face-up cards, how many face-down
under them) or the stock, the trump, the card points of the deal (40 in all, more than 20
wins), and the scores counting down from 7, first to 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

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
from bot.render.games._words import cap, does, plural, whom, whose, within_limits
from bot.render.games.cards import face, pretty, pretty_list, pretty_suit, suit_name
from bot.render.presenter import Event, Picture, Presenter, Seating, Section, View
from engine.troeven.cards import CARD_OF_CODE, POINTS

DEAL_POINTS = 40
TRICKS = 16
#: Marks a face-up card lying on a face-down one.
COVERS = "⁺"


def _card_points(cards: list[str]) -> str:
    """A trick's card points (A 4, K 3, Q 2, J 1)."""
    value = sum(POINTS[CARD_OF_CODE[c.upper()]] for c in cards if c.upper() in CARD_OF_CODE)
    return plural(value, "point")


def _places(view: View, seat: int) -> list[Mapping[str, Any]]:
    layout = view.get("layout")
    if not isinstance(layout, list) or not 0 <= seat < len(layout):
        return []
    return [p for p in layout[seat] if isinstance(p, Mapping)]


def _suit_of(code: str) -> str:
    return face(code).suit


class TroevenPresenter(Presenter):
    game = "troeven"
    unit = "deal"
    #: ``deal_complete`` only repeats the layouts the table message shows.
    quiet: ClassVar[frozenset[str]] = frozenset({"deal_complete"})

    # -- the table --------------------------------------------------------------------------------
    def heading(self, view: View, seating: Seating) -> str:
        return f"deal {int(view.get('hand_number') or 1)}"

    def table_sections(self, view: View, seating: Seating) -> list[Section]:
        sections = [Section("Trumps", self._trump_line(view, seating))]
        if view.get("version") == "layout":
            sections.append(Section("Layouts", self._layouts_text(view, seating)))
        else:
            sections.append(Section("Stock", self._stock_text(view, seating)))
        table = trick_lines(view, seating)
        deal = self._deal_lines(view, seating)
        if table or deal:
            sections.append(Section("This deal", "\n".join(table + deal)))
        sections.append(self.scores(view, None, seating))
        return within_limits(sections)

    def _trump_line(self, view: View, seating: Seating) -> str:
        caller = view.get("caller")
        if view.get("trump"):
            return f"{pretty_suit(str(view['trump']))} (named by {whom(seating, caller)})"
        sees = "your" if seating.is_you(caller) else "their"
        return f"{does(seating, caller, 'names', 'name')} trumps, seeing {sees} first 4 cards"

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
        shown = " ".join(cells) or "no cards left"
        return f"**{seating.who(seat)}** ({hidden} face down): {shown}"

    def _layouts_text(self, view: View, seating: Seating) -> str:
        lines = [self._layout_line(view, seating, seat) for seat in (0, 1)]
        lines.append(f"{COVERS} lies on a face-down card, which turns up when it is played")
        return "\n".join(lines)

    def _stock_text(self, view: View, seating: Seating) -> str:
        if view.get("phase") == "trump":
            return "Dealt once trumps are named: 8 cards each, 16 in the stock"
        size = int(view.get("stock_size") or 0)
        sizes = list(view.get("hand_sizes") or [])
        held = " · ".join(
            f"{seating.who(s)} {plural(int(sizes[s]), 'card')}" for s in (0, 1) if s < len(sizes)
        )
        follow = "follow suit" if view.get("strict_follow") else "follow suit or trump"
        stock = (
            f"{plural(size, 'card')} left; the trick's winner draws first; no need to follow"
            if size
            else f"Empty: now {follow}; with none of the suit led, trump if you can"
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
            f"Card points: {taken} (more than 20 wins)",
            f"Tricks: {won} ({played} of {TRICKS} played)",
        ]

    def table_picture(self, view: View, seating: Seating) -> Picture | None:
        if view.get("version") != "layout":
            return trick_picture(view, seating)
        rows: list[tuple[str, list[str | None]]] = []
        played = trick_now(view)
        title = "On the table"
        if not played:
            played, winner = last_trick(view)
            title = "Last trick"  # who took it is in the text: a label holds ~12 characters
        if played:
            rows.append((title, [card for _, card in played]))
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
        return Picture.of("rows_png", rows=rows)

    # -- the hand ---------------------------------------------------------------------------------
    def hand_sections(self, view: View, legal: Sequence[str], seating: Seating) -> list[Section]:
        seat = seating.viewer if seating.viewer is not None else view.get("seat")
        hand = [str(c) for c in view.get("hand") or []]
        sections: list[Section] = []
        if view.get("version") == "layout" and isinstance(seat, int):
            counts = view.get("face_down_counts") or []
            hidden = int(counts[seat]) if seat < len(counts) else 0
            under = (
                f"Face down: {hidden}, unknown to all until the card on them is played"
                if hidden
                else "No face-down cards left"
            )
            mine = f"Face up: {by_suit(hand)}\n{under}"
            sections.append(Section("Your layout", mine))
            other = 1 - seat
            sections.append(Section("Opponent", self._layout_line(view, seating, other)))
        else:
            sections.append(Section("Your hand", by_suit(hand)))
            if "stock_size" in view:
                sections.append(Section("Stock", self._stock_text(view, seating)))
        sections.append(Section("Trumps", self._trump_line(view, seating)))
        table = trick_lines(view, seating) + self._deal_lines(view, seating)
        if table:
            sections.append(Section("This deal", "\n".join(table)))
        move = self._move_line(view, legal, hand)
        if move:
            sections.append(Section("Your move", move))
        return within_limits(sections)

    def _move_line(self, view: View, legal: Sequence[str], hand: list[str]) -> str:
        if not legal:
            return ""
        if view.get("phase") == "trump":
            return "Name trumps (any suit): " + " · ".join(self.action_label(a) for a in legal)
        cards = [c for a in legal if (c := card_of_action(a, "play"))]
        trick = trick_now(view)
        if not trick:
            return "Your lead: any card"
        led = _suit_of(trick[0][1])
        trump = str(view.get("trump") or "")
        if len(cards) >= len(hand):
            if int(view.get("stock_size") or 0) > 0:
                return "While the stock lasts you may play any card"
            if not any(_suit_of(c) == led for c in hand):
                return f"No {suit_name(led)}: play any card"
            return "Play any card"
        if all(_suit_of(c) == led for c in cards):
            return f"Follow {pretty_suit(led)}: {pretty_list(cards)}"
        if all(_suit_of(c) == trump for c in cards):
            return f"No {suit_name(led)}: you must trump: {pretty_list(cards)}"
        return f"Follow {pretty_suit(led)} or trump: {pretty_list(cards)}"

    def hand_picture(self, view: View, seating: Seating) -> Picture | None:
        hand = [str(c) for c in view.get("hand") or []]
        return Picture.of("hand_png", cards=hand) if hand else None

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
            return f"You played {pretty(card)}"
        if len(words) == 2 and words[0] == "trump":
            return f"You named trumps: {pretty_suit(words[1])}"
        return f"You: {self.action_label(action)}"

    # -- narration --------------------------------------------------------------------------------
    def tell(self, event: Event, seating: Seating) -> str | None:
        kind = str(event.get("type", ""))
        owner = event.get("private_to")
        seat = event.get("seat")
        if kind == "deal":
            return self._deal_line(event, seating)
        if kind == "cards":
            return f"You get {pretty_list([str(c) for c in event.get('cards') or []])}"
        if kind == "trump":
            named = does(seating, seat, "names", "name")
            return f"{named} trumps: {pretty_suit(str(event.get('suit')))}"
        if kind == "play":
            return f"{does(seating, seat, 'plays', 'play')} {pretty(str(event.get('card')))}"
        if kind == "turn_up":
            card = pretty(str(event.get("card")))
            return f"{cap(whose(seating, seat))} card under it turns up: {card}"
        if kind == "trick":
            points = int(event.get("points") or 0)
            value = plural(points, "card point") if points else "no card points"
            winner = event.get("winner", seat)
            return f"{does(seating, winner, 'takes', 'take')} the trick ({value})"
        if kind == "draw":
            if owner is not None:
                return f"You draw {pretty(str(event.get('card')))}"
            size = int(event.get("stock_size") or 0)
            if size % 2:  # the trick's winner drew; told once both have drawn
                return None
            return (
                f"Both draw: {plural(size, 'card')} left in the stock"
                if size
                else ("Both draw the last cards: the stock is empty")
            )
        if kind == "hand_over":
            return self._hand_over_line(event, seating)
        if kind == "game_over":
            winners = list(event.get("winners") or [])
            if not winners:
                return "Game over"
            return f"🏆 {does(seating, winners[0], 'reaches 0 and wins', 'reach 0 and win')}"
        raise self.unknown(event)

    def _deal_line(self, event: Event, seating: Seating) -> str:
        dealer = event.get("dealer", event.get("seat"))
        caller = event.get("caller")
        line = (
            f"Deal {event.get('hand_number')}: {does(seating, dealer, 'deals', 'deal')}; "
            f"{seating.who(caller)} {'name' if seating.is_you(caller) else 'names'} trumps"
        )
        if event.get("face_up"):
            line += f" from {pretty_list([str(c) for c in event['face_up']])}"
        return line

    def _hand_over_line(self, event: Event, seating: Seating) -> str:
        points = list(event.get("points") or [0, 0])
        winner = event.get("winner")
        score = f"{seating.who(0)} {points[0]} – {seating.who(1)} {points[1]}"
        if winner is None:
            return f"Deal {event.get('hand_number')}: {score}, a tie: nobody moves"
        scores = list(event.get("scores") or [])
        down = does(seating, winner, "goes", "go")
        to = f" to {scores[winner]}" if len(scores) == 2 else ""
        return f"Deal {event.get('hand_number')}: {score}: {down} down{to}"

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
        trump = pretty_suit(str(event.get("trump"))) if event.get("trump") else "none"
        split = "\n".join(
            f"{seating.who(s)} **{points[s]}** ({plural(tricks[s], 'trick')})" for s in (0, 1)
        )
        split += (
            f"\nof {DEAL_POINTS} card points · trumps {trump}, named by {whom(seating, caller)} · "
            f"{seating.who(dealer)} dealt"
        )
        if winner is None:
            title = f"Deal {number}: 20–20"
            lines = ["A tie: nobody moves"]
        else:
            title = f"Deal {number}: {seating.name(winner)} wins it"
            lines = [
                f"{does(seating, winner, 'goes', 'go')} down 1: {before[winner]} → "
                f"**{scores[winner]}**"
            ]
            if winner == dealer and changes[1 - winner] > 0:
                loser = 1 - winner
                lines.append(
                    f"The dealer won, so {whom(seating, loser)} (who named trumps) "
                    f"{'go' if seating.is_you(loser) else 'goes'} up 1: "
                    f"{before[loser]} → **{scores[loser]}**"
                )
        lines.append(self._scores_line(scores, seating))
        return within_limits([Section(title, split), Section("Score", "\n".join(lines))])

    # -- scores -----------------------------------------------------------------------------------
    def _scores_line(self, scores: Sequence[int], seating: Seating) -> str:
        shown = " · ".join(f"{seating.who(s)} **{scores[s]}**" for s in range(len(scores)))
        return f"{shown} — first to 0 wins"

    def scores(
        self, view: View | None, result: Mapping[str, Any] | None, seating: Seating
    ) -> Section:
        scores = (result or {}).get("scores") or (view or {}).get("scores")
        if not isinstance(scores, list) or len(scores) != 2:
            return Section("Scores", "No scores yet")
        return Section("Scores", self._scores_line([int(s) for s in scores], seating))

    def score_sheet(self, view: View | None, seating: Seating) -> list[Section]:
        rows = [r for r in (view or {}).get("history") or [] if isinstance(r, Mapping)]
        if not rows:
            return [self.scores(view, None, seating)]
        lines = []
        for row in rows:
            points = row.get("points") or [0, 0]
            scores = row.get("scores") or [0, 0]
            winner = row.get("winner")
            who = f"{seating.name(winner)} −1" if winner is not None else "tie"
            if winner is not None and winner == row.get("dealer"):
                who += f", {seating.name(1 - winner)} +1"
            trump = pretty_suit(str(row["trump"])).split()[0] if row.get("trump") else "?"
            lines.append(
                f"**{row.get('hand_number')}.** {trump} {points[0]}–{points[1]} · {who} → "
                f"**{scores[0]}–{scores[1]}**"
            )
        head = f"Deal · trumps · card points {seating.name(0)}–{seating.name(1)} · change → scores"
        sections = [Section("Score sheet", head)]
        sections += sheet_pages("Deals", lines)
        sections.append(self.scores(view, None, seating))
        return within_limits(sections)

    # -- /history ---------------------------------------------------------------------------------
    def history(self, view: View, seating: Seating) -> list[Section]:
        """This deal's tricks (who led, the cards, who took it, its card points) and how the
        previous deal ended."""
        sections = []
        if view.get("trump"):
            sections.append(Section("Trumps", pretty_suit(str(view["trump"]))))
        sections += history_sections(view, seating, _card_points)
        last = view.get("last_hand")
        if isinstance(last, Mapping):
            event = {"type": "hand_over", "seat": last.get("winner"), **last}
            sections += self.summary(event, seating)
        return within_limits(sections)

    def final(self, result: Mapping[str, Any], seating: Seating) -> list[Section]:
        winners = list(result.get("winners") or [])
        played = result.get("hands_played")
        after = f" after {plural(int(played), 'deal')}" if played else ""
        if not winners:
            return [Section("", "**Game over.**"), self.scores(None, result, seating)]
        head = (
            f"🏆 **{does(seating, winners[0], 'reaches 0 and wins', 'reach 0 and win')}**{after}."
        )
        return [Section("", head), self.scores(None, result, seating)]
