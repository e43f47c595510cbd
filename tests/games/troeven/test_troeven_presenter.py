"""2-Player Troeven's presenter: every event of random games told to everyone, both layouts and
the trump on the table, the 40 card points and who goes down at the end of a deal, no public
text with a hidden card, long games inside Discord's limits."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

import engine
from bot.render import embeds
from bot.render.games.troeven import TroevenPresenter
from bot.render.presenter import UnknownEvent, presenter_for
from tests.bot.render.playing_table import playing_table as _table
from tests.bot.render.presenter_checks import (
    check_limits,
    hidden_cards,
    hidden_from,
    named_cards,
    narrate_everyone,
    public_moments,
    random_games,
    seating,
    text_of,
)

P = TroevenPresenter()
TABLE = seating(2)
CALLER, DEALER = 0, 1
SUITS = {s: [f"{r}{s}" for r in ("A", "K", "Q", "J", "10", "9", "8", "7")] for s in "SHDC"}

#: Every event kind the Troeven engine emits (its package docstring).
KINDS = {"deal", "cards", "trump", "deal_complete", "play", "turn_up", "trick", "draw",
         "hand_over", "game_over"}  # fmt: skip


def layout_deck(
    caller_up: Sequence[str], caller_down: Sequence[str],
    dealer_up: Sequence[str], dealer_down: Sequence[str],
) -> list[str]:  # fmt: skip
    """A stacked layout deal: each player's face-up and face-down cards, positions 1-8."""
    caller, dealer = list(caller_down) + list(caller_up), list(dealer_down) + list(dealer_up)
    return [card for pair in zip(caller, dealer, strict=True) for card in pair]


def new(deck: list[str] | None = None, **options: Any) -> engine.Game:
    options = {"first_dealer": DEALER, **options}
    return engine.new_game("troeven", 2, options=options, seed=3, deck=deck)


def play_deal(game: engine.Game) -> list[dict[str, Any]]:
    """The first legal card each turn until the deal is scored."""
    events: list[dict[str, Any]] = []
    while not any(e["type"] == "hand_over" for e in events):
        seat = game.to_act()[0]
        events += game.apply(seat, game.legal_actions(seat)[0])
    return events


def hand_over(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "hand_over")


def test_the_presenter_is_found_by_its_game() -> None:
    assert isinstance(presenter_for("troeven"), TroevenPresenter)


# -- random games ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [{"version": "layout"}, {"version": "stock"}, {"version": "layout", "strict_follow": True},
     {"version": "stock", "strict_follow": True}],
)  # fmt: skip
def test_every_event_of_random_games_is_told_and_public_text_hides_hidden_cards(
    options: dict[str, Any],
) -> None:
    table = seating(2, options=engine.GAMES["troeven"].resolve(None, options))
    seen: set[str] = set()
    for step in random_games("troeven", 2, options, seeds=range(3)):
        for event in step.events:
            seen.add(event["type"])
            told = narrate_everyone(P, event, table)
            owner = event.get("private_to")
            if owner is not None:
                assert told[None] is None and told[1 - owner] is None
                assert told[owner] and told[owner].startswith("You ")
        for event, hidden in public_moments(step):
            assert not named_cards(P.narrate(event, table) or "", hidden), event
        game = step.game
        view = game.view(None)
        public = P.table_sections(view, table)
        check_limits(public)
        public += P.score_sheet(view, table)
        history = P.history(view, table)
        check_limits(history)
        public += history
        assert not named_cards(text_of(public), hidden_cards(game))
        picture = P.table_picture(view, table)
        if picture is not None:
            drawn = {str(c) for c in _codes(picture.kwargs())}
            assert not drawn & hidden_cards(game)
        for seat in game.to_act():
            mine = P.hand_sections(game.view(seat), game.legal_actions(seat), table.for_seat(seat))
            check_limits(mine)
            own_history = P.history(game.view(seat), table.for_seat(seat))
            check_limits(own_history)
            mine += own_history
            assert not named_cards(text_of(mine), hidden_from(game, seat))
    assert seen <= KINDS
    assert {"deal", "trump", "play", "trick", "hand_over", "game_over"} <= seen


