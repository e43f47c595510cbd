"""A table service on a SQLite file and the web server over it, served by aiohttp's test client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import TableService
from bot.web.server import WebServer
from tests.bot.conftest import TEST_LIMITS, FakeClock

SECRET = b"test-secret-test-secret-test-secret"
CH = 777
HOST, BOB, CAT, DAN, WATCHER, STRANGER = 1, 2, 3, 4, 5, 6
#: One hand of Troika, no timer (the tests move at their own pace).
ONE_HAND = {"end": "rounds", "rounds": 1, "timer": "off"}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def service(tmp_path: Path, clock: FakeClock) -> AsyncIterator[TableService]:
    svc = TableService(
        tmp_path / "troika.db", clock=clock, sleep=clock.sleep, ai_delay=0, limits=TEST_LIMITS
    )
    await svc.start()
    try:
        yield svc
    finally:
        await svc.close()


@pytest.fixture
async def web(service: TableService, clock: FakeClock) -> AsyncIterator[WebServer]:
    server = WebServer(service, SECRET, clock=clock)
    yield server
    await server.stop()


@pytest.fixture
async def client(web: WebServer) -> AsyncIterator[TestClient[Any, Any]]:
    async with TestClient(TestServer(web.app())) as test_client:
        yield test_client


async def four_humans(service: TableService, seed: int = 11) -> None:
    """Troika with four humans (HOST, BOB, CAT, DAN at seats 0-3) and a watcher."""
    await service.open_table(CH, 99, HOST, "Ann", "troika", options=ONE_HAND, seed=seed)
    for user, name in ((BOB, "Bob"), (CAT, "Cat"), (DAN, "Dan")):
        await service.join(CH, user, name)
    await service.start_game(CH, HOST)
    await service.spectate(CH, WATCHER)
