"""The PostgreSQL server of the session (``tests/postgres_server.py``), started the first time a
test asks for a PostgreSQL database and stopped at the session's end."""

from __future__ import annotations

import os
import zlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from bot.render.pool import drawing_in_threads
from bot.service import deal_seeds
from tests.chromium import chromium
from tests.postgres_server import SKIP_ENV, PostgresServer


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """The session's server. It fails loudly if it cannot start: only ``TROIKA_SKIP_PG=1``
    (a machine without it; never CI) turns the PostgreSQL tests into skips."""
    if os.environ.get(SKIP_ENV) == "1":
        pytest.skip(f"{SKIP_ENV}=1: the PostgreSQL tests are skipped")
    server = PostgresServer()
    try:
        server.start()
    except BaseException:
        server.stop()
        raise
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: PostgresServer) -> Iterator[str]:
    """The URL of a database of its own holding the migrated schema and no rows."""
    name = pg_server.create_database()
    try:
        yield pg_server.url(name)
    finally:
        pg_server.release(name)


@pytest.fixture(scope="session", autouse=True)
def render_in_threads() -> Iterator[None]:
    """Pictures drawn in threads throughout the tests (``use_default_pool`` says why); the
    process pool is tested on its own (``tests/bot/test_images.py``) and measured in ``bench/``."""
    with drawing_in_threads():
        yield


@pytest.fixture(autouse=True)
def fixed_deals(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each test deals the same cards at every run, its seeds following from its name (a bot
    run in a process of its own still deals at random): a test that goes wrong on one deal goes
    wrong every time, not once in twenty runs."""
    with deal_seeds.fixed(zlib.crc32(request.node.nodeid.encode())):
        yield


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    """Debian's Chromium driven by Playwright, for the web table's browser tests: in CI it must
    be there (a skip would hide the tests), elsewhere its absence skips them."""
    executable = chromium()
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("no Chromium in CI: .ci/run installs Debian's chromium")
        pytest.skip("no Chromium here (set TROIKA_CHROMIUM or install chromium)")
    playwright_api = pytest.importorskip("playwright.async_api")
    async with playwright_api.async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=executable, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield launched
        finally:
            await launched.close()