def _codes(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value.upper()]
    if isinstance(value, dict | list | tuple):
        items = value.values() if isinstance(value, dict) else value
        return [c for item in items for c in _codes(item)]
    return []


@pytest.mark.parametrize(
    ("event", "public", "mine"),
    [
        ({"type": "deal", "seat": 1, "dealer": 1, "caller": 0, "hand_number": 2,
          "face_up": ["AH", "KD", "7S", "10S"]},
         "Deal 2: Bob deals; Ann names trumps from A♥︎ K♦︎ 7♠︎ 10♠︎",
         "Deal 2: You deal; Ann names trumps from A♥︎ K♦︎ 7♠︎ 10♠︎"),
        ({"type": "trump", "seat": 1, "suit": "H", "name": "hearts"},
         "Bob names trumps: ♥︎ hearts", "You name trumps: ♥︎ hearts"),
        ({"type": "play", "seat": 1, "card": "JS", "position": 8}, "Bob plays J♠︎",
         "You play J♠︎"),
        ({"type": "turn_up", "seat": 1, "position": 8, "card": "10H"},
         "Bob's card under it turns up: 10♥︎", "Your card under it turns up: 10♥︎"),
        ({"type": "trick", "seat": 1, "winner": 1, "cards": ["AS", "KS"], "leader": 0,
          "points": 7}, "Bob takes the trick (7 card points)",
         "You take the trick (7 card points)"),
        ({"type": "trick", "seat": 1, "winner": 1, "cards": ["7S", "8S"], "leader": 0,
          "points": 0}, "Bob takes the trick (no card points)",
         "You take the trick (no card points)"),
        ({"type": "draw", "seat": 1, "stock_size": 15}, None, None),
        ({"type": "draw", "seat": 0, "stock_size": 14},
         "Both draw: 14 cards left in the stock", None),
        ({"type": "draw", "seat": 0, "stock_size": 0},
         "Both draw the last cards: the stock is empty", None),
        ({"type": "game_over", "scores": [3, 0], "winners": [1]}, "🏆 Bob reaches 0 and wins",
         "🏆 You reach 0 and win"),
    ],
)  # fmt: skip
def test_each_event_reads_like_a_person(
    event: dict[str, Any], public: str | None, mine: str | None
) -> None:
    assert P.narrate(event, TABLE) == public
    assert P.narrate(event, TABLE.for_seat(1)) == (mine or public)


def test_private_cards_and_draws_are_told_only_to_their_owner() -> None:
    cards = {"type": "cards", "seat": 0, "cards": ["KH", "10H"], "private_to": 0}
    draw = {"type": "draw", "seat": 0, "card": "AH", "private_to": 0}
    for event, line in ((cards, "You get K♥︎ 10♥︎"), (draw, "You draw A♥︎")):
        assert P.narrate(event, TABLE) is None and P.narrate(event, TABLE.for_seat(1)) is None
        assert P.narrate(event, TABLE.for_seat(0)) == line


def test_an_unknown_event_kind_is_refused() -> None:
    with pytest.raises(UnknownEvent):
        P.narrate({"type": "teleport"}, TABLE)


def test_actions_read_as_moves() -> None:
    assert P.action_label("play 10h") == "10♥︎" and P.you_did("play 10h") == "You played 10♥︎"
    assert P.action_label("trump s") == "♠︎ spades"
    assert P.you_did("trump s") == "You named trumps: ♠︎ spades"


# -- stacked deals --------------------------------------------------------------------------------
def test_the_caller_taking_all_40_goes_down_one() -> None:
    game = new(layout_deck(SUITS["S"], SUITS["H"], SUITS["D"], SUITS["C"]))
    game.apply(CALLER, "trump s")
    over = hand_over(play_deal(game))
    assert over["points"] == [40, 0] and over["winner"] == CALLER
    text = text_of(P.summary(over, TABLE))
    assert "Deal 1: Ann wins it" in text
    assert "Ann **40** (16 tricks)" in text and "Bob **0** (0 tricks)" in text
    assert "of 40 card points · trumps ♠︎ spades, named by Ann · Bob dealt" in text
    assert "Ann goes down 1: 7 → **6**" in text and "goes up" not in text
    assert "Ann **6** · Bob **7** — first to 0 wins" in text
    assert P.narrate(over, TABLE) == "Deal 1: Ann 40 – Bob 0: Ann goes down to 6"


