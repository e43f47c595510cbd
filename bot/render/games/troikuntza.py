"""TroiKuntza (contract rummy with May I, 3-10 players): what its players see.

A TroiKuntza player looks for the round's contract, the melds on the table with the numbers
``/layoff`` uses (grouped by who laid them down), every player's card count and May I's left,
the top of the discard pile, and the May I window while it is open. A game has seven
*rounds* (never "hands"); the end of each shows every player's cards left and their points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.render.games._words import (
    does,
    names_and,
    pack,
    plural,
    score_line,
    seat_scores,
    signed_total,
    table_block,
    whom,
    within_limits,
)
from bot.render.games.cards import face, pretty, pretty_list
from bot.render.presenter import Event, Picture, Presenter, Seating, Section, View
from engine.troikuntza.melds import CONTRACTS, card_points, describe_contract

#: Beyond this many melds (or characters) they are shown compactly, one line per player (a
#: run as its span, a Troika as its rank and size): on a phone 30 melds card by card are a
#: long scroll, and the picture shows every card anyway.
_MELDS_FULL = 8
_MELDS_FULL_TEXT = 1500
_SUIT_ORDER = ("S", "H", "D", "C")


def hand_text(cards: Sequence[str]) -> str:
    """A hand by suit, jokers last: ``3♤ K♤ · 4♥️ 4♥️ · 🃏``."""
    groups: dict[str, list[str]] = {}
    for code in cards:
        f = face(code)
        groups.setdefault(f.suit if f.family == "french" else "JK", []).append(pretty(code))
    return " · ".join(" ".join(groups[k]) for k in (*_SUIT_ORDER, "JK") if k in groups) or "—"


def _contract_name(contract: Any) -> str:
    return describe_contract(str(contract)) if contract else ""


def _round_number(view: View) -> int:
    return int(view.get("hand_number") or 0)


class TroiKuntzaPresenter(Presenter):
    game = "troikuntza"
    unit = "round"
    #: Each pass on a May I (up to nine a turn) and the window closing: the table message's
    #: May I section shows who may still call; the May I itself is told when it happens.
    quiet = frozenset({"mayi_pass", "window_closed"})

    # -- the public table -----------------------------------------------------------------------
    def heading(self, view: View, seating: Seating) -> str:
        rounds = view.get("rounds") or len(CONTRACTS)
        contract = view.get("contract_text") or _contract_name(view.get("contract"))
        return f"round {_round_number(view)} of {rounds} — {contract}"

    def table_sections(self, view: View, seating: Seating) -> list[Section]:
        sections = [self._pile_section(view, seating)]
        mayi = self._mayi_section(view, seating)
        if mayi is not None:
            sections.append(mayi)
        sections += self._meld_sections(view, seating)
        sections.append(self._players_section(view, seating))
        sections.append(self.scores(view, None, seating))
        return within_limits(sections)

    def _pile_section(self, view: View, seating: Seating, private: bool = False) -> Section:
        top = view.get("discard_top")
        stock = int(view.get("stock_size") or 0)
        lines = [
            (f"Discard pile: **{pretty(top)}**" if top else "The discard pile is empty")
            + f" · stock {plural(stock, 'card')}"
        ]
        taken, current = view.get("taken"), view.get("current")
        if taken and view.get("phase") == "play" and not private:
            lines.append(f"{does(seating, current, 'took', 'took')} {pretty(taken)} from the pile.")
        mayi = view.get("mayi") or {}
        if view.get("phase") == "draw" and mayi.get("exposed") and top:
            lines.append(
                f"{pretty(top)} came up after a May I: "
                f"{does(seating, current, 'may', 'may', mid=True)} take it (no May I on it) "
                "or draw."
            )
        return Section("Discard", "\n".join(lines))

    def _mayi_section(self, view: View, seating: Seating) -> Section | None:
        mayi = view.get("mayi") or {}
        if not mayi.get("open"):
            return None
        card = mayi.get("card")
        current = view.get("current")
        what = pretty(card) if card else "the discard"
        seconds = int(mayi.get("window_seconds") or 0)
        if seconds and seating.window_deadline is not None:
            head = f"**May I** for {what}? Closes <t:{int(seating.window_deadline)}:R>."
        elif seconds:
            head = f"**May I** for {what}? Open for {seconds} s."
        else:
            head = f"**May I** for {what}? Open until {whom(seating, current)} takes or draws."
        lines = [head]
        calls = [whom(seating, s) for s in mayi.get("calls") or []]
        if calls:
            lines.append(f"Called: {names_and(calls)}.")
        answered = set(mayi.get("answered") or [])
        waiting = [whom(seating, s) for s in mayi.get("eligible") or [] if s not in answered]
        if waiting:
            lines.append(f"May still call: {names_and(waiting)}.")
        if mayi.get("waiting"):
            lines.append(
                f"{does(seating, current, 'passed', 'passed')} on it and waits for the calls."
            )
        return Section("May I", "\n".join(lines))

    def _meld_lines(self, view: View, seating: Seating, compact: bool) -> list[str]:
        melds = [m for m in view.get("melds") or [] if isinstance(m, Mapping)]
        lines: list[str] = []
        players = int(view.get("players") or len(seating.names))
        for owner in range(players):
            mine = [m for m in melds if m.get("owner") == owner]
            if not mine:
                continue
            if compact:
                texts = " · ".join(self._meld_text(m, compact) for m in mine)
                lines.append(f"**{seating.who(owner)}**: {texts}")
            else:
                lines.append(f"**{seating.who(owner)}**")
                lines += [self._meld_text(m, compact) for m in mine]
        return lines

    @staticmethod
    def _meld_text(meld: Mapping[str, Any], compact: bool) -> str:
        """```2` 🃏 4♥️ 5♥️ 6♥️ (🃏 = 3♥️)``; compact: ```2` 3♥️–6♥️ 🃏``, ```1` 7s ×4``."""
        number = meld.get("number")
        cards = [str(c) for c in meld.get("cards") or []]
        stands = [str(c) for c in meld.get("stands_for") or []]
        jokers = cards.count("JK")
        if meld.get("kind") == "run":
            span = f"{pretty(stands[0])}–{pretty(stands[-1])}" if stands else ""
            if compact:
                return f"`{number}` {span}" + " 🃏" * jokers
            wild = [pretty(s) for c, s in zip(cards, stands, strict=False) if c == "JK"]
            tail = f" (🃏 = {', '.join(wild)})" if wild else ""
            return f"`{number}` {pretty_list(cards)}{tail}"
        rank = str(meld.get("rank") or "")
        if compact:
            return f"`{number}` {rank}s ×{len(cards)}" + " 🃏" * jokers
        return f"`{number}` {pretty_list(cards)}"

    def _meld_sections(self, view: View, seating: Seating) -> list[Section]:
        if not view.get("melds"):
            return []
        lines = self._meld_lines(view, seating, compact=False)
        size = sum(len(line) + 1 for line in lines)
        if len(view["melds"]) > _MELDS_FULL or size > _MELDS_FULL_TEXT:
            lines = self._meld_lines(view, seating, compact=True)
            lines.append("(a run: its first and last card; 🃏: a joker in it)")
        return pack("Melds (number for /layoff)", lines)

    def _players_section(self, view: View, seating: Seating) -> Section:
        players = int(view.get("players") or len(seating.names))
        sizes = list(view.get("hand_sizes") or [])
        out = list(view.get("out") or [])
        mayi = view.get("mayi") or {}
        limit = int(mayi.get("limit") or 0)
        used = list(mayi.get("used") or [])
        lines = []
        for seat in range(players):
            marks = [plural(int(sizes[seat]), "card")] if seat < len(sizes) else []
            if limit and seat < len(used):
                marks.append(f"May I {limit - int(used[seat])} left")
            if seat < len(out) and out[seat]:
                marks.append("laid down ✓")
            if seat == view.get("dealer"):
                marks.append("dealer")
            lines.append(f"{seating.who(seat)} — {', '.join(marks)}")
        return Section("Players", "\n".join(lines))

    def table_picture(self, view: View, seating: Seating) -> Picture | None:
        rows: list[tuple[str, list[str]]] = []
        if view.get("discard_top"):
            rows.append(("discard", [str(view["discard_top"])]))
        # Grouped by player in seat order, as in the text (the numbers are /layoff's).
        melds = sorted(view.get("melds") or [], key=lambda m: (m.get("owner"), m.get("number")))
        for meld in melds:
            owner = seating.name(meld.get("owner"))
            rows.append((f"{meld.get('number')}. {owner}", [str(c) for c in meld["cards"]]))
        if not rows:
            return None
        return Picture.of("rows_png", rows=rows, max_rows=len(rows))

    # -- the private panel ----------------------------------------------------------------------
    def hand_sections(self, view: View, legal: Sequence[str], seating: Seating) -> list[Section]:
        hand = [str(c) for c in view.get("hand") or []]
        points = sum(card_points(c) for c in hand)
        title = f"Your hand ({plural(len(hand), 'card')}, {plural(points, 'point')})"
        sections = [Section(title, hand_text(hand))]
        sections.append(Section("Contract", self._contract_text(view)))
        you = self._you_lines(view, seating)
        if you:
            sections.append(Section("You", "\n".join(you)))
        sections.append(self._pile_section(view, seating, private=True))
        mayi = self._mayi_section(view, seating)
        if mayi is not None:
            sections.append(mayi)
        sections += self._meld_sections(view, seating)
        if legal:
            sections += pack("Your move", self._moves(legal, hand))
        return within_limits(sections)

    @staticmethod
    def _contract_text(view: View) -> str:
        text = view.get("contract_text") or _contract_name(view.get("contract"))
        least = view.get("min_cards")
        tail = f" (at least {plural(int(least), 'card')})" if least else ""
        return f"Round {_round_number(view)}: {text}{tail}, the whole contract at once."

    def _you_lines(self, view: View, seating: Seating) -> list[str]:
        seat = view.get("seat")
        lines = []
        out = list(view.get("out") or [])
        if isinstance(seat, int) and seat < len(out) and out[seat]:
            if view.get("melded_this_turn") and view.get("current") == seat:
                lines.append("You came out this turn: lay-offs wait for your next turn.")
            else:
                lines.append("You have laid down your contract: lay off on any meld.")
        taken = view.get("taken")
        if taken and view.get("current") == seat and view.get("phase") == "play":
            lines.append(f"You took {pretty(taken)}: you may not discard it this turn.")
        mayi = view.get("mayi") or {}
        limit = int(mayi.get("limit") or 0)
        used = list(mayi.get("used") or [])
        if limit and isinstance(seat, int) and seat < len(used):
            lines.append(f"May I's left: {limit - int(used[seat])} of {limit}.")
        return lines

    def _moves(self, legal: Sequence[str], hand: Sequence[str]) -> list[str]:
        """The legal moves grouped: ``Take · Draw``, one line per suggested meld, lay-offs and
        discards on a line each (discards in the hand's order)."""
        simple, melds, layoffs, discards = [], [], [], []
        for action in legal:
            verb = action.split(" ", 1)[0]
            if verb == "meld":
                melds.append(self.action_label(action))
            elif verb == "layoff":
                layoffs.append(self.action_label(action))
            elif verb == "discard":
                discards.append(action.split(" ", 1)[1].upper())
            else:
                simple.append(self.action_label(action))
        lines = []
        if simple:
            lines.append(" · ".join(simple))
        lines += [f"Lay down: {m}" for m in melds]
        if layoffs:
            lines.append("Lay off: " + " · ".join(layoffs))
        if discards:
            order = {code: i for i, code in reversed(list(enumerate(hand)))}
            discards.sort(key=lambda c: order.get(c, len(order)))
            lines.append("Discard: " + pretty_list(discards))
        return lines

    def hand_picture(self, view: View, seating: Seating) -> Picture | None:
        hand = [str(c) for c in view.get("hand") or []]
        return Picture.of("hand_png", cards=hand) if hand else None

    def action_label(self, action: str) -> str:
        verb, _, rest = action.strip().partition(" ")
        verb = verb.lower()
        words = rest.split()
        label = {
            "take": "Take the discard",
            "draw": "Draw from the stock",
            "mayi": "May I",
            "pass": "Pass",
            "close": "Close the May I window",
        }.get(verb)
        if label is not None and not rest:
            return label
        if verb == "meld" and rest:
            groups = [pretty_list(g.split()) for g in rest.split("|")]
            return _fit(" | ".join(groups))
        if verb == "layoff" and len(words) >= 2:
            end = f" ({words[2]} end)" if len(words) > 2 else ""
            return _fit(f"{pretty(words[0])} on meld {words[1].lstrip('#')}{end}")
        if verb == "discard" and len(words) == 1:
            return f"Discard {pretty(words[0])}"
        return _fit(action)

    def you_did(self, action: str) -> str:
        verb, _, rest = action.strip().partition(" ")
        verb = verb.lower()
        words = rest.split()
        fixed = {
            "take": "You took the discard",
            "draw": "You drew from the stock",
            "mayi": "You called May I",
            "pass": "You passed",
            "close": "You closed the May I window",
        }.get(verb)
        if fixed is not None and not rest:
            return fixed
        if verb == "meld" and rest:
            return _fit(f"You laid down {self.action_label(action)}", 200)
        if verb == "layoff" and len(words) >= 2:
            return f"You laid off {self.action_label(action)}"
        if verb == "discard" and len(words) == 1:
            return f"You discarded {pretty(words[0])}"
        return f"You: {self.action_label(action)}"

    # -- narration ------------------------------------------------------------------------------
    def tell(self, event: Event, seating: Seating) -> str | None:
        kind = event.get("type")
        seat = event.get("seat")
        card = event.get("card")
        shown = pretty(str(card)) if card else "the discard"
        if kind == "deal":
            contract = _contract_name(event.get("contract"))
            return (
                f"**Round {event.get('round')} — {contract}**: "
                f"{does(seating, event.get('dealer'), 'deals', 'deal', mid=True)}; "
                f"{pretty(str(event.get('upcard')))} is turned up."
            )
        if kind == "hand":
            return f"Your cards: {hand_text(list(event.get('cards') or []))}"
        if kind == "take":
            return does(seating, seat, "takes", "take") + f" {shown}."
        if kind == "decline":
            if not event.get("waiting"):
                return None  # the draw (or the May I) that follows tells it
            return (
                does(seating, seat, "passes on", "pass on")
                + f" {shown} and waits for the May I calls."
            )
        if kind == "draw":
            return does(seating, seat, "draws", "draw") + " from the stock."
        if kind == "drawn":
            return f"You drew {shown}."
        if kind == "mayi_call":
            return does(seating, seat, "calls", "call") + " **May I**!"
        if kind == "mayi_void":
            callers = names_and([whom(seating, s) for s in event.get("seats") or []])
            return (
                f"{does(seating, event.get('by'), 'takes', 'take')} the discard: "
                f"the May I of {callers} is void."
            )
        if kind == "mayi":
            used, limit = event.get("used"), seating.options.get("mayi_limit")
            line = does(seating, seat, "gets", "get") + f" {shown} by May I"
            if used and limit:
                line += f" ({used} of {limit} May I's used)"
            elif used:
                line += f" (May I number {used} this round)"
            void = [whom(seating, s) for s in event.get("void") or []]
            if void:
                line += f"; {names_and(void)} called too, further from the turn"
            return line + "."
        if kind == "penalty":
            return does(seating, seat, "takes", "take") + " a penalty card from the stock."
        if kind == "penalty_card":
            return f"Your penalty card: {shown}."
        if kind == "exposed":
            if not card:
                return (
                    f"The discard pile is empty: {does(seating, seat, 'draws', 'draw', mid=True)}."
                )
            return (
                f"{shown} comes up: {does(seating, seat, 'may', 'may', mid=True)} take it or draw."
            )
        if kind == "reshuffle":
            cards = int(event.get("cards") or 0)
            return f"The discards ({plural(cards, 'card')}) are shuffled into a new stock."
        if kind == "meld":
            melds = [
                f"`{m.get('number')}` {pretty_list(list(m.get('cards') or []))}"
                for m in event.get("melds") or []
            ]
            return does(seating, seat, "comes out", "come out") + ": " + " · ".join(melds)
        if kind == "layoff":
            line = (
                does(seating, seat, "lays off", "lay off") + f" {shown} on meld {event.get('meld')}"
            )
            if event.get("bumped"):
                line += " (the joker moves to the end)"
            return line + "."
        if kind == "discard":
            return does(seating, seat, "discards", "discard") + f" {shown}."
        if kind == "out":
            return f"**{does(seating, seat, 'goes', 'go')} out!**"
        if kind == "hand_over":
            return self._over_line(event, seating)
        if kind == "game_over":
            winners = [seating.who(w) for w in event.get("winners") or []]
            return f"🏆 **Game over: {names_and(winners) or 'nobody'} won.**"
        raise self.unknown(event)

    def _over_line(self, event: Event, seating: Seating) -> str:
        head = f"**Round {event.get('round')} over**"
        if event.get("reason") == "out" and event.get("went_out") is not None:
            return f"{head}: {does(seating, event.get('went_out'), 'went', 'went', mid=True)} out."
        return f"{head}: the stock ran out; everyone scores his hand."

    # -- the end of a round ---------------------------------------------------------------------
    def summary(self, event: Event, seating: Seating) -> list[Section]:
        title = f"Round {event.get('round')} — {_contract_name(event.get('contract'))}"
        points = list(event.get("points") or [])
        hands = list(event.get("hands") or [])
        scores = list(event.get("scores") or [])
        rows = []
        for seat in range(len(points)):
            cards = [str(c) for c in hands[seat]] if seat < len(hands) else []
            total = signed_total(int(scores[seat])) if seat < len(scores) else ""
            left = pretty_list(cards) if cards else "out"
            rows.append(f"{seating.who(seat)}: {left} → **{points[seat]}** (total {total})")
        head = self._over_line(event, seating).split(": ", 1)[-1]
        sections = [Section(title, head[:1].upper() + head[1:] + " Lowest total wins.")]
        sections += pack("Cards left → points", rows)
        return within_limits(sections)

    # -- /history -------------------------------------------------------------------------------
    def history(self, view: View, seating: Seating) -> list[Section]:
        """What this round has laid down so far and how the previous round scored. The discard
        pile shows only its top card (the rules hide the rest), so the round's discards are not
        listed: the melds on the table, who has come out, the May Is used and the pile's top."""
        sections = [self._pile_section(view, seating)]
        sections += self._meld_sections(view, seating) or [Section("Melds", "None laid down yet.")]
        players = int(view.get("players") or len(seating.names))
        out = [whom(seating, s) for s, done in enumerate(view.get("out") or []) if done]
        lines = [f"Come out: {names_and(out)}" if out else "Nobody has come out yet."]
        used = list((view.get("mayi") or {}).get("used") or [])
        calls = [f"{whom(seating, s)} {used[s]}" for s in range(min(players, len(used))) if used[s]]
        if calls:
            lines.append(f"May Is used: {' · '.join(calls)}")
        sections.append(Section("This round", "\n".join(lines)))
        rounds = list(view.get("round_points") or [])
        if rounds:
            number = len(rounds)
            contract = _contract_name(CONTRACTS[min(number, len(CONTRACTS)) - 1])
            points = " · ".join(
                f"{whom(seating, s)} **{p}**" for s, p in enumerate(rounds[-1][:players])
            )
            text = f"{points}\nTotals: {score_line(seating, list(view.get('scores') or []))}"
            sections.append(Section(f"Round {number} — {contract}", text))
        return within_limits(sections)

    # -- scores ---------------------------------------------------------------------------------
    def scores(
        self, view: View | None, result: Mapping[str, Any] | None, seating: Seating
    ) -> Section:
        return seat_scores(view, result, seating, lowest_wins=True)

    def score_sheet(self, view: View | None, seating: Seating) -> list[Section]:
        """One row per round as on paper: the round's points of every player, then totals."""
        history = list((view or {}).get("round_points") or [])
        if not history:
            return [self.scores(view, None, seating)]
        header = ["Round", *(n[:6] for n in seating.names)]
        rows = [
            [f"{i} {CONTRACTS[min(i, len(CONTRACTS)) - 1]}", *(str(p) for p in points)]
            for i, points in enumerate(history, start=1)
        ]
        totals = ["Total", *(signed_total(int(s)) for s in (view or {}).get("scores") or [])]
        if len(totals) == len(header):
            rows.append(totals)
        text = table_block(header, rows, 8) + "\nT = Troika, R = Run · lowest total wins"
        return within_limits([Section("Score sheet", text)])

    def final(self, result: Mapping[str, Any], seating: Seating) -> list[Section]:
        scores = list(result.get("scores") or [])
        winners = [seating.name(w) for w in result.get("winners") or []]
        best = min(scores) if scores else 0
        verb = "share the win" if len(winners) > 1 else "won"
        head = f"🏆 **{names_and(winners) or 'Nobody'} {verb}** with {signed_total(best)} points."
        return within_limits([Section("Game over", head), self.scores(None, result, seating)])


def _fit(text: str, limit: int = 80) -> str:
    """A label within ``limit`` characters; an over-long one ends with a mark."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
