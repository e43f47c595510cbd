"""Troggu (Swiss Tarot, 3-8 players): what its players see.

A Troggu player looks for the contract (Tapp, Solo or Misère, who plays it, the called partner
once he is known), the card points the contract side needs (more than 57 of 114), the trick on
the table and the last one, and the scores. The end of a deal shows the contract side's card
points against 57 and 84 and every seat's payment, which players can check by hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.render.games._tricks import history_sections
from bot.render.games._words import (
    cap,
    does,
    names_and,
    pack,
    plural,
    seat_scores,
    signed,
    signed_total,
    table_block,
    whom,
    whose,
    within_limits,
)
from bot.render.games.cards import face, pretty, pretty_list, pretty_suit
from bot.render.presenter import Event, Picture, Presenter, Seating, Section, View
from engine.troggu import tricks
from engine.troggu.cards import CODES, POINTS
from engine.troggu.scoring import BASE, BIG, HALF, MISERE_RATE
from engine.troggu.spec import DEAL_SIZES, PARTNER_PLAYERS

_POINTS = dict(zip(CODES, POINTS, strict=True))
_INDEX = {code: card for card, code in enumerate(CODES)}
_CONTRACT = {"tapp": "Tapp", "solo": "Solo", "misere": "Misère"}
_BIDS = {"pass": "Pass", "tapp": "Tapp", "solo": "Solo"}
_SUIT_WORD = {"cups": "CU", "coins": "CO", "swords": "SW", "batons": "BA"}


def card_points(cards: Sequence[str]) -> int:
    return sum(_POINTS.get(str(c).upper(), 0) for c in cards)


def grouped(cards: Sequence[str]) -> str:
    """A hand by suit, trumps last: ``K🏆 3🏆 · 10⚔ · T21 T4 Fool``."""
    groups: dict[str, list[str]] = {}
    for code in cards:
        f = face(code)
        key = f.suit if f.family == "tarot" else "trumps"
        groups.setdefault(key, []).append(pretty(code))
    order = ["CU", "CO", "SW", "BA", "trumps"]
    return " · ".join(" ".join(groups[k]) for k in order if k in groups) or "—"


def _trick_pairs(items: Any) -> list[tuple[int, str]]:
    return [(int(i["seat"]), str(i["card"])) for i in items or []]


def _trick_text(pairs: Sequence[tuple[int, str]], seating: Seating) -> str:
    return " · ".join(f"{seating.who(s)} {pretty(c)}" for s, c in pairs)


class TrogguPresenter(Presenter):
    game = "troggu"
    unit = "deal"
    quiet = frozenset()

    # -- the public table -----------------------------------------------------------------------
    def heading(self, view: View, seating: Seating) -> str:
        number, deals = view.get("hand_number"), view.get("deals")
        return f"deal {number} of {deals}" if deals else f"deal {number}"

    def table_sections(self, view: View, seating: Seating) -> list[Section]:
        last = view.get("last_hand")
        if view.get("phase") == "over" and isinstance(last, Mapping):
            title = f"Deal {last.get('hand_number')} over"
            return within_limits(
                [Section(title, self._verdict(last, seating)), self.scores(view, None, seating)]
            )
        sections = [self._contract_section(view, seating)]
        sections += self._trick_sections(view, seating)
        sections.append(self._players_section(view, seating))
        sections.append(self.scores(view, None, seating))
        return within_limits(sections)

    def _contract_section(self, view: View, seating: Seating) -> Section:
        phase = view.get("phase")
        if phase == "bidding":
            return Section("Bidding", self._bidding_text(view, seating))
        contract = view.get("contract")
        declarer = view.get("declarer")
        name = _CONTRACT.get(str(contract), str(contract))
        if contract == "misere":
            text = (
                "Everyone passed. Nobody takes the Tapp; whoever takes the most card points "
                f"pays {MISERE_RATE} to each player with fewer."
            )
            return Section("Misère", text)
        lines = [f"**{name}** by {whom(seating, declarer)}" + self._forced(view)]
        if phase == "discard":
            left = int(view.get("discards_left") or 0)
            size = int(view.get("tapp_size") or 0)
            lines.append(
                f"The Tapp ({plural(size, 'card')}) went into {whose(seating, declarer)} hand; "
                f"as many go face down: {left} still to discard."
            )
        elif contract == "solo":
            lines.append("The Tapp went unseen to the Soloist's pile.")
        partner = self._partner_line(view, seating)
        if partner:
            lines.append(partner)
        side = names_and([whom(seating, declarer), *self._known_partner(view, seating)])
        needs = "need" if seating.is_you(declarer) or " and " in side else "needs"
        lines.append(
            f"{cap(side)} {needs} more than {HALF} of 114 card points "
            f"(over {BIG} doubles, every trick triples)."
        )
        return Section("Contract", "\n".join(lines))

    @staticmethod
    def _known_partner(view: View, seating: Seating) -> list[str]:
        partner = view.get("partner")
        return [whom(seating, partner)] if isinstance(partner, int) else []

    @staticmethod
    def _forced(view: View) -> str:
        return " (forced: everyone passed)" if view.get("forced") else ""

    def _bidding_text(self, view: View, seating: Seating) -> str:
        players = int(view.get("players") or len(seating.names))
        dealer = int(view.get("dealer") or 0)
        bids = list(view.get("bids") or [None] * players)
        parts = []
        for k in range(1, players + 1):
            seat = (dealer + k) % players
            bid = bids[seat] if seat < len(bids) else None
            parts.append(f"{seating.who(seat)} {_BIDS.get(bid, '…') if bid else '…'}")
        size = int(view.get("tapp_size") or 0)
        after_tapp = (
            " After a Tapp only a Solo overcalls." if view.get("declarer") is not None else ""
        )
        return (
            " · ".join(parts)
            + f"\nPass, Tapp or Solo; the Tapp holds {plural(size, 'card')} face down."
            + after_tapp
        )

    def _partner_line(self, view: View, seating: Seating) -> str:
        players = int(view.get("players") or len(seating.names))
        declarer = view.get("declarer")
        if view.get("contract") != "tapp" or players < PARTNER_PLAYERS:
            return ""
        phase, called, partner = view.get("phase"), view.get("called"), view.get("partner")
        if phase == "discard":
            return "Then he calls a partner's trump or plays alone."
        if phase == "call":
            return f"{does(seating, declarer, 'is calling', 'are calling')} a partner."
        if called is None:
            return f"{does(seating, declarer, 'plays', 'play')} alone."
        if isinstance(partner, int):
            if seating.is_you(partner):
                return f"Partner: **you** (you hold {pretty(called)}; secret until you play it)."
            return f"Partner: **{seating.name(partner)}** (played {pretty(called)})."
        if view.get("partner_known"):
            if seating.is_you(declarer):
                return f"You called {pretty(called)} but nobody else holds it: you play alone."
            return f"{seating.name(declarer)} called {pretty(called)} and plays alone."
        return f"Partner: whoever holds {pretty(called)} (secret until it is played)."

    def _trick_sections(self, view: View, seating: Seating) -> list[Section]:
        if view.get("phase") != "play":
            return []
        out = []
        number, per = view.get("trick_number"), view.get("tricks_per_deal")
        pairs = _trick_pairs(view.get("trick"))
        lead = view.get("lead_suit")
        if pairs:
            text = _trick_text(pairs, seating)
            led = pretty_suit(_SUIT_WORD[lead]) if lead in _SUIT_WORD else "trumps"
            text += f"\n{led} led" if lead else ""
            # The last trick may hold a Fool held back, which never wins: nobody else knows.
            if number != per or "FOOL" not in [c for _, c in pairs]:
                seat = tricks.winner([[s, _INDEX[c]] for s, c in pairs], None)
                card = dict(pairs)[seat]
                text += f" · {cap(whose(seating, seat))} {pretty(card)} is winning"
        else:
            to_act = list(view.get("to_act") or [])
            text = f"{does(seating, to_act[0], 'leads', 'lead')}." if to_act else "—"
        out.append(Section(f"Trick {number} of {per}", text))
        last = view.get("last_trick")
        if last:
            pairs = _trick_pairs(last.get("cards"))
            points = card_points([c for _, c in pairs])
            winner = seating.who(last.get("winner"))
            out.append(
                Section(
                    "Last trick",
                    f"{_trick_text(pairs, seating)} → **{winner}** ({plural(points, 'point')})",
                )
            )
        return out

    def _players_section(self, view: View, seating: Seating) -> Section:
        players = int(view.get("players") or len(seating.names))
        sizes = list(view.get("hand_sizes") or [])
        tricks = list(view.get("tricks_taken") or [])
        playing = view.get("phase") == "play"
        lines = []
        for seat in range(players):
            marks = []
            if playing and seat < len(sizes):
                marks.append(plural(int(sizes[seat]), "card"))
            if playing and seat < len(tricks):
                marks.append(plural(int(tricks[seat]), "trick"))
            if seat == view.get("dealer"):
                marks.append("dealer")
            if seat == view.get("declarer") and view.get("contract") in ("tapp", "solo"):
                marks.append(_CONTRACT[str(view["contract"])])
            if seat == view.get("partner"):
                marks.append("partner")
            lines.append(seating.who(seat) + (f" — {', '.join(marks)}" if marks else ""))
        if not playing and sizes:
            lines.append(f"{plural(int(sizes[0]), 'card')} each")
        return Section("Players", "\n".join(lines))

    def table_picture(self, view: View, seating: Seating) -> Picture | None:
        if view.get("phase") != "play":
            return None
        names = list(seating.names)
        to_act = list(view.get("to_act") or [])
        highlight = to_act[0] if len(to_act) == 1 else None
        pairs = _trick_pairs(view.get("trick"))
        if pairs:
            return Picture.of(
                "table_png", players=names, played=pairs, caption="", highlight=highlight
            )
        last = view.get("last_trick")
        if last:
            winner = seating.name(last.get("winner"))
            return Picture.of(
                "table_png",
                players=names,
                played=_trick_pairs(last.get("cards")),
                caption=f"last trick → {winner}",
                highlight=highlight,
            )
        return None

    # -- the private panel ----------------------------------------------------------------------
    def hand_sections(self, view: View, legal: Sequence[str], seating: Seating) -> list[Section]:
        hand = [str(c) for c in view.get("hand") or []]
        if view.get("phase") == "over":
            return self.table_sections(view, seating)
        sections = [Section(f"Your hand ({plural(len(hand), 'card')})", grouped(hand))]
        you = self._you_lines(view, seating)
        sections.append(self._contract_section(view, seating))
        if you:
            sections.append(Section("You", "\n".join(you)))
        sections += [s for s in self._trick_sections(view, seating) if s.title != "Last trick"]
        if legal:
            sections += pack("Your move", self._moves(legal))
        return within_limits(sections)

    def _moves(self, legal: Sequence[str]) -> list[str]:
        """The legal moves by verb: ``Play: K🏆 3🏆``, ``Pass · Tapp · Solo``."""
        by_verb: dict[str, list[str]] = {}
        for action in legal:
            verb, _, rest = action.partition(" ")
            by_verb.setdefault(verb if rest else "", []).append(rest or action)
        lines = []
        if "" in by_verb:
            lines.append(" · ".join(self.action_label(a) for a in by_verb.pop("")))
        for verb, rests in by_verb.items():
            alone = "none" in rests
            cards = pretty_list([r for r in rests if r != "none"])
            lines.append(f"{verb.capitalize()}: {cards}" + (" — or play alone" if alone else ""))
        return lines

    def _you_lines(self, view: View, seating: Seating) -> list[str]:
        lines = []
        seat = view.get("seat")
        phase = view.get("phase")
        if view.get("tapp") and phase == "discard":
            lines.append(f"The Tapp gave you: {pretty_list(list(view['tapp']))}")
            left = int(view.get("discards_left") or 0)
            lines.append(
                f"Discard {plural(left, 'more card')} face down: no 5-point card (Kings "
                "only when you hold all four)."
            )
        if view.get("discards"):
            lines.append(f"Your discards: {pretty_list(list(view['discards']))}")
        if view.get("fool_held_back"):
            lines.append(
                "You held the Fool back: it stays in your hand until the last trick, where it "
                "goes to your pile and you give the winner your lowest card."
            )
        if phase == "play":
            lines.append(f"Your pile: {plural(int(view.get('pile_points') or 0), 'card point')}.")
            if seat in (view.get("to_act") or []):
                lines += self._follow_hint(view)
        if phase == "call":
            lines.append("Call a trump from II to XX: its holder is your secret partner.")
        if phase == "bidding":
            hand = [str(c) for c in view.get("hand") or []]
            trumps = sum(face(c).family in ("trump", "fool") for c in hand)
            lines.append(
                f"You hold {plural(trumps, 'trump')} and {card_points(hand)} card points; "
                f"a Tapp or Solo needs more than {HALF} of 114 with the Tapp."
            )
        return lines

    @staticmethod
    def _follow_hint(view: View) -> list[str]:
        """What the rules ask of the player to act, from the suit led and his hand."""
        lead = view.get("lead_suit")
        hand = [face(str(c)) for c in view.get("hand") or []]
        trumps = any(f.family == "trump" for f in hand) or (
            any(f.family == "fool" for f in hand) and not view.get("fool_held_back")
        )
        if lead in _SUIT_WORD:
            suit = _SUIT_WORD[lead]
            if any(f.suit == suit for f in hand):
                return [f"Follow {pretty_suit(suit)}."]
            if trumps:
                return [f"No {lead}: you must play a trump."]
            return [f"No {lead} and no trump: play any card."]
        if lead == "trumps":
            return ["Trumps led: play a trump."] if trumps else ["No trump: play any card."]
        return []

    def hand_picture(self, view: View, seating: Seating) -> Picture | None:
        hand = [str(c) for c in view.get("hand") or []]
        return Picture.of("hand_png", cards=hand) if hand else None

    def action_label(self, action: str) -> str:
        verb, _, rest = action.strip().partition(" ")
        verb = verb.lower()
        if verb == "bid" and rest:
            verb, rest = rest.lower(), ""
        if verb in _BIDS and not rest:
            return _BIDS[verb]
        if verb == "play" and rest:
            return pretty(rest)
        if verb == "discard" and rest:
            return f"Discard {pretty(rest)}"
        if verb == "call" and rest:
            return "Play alone" if rest.lower() == "none" else f"Call {pretty(rest)}"
        return action[:80]

    def you_did(self, action: str) -> str:
        verb, _, rest = action.strip().partition(" ")
        verb = verb.lower()
        if verb == "bid" and rest:
            verb, rest = rest.lower(), ""
        if verb == "pass" and not rest:
            return "You passed"
        if verb in ("tapp", "solo") and not rest:
            return f"You bid {_BIDS[verb]}"
        if verb == "play" and rest:
            return f"You played {pretty(rest)}"
        if verb == "discard" and rest:
            return f"You discarded {pretty(rest)}"
        if verb == "call" and rest:
            if rest.lower() == "none":
                return "You play alone"
            return f"You called {pretty(rest)}"
        return f"You: {self.action_label(action)}"

    # -- narration ------------------------------------------------------------------------------
    def tell(self, event: Event, seating: Seating) -> str | None:
        kind = event.get("type")
        seat = event.get("seat")
        if kind == "deal":
            return f"**Deal {event.get('hand_number')}**: {seating.who(event.get('dealer'))} deals."
        if kind == "bid":
            bid = event.get("bid")
            if bid == "pass":
                return does(seating, seat, "passes", "pass")
            return does(seating, seat, "bids", "bid") + f" {_BIDS.get(str(bid), str(bid))}"
        if kind == "forced_tapp":
            why = "the Fool" if event.get("reason") == "fool" else "trump I"
            return (
                f"Everyone passed: {whom(seating, seat)} "
                f"{'hold' if seating.is_you(seat) else 'holds'} {why} and must play a Tapp."
            )
        if kind == "contract":
            return self._contract_line(event, seating)
        if kind == "take_tapp":
            count = int(event.get("count") or 0)
            return (
                does(seating, seat, "takes", "take")
                + f" the Tapp ({plural(count, 'card')}) and will discard as many."
            )
        if kind == "tapp_cards":
            return f"The Tapp gives you {pretty_list(list(event.get('cards') or []))}."
        if kind == "tapp_to_pile":
            count = int(event.get("count") or 0)
            return f"The Tapp ({plural(count, 'card')}) goes unseen to {whose(seating, seat)} pile."
        if kind == "discard":
            if event.get("left"):
                return None  # one line for the whole discard, when it is done
            size = DEAL_SIZES.get(len(seating.names), (0, 0))[1]
            counted = plural(size, "card") if size else "the Tapp's cards"
            return does(seating, seat, "has", "have") + f" discarded {counted} face down."
        if kind == "discard_card":
            return f"You discarded {pretty(str(event.get('card')))}."
        if kind == "call":
            card = event.get("card")
            if card is None:
                return does(seating, seat, "plays", "play") + " alone."
            return (
                does(seating, seat, "calls", "call")
                + f" {pretty(str(card))}: its holder is the secret partner."
            )
        if kind == "partner":
            return "You hold the called trump: you are the Tappist's secret partner."
        if kind == "alone":
            return "Nobody else holds the trump you called: you play alone (the others don't know)."
        if kind == "play":
            return does(seating, seat, "plays", "play") + f" {pretty(str(event.get('card')))}."
        if kind == "fool_held":
            return (
                "You hold the Fool back: it stays in your hand until the last trick and cannot win."
            )
        if kind == "partner_revealed":
            tappist = event.get("tappist")
            if seat is None:
                return (
                    f"{seating.who(tappist)} played the called trump: "
                    f"{'you play' if seating.is_you(tappist) else 'he plays'} alone."
                )
            return f"{does(seating, seat, 'is', 'are')} {whose(seating, tappist)} partner!"
        if kind == "trick":
            return self._trick_line(event, seating)
        if kind == "fool_exchange":
            given = event.get("points")
            if given is None:
                swap = "there was nothing in the pile to give in exchange"
            else:
                gets = does(seating, event.get("to"), "gets", "get", mid=True)
                swap = f"{gets} a {plural(int(given), 'point')} card from that pile instead"
            return f"The held-back Fool goes to {whose(seating, seat)} pile; {swap}."
        if kind == "hand_over":
            return self._over_line(event, seating)
        if kind == "game_over":
            winners = [seating.who(w) for w in event.get("winners") or []]
            return f"🏆 **Game over: {names_and(winners) or 'nobody'} won.**"
        raise self.unknown(event)

    def _contract_line(self, event: Event, seating: Seating) -> str:
        contract, seat = event.get("contract"), event.get("seat")
        if contract == "misere":
            return "Everyone passed: **Misère**. The most card points pays."
        name = _CONTRACT.get(str(contract), str(contract))
        return does(seating, seat, "plays", "play") + f" a **{name}**."

    def _trick_line(self, event: Event, seating: Seating) -> str:
        seat = event.get("seat")
        pairs = _trick_pairs(event.get("cards"))
        best = next((c for s, c in pairs if s == seat), None)
        points = int(event.get("points") or 0)
        card = f" with {pretty(best)}" if best else ""
        return (
            does(seating, seat, "wins", "win")
            + f" trick {event.get('trick_number')}{card} ({plural(points, 'point')})."
        )

    def _over_line(self, event: Event, seating: Seating) -> str:
        number = event.get("hand_number")
        return f"**Deal {number} over**: {self._verdict(event, seating)}"

    # -- the end of a deal ----------------------------------------------------------------------
    def _verdict(self, event: Event, seating: Seating) -> str:
        """``Bob's Tapp is made with 71 of 114 card points (over 57).``"""
        contract = event.get("contract")
        if contract == "misere":
            points = list(event.get("card_points") or [])
            if not points or len(set(points)) == 1:
                return "Misère: everyone took the same card points, nobody pays."
            top = max(points)
            losers = [s for s, p in enumerate(points) if p == top]
            plural_verb = len(losers) > 1 or seating.is_you(losers[0])
            verb = "pay" if plural_verb else "pays"
            losers = [whom(seating, s) for s in losers]
            return (
                f"Misère: {names_and(losers)} took the most ({top}) and {verb} "
                f"{MISERE_RATE} to each player with fewer."
            )
        side = self._side(event, seating)
        points = int(event.get("contract_points") or 0)
        multiple = int(event.get("multiple") or 0)
        rate = BASE.get(str(contract), 0) * abs(multiple)
        name = _CONTRACT.get(str(contract), str(contract))
        if multiple > 0:
            why = {1: f"over {HALF}", 2: f"over {BIG}: double", 3: "every trick: triple"}
            return (
                f"{side} {name} is **made** with {points} of 114 card points "
                f"({why[multiple]}): {rate} from each opponent."
            )
        if multiple < 0:
            why = {
                -1: f"under {HALF}",
                -2: f"under {114 - BIG}: double",
                -3: "no trick: triple",
            }
            return (
                f"{side} {name} is **lost** with {points} of 114 card points "
                f"({why[multiple]}): {rate} to each opponent."
            )
        return f"{side} {name} took exactly {HALF} card points: nobody pays."

    def _side(self, event: Event, seating: Seating) -> str:
        """``Bob's``, ``Your``, ``Bob & Cid's``: whose contract it was."""
        declarer, partner = event.get("declarer"), event.get("partner")
        if isinstance(partner, int):
            return f"{seating.name(declarer)} & {seating.name(partner)}'s"
        return "Your" if seating.is_you(declarer) else f"{seating.name(declarer)}'s"

    def summary(self, event: Event, seating: Seating) -> list[Section]:
        number = event.get("hand_number")
        contract = event.get("contract")
        declarer = event.get("declarer")
        name = _CONTRACT.get(str(contract), str(contract))
        title = f"Deal {number}: {name}" + (
            f" by {seating.who(declarer)}" if declarer is not None else ""
        )
        head = [self._verdict(event, seating)]
        called = event.get("called")
        if called is not None:
            partner = event.get("partner")
            if isinstance(partner, int):
                head.append(f"Partner: {seating.who(partner)} (held {pretty(str(called))}).")
            else:
                head.append(f"{pretty(str(called))} was called; nobody else held it.")
        if contract == "misere" and event.get("tapp_points"):
            head.append(f"The Tapp ({event['tapp_points']} points) counted for nobody.")
        rows = []
        points = list(event.get("card_points") or [])
        tricks = list(event.get("tricks") or [])
        payments = list(event.get("payments") or [])
        scores = list(event.get("scores") or [])
        side = {declarer, event.get("partner")} - {None}
        for seat in range(len(points)):
            mark = " ★" if seat in side else ""
            trick_count = plural(int(tricks[seat]), "trick") if seat < len(tricks) else ""
            pay = signed(int(payments[seat])) if seat < len(payments) else "0"
            total = signed_total(int(scores[seat])) if seat < len(scores) else ""
            rows.append(
                f"{seating.who(seat)}{mark}: {points[seat]} pts, {trick_count} → "
                f"**{pay}** (total {total})"
            )
        sections = [Section(title, "\n".join(head))]
        sections += pack("Card points → payment", rows)
        return within_limits(sections)

    # -- /history -------------------------------------------------------------------------------
    def history(self, view: View, seating: Seating) -> list[Section]:
        """This deal's tricks (who led, the cards, who took it, its card points) and how the
        previous deal ended."""
        sections = history_sections(
            view, seating, lambda cards: plural(card_points(cards), "point")
        )
        last = view.get("last_hand")
        if isinstance(last, Mapping):
            sections += self.summary({"type": "hand_over", **last}, seating)
        return within_limits(sections)

    # -- scores ---------------------------------------------------------------------------------
    def scores(
        self, view: View | None, result: Mapping[str, Any] | None, seating: Seating
    ) -> Section:
        return seat_scores(view, result, seating)

    def score_sheet(self, view: View | None, seating: Seating) -> list[Section]:
        """One row per deal as on paper: the contract, made ✓ or lost ✗, every seat's payment
        (the declarer's marked ``*``), then the totals."""
        history = list((view or {}).get("history") or [])
        if not history:
            return [self.scores(view, None, seating)]
        header = ["Deal", *(n[:6] + " " for n in seating.names)]
        rows = [self._sheet_row(deal, len(seating.names)) for deal in history]
        totals = ["Total", *(signed_total(int(s)) + " " for s in (view or {}).get("scores") or [])]
        # About 12 rows per field; the latest deals first go in when they cannot all fit.
        chunks: list[list[list[str]]] = []
        for start in range(0, len(rows), 12):
            chunks.append(rows[start : start + 12])
        shown = chunks[-4:]
        sections = []
        if len(chunks) > len(shown):
            earlier = sum(len(c) for c in chunks[: len(chunks) - len(shown)])
            sections.append(Section("Score sheet", f"+{plural(earlier, 'earlier deal')} above"))
        for i, chunk in enumerate(shown):
            last = i == len(shown) - 1
            title = "Score sheet" if not sections else "Score sheet (more)"
            body = [*chunk, totals] if last and len(totals) == len(header) else chunk
            text = table_block(header, body, 9)
            if last:
                text += "\n✓ made · ✗ lost · * the contract side"
            sections.append(Section(title, text))
        return within_limits(sections)

    @staticmethod
    def _sheet_row(deal: Mapping[str, Any], players: int) -> list[str]:
        contract = str(deal.get("contract"))
        multiple = int(deal.get("multiple") or 0)
        mark = "" if contract == "misere" else "✓" if multiple > 0 else "✗" if multiple else "="
        label = f"{deal.get('hand_number')} {_CONTRACT.get(contract, contract)} {mark}".strip()
        payments = list(deal.get("payments") or [0] * players)
        side = {deal.get("declarer"), deal.get("partner")}
        cells = [signed(int(p)) + ("*" if s in side else " ") for s, p in enumerate(payments)]
        return [label, *cells]

    def final(self, result: Mapping[str, Any], seating: Seating) -> list[Section]:
        scores = list(result.get("scores") or [])
        winners = [seating.name(w) for w in result.get("winners") or []]
        best = max(scores) if scores else 0
        verb = "share the win" if len(winners) > 1 else "won"
        deals = result.get("deals")
        after = f" after {plural(int(deals), 'deal')}" if deals else ""
        head = f"🏆 **{names_and(winners) or 'Nobody'} {verb}** with {signed_total(best)}{after}."
        return within_limits([Section("Game over", head), self.scores(None, result, seating)])
