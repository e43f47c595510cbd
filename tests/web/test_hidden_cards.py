"""No frame for a seat ever holds a card that seat may not see: random games of every game and
player count, every seat and a watcher with an open page, every frame checked against the
engine's own view of that seat at that moment. (The frames' prose, the hand's ``summary``, is
the game's presenter reading that same view; its words are no card codes, so it is not
scanned: "as" is no ace of spades.)"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.service import TableService
from bot.web.adapter import ServiceAdapter
from bot.web.hub import Hub, Page
from engine.troggu.cards import CODES as TAROT_CODES
from tests.bot.conftest import TEST_LIMITS, FakeClock

CH = 4242
WATCHER = 999
#: Every card code of every game (each game uses some of them).
CODES = frozenset(
    [
        r + s
        for s in "SHDC"
        for r in (["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"])
    ]
    + ["JOKER", *TAROT_CODES]
)
MOVES = 70
PROSE = ("summary", "title")


def cards_in(data: Any) -> set[str]:
    """Every card code named anywhere in ``data`` (keys, values, words of an action)."""
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            found |= cards_in(key) | cards_in(value)
    elif isinstance(data, list):
        for item in data:
            found |= cards_in(item)
    elif isinstance(data, str):
        found |= {word.upper() for word in data.split() if word.upper() in CODES}
    return found


class RecordingPage(Page):
    """A page that keeps what it is sent, checked against the game right then."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.frames: list[dict[str, Any]] = []

    def push(self, text: str, wire: bytes | None = None) -> None:
        # (the bytes a server page's transport gets are this same text: checked here once)
        assert wire is None or wire.endswith(text.encode())
        self.frames.append(json.loads(text))

    async def stop(self) -> None:
        return None


def cases() -> list[tuple[str, int]]:
    out = []
    for name, spec in engine.GAMES.items():
        out.extend((name, n) for n in range(spec.min_players, spec.max_players + 1))
    return out


@pytest.mark.parametrize(("game", "players"), cases())
async def test_no_frame_shows_a_card_its_seat_may_not_see(
    tmp_path: Path, game: str, players: int
) -> None:
    clock = FakeClock()
    service = TableService(
        tmp_path / "t.db", clock=clock, sleep=clock.sleep, ai_delay=0, limits=TEST_LIMITS
    )
    await service.start()
    hub = Hub(ServiceAdapter(service), clock)
    checked = 0
    try:
        users = list(range(1, players + 1))
        options: dict[str, Any] = {"timer": "off"}
        if game == "troikuntza" and players == 3:
            options["allow_three"] = True  # three players only with this option
        await service.open_table(CH, 1, users[0], "p1", game, options=options, seed=players * 7)
        for user in users[1:]:
            await service.join(CH, user, f"p{user}")
        await service.start_game(CH, users[0])
        await service.spectate(CH, WATCHER)
        pages = {user: RecordingPage(None, user, CH, "en") for user in [*users, WATCHER]}  # type: ignore[arg-type]
        for page in pages.values():
            hub.add(page)
        live = service._tables[CH].game  # the engine's own game, to check each frame against
        rng = random.Random(players)
        for _ in range(MOVES):
            table = service.get_table(CH)
            if table is None or not table.to_act:
                break
            seat = rng.choice(table.to_act)
            legal = service.legal_actions(CH, users[seat])
            if not legal:
                break
            await service.act(CH, users[seat], rng.choice(legal))
            # Every page got its frame of that change: check it against the engine now.
            for user, page in pages.items():
                if not page.frames:
                    continue
                frame = page.frames.pop()
                page.frames.clear()
                index = users.index(user) if user in users else None
                own = dict(live.view(index))
                shown = cards_in({k: v for k, v in frame.items() if k not in PROSE})
                assert shown <= cards_in(own), (game, user, shown - cards_in(own))
                assert frame["seat"] == index
                hidden: set[str] = set()
                for other in range(players):
                    if other != index:
                        hidden |= set(live.view(other).get("hand") or []) - cards_in(own)
                assert not shown & hidden
                checked += 1
    finally:
        hub.close()
        await service.close()
    assert checked > players * 10
