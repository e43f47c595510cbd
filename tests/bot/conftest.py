"""Fixtures for the table service tests: a controllable clock and a service on a real SQLite
file in ``tmp_path``."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from bot.service import Limits, RecordingListener, TableService


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


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "troika.db"


#: The default limits but the opening cooldown: the tests' clock stands still unless they move
#: it, and many open table after table (tests/bot/test_service_limits.py covers the cooldown).
TEST_LIMITS = Limits(open_cooldown_seconds=0)


@pytest.fixture
async def service(db_path: Path, clock: FakeClock) -> AsyncIterator[TableService]:
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


def replay_log(db_path: Path, table_id: int) -> tuple[engine.Game, engine.Game, int]:
    """(the game rebuilt from its initial snapshot and the action log, the stored game, the
    stored move number). Every logged action must apply: a refused one raises IllegalAction."""
    conn = sqlite3.connect(db_path)
    try:
        initial, snapshot, moves = conn.execute(
            "SELECT initial_snapshot, snapshot, move_number FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        log = conn.execute(
            "SELECT move_number, seat, action FROM actions WHERE table_id = ? ORDER BY move_number",
            (table_id,),
        ).fetchall()
    finally:
        conn.close()
    assert [row[0] for row in log] == list(range(1, len(log) + 1)), "moves are contiguous"
    game = engine.load(initial)
    for _, seat, action in log:
        game.apply(seat, action)
    return game, engine.load(snapshot), moves
