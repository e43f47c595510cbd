"""The commit window (``bot.storage.commit_window``): a lone write commits at once; writes that
come while others are in flight wait a moment on the database's thread and share a transaction
(on both backends)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.storage import database_for, group_commit
from bot.storage import repository as repo
from bot.storage.commit_window import CommitWindow
from tests.bot.databases import wakeups_from_threads


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_window_waits_only_while_writes_have_siblings() -> None:
    clock, slept = FakeClock(), []
    window = CommitWindow(0.003, busy_for=0.02, clock=clock, sleep=slept.append)
    assert not window.wait() and slept == []  # idle: never a sibling
    window.sibling()
    clock.now += 0.019
    assert window.wait() and slept == [0.003]
    clock.now += 0.001  # busy_for after the last sibling: idle again
    assert not window.wait() and slept == [0.003]
    assert window.waited == 1
    window.sibling()
    off = CommitWindow(0, clock=clock, sleep=slept.append)
    off.sibling()
    assert not off.wait() and slept == [0.003] and off.waited == 0


def new_table(conn: Any, channel: int) -> int:
    columns = {"channel_id": channel, "game": "troika", "host_id": 1, "status": "lobby"}
    columns |= {"seed": 1, "created_at": 0.0}
    return repo.insert_table(conn, columns, [repo.Seat(index=0, name="Ann", user_id=1)])


@pytest.fixture
def batch_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of writes in each transaction the group commit opens."""
    sizes: list[int] = []
    commit_batch = group_commit.commit_batch

    def counted(conn: Any, *, writes: list[Any], begin: str = "BEGIN") -> Any:
        sizes.append(len(writes))
        return commit_batch(conn, writes=writes, begin=begin)

    monkeypatch.setattr(group_commit, "commit_batch", counted)
    return sizes


async def test_a_lone_write_on_an_idle_database_commits_without_waiting(
    db_path: Path | str, batch_sizes: list[int]
) -> None:
    """A caller that awaits each write before the next has no siblings: no window, ever (the
    window is an hour long and busy for an hour once a sibling came: a single one would show)."""
    db = database_for(db_path)
    await db.open()
    slept: list[float] = []
    db._window = window = CommitWindow(3600, busy_for=3600, sleep=slept.append)
    try:
        for n in range(5):
            assert isinstance(await db.write(lambda c, n=n: new_table(c, n)), int)
        assert window.waited == 0 and slept == []
        assert batch_sizes == [1] * 5
    finally:
        await db.close()


async def test_writes_in_a_burst_share_the_windows_transaction(
    db_path: Path | str, batch_sizes: list[int]
) -> None:
    """A write submitted while another is in flight makes the database busy; the next batch
    then waits its window on the database's thread, and the writes submitted meanwhile are
    committed with it, in one transaction, their futures resolved by one wake-up of the loop."""
    db = database_for(db_path)
    await db.open()
    entered, release = threading.Event(), threading.Event()

    def held_window(seconds: float) -> None:  # (on the database's thread)
        entered.set()
        assert release.wait(5)

    db._window = window = CommitWindow(0.003, busy_for=3600, sleep=held_window)
    started, go_on = threading.Event(), threading.Event()

    def slow(conn: Any) -> int:
        started.set()
        go_on.wait(5)
        return new_table(conn, 1)

    try:
        first = db.submit(slow)  # alone: no window
        while not started.is_set():
            await asyncio.sleep(0.001)
        second = db.submit(lambda c: new_table(c, 2))  # a sibling: busy from now on
        go_on.set()
        await asyncio.gather(first, second)
        assert window.waited == 0 and batch_sizes == [1, 1]

        with wakeups_from_threads(asyncio.get_running_loop()) as wakeups:
            lone = db.submit(lambda c: new_table(c, 3))
            while not entered.is_set():  # the thread waits in the window, the loop goes on
                await asyncio.sleep(0.001)
            burst = [db.submit(lambda c, n=n: new_table(c, n)) for n in (4, 5, 6)]
            assert not lone.done()
            release.set()
            ids = await asyncio.gather(lone, *burst)
        assert window.waited == 1 and batch_sizes == [1, 1, 4]
        assert len(set(ids)) == 4
        assert wakeups.count("_resolve") == 1
        rows = await db.run(lambda c: c.execute("SELECT count(*) FROM tables").fetchall())
        assert rows == [(6,)]
    finally:
        release.set()
        go_on.set()
        await db.close()


async def test_the_window_waits_on_the_database_thread(tmp_path: Path) -> None:
    """The window is the database's thread sleeping: the loop is not held meanwhile."""
    db = database_for(tmp_path / "t.db")
    await db.open()
    waited_on: list[str] = []

    def sleep(seconds: float) -> None:
        waited_on.append(threading.current_thread().name)

    db._window = CommitWindow(0.003, busy_for=3600, sleep=sleep)
    try:
        await asyncio.gather(*(db.write(lambda c, n=n: new_table(c, n)) for n in range(3)))
        await db.write(lambda c: new_table(c, 9))  # busy: the burst's writes were siblings
        assert waited_on and set(waited_on) == {"tt-db-writer"}
        count = await db.run(lambda c: c.execute("SELECT count(*) FROM tables").fetchone()[0])
        assert count == 4
    finally:
        await db.close()
