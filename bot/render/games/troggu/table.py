"""Troggu (Swiss Tarot, 3-8 players): what its players see.

A Troggu player looks for the contract (Tapp, Solo or Misère, who plays it, the called partner
once he is known), the card points the contract side needs (more than 57 of 114), the trick on
the table and the last one, and the scores. The end of a deal shows the contract side's card
points against 57 and 84 and every seat's payment, which players can check by hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import N_, _, _n, _p
from bot.render.games._tricks import history_sections
from bot.render.games._words import (
    cap,
    cards,
    game_over_line,
    names_and,
    pack,
    points,
    said,
    seat_scores,
    signed,
    signed_total,
    table_block,
    whom,
    within_limits,
)
from bot.render.games.cards import TAROT_SUITS, face, picture_letters, pretty, pretty_list
from bot.render.presenter import Event, Picture, Presenter, Seating, Section, View
from engine.troggu import tricks
from engine.troggu.cards import CODES, POINTS
from engine.troggu.scoring import BASE, BIG, HALF, MISERE_RATE
from engine.troggu.spec import DEAL_SIZES, PARTNER_PLAYERS, SPEC

_POINTS = dict(zip(CODES, POINTS, strict=True))
_INDEX = {code: card for card, code in enumerate(CODES)}
# i18n: Troggu's contracts, the game's own words (players usually keep them).
_CONTRACT = {"tapp": N_("Tapp"), "solo": N_("Solo"), "misere": N_("Misère")}
_BIDS = {"pass": N_("Pass"), "tapp": N_("Tapp"), "solo": N_("Solo")}
_SUIT_WORD = {"cups": "CU", "coins": "CO", "swords": "SW", "batons": "BA"}
# i18n: the Tarot suits of Troggu, in a sentence ("No cups: you must play a trump.").
_SUIT_NAME = {
    "cups": N_("cups"),
    "coins": N_("coins"),
    "swords": N_("swords"),
    "batons": N_("batons"),
}


#: The legal moves' lines in the private panel, by verb.
_MOVE_LINE = {
    "play": N_("Play: {cards}"),
    "discard": N_("Discard: {cards}"),
    "call": N_("Call: {cards}"),
}


def _contract(contract: Any) -> str:
    """A contract's name (Tapp, Solo, Misère) in the reader's language."""
    known = _CONTRACT.get(str(contract))
    return _(known) if known else str(contract)


def _suit(lead: str) -> str:
    """A Tarot suit led, with its symbol (``🏆 cups``), or ``trumps``."""
    if lead in _SUIT_WORD:
        return f"{TAROT_SUITS[_SUIT_WORD[lead]][1]} {_(_SUIT_NAME[lead])}"
    return _("trumps")


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
    # i18n: what players of this game call one deal of it (shown as "deal 3 over").
    unit = N_("deal")
    quiet = frozenset()

    # -- the public table -----------------------------------------------------------------------
    def heading(self, view: View, seating: Seating) -> str:
        number, deals = view.get("hand_number"), view.get("deals")
        if deals:
            return _("deal {number} of {deals}", number=number, deals=deals)
        return _("deal {number}", number=number)

    def table_sections(self, view: View, seating: Seating) -> list[Section]:
        last = view.get("last_hand")
        if view.get("phase") == "over" and isinstance(last, Mapping):
            title = _("Deal {number} over", number=last.get("hand_number"))
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
            return Section(_("Bidding"), self._bidding_text(view, seating))
        contract = view.get("contract")
        declarer = view.get("declarer")
        name = _contract(contract)
        if contract == "misere":
            text = _(
                "Everyone passed. Nobody takes the Tapp; whoever takes the most card points "
                "pays {rate} to each player with fewer.",
                rate=MISERE_RATE,
            )
            return Section(_("Misère"), text)
        # i18n: {contract} is Tapp or Solo.
        lines = [
            said(
                seating,
                declarer,
                N_("**{contract}** by you"),
                N_("**{contract}** by {name}"),
                contract=name,
            )
            + self._forced(view)
        ]
        if phase == "discard":
            left = int(view.get("discards_left") or 0)
            size = int(view.get("tapp_size") or 0)
            lines.append(
                said(
                    seating,
                    declarer,
                    N_(
                        "The Tapp ({cards}) went into your hand; as many go face down: {left} "
                        "still to discard."
                    ),
                    N_(
                        "The Tapp ({cards}) went into {name}'s hand; as many go face down: {left} "
                        "still to discard."
                    ),
                    cards=cards(size),
                    left=left,
                )
            )
        elif contract == "solo":
            lines.append(_("The Tapp went unseen to the Soloist's pile."))
        partner = self._partner_line(view, seating)
        if partner:
            lines.append(partner)
        partners = self._known_partner(view, seating)
        if partners:
            side = cap(names_and([whom(seating, declarer), *partners]))
            need = _(
                "{names} need more than {half} of 114 card points (over {big} doubles, every "
                "trick triples).",
                names=side,
                half=HALF,
                big=BIG,
            )
        else:
            need = said(
                seating,
                declarer,
                N_(
                    "You need more than {half} of 114 card points (over {big} doubles, every "
                    "trick triples)."
                ),
                N_(
                    "{name} needs more than {half} of 114 card points (over {big} doubles, every "
                    "trick triples)."
                ),
                half=HALF,
                big=BIG,
            )
        lines.append(need)
        return Section(_("Contract"), "\n".join(lines))

    @staticmethod
    def _known_partner(view: View, seating: Seating) -> list[str]:
        partner = view.get("partner")
        return [whom(seating, partner)] if isinstance(partner, int) else []

    @staticmethod
    def _forced(view: View) -> str:
        return " ({})".format(_("forced: everyone passed")) if view.get("forced") else ""

    def _bidding_text(self, view: View, seating: Seating) -> str:
        players = int(view.get("players") or len(seating.names))
        dealer = int(view.get("dealer") or 0)
        bids = list(view.get("bids") or [None] * players)
        parts = []
        for k in range(1, players + 1):
            seat = (dealer + k) % players
            bid = bids[seat] if seat < len(bids) else None
            parts.append(f"{seating.who(seat)} {_(_BIDS[bid]) if bid in _BIDS else '…'}")
        size = int(view.get("tapp_size") or 0)
        text = " · ".join(parts) + "\n"
        text += _("Pass, Tapp or Solo; the Tapp holds {cards} face down.", cards=cards(size))
        if view.get("declarer") is not None:
            text += " " + _("After a Tapp only a Solo overcalls.")
        return text

    def _partner_line(self, view: View, seating: Seating) -> str:
        players = int(view.get("players") or len(seating.names))
        declarer = view.get("declarer")
        if view.get("contract") != "tapp" or players < PARTNER_PLAYERS:
            return ""
        phase, called, partner = view.get("phase"), view.get("called"), view.get("partner")
        if phase == "discard":
            return _("Then he calls a partner's trump or plays alone.")
        if phase == "call":
            return said(
                seating,
                declarer,
                N_("You are calling a partner."),
                N_("{name} is calling a partner."),
            )
        if called is None:
            return said(seating, declarer, N_("You play alone."), N_("{name} plays alone."))
        card = pretty(called)
        if isinstance(partner, int):
            if seating.is_you(partner):
                return _("Partner: **you** (you hold {card}; secret until you play it).", card=card)
            return _("Partner: **{name}** (played {card}).", name=seating.name(partner), card=card)
        if view.get("partner_known"):
            return said(
                seating,
                declarer,
                N_("You called {card} but nobody else holds it: you play alone."),
                N_("{name} called {card} and plays alone."),
                card=card,
            )
        return _("Partner: whoever holds {card} (secret until it is played).", card=card)

    def _trick_sections(self, view: View, seating: Seating, last: bool = True) -> list[Section]:
        if view.get("phase") != "play":
            return []
        out = []
        number, per = view.get("trick_number"), view.get("tricks_per_deal")
        pairs = _trick_pairs(view.get("trick"))
        lead = view.get("lead_suit")
        if pairs:
            text = _trick_text(pairs, seating)
            # i18n: {suit} is a suit with its symbol ("🏆 cups") or "trumps".
            text += "\n" + _("{suit} led", suit=_suit(str(lead))) if lead else ""
            # The last trick may hold a Fool held back, which never wins: nobody else knows.
            if number != per or "FOOL" not in [c for __, c in pairs]:
                seat = tricks.winner([[s, _INDEX[c]] for s, c in pairs], None)
                card = pretty(dict(pairs)[seat])
                winning = said(
                    seating,
                    seat,
                    N_("Your {card} is winning"),
                    N_("{name}'s {card} is winning"),
                    card=card,
                )
                text += f" · {winning}"
        else:
            to_act = list(view.get("to_act") or [])
            text = said(seating, to_act[0], N_("You lead."), N_("{name} leads.")) if to_act else "—"
        out.append(Section(_("Trick {number} of {per}", number=number, per=per), text))
        previous = view.get("last_trick")
        if previous and last:
            pairs = _trick_pairs(previous.get("cards"))
            worth = points(card_points([c for __, c in pairs]))
            winner = seating.who(previous.get("winner"))
            out.append(
                Section(
                    _("Last trick"),
                    f"{_trick_text(pairs, seating)} → **{winner}** ({worth})",
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
                marks.append(cards(int(sizes[seat])))
            if playing and seat < len(tricks):
                marks.append(_n("{n} trick", "{n} tricks", int(tricks[seat])))
            if seat == view.get("dealer"):
                marks.append(_("dealer"))
            if seat == view.get("declarer") and view.get("contract") in ("tapp", "solo"):
                marks.append(_(_CONTRACT[str(view["contract"])]))
            if seat == view.get("partner"):
                marks.append(_("partner"))
            lines.append(seating.who(seat) + (f" — {', '.join(marks)}" if marks else ""))
        if not playing and sizes:
            lines.append(_n("{n} card each", "{n} cards each", int(sizes[0])))
        return Section(_("Players"), "\n".join(lines))

    def table_picture(self, view: View, seating: Seating) -> Picture | None:
        if view.get("phase") != "play":
            return None
        names = list(seating.names)
        to_act = list(view.get("to_act") or [])
        highlight = to_act[0] if len(to_act) == 1 else None
        pairs = _trick_pairs(view.get("trick"))
        if pairs:
            return Picture.of(
                "table_png",
                players=names,
                played=pairs,
                caption="",
                highlight=highlight,
                **picture_letters(),
            )
        last = view.get("last_trick")
        if last:
            winner = seating.name(last.get("winner"))
            return Picture.of(
                "table_png",
                players=names,
                played=_trick_pairs(last.get("cards")),
                # Translated here: the picture is drawn on a worker that has no language.
                caption=_("last trick → {name}", name=winner),
                highlight=highlight,
                **picture_letters(),
            )
        return None

    # -- the private panel ----------------------------------------------------------------------
    def hand_sections(self, view: View, legal: Sequence[str], seating: Seating) -> list[Section]:
        hand = [str(c) for c in view.get("hand") or []]
        if view.get("phase") == "over":
            return self.table_sections(view, seating)
        sections = [Section(_("Your hand ({cards})", cards=cards(len(hand))), grouped(hand))]
        you = self._you_lines(view, seating)
        sections.append(self._contract_section(view, seating))
        if you:
            sections.append(Section(_("You"), "\n".join(you)))
        sections += self._trick_sections(view, seating, last=False)
        if legal:
            sections += pack(_("Your move"), self._moves(legal))
        return within_limits(sections)

    def _moves(self, legal: Sequence[str]) -> list[str]:
        """The legal moves by verb: ``Play: K🏆 3🏆``, ``Pass · Tapp · Solo``."""
        by_verb: dict[str, list[str]] = {}
        for action in legal:
            verb, __, rest = action.partition(" ")
            by_verb.setdefault(verb if rest else "", []).append(rest or action)
        lines = []
        if "" in by_verb:
            lines.append(" · ".join(self.action_label(a) for a in by_verb.pop("")))
        for verb, rests in by_verb.items():
            shown = pretty_list([r for r in rests if r != "none"])
            if verb == "call" and "none" in rests:
                lines.append(_("Call: {cards} — or play alone", cards=shown))
            elif verb in _MOVE_LINE:
                lines.append(_(_MOVE_LINE[verb], cards=shown))
            else:
                lines.append(f"{verb.capitalize()}: {shown}")
        return lines

    def _you_lines(self, view: View, seating: Seating) -> list[str]:
        lines = []
        seat = view.get("seat")
        phase = view.get("phase")
        if view.get("tapp") and phase == "discard":
            lines.append(_("The Tapp gave you: {cards}", cards=pretty_list(list(view["tapp"]))))
            left = int(view.get("discards_left") or 0)
            lines.append(
                _n(
                    "Discard {n} more card face down: no 5-point card (Kings only when you "
                    "hold all four).",
                    "Discard {n} more cards face down: no 5-point card (Kings only when you "
                    "hold all four).",
                    left,
                )
            )
        if view.get("discards"):
            lines.append(_("Your discards: {cards}", cards=pretty_list(list(view["discards"]))))
        if view.get("fool_held_back"):
            lines.append(
                _(
                    "You held the Fool back: it stays in your hand until the last trick, where "
                    "it goes to your pile and you give the winner your lowest card."
                )
            )
        if phase == "play":
            pile = int(view.get("pile_points") or 0)
            lines.append(_n("Your pile: {n} card point.", "Your pile: {n} card points.", pile))
            if seat in (view.get("to_act") or []):
                lines += self._follow_hint(view)
        if phase == "call":
            lines.append(_("Call a trump from II to XX: its holder is your secret partner."))
        if phase == "bidding":
            hand = [str(c) for c in view.get("hand") or []]
            trumps = sum(face(c).family in ("trump", "fool") for c in hand)
            lines.append(
                _(
                    "You hold {trumps} and {points} card points; a Tapp or Solo needs more "
                    "than {half} of 114 with the Tapp.",
                    trumps=_n("{n} trump", "{n} trumps", trumps),
                    points=card_points(hand),
                    half=HALF,
                )
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
            if any(f.suit == _SUIT_WORD[lead] for f in hand):
                return [_("Follow {suit}.", suit=_suit(lead))]
            if trumps:
                # i18n: {suit} is a Tarot suit's name (cups, coins, swords, batons).
                return [_("No {suit}: you must play a trump.", suit=_(_SUIT_NAME[lead]))]
            return [_("No {suit} and no trump: play any card.", suit=_(_SUIT_NAME[lead]))]
        if lead == "trumps":
            if trumps:
                return [_("Trumps led: play a trump.")]
            return [_("No trump: play any card.")]
        return []

    def hand_picture(self, view: View, seating: Seating) -> Picture | None:
        hand = [str(c) for c in view.get("hand") or []]
        return Picture.of("hand_png", cards=hand, **picture_letters()) if hand else None

    def action_label(self, action: str) -> str:
        verb, __, rest = action.strip().partition(" ")
        verb = verb.lower()
        if verb == "bid" and rest:
            verb, rest = rest.lower(), ""
        if verb in _BIDS and not rest:
            return _(_BIDS[verb])
        if verb == "play" and rest:
            return pretty(rest)
        if verb == "discard" and rest:
            return _("Discard {card}", card=pretty(rest))
        if verb == "call" and rest:
            if rest.lower() == "none":
                return _("Play alone")
            return _("Call {card}", card=pretty(rest))
        return action[:80]

    def you_did(self, action: str) -> str:
        verb, __, rest = action.strip().partition(" ")
        verb = verb.lower()
        if verb == "bid" and rest:
            verb, rest = rest.lower(), ""
        if verb == "pass" and not rest:
            return _("You passed")
        if verb in ("tapp", "solo") and not rest:
            return _("You bid {bid}", bid=_(_BIDS[verb]))
        if verb == "play" and rest:
            return _("You played {card}", card=pretty(rest))
        if verb == "discard" and rest:
            return _("You discarded {card}", card=pretty(rest))
        if verb == "call" and rest:
            if rest.lower() == "none":
                return _("You play alone")
            return _("You called {card}", card=pretty(rest))
        return _("You: {move}", move=self.action_label(action))

    # -- narration ------------------------------------------------------------------------------
    def tell(self, event: Event, seating: Seating) -> str | None:
        kind = event.get("type")
        seat = event.get("seat")
        if kind == "deal":
            return said(
                seating,
                event.get("dealer"),
                N_("**Deal {number}**: you deal."),
                N_("**Deal {number}**: {name} deals."),
                number=event.get("hand_number"),
            )
        if kind == "bid":
            bid = event.get("bid")
            if bid == "pass":
                return said(seating, seat, N_("You pass"), N_("{name} passes"))
            shown = _(_BIDS[str(bid)]) if str(bid) in _BIDS else str(bid)
            return said(seating, seat, N_("You bid {bid}"), N_("{name} bids {bid}"), bid=shown)
        if kind == "forced_tapp":
            why = _("the Fool") if event.get("reason") == "fool" else _("trump I")
            return said(
                seating,
                seat,
                # i18n: {card} is "the Fool" or "trump I".
                N_("Everyone passed: you hold {card} and must play a Tapp."),
                N_("Everyone passed: {name} holds {card} and must play a Tapp."),
                card=why,
            )
        if kind == "contract":
            return self._contract_line(event, seating)
        if kind == "take_tapp":
            return said(
                seating,
                seat,
                N_("You take the Tapp ({cards}) and will discard as many."),
                N_("{name} takes the Tapp ({cards}) and will discard as many."),
                cards=cards(int(event.get("count") or 0)),
            )
        if kind == "tapp_cards":
            return _(
                "The Tapp gives you {cards}.", cards=pretty_list(list(event.get("cards") or []))
            )
        if kind == "tapp_to_pile":
            return said(
                seating,
                seat,
                N_("The Tapp ({cards}) goes unseen to your pile."),
                N_("The Tapp ({cards}) goes unseen to {name}'s pile."),
                cards=cards(int(event.get("count") or 0)),
            )
        if kind == "discard":
            if event.get("left"):
                return None  # one line for the whole discard, when it is done
            size = DEAL_SIZES.get(len(seating.names), (0, 0))[1]
            counted = cards(size) if size else _("the Tapp's cards")
            return said(
                seating,
                seat,
                N_("You have discarded {cards} face down."),
                N_("{name} has discarded {cards} face down."),
                cards=counted,
            )
        if kind == "discard_card":
            return _("You discarded {card}.", card=pretty(str(event.get("card"))))
        if kind == "call":
            card = event.get("card")
            if card is None:
                return said(seating, seat, N_("You play alone."), N_("{name} plays alone."))
            return said(
                seating,
                seat,
                N_("You call {card}: its holder is the secret partner."),
                N_("{name} calls {card}: its holder is the secret partner."),
                card=pretty(str(card)),
            )
        if kind == "partner":
            return _("You hold the called trump: you are the Tappist's secret partner.")
        if kind == "alone":
            return _(
                "Nobody else holds the trump you called: you play alone (the others don't know)."
            )
        if kind == "play":
            card = pretty(str(event.get("card")))
            return said(
                seating, seat, N_("You play {card}."), N_("{name} plays {card}."), card=card
            )
        if kind == "fool_held":
            return _(
                "You hold the Fool back: it stays in your hand until the last trick and cannot win."
            )
        if kind == "partner_revealed":
            return self._revealed_line(event, seating)
        if kind == "trick":
            return self._trick_line(event, seating)
        if kind == "fool_exchange":
            return self._exchange_line(event, seating)
        if kind == "hand_over":
            return self._over_line(event, seating)
        if kind == "game_over":
            return game_over_line([seating.who(w) for w in event.get("winners") or []])
        raise self.unknown(event)

    def _contract_line(self, event: Event, seating: Seating) -> str:
        contract, seat = event.get("contract"), event.get("seat")
        if contract == "misere":
            return _("Everyone passed: **Misère**. The most card points pays.")
        name = _contract(contract)
        return said(
            seating,
            seat,
            N_("You play a **{contract}**."),
            N_("{name} plays a **{contract}**."),
            contract=name,
        )

    @staticmethod
    def _revealed_line(event: Event, seating: Seating) -> str:
        seat, tappist = event.get("seat"), event.get("tappist")
        if seat is None:
            return said(
                seating,
                tappist,
                N_("You played the called trump: you play alone."),
                N_("{name} played the called trump: he plays alone."),
            )
        if seating.is_you(seat):
            return _("You are {name}'s partner!", name=seating.name(tappist))
        return said(
            seating,
            tappist,
            N_("{partner} is your partner!"),
            N_("{partner} is {name}'s partner!"),
            partner=seating.name(seat),
        )

    def _trick_line(self, event: Event, seating: Seating) -> str:
        seat = event.get("seat")
        pairs = _trick_pairs(event.get("cards"))
        best = next((c for s, c in pairs if s == seat), None)
        worth = points(int(event.get("points") or 0))
        number = event.get("trick_number")
        if best:
            return said(
                seating,
                seat,
                N_("You win trick {number} with {card} ({points})."),
                N_("{name} wins trick {number} with {card} ({points})."),
                number=number,
                card=pretty(best),
                points=worth,
            )
        return said(
            seating,
            seat,
            N_("You win trick {number} ({points})."),
            N_("{name} wins trick {number} ({points})."),
            number=number,
            points=worth,
        )

    @staticmethod
    def _exchange_line(event: Event, seating: Seating) -> str:
        given = event.get("points")
        if given is None:
            swap = _("there was nothing in the pile to give in exchange")
        else:
            swap = said(
                seating,
                event.get("to"),
                # i18n: {points} is "1 point", "3 points": the value of the card given.
                N_("you get a {points} card from that pile instead"),
                N_("{name} gets a {points} card from that pile instead"),
                points=points(int(given)),
            )
        return said(
            seating,
            event.get("seat"),
            # i18n: {swap} says what the trick's winner gets instead of the Fool.
            N_("The held-back Fool goes to your pile; {swap}."),
            N_("The held-back Fool goes to {name}'s pile; {swap}."),
            swap=swap,
        )

    def _over_line(self, event: Event, seating: Seating) -> str:
        return _(
            "**Deal {number} over**: {verdict}",
            number=event.get("hand_number"),
            verdict=self._verdict(event, seating),
        )

    # -- the end of a deal ----------------------------------------------------------------------
    def _verdict(self, event: Event, seating: Seating) -> str:
        """``Bob's Tapp is made with 71 of 114 card points (over 57).``"""
        contract = event.get("contract")
        if contract == "misere":
            return self._misere_verdict(event, seating)
        points = int(event.get("contract_points") or 0)
        multiple = int(event.get("multiple") or 0)
        rate = BASE.get(str(contract), 0) * abs(multiple)
        facts = {"contract": _contract(contract), "points": points, "rate": rate}
        if multiple > 0:
            why = {
                1: _("over {half}", half=HALF),
                2: _("over {big}: double", big=BIG),
                3: _("every trick: triple"),
            }
            return self._by_side(
                event,
                seating,
                # i18n: {contract} is Tapp or Solo; {why} says by how much ("over 57").
                N_(
                    "Your {contract} is **made** with {points} of 114 card points ({why}): {rate} "
                    "from each opponent."
                ),
                N_(
                    "{name}'s {contract} is **made** with {points} of 114 card points ({why}): "
                    "{rate} from each opponent."
                ),
                N_(
                    "{name} & {partner}'s {contract} is **made** with {points} of 114 card points "
                    "({why}): {rate} from each opponent."
                ),
                why=why[multiple],
                **facts,
            )
        if multiple < 0:
            why = {
                -1: _("under {half}", half=HALF),
                -2: _("under {small}: double", small=114 - BIG),
                -3: _("no trick: triple"),
            }
            return self._by_side(
                event,
                seating,
                N_(
                    "Your {contract} is **lost** with {points} of 114 card points ({why}): {rate} "
                    "to each opponent."
                ),
                N_(
                    "{name}'s {contract} is **lost** with {points} of 114 card points ({why}): "
                    "{rate} to each opponent."
                ),
                N_(
                    "{name} & {partner}'s {contract} is **lost** with {points} of 114 card points "
                    "({why}): {rate} to each opponent."
                ),
                why=why[multiple],
                **facts,
            )
        return self._by_side(
            event,
            seating,
            N_("Your {contract} took exactly {half} card points: nobody pays."),
            N_("{name}'s {contract} took exactly {half} card points: nobody pays."),
            N_("{name} & {partner}'s {contract} took exactly {half} card points: nobody pays."),
            half=HALF,
            **facts,
        )

    @staticmethod
    def _misere_verdict(event: Event, seating: Seating) -> str:
        points = list(event.get("card_points") or [])
        if not points or len(set(points)) == 1:
            return _("Misère: everyone took the same card points, nobody pays.")
        top = max(points)
        losers = [s for s, p in enumerate(points) if p == top]
        if len(losers) > 1:
            return _(
                "Misère: {names} took the most ({top}) and pay {rate} to each player with fewer.",
                names=names_and([whom(seating, s) for s in losers]),
                top=top,
                rate=MISERE_RATE,
            )
        return said(
            seating,
            losers[0],
            N_("Misère: you took the most ({top}) and pay {rate} to each player with fewer."),
            N_("Misère: {name} took the most ({top}) and pays {rate} to each player with fewer."),
            top=top,
            rate=MISERE_RATE,
        )

    @staticmethod
    def _by_side(
        event: Event, seating: Seating, yours: str, theirs: str, pair: str, **params: Any
    ) -> str:
        """A sentence about the contract side: the reader's own (``yours``), one declarer's
        (``theirs``: ``{name}``) or a declarer and his partner's (``pair``: ``{name}``,
        ``{partner}``, even when the reader is one of them, as at the table)."""
        declarer, partner = event.get("declarer"), event.get("partner")
        if isinstance(partner, int):
            return _(pair, name=seating.name(declarer), partner=seating.name(partner), **params)
        return said(seating, declarer, yours, theirs, **params)

    def summary(self, event: Event, seating: Seating) -> list[Section]:
        number = event.get("hand_number")
        contract = event.get("contract")
        declarer = event.get("declarer")
        name = _contract(contract)
        if declarer is not None:
            title = _(
                "Deal {number}: {contract} by {name}",
                number=number,
                contract=name,
                name=seating.who(declarer),
            )
        else:
            title = _("Deal {number}: {contract}", number=number, contract=name)
        head = [self._verdict(event, seating)]
        called = event.get("called")
        if called is not None:
            partner = event.get("partner")
            card = pretty(str(called))
            if isinstance(partner, int):
                head.append(
                    _("Partner: {name} (held {card}).", name=seating.who(partner), card=card)
                )
            else:
                head.append(_("{card} was called; nobody else held it.", card=card))
        if contract == "misere" and event.get("tapp_points"):
            tapp = int(event["tapp_points"])
            head.append(
                _n(
                    "The Tapp ({n} point) counted for nobody.",
                    "The Tapp ({n} points) counted for nobody.",
                    tapp,
                )
            )
        rows = []
        card_pts = list(event.get("card_points") or [])
        tricks = list(event.get("tricks") or [])
        payments = list(event.get("payments") or [])
        scores = list(event.get("scores") or [])
        side = {declarer, event.get("partner")} - {None}
        for seat in range(len(card_pts)):
            trick_count = (
                _n("{n} trick", "{n} tricks", int(tricks[seat])) if seat < len(tricks) else ""
            )
            rows.append(
                # i18n: a seat's line at the end of a deal: "Ann ★: 40 pts, 5 tricks → +20
                # (total 35)"; {mark} is " ★" for the contract side.
                _(
                    "{name}{mark}: {points} pts, {tricks} → **{pay}** (total {total})",
                    name=seating.who(seat),
                    mark=" ★" if seat in side else "",
                    points=card_pts[seat],
                    tricks=trick_count,
                    pay=signed(int(payments[seat])) if seat < len(payments) else "0",
                    total=signed_total(int(scores[seat])) if seat < len(scores) else "",
                )
            )
        sections = [Section(title, "\n".join(head))]
        sections += pack(_("Card points → payment"), rows)
        return within_limits(sections)

    # -- /history -------------------------------------------------------------------------------
    def history(self, view: View, seating: Seating) -> list[Section]:
        """This deal's tricks (who led, the cards, who took it, its card points) and how the
        previous deal ended."""
        sections = history_sections(view, seating, lambda played: points(card_points(played)))
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
        header = [_p("score sheet", "Deal"), *(n[:6] + " " for n in seating.names)]
        rows = [self._sheet_row(deal, len(seating.names)) for deal in history]
        totals = [
            _p("score sheet", "Total"),
            *(signed_total(int(s)) + " " for s in (view or {}).get("scores") or []),
        ]
        # About 12 rows per field; the latest deals first go in when they cannot all fit.
        chunks: list[list[list[str]]] = []
        for start in range(0, len(rows), 12):
            chunks.append(rows[start : start + 12])
        shown = chunks[-4:]
        sections = []
        if len(chunks) > len(shown):
            earlier = sum(len(c) for c in chunks[: len(chunks) - len(shown)])
            earlier_deals = _n("+{n} earlier deal above", "+{n} earlier deals above", earlier)
            sections.append(Section(_("Score sheet"), earlier_deals))
        for i, chunk in enumerate(shown):
            last = i == len(shown) - 1
            title = _("Score sheet") if not sections else _("Score sheet (more)")
            body = [*chunk, totals] if last and len(totals) == len(header) else chunk
            text = table_block(header, body, 9)
            if last:
                text += "\n" + _("✓ made · ✗ lost · * the contract side")
            sections.append(Section(title, text))
        return within_limits(sections)

    @staticmethod
    def _sheet_row(deal: Mapping[str, Any], players: int) -> list[str]:
        contract = str(deal.get("contract"))
        multiple = int(deal.get("multiple") or 0)
        mark = "" if contract == "misere" else "✓" if multiple > 0 else "✗" if multiple else "="
        label = f"{deal.get('hand_number')} {_contract(contract)} {mark}".strip()
        payments = list(deal.get("payments") or [0] * players)
        side = {deal.get("declarer"), deal.get("partner")}
        cells = [signed(int(p)) + ("*" if s in side else " ") for s, p in enumerate(payments)]
        return [label, *cells]

    def final(self, result: Mapping[str, Any], seating: Seating) -> list[Section]:
        scores = list(result.get("scores") or [])
        winners = [seating.name(w) for w in result.get("winners") or []]
        best = signed_total(max(scores) if scores else 0)
        names = names_and(winners) or _("Nobody")
        deals = int(result.get("deals") or 0)
        if len(winners) > 1 and deals:
            head = _n(
                "🏆 **{names} share the win** with {score} after {n} deal.",
                "🏆 **{names} share the win** with {score} after {n} deals.",
                deals,
                names=names,
                score=best,
            )
        elif len(winners) > 1:
            head = _("🏆 **{names} share the win** with {score}.", names=names, score=best)
        elif deals:
            head = _n(
                "🏆 **{names} won** with {score} after {n} deal.",
                "🏆 **{names} won** with {score} after {n} deals.",
                deals,
                names=names,
                score=best,
            )
        else:
            head = _("🏆 **{names} won** with {score}.", names=names, score=best)
        return within_limits([Section(_("Game over"), head), self.scores(None, result, seating)])

    # -- /rules ---------------------------------------------------------------------------------
    def rules(self, options: Mapping[str, Any] | None = None) -> str:
        """The rules with these options in the reader's language (the engine's ``summary`` is
        the same text in English, for what runs without the bot)."""
        deals = {**SPEC.defaults(), **(options or {})}.get("deals")
        if deals in (None, "auto"):
            deals_text = _("one deal per player (each player deals once)")
        else:
            deals_text = _n("{n} deal", "{n} deals", int(deals))
        sizes = ", ".join(
            # i18n: Troggu's deal by table size: "4: 15 each + 2" (players: cards each + Tapp).
            _("{players}: {cards} each + {tapp}", players=n, cards=c, tapp=t)
            for n, (c, t) in DEAL_SIZES.items()
        )
        lines = [
            _("**Troggu** (Swiss Tarot, 3-8 players). Deal, bidding and play go anticlockwise."),
            _(
                "**Deck**: 62 cards. Cups/Coins K Q N J 1 2 3 4 5 6; Swords/Batons K Q N J 10 9 "
                "8 7 6 5; trumps XXI (T21) down to I (T1); the Fool (FOOL) is the highest trump."
            ),
            _(
                "**Card points**: Fool, XXI, I and Kings 5; Queens 4; Knights 3; Jacks 2; "
                "others 1 (114 in all)."
            ),
            _("**Deal** (cards each + Tapp): {sizes}.", sizes=sizes),
            _(
                "**Bidding**: from the player after the dealer, once each: `pass`, `tapp` or "
                "`solo`. Solo ends the bidding; after a Tapp only pass or solo. All pass: Misère "
                "(3-6 players); at 7-8 the Fool's holder must play Tapp (else the holder of I, "
                "else Misère)."
            ),
            _(
                "**Tapp**: take the Tapp, then `discard` as many cards, one at a time; never the "
                "Fool, XXI, I or a King (Kings only if you hold all four). **Solo**: the Tapp "
                "goes unseen to your pile."
            ),
            _(
                "**Partner** (7-8 players, Tapp): `call t12` (any trump but Fool, XXI, I) or "
                "`call none`. The holder of the called trump is your secret partner until he "
                "plays it."
            ),
            _(
                "**Play**: follow suit, else trump, else anything; highest trump wins, else "
                "highest card of the suit led. If the Fool is your only trump when you must "
                "trump, you may hold it back and play another card: it then stays in hand to the "
                "last trick, never wins, goes to your pile and you give the trick's winner your "
                "lowest card."
            ),
            _(
                "**Scoring**: the contract side wins more than 57 points: 10 (Tapp) / 20 (Solo) "
                "from each other player; double over 84; triple for every trick. Under 57 it "
                "pays the same (double under 30, triple with no trick); exactly 57 pays nothing. "
                "At 7-8 a partner takes two opponents' shares. Misère: whoever took the most "
                "points pays 10 to each player with fewer."
            ),
            _("**Game**: {deals}; highest total wins, ties share the win.", deals=deals_text),
        ]
        return "\n".join(lines)
