"""Card memory: the trick-taking games' views list every finished trick of the hand.

``played_tricks`` is public (the same in every seat's view and the spectator's), JSON-safe, and
holds exactly the tricks the ``play`` events showed since the hand began, each shaped like
``last_trick``. The AIs count cards and infer voids from it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from engine.ai import make_player

SETUPS = [
    ("troika", 4, {}),
    ("troika", 4, {"kitty": True}),
    ("troeven", 2, {"version": "layout"}),
    ("troeven", 2, {"version": "stock"}),
    ("troggu", 4, {}),
    ("troggu", 7, {}),
]


@pytest.mark.parametrize(("name", "players", "options"), SETUPS)
def test_played_tricks_are_public_and_follow_the_play(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = engine.new_game(name, players, options=options, seed=4)
    seen: list[list[dict[str, Any]]] = []
    trick: list[dict[str, Any]] = []
    checked = 0
    for move in range(2000):
        if game.is_over() or checked > 60:
            break
        views = [game.view(s) for s in range(players)] + [game.view(None)]
        lists = [v["played_tricks"] for v in views]
        assert all(x == lists[0] for x in lists), "every seat sees the same history"
        json.dumps(lists[0])
        if views[0]["phase"] in ("play", "playing"):
            assert [[(c["seat"], c["card"]) for c in t["cards"]] for t in lists[0]] == seen
            if lists[0]:
                assert lists[0][-1] == views[0]["last_trick"]
            checked += 1
        seat = game.to_act()[0]
        action = make_player(name, "normal", move).choose(game.view(seat), game.legal_actions(seat))
        for event in game.apply(seat, action):
            if event["type"] == "play":
                trick.append((event["seat"], event["card"]))
                if len(trick) == players:
                    seen.append(trick)
                    trick = []
            elif event["type"] in ("deal", "hand_over", "misdeal", "thrown_in"):
                seen, trick = [], []
    assert checked > 5
