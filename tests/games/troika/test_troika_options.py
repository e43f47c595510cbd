"""Troika: the option schema, its defaults, the presets, the timer and the rules summary."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import IllegalAction
from engine.troika import GAME_CLASS, summary
from tests.engine.play_helpers import play_random

SPEC = engine.GAMES["troika"]

DEFAULTS = {
    "kitty": False,
    "min_bid": 6,
    "misdeal": True,
    "no_trump": True,
    "low": "off",
    "auction": "single",
    "stick_dealer": True,
    "trump_lead": False,
    "set_penalty": "bid",
    "max_non_bid": 45,
    "no_trump_increase": False,
    "end": "points",
    "target": 52,
    "rounds": 10,
    "first_dealer": None,
    "timer": 60,
}


def test_troika_is_registered_with_its_spec() -> None:
    assert engine.GAMES["troika"] is GAME_CLASS.spec
    assert SPEC.title == "Troika" and SPEC.min_players == SPEC.max_players == 4


@pytest.mark.parametrize("players", [2, 3, 5])
def test_troika_needs_exactly_four_players(players: int) -> None:
    with pytest.raises(IllegalAction, match="4 players"):
        engine.new_game("troika", players)


@pytest.mark.parametrize("name,default", sorted(DEFAULTS.items()))
def test_option_default_follows_the_rules(name: str, default: object) -> None:
    assert SPEC.option(name).default == default


def test_no_options_beyond_the_rules() -> None:
    assert {o.name for o in SPEC.options} == set(DEFAULTS)


@pytest.mark.parametrize(
    "name,values",
    [
        ("min_bid", [5, 6, 7, 8]),
        ("low", ["off", "no_trump", "always"]),
        ("auction", ["single", "open"]),
        ("set_penalty", ["bid", "points"]),
        ("max_non_bid", [30, 35, 45, 47, 50, 55, 56, 60, "off"]),
        ("end", ["points", "rounds"]),
        ("first_dealer", [None, 0, 1, 2, 3]),
        # the rules' seconds, and the turn-based clocks of hours and days (issue 34) beside them
        ("timer", [7, 15, 30, 60, 120, "1h", "8h", "24h", "72h", "off"]),
    ],
)
def test_option_offers_exactly_the_values_of_the_rules(name: str, values: list[object]) -> None:
    assert SPEC.option(name).values() == values


def test_option_values_typed_as_text_are_parsed() -> None:
    options = SPEC.resolve(None, {"max_non_bid": "off", "min_bid": "7", "first_dealer": "random"})
    assert options["max_non_bid"] == "off" and options["min_bid"] == 7
    assert options["first_dealer"] is None
    with pytest.raises(IllegalAction):
        SPEC.resolve(None, {"min_bid": 9})


def test_schema_is_json_safe() -> None:
    assert json.loads(json.dumps(SPEC.to_dict()))["name"] == "troika"


# -- presets -------------------------------------------------------------------------------------
def test_standard_preset_is_the_defaults() -> None:
    assert SPEC.resolve("standard") == DEFAULTS


def test_saskatchewan_preset() -> None:
    options = SPEC.resolve("saskatchewan")
    changed = {k: v for k, v in options.items() if DEFAULTS[k] != v}
    assert changed == {
        "kitty": True,
        "min_bid": 7,
        "low": "no_trump",
        "misdeal": False,
        "no_trump_increase": True,
    }


def test_online_preset() -> None:
    options = SPEC.resolve("online")
    changed = {k: v for k, v in options.items() if DEFAULTS[k] != v}
    assert changed == {"auction": "open", "set_penalty": "points"}


def test_preset_options_can_still_be_changed() -> None:
    assert SPEC.resolve("saskatchewan", {"min_bid": 8})["min_bid"] == 8


def test_saskatchewan_game_has_34_cards_min_bid_7_and_no_low_bids() -> None:
    game = engine.new_game("troika", 4, seed=2, preset="saskatchewan")
    assert game.view(None)["kitty_size"] == 2
    seat = game.to_act()[0]
    bids = [a for a in game.legal_actions(seat) if a.startswith("bid")]
    assert bids[:3] == ["bid 7", "bid 7 no", "bid 7 no low"]


def test_online_game_runs_an_open_auction() -> None:
    game = engine.new_game("troika", 4, seed=2, preset="online", options={"first_dealer": 3})
    for action in ("bid 6", "bid 7", "pass", "pass"):
        game.apply(game.to_act()[0], action)
    assert game.to_act() == [0]  # the open auction comes back to the first bidder


# -- timer ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("timer", [7, 15, 30, 60, 120, "off"])
def test_timer_is_stored_and_does_not_change_the_game(timer: object) -> None:
    game = engine.new_game("troika", 4, seed=9, options={"timer": timer, "end": "rounds"})
    plain = engine.new_game("troika", 4, seed=9, options={"end": "rounds"})
    assert game.options["timer"] == timer
    moves = play_random(game, random.Random(1), max_actions=200)
    for seat, action in moves:
        plain.apply(seat, action)
    assert {**game.state, "options": None} == {**plain.state, "options": None}


# -- rules summary -------------------------------------------------------------------------------
def test_rules_summary_is_the_module_summary() -> None:
    options = {"kitty": True}
    assert GAME_CLASS.rules_summary(options) == summary(options)
    assert "**Troika" in GAME_CLASS.rules_summary(None)


@pytest.mark.parametrize(
    "options,phrase",
    [
        ({}, "32 cards"),
        ({"kitty": True}, "34 cards"),
        ({"kitty": True}, "never 5H or 3S"),
        ({}, "may equal the high bid"),
        ({"auction": "open"}, "drops you out"),
        ({"min_bid": 8}, "Bids: 8 to 12"),
        ({"low": "always"}, "7 (trumps) < 7 low < 7 no < 7 no low"),
        ({"no_trump": False}, "lowest first: 7 (trumps)."),
        ({"stick_dealer": False}, "thrown in"),
        ({}, "dealer must bid"),
        ({"trump_lead": True}, "first lead"),
        ({"set_penalty": "points"}, "lose the points they took"),
        ({}, "lose their bid"),
        ({"max_non_bid": 35}, "below 35"),
        ({"max_non_bid": "off"}, "always add"),
        ({"no_trump_increase": True}, "raises the target"),
        ({"target": 62}, "first team to 62"),
        ({"end": "rounds", "rounds": 4}, "4 hands"),
        ({}, "Misdeal"),
        ({}, "Jack"),
    ],
)
def test_rules_summary_describes_the_options(options: dict[str, object], phrase: str) -> None:
    assert phrase in summary(options)


def test_rules_summary_leaves_out_rules_that_are_off() -> None:
    text = summary({"misdeal": False, "first_dealer": 0, "low": "off"})
    assert "Misdeal" not in text and "Jack" not in text and "Low contracts" not in text
