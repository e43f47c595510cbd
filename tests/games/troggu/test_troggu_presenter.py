"""The Troggu presenter: every event kind told, the table and the deal summary carry what a
Tarot player checks, Discord's limits hold at 8 players, no public text shows a hidden card."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from bot.render.games import images
from bot.render.presenter import Seating, presenter_for
from engine.troggu.cards import CODES
from engine.troggu.spec import DEAL_SIZES
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

P = presenter_for("troggu")

#: Troggu's event kinds (a kind missing from random games is named here, so a new kind that
#: random play never reaches still fails the coverage test below).
KINDS = {
    "deal", "bid", "forced_tapp", "contract", "take_tapp", "tapp_cards", "tapp_to_pile",
    "discard", "discard_card", "call", "partner", "alone", "play", "fool_held",
    "partner_revealed", "trick", "fool_exchange", "hand_over", "game_over",
}  # fmt: skip


def stacked(players: int, hands: dict[int, list[str]], dealer: int, **options: Any) -> Any:
    """A game whose first deal gives ``hands`` (others filled from the rest, in deck order)."""
    size, _ = DEAL_SIZES[players]
    named = [c for cards in hands.values() for c in cards]
    rest = [c for c in CODES if c not in named]
    full = {s: list(hands.get(s, [])) for s in range(players)}
    for seat in range(players):
        while len(full[seat]) < size:
            full[seat].append(rest.pop(0))
    deck = [full[(dealer + 1 + j) % players][k] for k in range(size) for j in range(players)]
    opts = {"first_dealer": dealer, "deals": 1, **options}
    return engine.new_game("troggu", players, options=opts, seed=1, deck=deck + rest)


def first_legal(game: Any, stop: str | None = None) -> list[dict[str, Any]]:
    """Play the first legal action until the game ends (or an event of kind ``stop``)."""
    events: list[dict[str, Any]] = []
    while not game.is_over():
        seat = game.to_act()[0]
        new = game.apply(seat, game.legal_actions(seat)[0])
        events += new
        if stop and any(e["type"] == stop for e in new):
            break
    return events


# -- 1. every event kind, public and private; 4. nothing hidden in public ----------------------


@pytest.mark.parametrize("players", range(3, 9))
def test_random_games_are_told_without_a_gap_or_a_leak(players: int) -> None:
    kinds: set[str] = set()
    for seed in range(3):
        game = engine.new_game("troggu", players, seed=seed * 31 + players)
        rng = random.Random(seed)

        def step(game: Any, seat: int, action: str, events: list, hidden: Hidden) -> None:
            # A forced Tapp names the card that forces it: the rules make that public.
            check_narration(P, game, action, events, hidden, kinds, frozenset({"forced_tapp"}))
            public = seating(players)
            view = game.view(None)
            shown = P.table_sections(view, public)
            check_limits(shown)
            history = P.history(view, public)
            check_limits(history)
            assert not named_cards(text_of(shown + history), hidden.after)
            picture = P.table_picture(view, public)
            if picture is not None:
                assert not {c for _, c in picture.kwargs().get("played", ())} & hidden.after
            for event in events:
                if event["type"] == "hand_over":
                    check_limits(P.summary(event, public))
            if not game.is_over():
                actor = game.to_act()[0]
                legal = game.legal_actions(actor)
                panel = P.hand_sections(game.view(actor), legal, seating(players, actor))
                check_limits(panel)
                own_history = P.history(game.view(actor), seating(players, actor))
                check_limits(own_history)
                assert not named_cards(text_of(own_history), hidden_from(game, actor))
                # The moves offered (a trump to call) name cards without revealing where they are.
                offered = {c for a in legal for c in action_codes(a)}
                assert not named_cards(text_of(panel), hidden_from(game, actor) - offered)
                assert all(len(P.action_label(a)) <= 80 for a in legal)

        drive(game, rng, step)
        check_limits(P.score_sheet(game.view(None), seating(players)))
        check_limits(P.final(game.result(), seating(players)))
    assert kinds <= KINDS, kinds - KINDS
    assert {"deal", "bid", "contract", "play", "trick", "hand_over", "game_over"} <= kinds


def test_every_kind_has_words() -> None:
    """Kinds random games rarely reach, told for their owner or the table."""
    you, table = seating(8, 2), seating(8)
    samples = [
        {"type": "forced_tapp", "seat": 2, "reason": "fool"},
        {"type": "partner", "seat": 2, "private_to": 2},
        {"type": "alone", "seat": 2, "private_to": 2},
        {"type": "fool_held", "seat": 2, "private_to": 2},
        {"type": "partner_revealed", "seat": None, "tappist": 1},
        {"type": "fool_exchange", "seat": 2, "to": 1, "points": 1},
        {"type": "fool_exchange", "seat": 2, "to": 1, "points": None},
        {"type": "tapp_cards", "seat": 2, "cards": ["K-CU", "T3"], "private_to": 2},
    ]
    for event in samples:
        assert P.narrate(event, you), event
    assert P.narrate(samples[1], table) is None
    assert P.narrate(samples[0], table) == (
        "Everyone passed: Cid holds the Fool and must play a Tapp."
    )
    assert P.narrate({"type": "tapp_cards", "seat": 2, "cards": ["K-CU", "T3"],
                      "private_to": 2}, you) == "The Tapp gives you K🏆 T3."  # fmt: skip
    with pytest.raises(LookupError):
        P.narrate({"type": "no_such_kind"}, table)


# -- words that read like a person ---------------------------------------------------------------


def test_labels_and_replies() -> None:
    assert P.action_label("play k-cu") == "K🏆"
    assert P.action_label("play t21") == "T21"
    assert P.action_label("tapp") == "Tapp"
    assert P.action_label("call none") == "Play alone"
    assert P.action_label("call t12") == "Call T12"
    assert P.action_label("discard 3-co") == "Discard 3🪙"
    assert P.you_did("play k-cu") == "You played K🏆"
    assert P.you_did("pass") == "You passed"
    assert P.you_did("solo") == "You bid Solo"
    assert P.you_did("call t12") == "You called T12"


def test_narration_agrees_with_you() -> None:
    bid = {"type": "bid", "seat": 1, "bid": "tapp"}
    assert P.narrate(bid, seating(4)) == "Bob bids Tapp"
    assert P.narrate(bid, seating(4, 1)) == "You bid Tapp"
    play = {"type": "play", "seat": 1, "card": "K-CU"}
    assert P.narrate(play, seating(4, 1)) == "You play K🏆."
    assert P.narrate({"type": "bid", "seat": 0, "bid": "pass"}, seating(4, 0)) == "You pass"


def test_a_tapp_discard_is_one_line() -> None:
    game = stacked(4, {1: []}, dealer=0)
    events = game.apply(1, "tapp") + game.apply(2, "pass") + game.apply(3, "pass")
    events += game.apply(0, "pass")
    while game.state["phase"] == "discard":
        events += game.apply(1, game.legal_actions(1)[0])
    lines = [P.narrate(e, seating(4)) for e in events if e["type"] == "discard"]
    assert [line for line in lines if line] == ["Bob has discarded 10 cards face down."]
    mine = [P.narrate(e, seating(4, 1)) for e in events if e["type"] == "discard_card"]
    assert len(mine) == 10 and all(line.startswith("You discarded ") for line in mine)


# -- 2. the table and the summary carry the facts ----------------------------------------------


def test_a_solo_with_every_trick_is_paid_triple() -> None:
    trumps = ["FOOL", *(f"T{n}" for n in range(21, 4, -1))]
    game = stacked(3, {0: trumps}, dealer=2)
    view = game.view(None)
    table = text_of(P.table_sections(view, seating(3)))
    assert P.heading(view, seating(3)) == "deal 1 of 1"
    assert "Ann …" in table and "Pass, Tapp or Solo" in table
    events = game.apply(0, "solo")
    table = text_of(P.table_sections(game.view(None), seating(3)))
    assert "**Solo** by Ann" in table and "more than 57 of 114" in table
    events += first_legal(game)
    over = next(e for e in events if e["type"] == "hand_over")
    assert over["payments"] == [120, -60, -60]
    summary = P.summary(over, seating(3))
    text = text_of(summary)
    assert summary[0].title == "Deal 1: Solo by Ann"
    assert "Ann's Solo is **made** with 114 of 114 card points (every trick: triple)" in text
    assert "60 from each opponent" in text
    assert "Ann ★: 114 pts, 18 tricks → **+120** (total 120)" in text
    assert "Bob: 0 pts, 0 tricks → **−60** (total −60)" in text
    sheet = text_of(P.score_sheet(game.view(None), seating(3)))
    assert "1 Solo ✓" in sheet and "+120*" in sheet and "−60" in sheet
    over_table = text_of(P.table_sections(game.view(None), seating(3)))
    assert "Deal 1 over" in over_table and "Ann's Solo is **made**" in over_table
    final = text_of(P.final(game.result(), seating(3)))
    assert "🏆 **Ann won** with 120 after 1 deal." in final
    assert "Ann 120 · Bob −60 · Cid −60" in final


def test_a_lost_tapp_shows_the_points_against_57_and_every_payment() -> None:
    game = stacked(4, {}, dealer=3)
    game.apply(0, "tapp")
    for seat in (1, 2, 3):
        game.apply(seat, "pass")
    events = first_legal(game)
    over = next(e for e in events if e["type"] == "hand_over")
    text = text_of(P.summary(over, seating(4)))
    side = over["contract_points"]
    if over["multiple"] < 0:
        assert f"Ann's Tapp is **lost** with {side} of 114 card points" in text
    elif over["multiple"] > 0:
        assert f"Ann's Tapp is **made** with {side} of 114 card points" in text
    for seat, pay in enumerate(over["payments"]):
        shown = f"+{pay}" if pay > 0 else f"−{-pay}" if pay < 0 else "0"
        assert f"{NAMES[seat]}{' ★' if seat == 0 else ''}: {over['card_points'][seat]} pts" in text
        assert f"**{shown}**" in text
    assert sum(over["payments"]) == 0


def test_the_called_partner_shows_once_known() -> None:
    game = stacked(8, {1: ["T21", "T20", "T19"], 3: ["T12"]}, dealer=0)
    game.apply(1, "tapp")
    for seat in (2, 3, 4, 5, 6, 7, 0):
        game.apply(seat, "pass")
    table = text_of(P.table_sections(game.view(None), seating(8)))
    assert "The Tapp (6 cards) went into Bob's hand" in table and "6 still to discard" in table
    hidden = hidden_cards(game)
    assert not named_cards(table, hidden)
    panel = text_of(P.hand_sections(game.view(1), game.legal_actions(1), seating(8, 1)))
    assert "The Tapp gave you:" in panel and "Discard:" in panel
    while game.state["phase"] == "discard":
        game.apply(1, game.legal_actions(1)[0])
    events = game.apply(1, "call t12")
    assert P.narrate(events[0], seating(8)) == "Bob calls T12: its holder is the secret partner."
    secret = next(e for e in events if e["type"] == "partner")
    assert P.narrate(secret, seating(8, 3)).startswith("You hold the called trump")
    table = text_of(P.table_sections(game.view(None), seating(8)))
    assert "Partner: whoever holds T12 (secret until it is played)" in table
    panel = text_of(P.hand_sections(game.view(3), [], seating(8, 3)))
    assert "Partner: **you**" in panel
    events = first_legal(game, stop="partner_revealed")
    reveal = next(e for e in events if e["type"] == "partner_revealed")
    assert P.narrate(reveal, seating(8)) == "Dan is Bob's partner!"
    table = text_of(P.table_sections(game.view(None), seating(8)))
    assert "Partner: **Dan** (played T12)" in table
    events = first_legal(game)
    over = next(e for e in events if e["type"] == "hand_over")
    text = text_of(P.summary(over, seating(8)))
    assert "Bob & Dan's Tapp" in text and "Partner: Dan (held T12)" in text


def test_a_misere_says_who_pays() -> None:
    game = stacked(4, {}, dealer=3)
    for seat in (0, 1, 2, 3):
        game.apply(seat, "pass")
    assert "Misère" in text_of(P.table_sections(game.view(None), seating(4)))
    events = first_legal(game)
    over = next(e for e in events if e["type"] == "hand_over")
    text = text_of(P.summary(over, seating(4)))
    top = max(over["card_points"])
    losers = [NAMES[s] for s, p in enumerate(over["card_points"]) if p == top]
    assert f"took the most ({top})" in text and losers[0] in text
    assert "Deal 1: Misère" in text


def test_trick_and_last_trick_on_the_table_and_in_the_picture() -> None:
    game = stacked(4, {}, dealer=3)
    game.apply(0, "solo")
    first_legal(game, stop="trick")
    game.apply(game.to_act()[0], game.legal_actions(game.to_act()[0])[0])
    view = game.view(None)
    sections = P.table_sections(view, seating(4))
    titles = [s.title for s in sections]
    assert "Trick 2 of 13" in titles
    # The trick's cards are in the picture; the text says who took the last one and the
    # tricks per player.
    trick = next(s.text for s in sections if s.title == "Trick 2 of 13")
    winner = ("Ann", "Bob", "Cid", "Dan")[view["last_trick"]["winner"]]
    assert f"Last trick → **{winner}**" in trick and "Tricks: Ann " in trick
    picture = P.table_picture(view, seating(4))
    assert picture is not None and picture.draw == "table_png"
    png = getattr(images, picture.draw)(**picture.kwargs())
    assert png.startswith(b"\x89PNG")
    hand = P.hand_picture(game.view(1), seating(4, 1))
    assert hand is not None and getattr(images, hand.draw)(**hand.kwargs()).startswith(b"\x89PNG")


# -- 3. limits for 8 players and the longest game ------------------------------------------------


def test_the_score_sheet_of_fifty_deals_fits() -> None:
    game = engine.new_game("troggu", 8, options={"deals": 50}, seed=5)
    drive(game, random.Random(5), lambda *a: None)
    sheet = P.score_sheet(game.view(None), seating(8))
    check_limits(sheet)
    text = text_of(sheet)
    assert "earlier deal" in text and "50 " in text and "Total" in text


# -- /history --------------------------------------------------------------------------------------
def test_history_of_a_whole_deal_at_eight_players_with_long_names_fits_one_message() -> None:
    """Every trick but the last of an 8-player deal, 32-character names: one line a trick,
    leader first, inside Discord's limits, every card still there."""
    game = engine.new_game("troggu", 8, options={"deals": 2}, seed=3)
    long_names = Seating(tuple(f"{n} the Very Long Display Name"[:32] for n in NAMES[:8]))
    per = DEAL_SIZES[8][0]
    while game.view(None)["hand_number"] < 2 or len(game.view(None)["played_tricks"]) < per - 1:
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    view = game.view(None)
    sections = P.history(view, long_names)
    check_limits(sections)
    text = text_of(sections)
    assert len(view["played_tricks"]) == per - 1
    for number, trick in enumerate(view["played_tricks"], start=1):
        line = next(ln for ln in text.splitlines() if ln.startswith(f"**{number}.**"))
        leader = long_names.names[trick["cards"][0]["seat"]]
        assert line.startswith(f"**{number}.** {leader}")
        assert named_cards(line, [c["card"] for c in trick["cards"]]) == {
            c["card"] for c in trick["cards"]
        }
    assert "Deal 1:" in text  # the previous deal's summary follows


