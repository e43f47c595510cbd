"""The service's limits: each refused with its short message and nothing changed; idle lobbies
closed by the sweep on the service clock; the channel lock map pruned."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import (
    Limits,
    OpeningTooFast,
    RecordingListener,
    TableAbandoned,
    TableService,
    TableStatus,
    TooManyHardAis,
    TooManyLobbies,
)
from tests.bot.conftest import FakeClock
from tests.bot.databases import connect

GUILD, OTHER_GUILD = 7, 8
ANN, BOB, CAT = 1, 2, 3


@pytest.fixture
async def make(db_path: Path, clock: FakeClock) -> AsyncIterator:
    made: list[TableService] = []

    async def factory(**limits: float) -> TableService:
        service = TableService(
            db_path, clock=clock, sleep=clock.sleep, ai_delay=0, limits=Limits(**limits)
        )
        await service.start()
        made.append(service)
        return service

    yield factory
    for service in made:
        await service.close()


def stored_tables(db_path: Path) -> int:
    conn = connect(db_path)
    try:
        return int(conn.execute("SELECT count(*) FROM tables").fetchone()[0])
    finally:
        conn.close()


async def test_the_defaults() -> None:
    limits = Limits()
    assert (limits.lobbies_per_user, limits.lobbies_per_guild) == (3, 50)
    assert (limits.lobby_idle_seconds, limits.open_cooldown_seconds) == (1800, 10)
    assert limits.hard_ai_seats_per_guild == 40


async def test_lobbies_per_user(make, db_path: Path) -> None:
    service = await make(lobbies_per_user=2, open_cooldown_seconds=0)
    await service.open_table(1, GUILD, ANN, "Ann", "troeven")
    await service.open_table(2, OTHER_GUILD, ANN, "Ann", "troeven")
    with pytest.raises(TooManyLobbies) as refused:
        await service.open_table(3, GUILD, ANN, "Ann", "troeven")
    assert str(refused.value) == "You already host 2 lobbies: start or abandon one first."
    assert service.get_table(3) is None and stored_tables(db_path) == 2
    await service.open_table(3, GUILD, BOB, "Bob", "troeven")  # someone else may
    # A lobby that starts no longer counts.
    await service.add_ai(1, ANN, "easy")
    await service.start_game(1, ANN)
    await service.open_table(4, GUILD, ANN, "Ann", "troeven")


async def test_lobbies_per_guild(make, db_path: Path) -> None:
    service = await make(lobbies_per_guild=2, open_cooldown_seconds=0)
    await service.open_table(1, GUILD, ANN, "Ann", "troeven")
    await service.open_table(2, GUILD, BOB, "Bob", "troeven")
    with pytest.raises(TooManyLobbies) as refused:
        await service.open_table(3, GUILD, CAT, "Cat", "troeven")
    assert str(refused.value) == (
        "This server has 2 lobbies waiting, the most allowed: join one, or try again when one"
        " has started."
    )
    assert stored_tables(db_path) == 2
    await service.open_table(3, OTHER_GUILD, CAT, "Cat", "troeven")
    await service.abandon(1, ANN)
    await service.open_table(4, GUILD, CAT, "Cat", "troika")


async def test_concurrent_opens_do_not_pass_the_limits(make, db_path: Path) -> None:
    service = await make(lobbies_per_guild=5, open_cooldown_seconds=10)
    outcomes = await asyncio.gather(
        *(service.open_table(100 + i, GUILD, ANN, "Ann", "troeven") for i in range(10)),
        *(service.open_table(200 + i, GUILD, 10 + i, "P", "troeven") for i in range(10)),
        return_exceptions=True,
    )
    opened = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert all(isinstance(o, OpeningTooFast | TooManyLobbies) for o in refused), refused
    assert len(opened) == 5 and stored_tables(db_path) == 5
    assert sum(1 for t in opened if t.host_id == ANN) == 1


async def test_opening_cooldown(make, clock: FakeClock) -> None:
    service = await make(open_cooldown_seconds=10)
    await service.open_table(1, GUILD, ANN, "Ann", "troeven")
    await service.abandon(1, ANN)
    await clock.advance(4)
    with pytest.raises(OpeningTooFast) as refused:
        await service.open_table(1, GUILD, ANN, "Ann", "troeven")
    assert str(refused.value) == "You opened a table moments ago: wait 6 s."
    assert service.get_table(1) is None
    await service.open_table(2, GUILD, BOB, "Bob", "troeven")  # only Ann waits
    await clock.advance(6)
    await service.open_table(1, GUILD, ANN, "Ann", "troeven")


async def test_hard_ai_seats_per_guild(make) -> None:
    service = await make(hard_ai_seats_per_guild=2, open_cooldown_seconds=0)
    await service.open_table(1, GUILD, ANN, "Ann", "troika")
    await service.add_ai(1, ANN, "hard")
    await service.open_table(2, GUILD, BOB, "Bob", "troika")
    await service.add_ai(2, BOB, "hard")
    with pytest.raises(TooManyHardAis) as refused:
        await service.add_ai(2, BOB, "hard")
    assert str(refused.value) == (
        "This server has 2 hard AI seats at its tables, the most allowed: choose another"
        " level, or wait for a game to end."
    )
    assert len(service.get_table(2).seats) == 2
    await service.add_ai(2, BOB, "easy")  # other levels are not counted
    await service.open_table(3, OTHER_GUILD, CAT, "Cat", "troika")
    await service.add_ai(3, CAT, "hard")  # nor other servers
    await service.abandon(1, ANN)  # an ended table frees its seats
    await service.add_ai(2, BOB, "hard")


async def test_idle_lobbies_are_closed(make, clock: FakeClock, db_path: Path) -> None:
    service = await make(lobby_idle_seconds=600, open_cooldown_seconds=0)
    recorder = RecordingListener()
    service.add_listener(recorder)
    await service.open_table(1, GUILD, ANN, "Ann", "troeven")
    await clock.advance(300)
    await service.open_table(2, GUILD, BOB, "Bob", "troeven")
    await service.open_table(3, GUILD, CAT, "Cat", "troeven", options={"timer": "off"})
    await service.add_ai(3, CAT, "easy")
    await service.start_game(3, CAT)  # a game in play is never swept
    await clock.advance(299)
    assert service.get_table(1) is not None
    await service.join(1, BOB, "Bob")  # activity: its ten minutes start again
    await clock.advance(400)  # 2 has been idle for 600 s at 900: closed
    await service.settle()  # (the sweep's commit and announcement done)
    assert service.get_table(1) is not None and service.get_table(2) is None
    await clock.advance(199)
    await service.settle()  # (the sweep's commit and announcement done)
    assert service.get_table(1) is not None
    await clock.advance(1)  # and 1 now too
    await service.settle()  # (the sweep's commit and announcement done)
    assert service.get_table(1) is None
    closed = recorder.of_type(TableAbandoned)
    assert [(e.table.channel_id, e.reason) for e in closed] == [
        (2, "nobody started it for 10 minutes"),
        (1, "nobody started it for 10 minutes"),
    ]
    assert service.get_table(3).status is TableStatus.PLAYING
    # No lobby left: the sweep stops (it starts again with the next lobby).
    assert clock.sleepers == 0
    conn = connect(db_path)
    statuses = conn.execute("SELECT channel_id, status FROM tables ORDER BY id").fetchall()
    conn.close()
    assert statuses == [(1, "abandoned"), (2, "abandoned"), (3, "playing")]
    await service.open_table(1, GUILD, ANN, "Ann", "troeven")
    await asyncio.sleep(0)
    assert clock.sleepers == 1


async def test_idle_lobbies_loaded_at_start_are_swept(make, clock: FakeClock) -> None:
    first = await make(lobby_idle_seconds=60)
    await first.open_table(1, GUILD, ANN, "Ann", "troeven")
    await first.close()
    second = await make(lobby_idle_seconds=60)
    assert second.get_table(1) is not None
    await clock.advance(61)
    await second.settle()
    assert second.get_table(1) is None


async def test_the_lock_map_is_pruned(make) -> None:
    service = await make(open_cooldown_seconds=0, lobbies_per_user=0)
    for channel in range(1, 51):
        await service.open_table(channel, GUILD, ANN, "Ann", "troeven")
    assert len(service._locks) == 50  # an open table keeps its lock
    for channel in range(1, 51):
        await service.abandon(channel, ANN)
    assert service._locks == {}
    # Refused commands on channels without a table leave nothing behind either.
    for channel in range(100, 200):
        assert service.legal_actions(channel, ANN) == []
        with pytest.raises(Exception, match="no table"):
            await service.join(channel, BOB, "Bob")
    assert service._locks == {}
    # Concurrent commands on one channel share its lock, which goes with the table.
    await service.open_table(7, GUILD, ANN, "Ann", "troeven")
    results = await asyncio.gather(
        service.join(7, BOB, "Bob"), service.abandon(7, ANN), return_exceptions=True
    )
    assert service.get_table(7) is None and service._locks == {}, results
