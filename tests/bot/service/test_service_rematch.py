"""Rematch in the service: the last finished game of the channel, also after a restart (read
back from the database); only its players ask or confirm; the game starts once all have, or
after ``REMATCH_CONFIRM_SECONDS`` without those who did not (the AI keeps their seats)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.service import (
    NoTable,
    NotAtTable,
    RecordingListener,
    SeatTaken,
    TableExists,
    TableService,
    TableStatus,
)
from bot.service.rematch_wait import REMATCH_CONFIRM_SECONDS
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


async def test_unconfirmed_players_get_ai_seats_after_the_timeout(db_path: Path) -> None:
    clock = FakeClock()
    service = TableService(db_path, clock=clock, sleep=clock.sleep)
    await service.start()
    events = RecordingListener()
    service.add_listener(events)
    try:
        await _finished_game(service)
        lobby = await service.rematch(CH, 2, "Bob")
        await clock.advance(REMATCH_CONFIRM_SECONDS - 1)
        await service.settle()
        assert service.get_table(CH).status is TableStatus.LOBBY  # type: ignore[union-attr]
        await clock.advance(1)
        await service.settle()
        table = service.get_table(CH)
        assert table is not None and table.id == lobby.id and table.status is TableStatus.PLAYING
        kept = table.seat(0)  # Ann's old seat: the AI plays it, kept for her
        assert kept is not None and kept.user_id == 1 and kept.is_ai and kept.left
        assert [(s.index, s.user_id, s.is_ai) for s in table.seats] == [
            (0, 1, True),
            (1, 2, False),
            (2, None, True),
        ]
        # Ann presses Rematch late: she takes her seat back from the AI.
        back = await service.rematch(CH, 1, "Ann")
        mine = back.seat_of(1)
        assert back.status is TableStatus.PLAYING and mine is not None and mine.is_human
        assert mine.index == 0
        taken = events.of_type(SeatTaken)
        assert len(taken) == 1 and taken[0].rejoined
    finally:
        await service.close()


async def test_after_the_timeout_a_lobby_that_does_not_fit_stays_open(db_path: Path) -> None:
    clock = FakeClock()
    service = TableService(db_path, clock=clock, sleep=clock.sleep)
    await service.start()
    try:
        await _finished_game(service)
        await service.rematch(CH, 2, "Bob")
        await service.kick(CH, 2, 2)  # the host removes the AI: Bob and Ann's seat make two
        await clock.advance(REMATCH_CONFIRM_SECONDS)
        await service.settle()
        table = service.get_table(CH)
        assert table is not None and table.status is TableStatus.LOBBY
        assert [(s.index, s.user_id) for s in table.seats] == [(1, 2)]
    finally:
        await service.close()


async def test_the_rematch_wait_is_armed_again_after_a_restart(db_path: Path) -> None:
    clock = FakeClock()
    first = TableService(db_path, clock=clock, sleep=clock.sleep)
    await first.start()
    await _finished_game(first)
    await first.rematch(CH, 2, "Bob")
    await first.close()
    service = TableService(db_path, clock=clock, sleep=clock.sleep)
    await service.start()
    try:
        await clock.advance(REMATCH_CONFIRM_SECONDS)
        for _ in range(200):  # (the finished game is read back from the database first)
            table = service.get_table(CH)
            if table is not None and table.status is TableStatus.PLAYING:
                break
            await asyncio.sleep(0.01)
        assert table is not None and table.status is TableStatus.PLAYING
        assert table.seat(0).left  # type: ignore[union-attr]
    finally:
        await service.close()
