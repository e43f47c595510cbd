"""Rematch in the service: the last finished game of the channel, also after a restart (read
back from the database); only its players ask or confirm; the game starts once all have."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.service import (
    NoTable,
    NotAtTable,
    TableExists,
    TableService,
    TableStatus,
)
from tests.bot.conftest import FakeClock

CH = 79


async def _finished_game(service: TableService) -> None:
    """Ann and Bob with one AI play Troggu (quick) to the end."""
    await service.open_table(CH, None, 1, "Ann", "troggu", preset="quick", seed=3)
    await service.join(CH, 2, "Bob")
    await service.add_ai(CH, 1, "easy")
    await service.start_game(CH, 1)
    rng = random.Random(5)
    for _ in range(2000):
        await service.settle()
        table = service.get_table(CH)
        if table is None:
            return
        for uid in (1, 2):
            legal = service.legal_actions(CH, uid)
            if legal:
                await service.act(CH, uid, rng.choice(legal))
                break
    raise AssertionError("the game did not end")


async def test_rematch_after_a_restart(db_path: Path) -> None:
    clock = FakeClock()
    first = TableService(db_path, clock=clock, sleep=clock.sleep)
    await first.start()
    with pytest.raises(NoTable):
        await first.rematch(CH, 1, "Ann")
    await _finished_game(first)
    await first.close()

    service = TableService(db_path, clock=clock, sleep=clock.sleep)
    await service.start()
    try:
        with pytest.raises(NotAtTable):
            await service.rematch(CH, 3, "Cat")  # he did not play it
        lobby = await service.rematch(CH, 2, "Bob")
        assert lobby.status is TableStatus.LOBBY and lobby.host_id == 2
        assert lobby.preset == "quick" and lobby.settings.get("rematch_of") == 1
        assert [(s.index, s.user_id, s.ai_level) for s in lobby.seats] == [
            (1, 2, None),
            (2, None, "easy"),
        ]
        with pytest.raises(TableExists):
            await service.open_table(CH, None, 3, "Cat", "troika")
        started = await service.rematch(CH, 1, "Ann")
        assert started.status is TableStatus.PLAYING
        assert [(s.index, s.user_id) for s in started.seats] == [(0, 1), (1, 2), (2, None)]
        again = await service.rematch(CH, 1, "Ann")  # a second press changes nothing
        assert again.id == started.id and again.status is TableStatus.PLAYING
    finally:
        await service.close()
