"""The PostgreSQL server of the session (``tests/postgres_server.py``), started the first time a
test asks for a PostgreSQL database and stopped at the session's end."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from bot.render.pool import drawing_in_threads
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