def test_the_dealer_winning_also_sends_the_caller_up_one() -> None:
    game = new(layout_deck(SUITS["D"], SUITS["C"], SUITS["S"], SUITS["H"]))
    game.apply(CALLER, "trump s")
    over = hand_over(play_deal(game))
    assert over["points"] == [0, 40] and over["changes"] == [1, -1]
    text = text_of(P.summary(over, TABLE.for_seat(CALLER)))
    assert "Bob goes down 1: 7 → **6**" in text
    assert "The dealer won, so you (who named trumps) go up 1: 7 → **8**" in text
    assert "You **8** · Bob **6** — first to 0 wins" in text


def test_a_tie_moves_nobody() -> None:
    over = {"type": "hand_over", "seat": None, "hand_number": 4, "dealer": 1, "caller": 0,
            "trump": "H", "points": [20, 20], "tricks": [8, 8], "winner": None,
            "changes": [0, 0], "scores": [5, 6]}  # fmt: skip
    text = text_of(P.summary(over, TABLE))
    assert "Deal 4: 20–20" in text and "A tie: nobody moves" in text


def test_the_table_shows_both_layouts_the_trump_and_first_to_zero() -> None:
    deck = layout_deck(["AH", "KD", "7S", "10S", "9D", "QS", "KC", "JS"],
                       ["10H", "QC", "8S", "9S", "AS", "KS", "JC", "10C"],
                       ["JD", "9C", "7D", "QD", "7H", "8D", "AD", "7C"],
                       ["QH", "8H", "KH", "JH", "9H", "AC", "10D", "8C"])  # fmt: skip
    game = new(deck)
    view = game.view(None)
    before = text_of(P.table_sections(view, TABLE))
    assert "Ann names trumps, seeing their first 4 cards" in before
    rows = dict(P.table_picture(view, TABLE).kwargs()["rows"])
    assert rows["Bob 8↓"] == ((None, 1),) * 8  # eight card backs, each one card deep
    game.apply(CALLER, "trump h")
    game.apply(CALLER, "play js")  # its face-down card, 10C, turns up
    view = game.view(None)
    text = text_of(P.table_sections(view, TABLE))
    assert "♥︎ hearts (named by Ann)" in text
    # The layouts are the picture's, not written out with marks that wrap mid-list.
    assert "⁺" not in text and "face down" not in text
    assert "On the table: Ann J♠︎" in text
    assert "Ann **7** · Bob **7** — first to 0 wins" in text
    assert not named_cards(text, hidden_cards(game) | {"QH", "8H", "QC"})
    picture = P.table_picture(view, TABLE)
    assert picture is not None and picture.draw == "layouts_png"
    rows = dict(picture.kwargs()["rows"])
    assert rows["On the table"] == (("JS", 0),)
    # Each face-up card with the face-down card it covers (1) or none left under it (0).
    assert rows["Ann 7↓"] == (("AH", 1), ("KD", 1), ("7S", 1), ("10S", 1), ("9D", 1),
                              ("QS", 1), ("KC", 1), ("10C", 0))  # fmt: skip
    bob = ("JD", "9C", "7D", "QD", "7H", "8D", "AD", "7C")
    assert rows["Bob 8↓"] == tuple((card, 1) for card in bob)
    assert picture.kwargs()["highlight"] == 2  # Bob's turn: his row (after the trick's)
    assert P.heading(view, TABLE) == "deal 1"
    mine = text_of(P.hand_sections(game.view(1), game.legal_actions(1), TABLE.for_seat(1)))
    assert "Face down: 8, unknown to all until the card on them is played" in mine
    assert "No spades: play any card" in mine


