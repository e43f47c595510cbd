"""Fixtures for the table service tests: a controllable clock and a service on a real database,
once on a SQLite file in ``tmp_path`` and once on a PostgreSQL database of its own."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from bot.service import Limits, RecordingListener, TableService
from bot.storage import repository as repo
from tests.bot.databases import BACKENDS, connect


class FakeClock:
    """Wall clock and sleeping under the test's control: ``advance`` moves time and wakes
    every sleeper whose time has come."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        if delay <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (self.now + delay, future)
        self._sleepers.append(entry)
        try:
            await future
        finally:
            if entry in self._sleepers:
                self._sleepers.remove(entry)

    @property
    def sleepers(self) -> int:
        return sum(1 for _, f in self._sleepers if not f.done())

    async def advance(self, seconds: float) -> None:
        self.now += seconds
        for target, future in list(self._sleepers):
            if target <= self.now and not future.done():
                future.set_result(None)
        for _ in range(5):
            await asyncio.sleep(0)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=BACKENDS)
def db_path(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """The test's database: a SQLite file's path, or the URL of a PostgreSQL database of its own
    (what ``TableService`` takes; ``tests.bot.databases.connect`` opens either). A module whose
    tests are SQLite's alone overrides it."""
    if request.param == "sqlite":
        return tmp_path / "troika.db"
    return str(request.getfixturevalue("pg_url"))


#: The default limits but the opening cooldown: the tests' clock stands still unless they move
#: it, and many open table after table (tests/bot/service/test_service_limits.py: the cooldown).
TEST_LIMITS = Limits(open_cooldown_seconds=0)


@pytest.fixture
async def service(db_path: Path | str, clock: FakeClock) -> AsyncIterator[TableService]:
    svc = TableService(db_path, clock=clock, sleep=clock.sleep, ai_delay=0, limits=TEST_LIMITS)
    await svc.start()
    try:
        yield svc
    finally:
        await svc.close()


@pytest.fixture
def recorder(service: TableService) -> RecordingListener:
    listener = RecordingListener()
    service.add_listener(listener)
    return listener


def replay_log(db_path: Path | str, table_id: int) -> tuple[engine.Game, engine.Game, int]:
    """(the game rebuilt from its dealt game and the whole action log, the stored game: its last
    snapshot and the logged moves after it replayed, or, for a finished game whose log was
    compacted, the replay itself, the stored move number). Every logged action must apply: a
    refused one raises IllegalAction."""
    conn = connect(db_path)
    try:
        snapshot, snapshot_move, moves = conn.execute(
            "SELECT snapshot, snapshot_move, move_number FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        log = repo.load_game(conn, table_id)
    finally:
        conn.close()
    actions = log.actions
    assert [row.move_number for row in actions] == list(range(1, len(actions) + 1)), "contiguous"
    assert log.initial_snapshot is not None
    game = engine.load(log.initial_snapshot)
    for row in actions:
        game.apply(row.seat, row.action)
    if snapshot is None:  # a finished game: the replay is all there is
        return game, game, moves
    stored = engine.load(snapshot)
    for row in actions[snapshot_move:]:
        stored.apply(row.seat, row.action)
    return game, stored, moves
