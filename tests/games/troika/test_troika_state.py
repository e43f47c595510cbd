"""Troika's live state is attributes; its JSON state is built when asked and read back by the
next move, listing or view: what ``state`` and ``to_json`` give, and what an edit of it does."""

from __future__ import annotations

import json
import random

import engine
from engine.troika.cards import CODES


def walked(seed: int, moves: int) -> engine.Game:
    game = engine.new_game("troika", 4, seed=seed, options={"kitty": seed % 2 == 0})
    rng = random.Random(seed)
    for _ in range(moves):
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def test_state_and_to_json_round_trip_through_load() -> None:
    for seed in range(6):
        for moves in (0, 3, 9, 40, 77):
            game = walked(seed, moves)
            text = game.to_json()
            assert json.loads(text)["state"] == game.state
            again = engine.load(text)
            assert again.to_json() == text and again == game
            seat = game.to_act()[0]
            action = game.legal_actions(seat)[-1]
            assert again.apply(seat, action) == game.apply(seat, action)
            assert again.to_json() == game.to_json()


def test_an_edit_of_the_handed_out_state_is_read_by_the_next_move_and_view() -> None:
    game = walked(3, 5)
    game.state["scores"] = [40, 7]
    assert game.view(None)["scores"] == [40, 7]
    game.state["scores"][1] = 9
    seat = game.to_act()[0]
    game.apply(seat, game.legal_actions(seat)[0])
    assert game.view(0)["scores"] == [40, 9]
    assert json.loads(game.to_json())["state"]["scores"] == [40, 9]


def test_a_hand_edited_in_the_state_is_the_hand_the_next_listing_plays_from() -> None:
    game = walked(1, 0)
    while game.view(None)["phase"] != "play":
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    seat = game.to_act()[0]
    hand = game.state["hands"][seat]
    kept = hand[:1]
    hand[:] = kept
    assert game.legal_actions(seat) == [f"play {CODES[kept[0]].lower()}"]
    assert game.view(seat)["hand"] == [CODES[kept[0]]]


def test_a_state_saved_without_played_tricks_nor_unknown_keys_lost() -> None:
    game = walked(2, 9)
    state = json.loads(game.to_json())["state"]
    del state["played_tricks"]
    state["note"] = {"kept": True}
    text = json.dumps({"game": "troika", "version": engine.SNAPSHOT_VERSION, "state": state})
    old = engine.load(text)
    assert "played_tricks" not in old.state and old.state["note"] == {"kept": True}
    assert old.view(None)["played_tricks"] == []
    while not old.view(None)["played_tricks"]:
        seat = old.to_act()[0]
        old.apply(seat, old.legal_actions(seat)[0])
    saved = json.loads(old.to_json())["state"]
    assert len(saved["played_tricks"]) == 1 and saved["note"] == {"kept": True}