def test_the_players_panel_shows_both_layouts_stacked() -> None:
    """His own layout in his panel: each face-down card under the card covering it, as on the
    table (the text is only for a panel without its picture)."""
    game = new()
    game.apply(CALLER, "trump h")
    seat = CALLER
    picture = P.hand_picture(game.view(seat), TABLE.for_seat(seat))
    assert picture is not None and picture.draw == "layouts_png"
    rows = picture.kwargs()["rows"]
    places = game.view(seat)["layout"][seat]
    label, mine = rows[-1]  # his own, last, nearest his buttons
    assert label.startswith("You ")
    assert mine == tuple((p["up"], 1 if p["face_down"] else 0) for p in places if p["up"])
    assert all(down == 1 for _up, down in mine)  # nothing played yet: every card covers one
    panel = embeds.hand_embed(_table("troeven", 2), game.view(seat), game.legal_actions(seat),
                              image_name="hand.png")  # fmt: skip
    shown = "\n".join([panel.description or ""] + [f.value for f in panel.fields])
    assert "⁺" not in shown and "Face up:" not in shown


def test_the_stock_version_shows_the_stock_and_what_to_follow() -> None:
    game = new(version="stock")
    before = text_of(P.table_sections(game.view(None), TABLE))
    assert "Dealt once trumps are named: 8 cards each, 16 in the stock" in before
    game.apply(CALLER, "trump c")
    view = game.view(None)
    text = text_of(P.table_sections(view, TABLE))
    assert "16 cards left; the trick's winner draws first; no need to follow" in text
    hand = text_of(P.hand_sections(game.view(0), game.legal_actions(0), TABLE.for_seat(0)))
    assert "You 8 cards · Bob 8 cards" in hand
    assert "Your lead: any card" in hand
    picture = P.hand_picture(game.view(0), TABLE.for_seat(0))
    assert picture is not None and len(picture.kwargs()["cards"]) == 8


# -- long games -----------------------------------------------------------------------------------
def test_a_long_score_sheet_stays_inside_the_limits() -> None:
    rows = [{"hand_number": n, "dealer": n % 2, "caller": 1 - n % 2, "trump": "SHDC"[n % 4],
             "points": [22, 18], "tricks": [9, 7], "winner": 0, "changes": [-1, 0],
             "scores": [7, 7]} for n in range(1, 301)]  # fmt: skip
    view = {**new().view(None), "history": rows}
    sheet = P.score_sheet(view, TABLE)
    check_limits(sheet)
    text = text_of(sheet)
    assert "**300.**" in text and "earlier rows not shown" in text


def test_final() -> None:
    result = {"scores": [0, 4], "winners": [0], "hands_played": 12}
    assert P.final(result, TABLE)[0].text == "🏆 **Ann reaches 0 and wins** after 12 deals."
    assert P.scores(None, result, TABLE).text == "Ann **0** · Bob **4** — first to 0 wins"


@pytest.mark.parametrize("version", ["layout", "stock"])
def test_the_pictures_draw_with_the_image_functions(version: str) -> None:
    from bot.render.games import images

    game = new(version=version)
    game.apply(CALLER, "trump h")
    game.apply(CALLER, game.legal_actions(CALLER)[0])
    for picture in (P.table_picture(game.view(None), TABLE),
                    P.hand_picture(game.view(1), TABLE.for_seat(1))):  # fmt: skip
        assert picture is not None
        assert getattr(images, picture.draw)(**picture.kwargs()).startswith(b"\x89PNG")


# -- /history --------------------------------------------------------------------------------------
def test_history_lists_the_deals_tricks_with_card_points_and_the_previous_deal() -> None:
    game = engine.new_game("troeven", 2, seed=4)
    rng = random.Random(4)
    while game.view(None)["hand_number"] < 2 or len(game.view(None)["played_tricks"]) < 4:
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    view = game.view(None)
    sections = P.history(view, TABLE)
    check_limits(sections)
    text = text_of(sections)
    points = {"A": 4, "K": 3, "Q": 2, "J": 1}
    for number, trick in enumerate(view["played_tricks"], start=1):
        cards = [c["card"] for c in trick["cards"]]
        line = next(ln for ln in text.splitlines() if ln.startswith(f"**{number}.**"))
        assert named_cards(line, cards) == set(cards)
        value = sum(points.get(c[:-1], 0) for c in cards)
        assert f"→ **{TABLE.names[trick['winner']]}** ({value} point" in line
    assert f"Deal {view['last_hand']['hand_number']}:" in text  # the previous deal's summary
    assert not named_cards(text, hidden_cards(game))
