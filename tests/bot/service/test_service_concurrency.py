"""Concurrency: simultaneous actions on one table and across 100 tables. Exactly the valid
actions are applied, each once, none lost: checked against the replayed action log."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.service import NotYourTurn, TableError, TableService
from tests.bot.conftest import replay_log

CH = 900


async def test_a_double_click_applies_exactly_one_action(service, db_path):
    await service.open_table(CH, None, 1, "Ann", "troika", options={"timer": "off"}, seed=3)
    for uid, name in ((2, "Bob"), (3, "Cat"), (4, "Dan")):
        await service.join(CH, uid, name)
    table = await service.start_game(CH, 1)
    mover = table.seat(table.to_act[0]).user_id
    outcomes = await asyncio.gather(
        *(service.act(CH, mover, "pass") for _ in range(20)), return_exceptions=True
    )
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(applied) == 1 and applied[0].move_number == 1
    # the 19 extra clicks find it is not his turn any more
    assert len(refused) == 19 and all(isinstance(e, NotYourTurn) for e in refused)
    replayed, stored, moves = replay_log(db_path, table.id)
    assert moves == 1 and replayed == stored == service._tables[CH].game


async def storm(service: TableService, channel: int, rng: random.Random) -> int:
    """Every seated user sends a few actions at once (his legal ones, or junk when it is not
    his turn); returns how many were acknowledged."""
    table = service.get_table(channel)
    if table is None:
        return 0
    calls = []
    for seat in table.seats:
        legal = service.legal_actions(channel, seat.user_id) or ["pass", "play 5h"]
        for _ in range(3):
            calls.append(service.act(channel, seat.user_id, rng.choice(legal)))
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, BaseException) and not isinstance(outcome, TableError):
            raise outcome
    return sum(not isinstance(o, BaseException) for o in outcomes)


async def test_simultaneous_actions_by_all_players_of_one_table(service, db_path):
    await service.open_table(CH, None, 1, "Ann", "troika", options={"timer": "off"}, seed=8)
    for uid, name in ((2, "Bob"), (3, "Cat"), (4, "Dan")):
        await service.join(CH, uid, name)
    table = await service.start_game(CH, 1)
    rng = random.Random(5)
    acknowledged = 0
    for _ in range(60):
        acknowledged += await storm(service, CH, rng)
    replayed, stored, moves = replay_log(db_path, table.id)
    assert moves == acknowledged > 0
    assert replayed == stored
    live = service._tables.get(CH)
    if live is not None:
        assert live.game == stored


@pytest.mark.parametrize("tables", [100])
async def test_simultaneous_actions_across_many_tables(service, db_path, tables):
    ids = {}
    for n in range(tables):
        channel = CH + n
        await service.open_table(channel, None, 2 * n + 10, "A", "troeven", seed=n)
        await service.join(channel, 2 * n + 11, "B")
        ids[channel] = (await service.start_game(channel, 2 * n + 10)).id
    rng = random.Random(9)
    acknowledged = dict.fromkeys(ids, 0)
    for _ in range(15):
        counts = await asyncio.gather(*(storm(service, ch, rng) for ch in ids))
        for channel, count in zip(ids, counts, strict=True):
            acknowledged[channel] += count
    for channel, table_id in ids.items():
        replayed, stored, moves = replay_log(db_path, table_id)
        assert moves == acknowledged[channel] > 0, channel
        assert replayed == stored
