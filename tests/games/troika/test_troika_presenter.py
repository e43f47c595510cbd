"""Troika's presenter: every event of random games told to everyone, the table and the end of a
hand carry what Kaiser players check (a stacked deal set by 2, the cut-off, the raised target),
no public text holds a hidden card, and long games stay inside Discord's limits."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from bot.render.games.troika import TroikaPresenter, bid_words
from bot.render.presenter import Seating, UnknownEvent, presenter_for
from tests.bot.render.presenter_checks import (
    check_limits,
    hidden_from,
    named_cards,
    narrate_everyone,
    public_moments,
    random_games,
    seating,
    text_of,
)

P = TroikaPresenter()
TABLE = seating(4)

OPTION_SETS: list[dict[str, Any]] = [
    {"end": "rounds", "rounds": 3},
    {"target": 10, "kitty": True, "low": "always", "auction": "open", "stick_dealer": False},
    {"end": "rounds", "rounds": 4, "trump_lead": True, "set_penalty": "points",
     "no_trump_increase": True, "low": "no_trump", "min_bid": 5},
    {"target": 12, "max_non_bid": 30, "misdeal": True, "no_trump_increase": True},
]  # fmt: skip

#: Every event kind the Troika engine emits (its package docstring).
KINDS = {
    "deal", "bid", "pass", "misdeal", "thrown_in", "contract", "trump", "kitty", "kitty_cards",
    "discard", "discarded", "play", "trick", "target_raised", "hand_over", "game_over",
}  # fmt: skip


def modest(game: engine.Game, seat: int, legal: list[str], rng: random.Random) -> str:
    """Random play with modest bids (random bids are mostly set, and a game by points could
    then run below zero for ever): the lowest bid or a pass, a misdeal now and then."""
    bids = [a for a in legal if a.startswith("bid ")]
    if not bids:
        return rng.choice(legal)
    if "misdeal" in legal and rng.random() < 0.5:
        return "misdeal"
    if "pass" in legal and rng.random() < 0.6:
        return "pass"
    return bids[0] if rng.random() < 0.8 else rng.choice(bids)


def test_the_presenter_is_found_by_its_game() -> None:
    assert isinstance(presenter_for("troika"), TroikaPresenter)


# -- random games: every event told, nothing hidden told ------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS)
def test_every_event_of_random_games_is_told_and_public_text_hides_hidden_cards(
    options: dict[str, Any],
) -> None:
    table = seating(4, options=engine.GAMES["troika"].resolve(None, options))
    seen: set[str] = set()
    for step in random_games("troika", 4, options, seeds=range(3), choose=modest):
        for event in step.events:
            seen.add(event["type"])
            told = narrate_everyone(P, event, table)
            owner = event.get("private_to")
            if owner is not None:
                assert told[None] is None
                assert all(told[s] is None for s in range(4) if s != owner)
                assert told[owner] and told[owner].startswith("You ")
            elif event["type"] not in P.quiet:
                assert told[None], event
        for event, hidden in public_moments(step):
            line = P.narrate(event, table) or ""
            # A misdealt hand is shown to all by the rules (the player proves it qualifies).
            if event["type"] != "misdeal":
                assert not named_cards(line, hidden), (event, line)
        view = step.game.view(None)
        public = P.table_sections(view, table) + [P.scores(view, None, table)]
        public += P.score_sheet(view, table)
        history = P.history(view, table)
        check_limits(history)
        public += history
        assert not named_cards(text_of(public), step.hidden_after)
        check_limits(P.table_sections(view, table))
        for seat in step.game.to_act():
            mine = P.hand_sections(step.game.view(seat), step.game.legal_actions(seat),
                                   table.for_seat(seat))  # fmt: skip
            check_limits(mine)
            own_history = P.history(step.game.view(seat), table.for_seat(seat))
            check_limits(own_history)
            mine += own_history
            assert not named_cards(text_of(mine), hidden_from(step.game, seat))
    assert seen <= KINDS
    assert {"deal", "bid", "contract", "play", "trick", "hand_over", "game_over"} <= seen


@pytest.mark.parametrize(
    ("event", "public", "mine"),
    [
        ({"type": "bid", "seat": 1, "bid": "7 no"}, "Bob bids 7 no trump", "You bid 7 no trump"),
        ({"type": "bid", "seat": 1, "bid": "8 low"}, "Bob bids 8 low", "You bid 8 low"),
        ({"type": "pass", "seat": 1}, "Bob passes", "You pass"),
        ({"type": "play", "seat": 1, "card": "KC"}, "Bob plays K♣︎", "You play K♣︎"),
        ({"type": "trump", "seat": 1, "suit": "H"}, "Bob names trumps: ♥︎ hearts",
         "You name trumps: ♥︎ hearts"),
        ({"type": "misdeal", "seat": 1, "cards": ["10C", "9C"]},
         "Bob throws the hand in (misdeal): 10♣︎ 9♣︎", "You throw the hand in (misdeal): 10♣︎ 9♣︎"),
        ({"type": "thrown_in", "seat": 0, "reason": "all passed"},
         "Everybody passed: the hand is thrown in and the deal passes on", None),
        ({"type": "kitty", "seat": 1, "count": 2}, "Bob takes the 2 kitty cards",
         "You take the 2 kitty cards"),
        ({"type": "discarded", "seat": 1, "count": 1, "left": 1},
         "Bob discards a card face down (1 to go)", "You discard a card face down (1 to go)"),
        ({"type": "trick", "seat": 1, "cards": ["5H", "3S", "AC", "KC"], "points": 3},
         "Bob takes the trick: +3, with 5♥︎ and 3♠︎", "You take the trick: +3, with 5♥︎ and 3♠︎"),
        ({"type": "target_raised", "target": 62, "cut_off": 55},
         "The no trump raises the target to 62 and the cut-off to 55", None),
        ({"type": "deal", "seat": 1, "dealer": 1, "hand_number": 3}, "Hand 3: Bob deals",
         "Hand 3: You deal"),
    ],
)  # fmt: skip
def test_each_event_reads_like_a_person(
    event: dict[str, Any], public: str, mine: str | None
) -> None:
    assert P.narrate(event, TABLE) == public
    assert P.narrate(event, TABLE.for_seat(1)) == (mine or public)


def test_private_events_are_told_only_to_their_owner_in_the_second_person() -> None:
    kitty = {"type": "kitty_cards", "seat": 2, "cards": ["KS", "7H"], "private_to": 2}
    discard = {"type": "discard", "seat": 2, "card": "8C", "private_to": 2}
    assert P.narrate(kitty, TABLE) is None and P.narrate(kitty, TABLE.for_seat(0)) is None
    assert P.narrate(kitty, TABLE.for_seat(2)) == "You take K♠︎ 7♥︎"
    assert P.narrate(discard, TABLE.for_seat(2)) == "You discard 8♣︎"
    assert P.narrate(discard, TABLE) is None


def test_an_unknown_event_kind_is_refused() -> None:
    with pytest.raises(UnknownEvent):
        P.narrate({"type": "teleport", "seat": 1}, TABLE)


@pytest.mark.parametrize(
    ("action", "label", "did"),
    [
        ("play 5h", "5♥︎", "You played 5♥︎"),
        ("play 10s", "10♠︎", "You played 10♠︎"),
        ("bid 7", "7", "You bid 7"),
        ("bid 7 no", "7 no trump", "You bid 7 no trump"),
        ("bid 7 no low", "7 no trump low", "You bid 7 no trump low"),
        ("pass", "Pass", "You passed"),
        ("trump c", "♣︎ clubs", "You named trumps: ♣︎ clubs"),
        ("discard 8c", "Discard 8♣︎", "You discarded 8♣︎"),
        ("misdeal", "Misdeal (throw the hand in)", "You threw the hand in (misdeal)"),
    ],
)
def test_actions_read_as_moves(action: str, label: str, did: str) -> None:
    assert P.action_label(action) == label
    assert P.you_did(action) == did


def test_bid_words() -> None:
    assert [bid_words(b) for b in ("6", "7 no", "8 no low", "9 low")] == [
        "6", "7 no trump", "8 no trump low", "9 low",
    ]  # fmt: skip


# -- a stacked deal: 7 no trump set by 2 ----------------------------------------------------------
# Seat 3 deals, seat 0 bids first and declares; no trumps. Team 0 (Ann & Cid) takes 5 tricks and
# neither 5♥ nor 3♠: 5 hand points; team 1 takes 3 tricks with 5♥ and 3♠: 3 + 5 - 3 = 5.
HANDS = {
    0: ["AS", "KS", "QS", "JS", "3S", "7C", "8C", "9C"],
    1: ["10S", "9S", "8S", "7D", "AH", "KH", "QH", "JH"],
    2: ["5H", "AD", "KD", "QD", "9H", "JD", "10D", "8H"],
    3: ["10H", "9D", "8D", "AC", "KC", "QC", "JC", "10C"],
}
#: Each trick from its leader on.
TRICKS = [
    "as 8s jd 10c", "ks 9s 10d jc", "3s 10s 5h qc", "7d ad 9d 7c",
    "kd 8d 8c jh", "qd kc 9c qh", "9h 10h js kh", "ah 8h ac qs",
]  # fmt: skip


def stacked(bid: str, scores: tuple[int, int] = (0, 0), **options: Any) -> engine.Game:
    deck = [HANDS[seat][i] for i in range(8) for seat in range(4)]
    game = engine.new_game("troika", 4, options={"first_dealer": 3, **options}, seed=1, deck=deck)
    game.state["scores"] = list(scores)  # a game already under way
    for action in (bid, "pass", "pass", "pass"):
        game.apply(game.to_act()[0], action)
    return game


def play_out(game: engine.Game, tricks: int = 8) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for trick in TRICKS[:tricks]:
        for card in trick.split():
            events += game.apply(game.to_act()[0], f"play {card}")
    return events


def hand_over(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "hand_over")


def test_a_declarer_set_by_2_reads_so_with_the_doubled_loss() -> None:
    game = stacked("bid 7 no", scores=(20, 30))
    over = hand_over(play_out(game))
    assert over["hand_points"] == [5, 5] and not over["made"]
    table = seating(4, options=game.options)
    text = text_of(P.summary(over, table))
    assert "set by 2" in text
    assert "Ann bid **7 no trump**" in text and "took **5** of 7 needed" in text
    assert "Ann & Cid **5** (5 tricks)" in text
    assert "Bob & Dan **5** (3 tricks, 5♥︎ +5, 3♠︎ −3)" in text
    assert "Ann & Cid **−14** (set: bid 7 × 2 for no trump)" in text
    assert "Bob & Dan **+5** (defending)" in text
    assert "Ann & Cid: 20 → **6**" in text and "Bob & Dan: 30 → **35**" in text
    assert "First to 52" in text
    check_limits(P.summary(over, table))
    assert P.narrate(over, table) == "Hand 1: Ann & Cid were set by 2 on 7 no trump (took 5)"


def test_set_penalty_points_reads_the_points_taken() -> None:
    game = stacked("bid 7 no", set_penalty="points")
    over = hand_over(play_out(game))
    text = text_of(P.summary(over, seating(4, options=game.options)))
    assert "Ann & Cid **−10** (set: 5 taken × 2 for no trump)" in text


def test_the_cut_off_is_explained_when_it_drops_the_defenders_points() -> None:
    game = stacked("bid 7 no", scores=(20, 47))
    over = hand_over(play_out(game))
    assert over["changes"] == [-14, 0]
    text = text_of(P.summary(over, seating(4, options=game.options)))
    assert "Bob & Dan **0**: at 47, at or over the cut-off of 45" in text
    assert "Bob & Dan: 47 → **47**" in text


def test_a_made_no_trump_raises_target_and_cut_off_in_the_summary_and_the_table() -> None:
    game = stacked("bid 5 no", min_bid=5, no_trump_increase=True)
    events = play_out(game)
    over = hand_over(events)
    assert over["made"] and over["changes"] == [10, 5]
    table = seating(4, options=game.options)
    text = text_of(P.summary(over, table))
    assert "Hand 1: Ann & Cid made it" in text
    assert "Ann & Cid **+10** (5 taken × 2 for no trump)" in text
    assert "raises the target to 62, the cut-off to 55" in text and "First to 62" in text
    scores = P.scores(game.view(None), None, table).text
    assert "First to 62 (raised from 52 by a made no trump)" in scores


def test_the_table_shows_contract_trick_points_and_scores_mid_hand() -> None:
    game = stacked("bid 7 no", scores=(44, 46))
    play_out(game, tricks=3)
    game.apply(1, "play 7d")
    table = seating(4, options=game.options)
    view = game.view(None)
    sections = P.table_sections(view, table)
    text = text_of(sections)
    # Who dealt, the contract in full, the hand points with their point cards, the tricks per
    # player and who took the last one (the picture shows the next trick).
    assert "Ann bid **7 no trump** (partner Cid) · Dan dealt" in text
    assert "No trumps · scores double" in text
    assert "Ann & Cid **2** of 7 needed" in text
    assert "Bob & Dan **3** (5♥︎ +5, 3♠︎ −3)" in text
    won = [t["winner"] for t in view["played_tricks"]]
    counts = " · ".join(f"{n} {won.count(s)}" for s, n in enumerate(("Ann", "Bob", "Cid", "Dan")))
    last = ("Ann", "Bob", "Cid", "Dan")[view["last_trick"]["winner"]]
    assert f"Tricks: {counts} · {last} took the last" in text
    assert "Ann & Cid **44** · Bob & Dan **46** · First to 52" in text
    assert "Bob & Dan at the cut-off (45): defending this hand, they add no points" in text
    assert "Ann & Cid at the cut-off" not in text
    for word in ("trick number", "discard size", "lead suit", "hand_points", "kitty_size"):
        assert word not in text
    picture = P.table_picture(view, table)
    assert picture is not None and picture.draw == "table_png"
    assert picture.kwargs()["played"] == ((1, "7D"),)
    assert P.heading(view, table) == "hand 1"


def test_the_private_panel_shows_the_hand_and_what_to_follow() -> None:
    game = stacked("bid 7 no")
    play_out(game, tricks=3)
    game.apply(1, "play 7d")
    me = seating(4, options=game.options).for_seat(2)
    text = text_of(P.hand_sections(game.view(2), game.legal_actions(2), me))
    assert "A♦︎ K♦︎ Q♦︎" in text and "Partner: Ann" in text
    assert "On the table: Bob 7♦︎" in text
    assert "Follow ♦︎ diamonds: A♦︎ K♦︎ Q♦︎" in text
    picture = P.hand_picture(game.view(2), me)
    assert picture is not None and picture.kwargs()["cards"] == tuple(game.view(2)["hand"])


def test_bidding_and_rounds_heading() -> None:
    game = engine.new_game("troika", 4, options={"first_dealer": 3, "end": "rounds",
                                                  "rounds": 6}, seed=2)  # fmt: skip
    game.apply(0, "bid 7")
    table = seating(4, options=game.options)
    view = game.view(None)
    assert P.heading(view, table) == "hand 1 of 6"
    text = text_of(P.table_sections(view, table))
    assert "Dan deals · bids from 6 · one bid each" in text and "Ann 7" in text
    assert "First to" not in text  # playing by rounds: no target
    legal = game.legal_actions(1)
    mine = text_of(P.hand_sections(game.view(1), legal, table.for_seat(1)))
    # The bids are in the panel's select: the line says their range, not each again.
    assert "Bid from 7 no trump to 12 no trump, or pass" in mine
    assert "8 no trump" not in mine


# -- long games ----------------------------------------------------------------------------------
def test_a_hundred_hands_score_sheet_stays_inside_the_limits() -> None:
    options = {"end": "rounds", "rounds": 100}
    steps = list(random_games("troika", 4, options, seeds=[7], max_actions=20_000))
    game = steps[-1].game
    table = seating(4, options=game.options)
    view = game.view(None)
    assert len(view["history"]) >= 100
    sheet = P.score_sheet(view, table)
    check_limits(sheet)
    text = text_of(sheet)
    last = view["history"][-1]
    assert f"**{last['hand_number']}.**" in text
    assert "earlier rows not shown" in text
    final = P.final(game.result(), table)
    assert "win**" in final[0].text and "after " in final[0].text


def test_scores_and_final_from_the_result() -> None:
    result = {"scores": [54, 38, 54, 38], "team_scores": [54, 38], "winners": [0, 2], "hands": 9}
    assert P.scores(None, result, TABLE).text == "Ann & Cid **54** · Bob & Dan **38**"
    assert P.final(result, TABLE)[0].text == "🏆 **Ann & Cid win**, 54 to 38 after 9 hands."
    mine = Seating(TABLE.names, viewer=2)
    assert P.scores(None, result, mine).text == "You & Ann **54** · Bob & Dan **38**"


def test_a_misdeal_and_a_hand_thrown_in_are_told_and_the_hand_goes_on() -> None:
    weak = {0: ["10S", "9S", "8S", "10H", "9H", "8H", "10D", "9D"]}
    others = [c for c in _deck32() if c not in weak[0]]
    hands = {0: weak[0], 1: others[0:8], 2: others[8:16], 3: others[16:24]}
    stacked_deck = [hands[seat][i] for i in range(8) for seat in range(4)]
    game = engine.new_game("troika", 4, options={"first_dealer": 3, "stick_dealer": False},
                           seed=1, deck=stacked_deck)  # fmt: skip
    assert "misdeal" in game.legal_actions(0)
    events = game.apply(0, "misdeal")
    told = [P.narrate(e, TABLE) for e in events]
    assert told == ["Ann throws the hand in (misdeal): 10♠︎ 9♠︎ 8♠︎ 10♥︎ 9♥︎ 8♥︎ 10♦︎ 9♦︎",
                    "Hand 1: Dan deals"]  # fmt: skip
    events = []
    while not any(e["type"] == "thrown_in" for e in events):
        seat = game.to_act()[0]
        events += game.apply(seat, "pass")
    told = [P.narrate(e, TABLE) for e in events if e["type"] in {"thrown_in", "deal"}]
    assert told == ["Everybody passed: the hand is thrown in and the deal passes on",
                    "Hand 1: Ann deals"]  # fmt: skip


def _deck32() -> list[str]:
    return [f"{r}{s}" for s in "SHDC" for r in ("A", "K", "Q", "J", "10", "9", "8")] + [
        "7C", "7D", "5H", "3S",
    ]  # fmt: skip


def test_the_cut_off_is_said_only_for_a_team_it_bites() -> None:
    game = stacked("bid 7 no", scores=(50, 20))  # the declarers are over it: it does not bite
    assert "cut-off" not in text_of(
        P.table_sections(game.view(None), seating(4, options=game.options))
    )
    bidding = engine.new_game("troika", 4, options={"first_dealer": 3}, seed=1)
    bidding.state["scores"] = [50, 20]
    text = text_of(P.table_sections(bidding.view(None), seating(4, options=bidding.options)))
    assert "Ann & Cid at the cut-off (45): if they defend, they add no points" in text


def test_the_pictures_draw_with_the_image_functions() -> None:
    from bot.render.games import images

    game = stacked("bid 7 no")
    play_out(game, tricks=1)
    game.apply(0, "play ks")
    table = seating(4, options=game.options)
    for picture in (P.table_picture(game.view(None), table),
                    P.hand_picture(game.view(1), table.for_seat(1))):  # fmt: skip
        assert picture is not None
        assert getattr(images, picture.draw)(**picture.kwargs()).startswith(b"\x89PNG")


def test_trumps_fixed_by_the_first_lead_read_so() -> None:
    event = {"type": "trump", "seat": 1, "suit": "D"}
    table = seating(4, options={"trump_lead": True})
    assert P.narrate(event, table) == "Bob's first lead makes ♦︎ diamonds trumps"
    assert P.narrate(event, table.for_seat(1)) == "Your first lead makes ♦︎ diamonds trumps"


# -- /history --------------------------------------------------------------------------------------
def _play_until(game: engine.Game, done: int, rng: random.Random) -> None:
    """Modest random play until ``done`` tricks of the hand are taken and a card is led."""
    while len(game.view(None)["played_tricks"]) < done or not game.view(None)["trick"]:
        seat = game.to_act()[0]
        game.apply(seat, modest(game, seat, game.legal_actions(seat), rng))


def test_history_lists_each_trick_of_the_hand_with_its_winner_and_value() -> None:
    game = engine.new_game("troika", 4, options={"end": "rounds", "rounds": 3}, seed=5)
    _play_until(game, 3, random.Random(5))
    view = game.view(0)
    sections = P.history(view, TABLE.for_seat(0))
    check_limits(sections)
    text = text_of(sections)
    for number, trick in enumerate(view["played_tricks"], start=1):
        cards = [c["card"] for c in trick["cards"]]
        line = next(ln for ln in text.splitlines() if ln.startswith(f"**{number}.**"))
        assert named_cards(line, cards) == set(cards)
        value = 1 + 5 * ("5H" in cards) - 3 * ("3S" in cards)
        winner = "you" if trick["winner"] == 0 else TABLE.names[trick["winner"]]
        assert f"→ **{winner}** ({'+' if value > 0 else '−'}{abs(value)})" in line
    assert "(on the table)" in text and named_cards(text, [view["trick"][0]["card"]])
    # Not one card of the reader's own hand is named: history is what was played.
    assert not named_cards(text, view["hand"])
    assert "Previous hand" not in text  # the first hand has none


def test_history_gives_the_previous_hands_row_of_the_score_sheet() -> None:
    game = engine.new_game("troika", 4, options={"end": "rounds", "rounds": 3}, seed=7)
    rng = random.Random(7)
    while game.view(None)["hand_number"] < 2 or not game.view(None)["trick"]:
        seat = game.to_act()[0]
        game.apply(seat, modest(game, seat, game.legal_actions(seat), rng))
    view = game.view(None)
    text = text_of(P.history(view, TABLE))
    row = view["history"][-1]
    assert (
        "Previous hand" in text and f"**{row['hand_number']}.** {TABLE.names[row['seat']]}" in text
    )
    assert view["played_tricks"] == [] and "**1.**" in text  # the new hand's first trick only


def test_a_hand_all_of_the_suit_led_is_told_to_follow_it() -> None:
    """Every card held is a club and clubs were led: he follows clubs (it once said "No ♣:
    play any card")."""
    from bot.render.games.troika.hand import _move_lines

    view = {"phase": "play", "trick": [{"seat": 0, "card": "9C"}], "leader": 0}
    hand = ["AC", "KC", "8C"]
    lines = _move_lines(view, [f"play {c.lower()}" for c in hand], hand)
    assert lines == ["Follow ♣︎ clubs: A♣︎ K♣︎ 8♣︎"], lines
    void = _move_lines(view, ["play ah", "play kd"], ["AH", "KD"])
    assert void == ["No clubs: play any card"], void


def test_the_last_trick_picture_frames_its_winner_under_a_short_caption() -> None:
    from bot.render.games._tricks import trick_picture

    game = stacked("bid 7 no")
    play_out(game, tricks=1)
    view = game.view(None)
    picture = trick_picture(view, seating(4, options=game.options))
    assert picture is not None
    args = picture.kwargs()
    assert args["winner"] == view["last_trick"]["winner"] and args["caption"] == "Last trick"


def test_the_summary_names_the_contract_in_full() -> None:
    """Bid, declarer, and trumps (from the hand's events: ``hand_over`` does not carry them)."""
    game = stacked("bid 7")
    declarer = game.to_act()[0]
    events = game.apply(declarer, "trump h")
    while not any(e["type"] == "hand_over" for e in events):
        seat = game.to_act()[0]
        events += game.apply(seat, game.legal_actions(seat)[0])
    over = hand_over(events)
    seen = [e for e in events if e is not over and e.get("private_to") is None]
    table = seating(4, options=game.options)
    text = text_of(P.summary({**over, "hand_events": seen}, table))
    name = ("Ann", "Bob", "Cid", "Dan")[declarer]
    assert f"{name} bid **7**" in text and "Trumps: ♥︎ hearts" in text
    no_trump = hand_over(play_out(stacked("bid 7 no")))
    assert "No trumps" in text_of(P.summary(no_trump, table))
