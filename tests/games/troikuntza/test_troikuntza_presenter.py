"""The TroiKuntza presenter: every event kind told (May I included), the table shows the melds
with their /layoff numbers, card counts, May I's left, the discard top and the open window with
its deadline; the round summary shows every player's cards left and points; limits hold for 10
players and 30 melds; no public text shows a hidden card."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import engine
from bot.render.games import images
from bot.render.presenter import presenter_for
from engine.troikuntza.game import full_deck
from engine.troikuntza.melds import make_run, make_troika
from tests.bot.render.presenter_checks import (
    NAMES,
    Hidden,
    action_codes,
    check_limits,
    check_narration,
    drive,
    hidden_cards,
    hidden_from,
    named_cards,
    seating,
    text_of,
)

P = presenter_for("troikuntza")

KINDS = {
    "deal", "hand", "take", "decline", "draw", "drawn", "mayi_call", "mayi_pass",
    "window_closed", "mayi_void", "mayi", "penalty", "penalty_card", "exposed", "reshuffle",
    "meld", "layoff", "discard", "out", "hand_over", "game_over",
}  # fmt: skip
TT_HAND = ["7H", "7S", "7C", "9D", "9S", "9H", "2C", "4D", "KS", "QD", "8C"]


def stacked(hands: dict[int, list[str]], upcard: str, stock: list[str], players: int = 4) -> Any:
    """Seat 0 is dealt first and plays first (the dealer is the last seat); then the upcard,
    then the stock, top first."""
    pool = Counter(full_deck(2))
    for cards in [*hands.values(), [upcard], stock]:
        pool.subtract(cards)
    spare = iter(sorted(pool.elements(), key=lambda c: (c == "JK", c)))
    full = {s: list(hands.get(s) or [next(spare) for _ in range(11)]) for s in range(players)}
    deck = [full[s][i] for i in range(11) for s in range(players)]
    options = {"first_dealer": players - 1}
    return engine.new_game(
        "troikuntza", players, options=options, seed=7, deck=[*deck, upcard, *stock]
    )


# -- 1. every event kind, public and private; 4. nothing hidden in public ----------------------


@pytest.mark.parametrize("players", range(3, 11))
def test_random_games_are_told_without_a_gap_or_a_leak(players: int) -> None:
    kinds: set[str] = set()
    options = {"allow_three": True} if players == 3 else {}
    seeds = 2 if players <= 4 else 1
    step_count = [0]
    for seed in range(seeds):
        game = engine.new_game("troikuntza", players, options=options, seed=seed * 17 + players)

        def step(game: Any, seat: int, action: str, events: list, hidden: Hidden) -> None:
            check_narration(P, game, action, events, hidden, kinds)
            step_count[0] += 1
            public = seating(players, None, window_deadline=1_800_000_000.0)
            for event in events:
                if event["type"] == "hand_over":
                    check_limits(P.summary(event, public))
            if step_count[0] % 7 and not any(e["type"] == "meld" for e in events):
                return  # the whole message every 7th step and after each meld: time
            view = game.view(None)
            shown = P.table_sections(view, public)
            check_limits(shown)
            history = P.history(view, public)
            check_limits(history)
            assert not named_cards(text_of(shown + history), hidden.after)
            picture = P.table_picture(view, public)
            if picture is not None:
                drawn = {c for _, cards in picture.kwargs()["rows"] for c in cards}
                assert not drawn & hidden.after
            for seat_to_act in game.to_act()[:2]:
                legal = game.legal_actions(seat_to_act)
                panel = P.hand_sections(game.view(seat_to_act), legal, public.for_seat(seat_to_act))
                check_limits(panel)
                # The moves offered (a trump to call) name cards without revealing where they are.
                offered = {c for a in legal for c in action_codes(a)}
                assert not named_cards(text_of(panel), hidden_from(game, seat_to_act) - offered)
                assert all(len(P.action_label(a)) <= 80 for a in legal)

        drive(game, random.Random(seed), step)
        check_limits(P.score_sheet(game.view(None), seating(players)))
        check_limits(P.final(game.result(), seating(players)))
    assert kinds <= KINDS, kinds - KINDS
    assert {"deal", "hand", "take", "draw", "drawn", "discard", "hand_over"} <= kinds


def test_rare_kinds_have_words() -> None:
    you, table = seating(4, 1), seating(4)
    assert P.narrate({"type": "mayi_void", "seats": [2, 3], "by": 1}, table) == (
        "Bob takes the discard: the May I of Cid and Dan is void."
    )
    assert P.narrate({"type": "exposed", "seat": 1, "card": None}, you) == (
        "The discard pile is empty: you draw."
    )
    assert P.narrate({"type": "reshuffle", "cards": 39}, table) == (
        "The discards (39 cards) are shuffled into a new stock."
    )
    layoff = {"type": "layoff", "seat": 1, "card": "9H", "meld": 2, "bumped": True, "cards": []}
    assert P.narrate(layoff, you) == "You lay off 9♥︎ on meld 2 (the joker moves to the end)."
    with pytest.raises(LookupError):
        P.narrate({"type": "no_such_kind"}, table)


# -- words that read like a person ---------------------------------------------------------------


def test_labels_and_replies() -> None:
    assert P.action_label("layoff 9h 2") == "9♥︎ on meld 2"
    assert P.action_label("layoff jk 3 low") == "🃏Joker on meld 3 (low end)"
    assert P.action_label("mayi") == "May I"
    assert P.action_label("take") == "Take the discard"
    assert P.action_label("meld 7h 7s 7c | qh qd jk") == "7♥︎ 7♠︎ 7♣︎ | Q♥︎ Q♦︎ 🃏Joker"
    assert P.action_label("discard 5c") == "Discard 5♣︎"
    long = "meld " + " ".join(["10h"] * 20) + " | " + " ".join(["10s"] * 20)
    assert len(P.action_label(long)) <= 80
    assert P.you_did("mayi") == "You called May I"
    assert P.you_did("discard 5c") == "You discarded 5♣︎"
    assert P.you_did("layoff 9h 2") == "You laid off 9♥︎ on meld 2"
    assert P.you_did("draw") == "You drew from the stock"


def test_private_draws_are_told_to_their_owner_only() -> None:
    drawn = {"type": "drawn", "seat": 2, "card": "4C", "private_to": 2}
    assert P.narrate(drawn, seating(4, 2)) == "You drew 4♣︎."
    assert P.narrate(drawn, seating(4)) is None
    assert P.narrate(drawn, seating(4, 1)) is None
    draw = {"type": "draw", "seat": 2}
    assert P.narrate(draw, seating(4)) == "Cid draws from the stock."
    assert P.narrate(draw, seating(4, 2)) == "You draw from the stock."


# -- 2. the table message and the summary carry the facts ------------------------------------


def test_the_table_shows_melds_counts_mayis_discard_and_the_window() -> None:
    game = stacked({0: TT_HAND}, upcard="5S", stock=["6C", "6D", "QH"])
    public = seating(4, None, window_deadline=1_800_000_123.0, options={"mayi_limit": 3})
    view = game.view(None)
    assert P.heading(view, public) == "round 1 of 7 — 2 Troikas"
    table = text_of(P.table_sections(view, public))
    assert "Discard pile: **5♠︎**" in table
    assert "**May I** for 5♠︎? Closes <t:1800000123:R>." in table
    assert "May still call: Bob, Cid and Dan." in table
    events = game.apply(0, "draw")  # declines the upcard; the window stays open
    assert P.narrate(events[0], public) == "Ann passes on 5♠︎ and waits for the May I calls."
    for seat in (1, 2):
        game.apply(seat, "pass")
    events = game.apply(3, "mayi")
    assert P.narrate(events[0], public) == "Dan calls **May I**!"
    told = [P.narrate(e, public) for e in events]
    assert "Dan gets 5♠︎ by May I (1 of 3 May I's used)." in told
    assert "Dan takes a penalty card from the stock." in told
    assert not any(line and "6♣︎" in line for line in told)  # the penalty card stays hidden
    game.apply(0, "draw")
    game.apply(0, "meld 7h 7s 7c | 9d 9s 9h")
    events = game.apply(0, "discard 2c")
    view = game.view(None)
    table = text_of(P.table_sections(view, public))
    assert "**Ann**: `1` 7♥︎ 7♠︎ 7♣︎ · `2` 9♦︎ 9♠︎ 9♥︎" in table  # a line per player
    assert "Cards (✓ laid down): Ann 5 ✓ · Bob 11 · Cid 11 · Dan 13 · Dan dealt" in table
    assert "Discard pile: **2♣︎**" in table
    assert not named_cards(table, hidden_cards(game))
    picture = P.table_picture(view, public)
    assert picture is not None and picture.draw == "rows_png"
    rows = picture.kwargs()["rows"]
    assert rows[0] == ("discard", ("2C",)) and rows[1] == ("1. Ann", ("7H", "7S", "7C"))
    assert getattr(images, picture.draw)(**picture.kwargs()).startswith(b"\x89PNG")
    panel = P.hand_sections(game.view(1), game.legal_actions(1), public.for_seat(1))
    text = text_of(panel)
    assert "Take the discard · Draw from the stock" in text and "May I's left: 3 of 3." in text


def test_the_round_summary_shows_cards_left_and_points() -> None:
    game = stacked({0: TT_HAND}, upcard="5S", stock=["6C"])
    game.state["hands"][0] = ["2C"]
    game.state["hands"][1] = ["AS", "JK", "5H"]
    game.state["out"][0] = True
    game.state["phase"] = "play"
    events = game.apply(0, "discard 2c")
    over = next(e for e in events if e["type"] == "hand_over")
    summary = P.summary(over, seating(4))
    text = text_of(summary)
    assert summary[0].title == "Round 1 — 2 Troikas"
    assert "Ann went out." in text
    assert "Ann: out → **0** (total 0)" in text
    assert "Bob: A♠︎ 5♥︎ 🃏Joker → **75** (total 75)" in text
    assert P.narrate(over, seating(4)) == "**Round 1 over**: Ann went out."
    sheet = text_of(P.score_sheet(game.view(None), seating(4)))
    assert "1 TT" in sheet and "75" in sheet and "Total" in sheet


# -- 3. limits: 10 players, 30 melds -------------------------------------------------------------


def test_thirty_melds_at_ten_players_fit_and_every_meld_number_shows() -> None:
    game = engine.new_game("troikuntza", 10, seed=3)
    melds = []
    for i in range(30):
        owner = i % 10
        if i % 2:
            suit = "SHDC"[i % 4]
            melds.append(make_run([f"{r}{suit}" for r in ("3", "4", "5", "6", "7", "8")], owner))
        else:
            rank = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")[i % 13]
            melds.append(make_troika([f"{rank}S", f"{rank}H", "JK", f"{rank}D"], owner))
    assert all(melds)
    game.state["melds"] = melds
    game.state["out"] = [True] * 10
    game.state["hands"][0] = game.state["hands"][0] * 3  # a hand swollen by May I's
    public = seating(10, None, window_deadline=1_800_000_000.0)
    sections = P.table_sections(game.view(None), public)
    check_limits(sections)
    text = text_of(sections)
    assert all(f"`{n}`" in text for n in range(1, 31))
    # Compact with many melds, each player's on his line with the cards he holds, two players a
    # line: a run by its span, a Troika by rank and size.
    assert "**Bob** 11 ✓: `2` 3♥︎–8♥︎ · `12` 3♣︎–8♣︎ · `22` 3♥︎–8♥︎" in text
    assert "**Ann** 33 ✓: `1` 2s ×4 🃏" in text
    assert len(text.splitlines()) <= 10, text
    panel = P.hand_sections(game.view(0), [], public.for_seat(0))
    check_limits(panel)
    assert all(f"`{n}`" in text_of(panel) for n in range(1, 31))
    picture = P.table_picture(game.view(None), public)
    assert picture is not None and len(picture.kwargs()["rows"]) == 31
    labels = [label for label, _ in picture.kwargs()["rows"]]
    assert labels[:5] == ["discard", "1. Ann", "11. Ann", "21. Ann", "2. Bob"]


# -- /history --------------------------------------------------------------------------------------
def test_history_shows_the_melds_the_pile_top_and_the_previous_round() -> None:
    game = engine.new_game("troikuntza", 4, seed=2)
    rng = random.Random(2)
    while game.view(None)["hand_number"] < 2 or not game.view(None)["melds"]:
        waiting = game.to_act()
        moves = [(s, a) for s in waiting for a in game.legal_actions(s)]
        if moves:
            game.apply(*rng.choice(moves))
        else:
            game.apply(waiting[0], game.timed_window().action)
    view = game.view(None)
    sections = P.history(view, seating(4))
    check_limits(sections)
    text = text_of(sections)
    if view["discard_top"]:
        assert named_cards(text, [view["discard_top"]])
    owners = {m["owner"] for m in view["melds"]}
    assert all(f"**{NAMES[o]}**" in text for o in owners)
    first = view["round_points"][0]
    assert (
        "Round 1 — " in text
        and " · ".join(f"{NAMES[s]} **{p}**" for s, p in enumerate(first)) in text
    )


def test_scores_rank_the_final_scores_lowest_first() -> None:
    assert P.scores(None, None, seating(3)).text == "No scores yet."
    now = P.scores({"scores": [40, 5, 12]}, None, seating(3))
    assert (now.title, now.text) == ("Scores (lowest wins)", "Ann 40 · Bob 5 · Cid 12")
    final = P.scores(None, {"scores": [40, 5, 12]}, seating(3))
    assert (final.title, final.text) == ("Final scores (lowest wins)", "Bob 5 · Cid 12 · Ann 40")


def test_a_discard_of_any_card_is_said_not_listed_again() -> None:
    from bot.render.games.troikuntza.hand import moves

    hand = ["8S", "9S", "2H", "3H", "JH", "QH", "AD", "4D", "9C", "KC", "JK"]
    assert moves([f"discard {c.lower()}" for c in hand], hand) == ["Discard any card"]
    but_one = [f"discard {c.lower()}" for c in hand if c != "QH"]
    assert moves(but_one, hand) == ["Discard any card but Q♥︎"]
    few = ["discard 8s", "discard 9c"]
    assert moves(few, hand) == ["Discard: 8♠︎ 9♣︎"]
