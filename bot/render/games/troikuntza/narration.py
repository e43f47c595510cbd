"""TroiKuntza (contract rummy with May I, 3-10 players): what its players see.

A TroiKuntza player looks for the round's contract, the melds on the table with the numbers
``/layoff`` uses (grouped by who laid them down), every player's card count and May I's left,
the top of the discard pile, and the May I window while it is open. A game has seven
*rounds* (never "hands"); the end of each shows every player's cards left and their points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import N_, _, _n, _p
from bot.render.games._words import (
    cards,
    game_over_line,
    names_and,
    pack,
    points,
    said,
    score_line,
    seat_scores,
    signed_total,
    table_block,
    whom,
    within_limits,
)
from bot.render.games.cards import face, picture_letters, pretty, pretty_list

# Whole sentences per reader and the game-over line: Troggu's presenter holds them until the
# shared ``_words`` is marked for translation (another branch), where they then belong.
from bot.render.presenter import Event, Picture, Presenter, Seating, Section, View
from engine.troikuntza.melds import CONTRACTS, card_points, contract_min_cards
from engine.troikuntza.spec import SPEC

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


def contract_words(contract: Any) -> str:
    """``TTR`` -> ``2 Troikas and 1 Run`` in the reader's language (the engine's
    ``describe_contract`` in English)."""
    parts = []
    for kind in dict.fromkeys(str(contract or "")):  # in the contract's order
        n = str(contract).count(kind)
        if kind == "T":
            # i18n: a TroiKuntza meld, the game's own word (3+ cards of one rank).
            parts.append(_n("{n} Troika", "{n} Troikas", n))
        elif kind == "R":
            # i18n: a TroiKuntza meld, the game's own word (4+ cards in sequence in one suit).
            parts.append(_n("{n} Run", "{n} Runs", n))
    return names_and(parts)


#: The labels of the moves that need no card, and the replies to them.
_LABELS = {
    "take": N_("Take the discard"),
    "draw": N_("Draw from the stock"),
    # i18n: TroiKuntza's call for the discard out of turn, the game's own words.
    "mayi": N_("May I"),
    "pass": N_("Pass"),
    "close": N_("Close the May I window"),
}
_DONE = {
    "take": N_("You took the discard"),
    "draw": N_("You drew from the stock"),
    "mayi": N_("You called May I"),
    "pass": N_("You passed"),
    "close": N_("You closed the May I window"),
}
#: The ends of a run a joker may be laid off at (``layoff jk 2 low``).
_ENDS = {"low": N_("low end"), "high": N_("high end")}


def _round_number(view: View) -> int:
    return int(view.get("hand_number") or 0)


class TroiKuntzaPresenter(Presenter):
    game = "troikuntza"
    # i18n: what players of this game call one round of it (shown as "round 3 over").
    unit = N_("round")
    #: Each pass on a May I (up to nine a turn) and the window closing: the table message's
    #: May I section shows who may still call; the May I itself is told when it happens.
    quiet = frozenset({"mayi_pass", "window_closed"})

    # -- the public table -----------------------------------------------------------------------
    def heading(self, view: View, seating: Seating) -> str:
        rounds = view.get("rounds") or len(CONTRACTS)
        contract = contract_words(view.get("contract")) or view.get("contract_text") or ""
        return _(
            "round {number} of {rounds} — {contract}",
            number=_round_number(view),
            rounds=rounds,
            contract=contract,
        )

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
        pile = _("Discard pile: **{card}**", card=pretty(top)) if top else None
        pile = pile or _("The discard pile is empty")
        lines = [pile + " · " + _n("stock {n} card", "stock {n} cards", stock)]
        taken, current = view.get("taken"), view.get("current")
        if taken and view.get("phase") == "play" and not private:
            lines.append(
                said(
                    seating,
                    current,
                    N_("You took {card} from the pile."),
                    N_("{name} took {card} from the pile."),
                    card=pretty(taken),
                )
            )
        mayi = view.get("mayi") or {}
        if view.get("phase") == "draw" and mayi.get("exposed") and top:
            lines.append(
                said(
                    seating,
                    current,
                    N_("{card} came up after a May I: you may take it (no May I on it) or draw."),
                    N_(
                        "{card} came up after a May I: {name} may take it (no May I on it) or draw."
                    ),
                    card=pretty(top),
                )
            )
        # i18n: the title of the discard pile's section.
        return Section(_p("discard pile", "Discard"), "\n".join(lines))

    def _mayi_section(self, view: View, seating: Seating) -> Section | None:
        mayi = view.get("mayi") or {}
        if not mayi.get("open"):
            return None
        card = mayi.get("card")
        current = view.get("current")
        what = pretty(card) if card else _("the discard")
        seconds = int(mayi.get("window_seconds") or 0)
        if seconds and seating.window_deadline is not None:
            # i18n: {when} is a Discord timestamp shown as "in 8 seconds" in the reader's language.
            head = _(
                "**May I** for {card}? Closes {when}.",
                card=what,
                when=f"<t:{int(seating.window_deadline)}:R>",
            )
        elif seconds:
            head = _("**May I** for {card}? Open for {seconds} s.", card=what, seconds=seconds)
        else:
            head = said(
                seating,
                current,
                N_("**May I** for {card}? Open until you take or draw."),
                N_("**May I** for {card}? Open until {name} takes or draws."),
                card=what,
            )
        lines = [head]
        calls = [whom(seating, s) for s in mayi.get("calls") or []]
        if calls:
            lines.append(_("Called: {names}.", names=names_and(calls)))
        answered = set(mayi.get("answered") or [])
        waiting = [whom(seating, s) for s in mayi.get("eligible") or [] if s not in answered]
        if waiting:
            lines.append(_("May still call: {names}.", names=names_and(waiting)))
        if mayi.get("waiting"):
            lines.append(
                said(
                    seating,
                    current,
                    N_("You passed on it and wait for the calls."),
                    N_("{name} passed on it and waits for the calls."),
                )
            )
        return Section(_(_LABELS["mayi"]), "\n".join(lines))

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
            # i18n: a Troika in short: {rank}s is the rank in the plural ("7s", "Ks": sevens).
            troika = _("{rank}s ×{count}", rank=rank, count=len(cards))
            return f"`{number}` {troika}" + " 🃏" * jokers
        return f"`{number}` {pretty_list(cards)}"

    def _meld_sections(self, view: View, seating: Seating) -> list[Section]:
        if not view.get("melds"):
            return []
        lines = self._meld_lines(view, seating, compact=False)
        size = sum(len(line) + 1 for line in lines)
        if len(view["melds"]) > _MELDS_FULL or size > _MELDS_FULL_TEXT:
            lines = self._meld_lines(view, seating, compact=True)
            lines.append(_("(a run: its first and last card; 🃏: a joker in it)"))
        return pack(_("Melds (number for /layoff)"), lines)

    def _players_section(self, view: View, seating: Seating) -> Section:
        players = int(view.get("players") or len(seating.names))
        sizes = list(view.get("hand_sizes") or [])
        out = list(view.get("out") or [])
        mayi = view.get("mayi") or {}
        limit = int(mayi.get("limit") or 0)
        used = list(mayi.get("used") or [])
        lines = []
        for seat in range(players):
            marks = [cards(int(sizes[seat]))] if seat < len(sizes) else []
            if limit and seat < len(used):
                left = limit - int(used[seat])
                marks.append(_n("May I {n} left", "May I {n} left", left))
            if seat < len(out) and out[seat]:
                marks.append(_("laid down ✓"))
            if seat == view.get("dealer"):
                marks.append(_("dealer"))
            lines.append(f"{seating.who(seat)} — {', '.join(marks)}")
        return Section(_("Players"), "\n".join(lines))

    def table_picture(self, view: View, seating: Seating) -> Picture | None:
        rows: list[tuple[str, list[str]]] = []
        if view.get("discard_top"):
            # Translated here: the picture is drawn on a worker that has no language.
            # i18n: the label of the discard pile's row in the table picture.
            rows.append((_p("picture label", "discard"), [str(view["discard_top"])]))
        # Grouped by player in seat order, as in the text (the numbers are /layoff's).
        melds = sorted(view.get("melds") or [], key=lambda m: (m.get("owner"), m.get("number")))
        for meld in melds:
            owner = seating.name(meld.get("owner"))
            rows.append((f"{meld.get('number')}. {owner}", [str(c) for c in meld["cards"]]))
        if not rows:
            return None
        return Picture.of("rows_png", rows=rows, max_rows=len(rows), **picture_letters())

    # -- the private panel ----------------------------------------------------------------------
    def hand_sections(self, view: View, legal: Sequence[str], seating: Seating) -> list[Section]:
        hand = [str(c) for c in view.get("hand") or []]
        worth = sum(card_points(c) for c in hand)
        title = _("Your hand ({cards}, {points})", cards=cards(len(hand)), points=points(worth))
        sections = [Section(title, hand_text(hand))]
        sections.append(Section(_("Contract"), self._contract_text(view)))
        you = self._you_lines(view, seating)
        if you:
            sections.append(Section(_("You"), "\n".join(you)))
        sections.append(self._pile_section(view, seating, private=True))
        mayi = self._mayi_section(view, seating)
        if mayi is not None:
            sections.append(mayi)
        sections += self._meld_sections(view, seating)
        if legal:
            sections += pack(_("Your move"), self._moves(legal, hand))
        return within_limits(sections)

    @staticmethod
    def _contract_text(view: View) -> str:
        text = contract_words(view.get("contract")) or view.get("contract_text") or ""
        least = int(view.get("min_cards") or 0)
        if least:
            return _(
                "Round {number}: {contract} (at least {cards}), the whole contract at once.",
                number=_round_number(view),
                contract=text,
                cards=cards(least),
            )
        return _(
            "Round {number}: {contract}, the whole contract at once.",
            number=_round_number(view),
            contract=text,
        )

    def _you_lines(self, view: View, seating: Seating) -> list[str]:
        seat = view.get("seat")
        lines = []
        out = list(view.get("out") or [])
        if isinstance(seat, int) and seat < len(out) and out[seat]:
            if view.get("melded_this_turn") and view.get("current") == seat:
                lines.append(_("You came out this turn: lay-offs wait for your next turn."))
            else:
                lines.append(_("You have laid down your contract: lay off on any meld."))
        taken = view.get("taken")
        if taken and view.get("current") == seat and view.get("phase") == "play":
            lines.append(
                _("You took {card}: you may not discard it this turn.", card=pretty(taken))
            )
        mayi = view.get("mayi") or {}
        limit = int(mayi.get("limit") or 0)
        used = list(mayi.get("used") or [])
        if limit and isinstance(seat, int) and seat < len(used):
            left = limit - int(used[seat])
            lines.append(_("May I's left: {left} of {limit}.", left=left, limit=limit))
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
        lines += [_("Lay down: {meld}", meld=m) for m in melds]
        if layoffs:
            lines.append(_("Lay off: {moves}", moves=" · ".join(layoffs)))
        if discards:
            order = {code: i for i, code in reversed(list(enumerate(hand)))}
            discards.sort(key=lambda c: order.get(c, len(order)))
            lines.append(_("Discard: {cards}", cards=pretty_list(discards)))
        return lines

    def hand_picture(self, view: View, seating: Seating) -> Picture | None:
        hand = [str(c) for c in view.get("hand") or []]
        return Picture.of("hand_png", cards=hand, **picture_letters()) if hand else None

    def action_label(self, action: str) -> str:
        verb, __, rest = action.strip().partition(" ")
        verb = verb.lower()
        words = rest.split()
        if verb in _LABELS and not rest:
            return _(_LABELS[verb])
        if verb == "meld" and rest:
            groups = [pretty_list(g.split()) for g in rest.split("|")]
            return _fit(" | ".join(groups))
        if verb == "layoff" and len(words) >= 2:
            card, meld = pretty(words[0]), words[1].lstrip("#")
            if len(words) > 2:
                end = _ENDS.get(words[2].lower())
                # i18n: {end} is "low end" or "high end": where a joker goes on a run.
                end_text = _(end) if end else _("{end} end", end=words[2])
                return _fit(_("{card} on meld {meld} ({end})", card=card, meld=meld, end=end_text))
            return _fit(_("{card} on meld {meld}", card=card, meld=meld))
        if verb == "discard" and len(words) == 1:
            return _("Discard {card}", card=pretty(words[0]))
        return _fit(action)

    def you_did(self, action: str) -> str:
        verb, __, rest = action.strip().partition(" ")
        verb = verb.lower()
        words = rest.split()
        if verb in _DONE and not rest:
            return _(_DONE[verb])
        if verb == "meld" and rest:
            return _fit(_("You laid down {melds}", melds=self.action_label(action)), 200)
        if verb == "layoff" and len(words) >= 2:
            return _("You laid off {layoff}", layoff=self.action_label(action))
        if verb == "discard" and len(words) == 1:
            return _("You discarded {card}", card=pretty(words[0]))
        return _("You: {move}", move=self.action_label(action))

    # -- narration ------------------------------------------------------------------------------
    def tell(self, event: Event, seating: Seating) -> str | None:
        kind = event.get("type")
        seat = event.get("seat")
        card = event.get("card")
        shown = pretty(str(card)) if card else _("the discard")
        if kind == "deal":
            return said(
                seating,
                event.get("dealer"),
                N_("**Round {number} — {contract}**: you deal; {card} is turned up."),
                N_("**Round {number} — {contract}**: {name} deals; {card} is turned up."),
                number=event.get("round"),
                contract=contract_words(event.get("contract")),
                card=pretty(str(event.get("upcard"))),
            )
        if kind == "hand":
            return _("Your cards: {cards}", cards=hand_text(list(event.get("cards") or [])))
        if kind == "take":
            return said(
                seating, seat, N_("You take {card}."), N_("{name} takes {card}."), card=shown
            )
        if kind == "decline":
            if not event.get("waiting"):
                return None  # the draw (or the May I) that follows tells it
            return said(
                seating,
                seat,
                N_("You pass on {card} and wait for the May I calls."),
                N_("{name} passes on {card} and waits for the May I calls."),
                card=shown,
            )
        if kind == "draw":
            return said(
                seating, seat, N_("You draw from the stock."), N_("{name} draws from the stock.")
            )
        if kind == "drawn":
            return _("You drew {card}.", card=shown)
        if kind == "mayi_call":
            return said(seating, seat, N_("You call **May I**!"), N_("{name} calls **May I**!"))
        if kind == "mayi_void":
            return said(
                seating,
                event.get("by"),
                N_("You take the discard: the May I of {names} is void."),
                N_("{name} takes the discard: the May I of {names} is void."),
                names=names_and([whom(seating, s) for s in event.get("seats") or []]),
            )
        if kind == "mayi":
            return self._mayi_line(event, seating, shown)
        if kind == "penalty":
            return said(
                seating,
                seat,
                N_("You take a penalty card from the stock."),
                N_("{name} takes a penalty card from the stock."),
            )
        if kind == "penalty_card":
            return _("Your penalty card: {card}.", card=shown)
        if kind == "exposed":
            if not card:
                return said(
                    seating,
                    seat,
                    N_("The discard pile is empty: you draw."),
                    N_("The discard pile is empty: {name} draws."),
                )
            return said(
                seating,
                seat,
                N_("{card} comes up: you may take it or draw."),
                N_("{card} comes up: {name} may take it or draw."),
                card=shown,
            )
        if kind == "reshuffle":
            return _n(
                "The discards ({n} card) are shuffled into a new stock.",
                "The discards ({n} cards) are shuffled into a new stock.",
                int(event.get("cards") or 0),
            )
        if kind == "meld":
            melds = [
                f"`{m.get('number')}` {pretty_list(list(m.get('cards') or []))}"
                for m in event.get("melds") or []
            ]
            return said(
                seating,
                seat,
                N_("You come out: {melds}"),
                N_("{name} comes out: {melds}"),
                melds=" · ".join(melds),
            )
        if kind == "layoff":
            facts = {"card": shown, "meld": event.get("meld")}
            if event.get("bumped"):
                return said(
                    seating,
                    seat,
                    N_("You lay off {card} on meld {meld} (the joker moves to the end)."),
                    N_("{name} lays off {card} on meld {meld} (the joker moves to the end)."),
                    **facts,
                )
            return said(
                seating,
                seat,
                N_("You lay off {card} on meld {meld}."),
                N_("{name} lays off {card} on meld {meld}."),
                **facts,
            )
        if kind == "discard":
            return said(
                seating, seat, N_("You discard {card}."), N_("{name} discards {card}."), card=shown
            )
        if kind == "out":
            return said(seating, seat, N_("**You go out!**"), N_("**{name} goes out!**"))
        if kind == "hand_over":
            return self._over_line(event, seating)
        if kind == "game_over":
            return game_over_line([seating.who(w) for w in event.get("winners") or []])
        raise self.unknown(event)

    @staticmethod
    def _mayi_line(event: Event, seating: Seating, shown: str) -> str:
        """``Ann gets 7♥️ by May I (1 of 3 May I's used); Bob called too, further from the
        turn.``"""
        seat = event.get("seat")
        used, limit = event.get("used"), seating.options.get("mayi_limit")
        line = said(
            seating,
            seat,
            N_("You get {card} by May I"),
            N_("{name} gets {card} by May I"),
            card=shown,
        )
        if used and limit:
            line += " (" + _("{used} of {limit} May I's used", used=used, limit=limit) + ")"
        elif used:
            line += " (" + _("May I number {used} this round", used=used) + ")"
        void = [whom(seating, s) for s in event.get("void") or []]
        if void:
            # i18n: after "Ann gets 7♥️ by May I": others who called May I for the same card.
            line += "; " + _("{names} called too, further from the turn", names=names_and(void))
        return line + "."

    def _over_line(self, event: Event, seating: Seating) -> str:
        number = event.get("round")
        if event.get("reason") == "out" and event.get("went_out") is not None:
            return said(
                seating,
                event.get("went_out"),
                N_("**Round {number} over**: you went out."),
                N_("**Round {number} over**: {name} went out."),
                number=number,
            )
        return _(
            "**Round {number} over**: the stock ran out; everyone scores his hand.", number=number
        )

    # -- the end of a round ---------------------------------------------------------------------
    def summary(self, event: Event, seating: Seating) -> list[Section]:
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

    # -- /history -------------------------------------------------------------------------------
    def history(self, view: View, seating: Seating) -> list[Section]:
        """What this round has laid down so far and how the previous round scored. The discard
        pile shows only its top card (the rules hide the rest), so the round's discards are not
        listed: the melds on the table, who has come out, the May Is used and the pile's top."""
        sections = [self._pile_section(view, seating)]
        melds = self._meld_sections(view, seating)
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
            last = " · ".join(
                f"{whom(seating, s)} **{p}**" for s, p in enumerate(rounds[-1][:players])
            )
            totals = score_line(seating, list(view.get("scores") or []))
            text = last + "\n" + _("Totals: {scores}", scores=totals)
            title = _("Round {number} — {contract}", number=number, contract=contract)
            sections.append(Section(title, text))
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

    def final(self, result: Mapping[str, Any], seating: Seating) -> list[Section]:
        scores = list(result.get("scores") or [])
        winners = [seating.name(w) for w in result.get("winners") or []]
        best = signed_total(min(scores) if scores else 0)
        names = names_and(winners) or _("Nobody")
        if len(winners) > 1:
            head = _("🏆 **{names} share the win** with {score} points.", names=names, score=best)
        else:
            head = _("🏆 **{names} won** with {score} points.", names=names, score=best)
        return within_limits([Section(_("Game over"), head), self.scores(None, result, seating)])

    # -- /rules ---------------------------------------------------------------------------------
    def rules(self, options: Mapping[str, Any] | None = None) -> str:
        """The rules with these options in the reader's language (the engine's ``summary`` is
        the same text in English, for what runs without the bot)."""
        options = {**SPEC.defaults(), **(options or {})}
        decks = options.get("decks", "auto")
        if decks == "auto":
            deck_text = _("Decks (2, or one per two players at larger tables)")
        else:
            deck_text = _n("{n} deck", "{n} decks", int(decks))
        lines = [
            _(
                "**TroiKuntza**: contract rummy for {low} to 10 players, each for himself. "
                "{decks} of 52 cards + 2 jokers (wild). Seven rounds; lowest total wins.",
                low=3 if options.get("allow_three") else 4,
                decks=deck_text,
            ),
            _("Deal 11 cards each, turn up one card; the player left of the dealer starts."),
            _("**Contracts** (the whole contract at once to come out; melds may be longer):"),
        ]
        for i, code in enumerate(CONTRACTS, start=1):
            lines.append(
                "  "
                # i18n: one contract of TroiKuntza's seven rounds: "3. RR: 2 Runs (at least 8
                # cards)"; {code} is its short form (T = Troika, R = Run).
                + _n(
                    "{number}. {code}: {contract} (at least {n} card)",
                    "{number}. {code}: {contract} (at least {n} cards)",
                    contract_min_cards(code),
                    number=i,
                    code=code,
                    contract=contract_words(code),
                )
            )
        cap = options.get("reshuffles", 2)
        if cap == "unlimited":
            reshuffled = _("the discards are reshuffled into a new stock as often as needed")
        else:
            reshuffled = _n(
                "the discards are reshuffled into a new stock at most {n} time a round",
                "the discards are reshuffled into a new stock at most {n} times a round",
                int(cap),
            )
        strict = bool(options.get("discard_to_go_out"))
        lines.append(
            _(
                "**Troika**: 3+ cards of one rank. **Run**: 4+ cards in sequence in one suit; Ace "
                "low or high, never both (a low-Ace run never takes a King), no wrapping. Two "
                "runs of one suit in a contract must not overlap."
            )
        )
        if strict:
            turn = _(
                "**Turn**: `take` the top discard or `draw` from the stock; then `meld a b c | d "
                "e f` (the whole contract, nothing else that turn) or, on later turns, `layoff "
                "<card> <meld>` on any meld; then `discard <card>` (not the card you took, not "
                "one of your contract)."
            )
            end = _(
                "The round ends when someone has no cards left (after a final discard), or "
                "when a draw finds the stock empty with no discards left to reshuffle "
                "({reshuffled}). Hands score Joker 50, Ace 20, K/Q/J/10 10, 2-9 5.",
                reshuffled=reshuffled,
            )
        else:
            turn = _(
                "**Turn**: `take` the top discard or `draw` from the stock; then `meld a b c | d "
                "e f` (the whole contract, nothing else that turn) or, on later turns, `layoff "
                "<card> <meld>` on any meld; then `discard <card>` (not the card you took, not "
                "one of your contract), unless you go out by laying off all your cards (the one "
                "you took included)."
            )
            end = _(
                "The round ends when someone has no cards left, or when a draw finds the stock "
                "empty with no discards left to reshuffle ({reshuffled}). Hands score Joker 50, "
                "Ace 20, K/Q/J/10 10, 2-9 5.",
                reshuffled=reshuffled,
            )
        lines += [
            turn,
            _("A joker at the end of a run is bumped outward by the natural card it stands for."),
            self._mayi_rules(options),
            end,
        ]
        if options.get("natural_majority"):
            lines.append(
                _("When coming out each meld needs at least as many natural cards as jokers.")
            )
        return "\n".join(lines)

    @staticmethod
    def _mayi_rules(options: Mapping[str, Any]) -> str:
        limit = int(options.get("mayi_limit", 3))
        window = int(options.get("mayi_window", 10))
        if limit == 0:
            return _("**May I** is off at this table.")
        if window:
            when = _(
                "after each discard others have {seconds}s to say `mayi` (or `pass`)",
                seconds=window,
            )
        else:
            when = _(
                "after each discard others may say `mayi` until the player to act takes or draws"
            )
        if options.get("mayi_after_out", True):
            return _n(
                "**May I**: {when}. If the player to act draws instead of taking, the caller "
                "nearest his left gets the discard plus a penalty card; then he may take the "
                "newly exposed card or draw. At most {n} May I per player per round.",
                "**May I**: {when}. If the player to act draws instead of taking, the caller "
                "nearest his left gets the discard plus a penalty card; then he may take the "
                "newly exposed card or draw. At most {n} May Is per player per round.",
                limit,
                when=when,
            )
        return _n(
            "**May I**: {when}. If the player to act draws instead of taking, the caller nearest "
            "his left gets the discard plus a penalty card; then he may take the newly exposed "
            "card or draw. At most {n} May I per player per round; not once you have come out.",
            "**May I**: {when}. If the player to act draws instead of taking, the caller nearest "
            "his left gets the discard plus a penalty card; then he may take the newly exposed "
            "card or draw. At most {n} May Is per player per round; not once you have come out.",
            limit,
            when=when,
        )


def _fit(text: str, limit: int = 80) -> str:
    """A label within ``limit`` characters; an over-long one ends with a mark."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
