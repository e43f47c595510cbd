"""The same games before and after a change of structure: every (game, players) cell's seeded
random games, their events, views, final ``to_json()`` and AI moves hash as on main before the
package-per-game and service-split work (``golden.json``, written by ``fingerprint.py --write``)."""

from __future__ import annotations

import json

import pytest

from tests.golden.fingerprint import GOLDEN, cells, fingerprint

EXPECTED = json.loads(GOLDEN.read_text())


def test_golden_covers_660_games_of_every_game_and_count() -> None:
    assert {f"{name}/{players}" for name, players in cells()} == set(EXPECTED)
    assert sum(cell["games"] for cell in EXPECTED.values()) >= 660


@pytest.mark.parametrize(("name", "players"), cells(), ids=lambda v: str(v))
def test_same_games_as_before(name: str, players: int) -> None:
    assert fingerprint(name, players) == EXPECTED[f"{name}/{players}"]
