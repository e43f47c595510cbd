"""What a seat (or a spectator) sees of a Troggu game: never another hand, the Tapp or a discard,
and a called partner only once he is known to that seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.troggu import scoring, tricks
from engine.troggu.cards import CODES, SUIT_NAMES, codes
from engine.troggu.spec import DEAL_SIZES
from engine.views import CommonView, FinishedTrick, HandKeys, SeatedCard

if TYPE_CHECKING:
    from engine.troggu.game import TrogguGame


class _TrogguViewKeys(CommonView):
    deals: int  # deals in the game
    bids: list[str | None]  # per seat: "pass", "tapp", "solo", or None before his turn
    contract: str | None  # "tapp", "solo" or "misere" once bidding is over
    declarer: int | None  # the Tappist or Soloist
    forced: bool  # the Tapp was forced on the Fool's (or I's) holder at 7-8 players
    called: str | None  # the trump the Tappist called at 7-8 players
    partner: int | None  # the called partner, when this seat knows him
    partner_known: bool  # whether this seat knows who (if anyone) the partner is
    tapp_size: int  # cards in the Tapp (or taken from it)
    discards_left: int  # cards the Tappist still has to discard (phase "discard")
    trick: list[SeatedCard]  # the trick in progress, in play order
    lead_suit: str | None  # the suit to follow in it ("trumps" included), if any
    trick_number: int  # the trick being played, from 1
    tricks_per_deal: int
    tricks_taken: list[int]  # per seat, this deal
    last_trick: FinishedTrick | None
    played_tricks: list[FinishedTrick]  # every finished trick of this deal, in order
    played: list[str]  # every card of this deal's finished tricks (public: for counting)
    last_hand: dict[str, Any] | None  # the last hand_over event's details
    history: list[dict[str, Any]]  # every finished deal's summary, oldest first: the score sheet


class TrogguView(_TrogguViewKeys, HandKeys, total=False):
    """What a seat (or a spectator) sees of a Troggu game. Phases: ``bidding``, ``discard``,
    ``call``, ``play``, ``over``."""

    fool_held_back: bool  # this seat holds the Fool back to the last trick; seats only
    pile_points: int  # card points in this seat's pile; seats only
    tapp: list[str]  # the Tapp cards taken: the Tappist only
    discards: list[str]  # his own discards: the Tappist only


def build_view(game: TrogguGame, seat: int | None) -> TrogguView:
    st, n = game.state, game.players
    declarer, partner, called = st["declarer"], st["partner"], st["called"]
    in_play = st["phase"] != "over"
    if called is None:
        # No partner (fewer than 7 players, Solo, Misère, `call none`): known to all once
        # play starts; before the call nobody knows.
        partner_known, shown_partner = st["phase"] in ("play", "over"), None
    elif st["partner_revealed"] or seat is not None and seat == partner:
        partner_known, shown_partner = True, partner
    elif seat is not None and seat == declarer and partner is None:
        partner_known, shown_partner = True, None  # he holds or discarded the called card
    else:
        partner_known, shown_partner = False, None
    lead = tricks.lead_suit(st["trick"], st["fool_held"])
    view: TrogguView = {
        "game": game.name,
        "seat": seat,
        "players": n,
        "phase": st["phase"],
        "dealer": st["dealer"],
        "to_act": game.to_act(),
        "scores": list(st["scores"]),
        "hand_number": st["hand_number"],
        "deals": st["deals"],
        "hand_sizes": [len(h) for h in st["hands"]],
        "bids": list(st["bids"]),
        "contract": st["contract"],
        "declarer": declarer,
        "forced": st["forced"],
        "called": None if called is None else CODES[called],
        "partner": shown_partner,
        "partner_known": partner_known,
        "tapp_size": len(st["tapp"]) + len(st["taken_tapp"]),
        "discards_left": (
            len(st["taken_tapp"]) - len(st["discards"]) if st["phase"] == "discard" else 0
        ),
        "trick": [{"seat": s, "card": CODES[c]} for s, c in st["trick"]] if in_play else [],
        "lead_suit": None if lead is None else SUIT_NAMES[lead],
        "trick_number": st["trick_number"],
        "tricks_per_deal": DEAL_SIZES[n][0],
        "tricks_taken": list(st["tricks_won"]),
        "last_trick": _last_trick(st["last_trick"]),
        # Every card of the finished tricks of this deal (public: for counting cards).
        "played": codes(st["played"]) if in_play else [],
        "played_tricks": [_trick(t) for t in st.get("played_tricks", [])] if in_play else [],
        "last_hand": st["last_hand"],
        "history": [dict(row) for row in st.get("history", [])],
    }
    if seat is not None:
        view["hand"] = codes(st["hands"][seat])
        view["fool_held_back"] = st["fool_held"] == seat
        view["pile_points"] = scoring.card_points(st["piles"][seat])
        if seat == declarer and st["contract"] == "tapp":
            view["tapp"] = codes(st["taken_tapp"])
            view["discards"] = codes(st["discards"])
    return view


def _last_trick(last: dict[str, Any] | None) -> FinishedTrick | None:
    return None if last is None else _trick(last)


def _trick(trick: dict[str, Any]) -> FinishedTrick:
    cards: list[SeatedCard] = [{"seat": s, "card": CODES[c]} for s, c in trick["cards"]]
    return {"cards": cards, "winner": trick["winner"]}