def test_scores_rank_the_final_scores_highest_first() -> None:
    now = P.scores({"scores": [-4, 30, 12]}, None, seating(3))
    assert (now.title, now.text) == ("Scores", "Ann −4 · Bob 30 · Cid 12")
    final = P.scores(None, {"scores": [-4, 30, 12]}, seating(3))
    assert (final.title, final.text) == ("Final scores", "Bob 30 · Cid 12 · Ann −4")


def test_the_panel_names_the_suits_of_his_cards_beside_their_emoji() -> None:
    game = stacked(4, {1: ["K-CU", "3-CU", "10-BA", "T21", "T5"]}, dealer=3)
    game.apply(0, "solo")
    while game.view(1).get("phase") != "play":
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    view = game.view(1)
    held = {str(c).split("-")[-1] for c in view["hand"] if "-" in str(c)}
    text = text_of(P.hand_sections(view, game.legal_actions(1), seating(4, 1)))
    line = next(x for x in text.splitlines() if x.startswith("Your suits: "))
    keys = {"CU": "🏆 cups", "CO": "🪙 coins", "SW": "⚔️ swords", "BA": "🪄 batons"}
    assert [k for k in keys.values() if k in line] == [keys[s] for s in keys if s in held]
    assert "🏆 cups" in line and "🪄 batons" in line
