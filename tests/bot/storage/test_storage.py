"""The database layer: migrations by PRAGMA user_version, pragmas, group commit (on both
backends), the log guard (on both)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.storage import MIGRATIONS, Database, database_for, migrate, schema_version
from bot.storage import repository as repo
from bot.storage.connection import INTEGRITY_ERRORS
from tests.bot.databases import connect, wakeups_from_threads


def test_migrations_create_the_schema_and_set_the_version(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    assert schema_version(conn) == 0
    assert migrate(conn) == len(MIGRATIONS)
    assert schema_version(conn) == len(MIGRATIONS)
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"tables", "seats", "actions", "results", "result_players"} <= names
    assert migrate(conn) == len(MIGRATIONS)  # running again changes nothing


def test_a_new_migration_is_one_entry_in_the_list(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    migrate(conn)
    extra = [*MIGRATIONS, "CREATE TABLE extra_test (user_id INTEGER PRIMARY KEY, mu REAL);"]
    assert migrate(conn, extra) == len(MIGRATIONS) + 1
    conn.execute("INSERT INTO extra_test VALUES (1, 25.0)")


def test_a_failing_migration_leaves_the_version_alone(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    migrate(conn)
    broken = [*MIGRATIONS, "CREATE TABLE ok (x INTEGER); CREATE TABLE broken (;"]
    with pytest.raises(sqlite3.Error):
        migrate(conn, broken)
    assert schema_version(conn) == len(MIGRATIONS)
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "ok" not in names


def test_a_newer_database_is_refused(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    with pytest.raises(RuntimeError, match="newer"):
        migrate(conn)


async def test_database_uses_wal_and_foreign_keys(tmp_path: Path) -> None:
    db = Database(tmp_path / "sub" / "w.db")
    await db.open()
    try:
        mode = await db.run(lambda c: c.execute("PRAGMA journal_mode").fetchone()[0])
        keys = await db.run(lambda c: c.execute("PRAGMA foreign_keys").fetchone()[0])
        assert mode == "wal" and keys == 1
        with pytest.raises(sqlite3.IntegrityError):
            await db.write(
                lambda c: c.execute(
                    "INSERT INTO seats (table_id, seat, name) VALUES (12345, 0, 'x')"
                )
            )
    finally:
        await db.close()


def new_table(conn: sqlite3.Connection, channel: int) -> int:
    columns = {"channel_id": channel, "game": "troika", "host_id": 1, "status": "lobby"}
    columns |= {"seed": 1, "created_at": 0.0}
    return repo.insert_table(conn, columns, [repo.Seat(index=0, name="Ann", user_id=1)])


async def test_group_commit_isolates_a_failing_write(db_path: Path | str) -> None:
    db = database_for(db_path)
    await db.open()
    try:
        results = await asyncio.gather(
            db.write(lambda c: new_table(c, 1)),
            db.write(lambda c: new_table(c, 1)),  # a second open table in channel 1: refused
            db.write(lambda c: new_table(c, 2)),
            return_exceptions=True,
        )
        assert isinstance(results[1], INTEGRITY_ERRORS)
        assert isinstance(results[0], int) and isinstance(results[2], int)
        rows = await db.run(lambda c: c.execute("SELECT channel_id FROM tables").fetchall())
        assert sorted(rows) == [(1,), (2,)]
    finally:
        await db.close()


async def test_writes_queued_at_close_are_committed(db_path: Path | str) -> None:
    db = database_for(db_path)
    await db.open()
    pending = [asyncio.ensure_future(db.write(lambda c, n=n: new_table(c, n))) for n in range(50)]
    await asyncio.sleep(0)
    await db.close()
    assert all(task.done() and not task.exception() for task in pending)
    conn = connect(db_path)
    try:
        assert conn.execute("SELECT count(*) FROM tables").fetchone()[0] == 50
    finally:
        conn.close()


async def test_the_log_refuses_a_skipped_or_repeated_move(db_path: Path | str) -> None:
    db = database_for(db_path)
    await db.open()
    try:
        table_id = await db.write(lambda c: new_table(c, 1))

        def move(number: int):
            return lambda c: repo.record_action(
                c,
                table_id,
                move_number=number,
                seat=0,
                action="pass",
                source="player",
                user_id=1,
                at=1.0,
                snapshot="{}",
                hands=0,
                deadlines={0: 5.0},
            )

        await db.write(move(1))
        with pytest.raises(repo.StaleWrite):
            await db.write(move(1))
        with pytest.raises(repo.StaleWrite):
            await db.write(move(3))
        await db.write(move(2))
        row = await db.run(lambda c: repo.load_table(c, table_id))
        assert row is not None and row.columns["move_number"] == 2
        assert row.columns["deadlines"] == '{"0":5.0}'

        actions = await db.run(lambda c: repo.load_actions(c, table_id))
        assert [a.move_number for a in actions] == [1, 2]
    finally:
        await db.close()


@pytest.mark.parametrize(
    ("limit", "pause"),
    [(8192, 0.01), (1, 0.0)],
    ids=["writes-pause-and-passes-catch-up", "no-pause-and-the-writer-takes-over"],
)
async def test_the_wal_stays_bounded_while_writes_go_on(
    tmp_path: Path, monkeypatch, limit: int, pause: float
) -> None:
    from bot.storage import db as db_module

    monkeypatch.setattr(db_module, "CHECKPOINT_EVERY", 100)
    monkeypatch.setattr(db_module, "WAL_FRAMES_LIMIT", limit)
    on_writer = []
    original = Database._checkpoint_on_writer

    async def spy(self: Database) -> None:
        on_writer.append(1)
        await original(self)

    monkeypatch.setattr(Database, "_checkpoint_on_writer", spy)
    db = Database(tmp_path / "wal.db")
    await db.open()
    try:
        ids = [await db.write(lambda c, n=n: new_table(c, n)) for n in range(20)]
        snapshot = "x" * 3000  # about one page per snapshot
        for move in range(1, 101):
            await asyncio.gather(
                *(
                    db.write(
                        lambda c, t=t, m=move: repo.record_action(
                            c,
                            t,
                            move_number=m,
                            seat=0,
                            action="pass",
                            source="player",
                            user_id=1,
                            at=1.0,
                            snapshot=snapshot + str(m),
                            hands=0,
                            deadlines={},
                        )
                    )
                    for t in ids
                )
            )
            await asyncio.sleep(pause)  # players think between moves: the passes catch up
        if pause == 0:
            # The writer takes over when a pass ends with the WAL not restarted: the pass runs on
            # another thread, and on a loaded machine it may end only after the last batch, so
            # keep writing (as a busy bot does) until the writer has looked at its outcome.
            for n in range(400):
                if on_writer:
                    break
                await asyncio.sleep(0.005)
                await db.write(lambda c, n=n: new_table(c, 1000 + n))
            # The writer copied every frame: the next commits start the WAL afresh.
            for n in range(3):
                await db.write(lambda c, n=n: new_table(c, 2000 + n))
        # Frames in the WAL since it last started afresh: 2,000 writes of a page or more would
        # leave over 2,000 without checkpoints.
        frames = await db.run(lambda c: c.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone())
        assert frames[1] < 1000
        # With pauses the writer never holds commits back to copy frames; without, it must.
        assert bool(on_writer) is (pause == 0)
        marks = ",".join("?" * len(ids))
        query = f"SELECT sum(move_number) FROM tables WHERE id IN ({marks})"
        rows = await db.run(lambda c: c.execute(query, ids).fetchone())
        assert rows[0] == 20 * 100
    finally:
        await db.close()


async def test_a_shielded_write_outlives_its_cancelled_caller(db_path: Path | str) -> None:
    """``submit(shielded=True)``: cancelling the task that awaits the write does not cancel its
    future; the task wakes with its CancelledError once the write is committed, and the
    outcome is on the future."""
    db = database_for(db_path)
    await db.open()
    try:
        future = db.submit(lambda c: new_table(c, 1), shielded=True)
        assert not future.cancel() and not future.cancelled()
        seen: list[bool] = []

        async def caller() -> None:
            try:
                await future
            except asyncio.CancelledError:
                seen.append(future.done())
                raise

        task = asyncio.ensure_future(caller())
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert seen == [True] and isinstance(future.result(), int)
        rows = await db.run(lambda c: c.execute("SELECT channel_id FROM tables").fetchall())
        assert rows == [(1,)]
    finally:
        await db.close()


async def test_writes_queued_during_a_commit_follow_it_on_the_database_thread(
    db_path: Path | str,
) -> None:
    """Writes queued while a batch is on the disk are committed next by the database's thread
    itself, not after a round trip through the writer task: the writer's between-batches step
    (``_after_batch``) runs once for both batches."""
    import threading

    db = database_for(db_path)
    await db.open()
    steps: list[int] = []
    after_batch = db._after_batch

    async def counted(writes: int) -> None:
        steps.append(writes)
        await after_batch(writes)

    db._after_batch = counted  # type: ignore[method-assign]
    started, release = threading.Event(), threading.Event()

    def slow(conn: sqlite3.Connection) -> int:
        started.set()
        release.wait(5)
        return new_table(conn, 1)

    try:
        first = db.submit(slow)
        while not started.is_set():
            await asyncio.sleep(0.001)
        others = [db.submit(lambda c, n=n: new_table(c, n)) for n in (2, 3, 4)]
        release.set()
        await asyncio.gather(first, *others)
        while not steps:
            await asyncio.sleep(0.001)
        assert steps == [4]
        rows = await db.run(lambda c: c.execute("SELECT count(*) FROM tables").fetchall())
        assert rows == [(4,)]
    finally:
        await db.close()


async def test_a_write_to_an_idle_writer_reaches_the_thread_at_once(db_path: Path | str) -> None:
    """``submit`` hands a write to the database's thread itself when the writer is idle: it
    runs there before the loop's next turn (the writer task would need that turn)."""
    import threading

    db = database_for(db_path)
    await db.open()
    try:
        for _ in range(5):
            await asyncio.sleep(0)  # the writer waits for writes
        ran = threading.Event()

        def write(conn: sqlite3.Connection) -> int:
            ran.set()
            return new_table(conn, 1)

        future = db.submit(write)
        assert ran.wait(5), "the write waited for a turn of the loop"  # (blocks the loop)
        assert isinstance(await future, int)
        following = [db.submit(lambda c, n=n: new_table(c, n)) for n in (2, 3)]
        await asyncio.gather(*following)
        rows = await db.run(lambda c: c.execute("SELECT count(*) FROM tables").fetchall())
        assert rows == [(3,)]
    finally:
        await db.close()


async def test_a_commit_wakes_the_loop_once(tmp_path: Path) -> None:
    """On SQLite a write's way back is one wake-up of the loop: the thread resolves the write's
    future and the writer task's together (aiosqlite is given no future of its own to resolve,
    which would cost a second write to the loop's self-pipe)."""
    db = Database(tmp_path / "t.db")
    await db.open()
    try:
        for _ in range(5):
            await asyncio.sleep(0)  # the writer waits for writes
        with wakeups_from_threads(asyncio.get_running_loop()) as wakeups:
            assert isinstance(await db.submit(lambda c: new_table(c, 1)), int)
            for _ in range(5):
                await asyncio.sleep(0)  # the writer task has had its turn
        assert wakeups == ["_resolve"]
        assert db._writer is not None and not db._writer.done() and db._started is None
        rows = await db.run(lambda c: c.execute("SELECT count(*) FROM tables").fetchall())
        assert rows == [(1,)]
    finally:
        await db.close()


def test_the_deadlines_column_is_the_text_dumps_gives() -> None:
    """``deadlines_json`` writes the usual content (int seats, finite float times) itself: the
    same text as ``dumps`` of the seats as text, seats "10" before "2", any float's repr."""
    import json
    import random

    def reference(deadlines: dict[Any, Any]) -> str:
        return json.dumps(
            {str(seat): at for seat, at in deadlines.items()}, separators=(",", ":"), sort_keys=True
        )

    rng = random.Random(7)
    cases: list[dict[Any, Any]] = [{}, {0: 1795866429.8422148}, {2: 1e22}, {1: -0.0}, {3: 5e-324}]
    cases += [{10: 1.5, 2: 2.5, 1: 3.5}, {-1: 1.0, 0: 2.0}, {0: 17}, {0: True}, {"0": 1.0}]
    cases += [{0: float("nan")}, {1: float("inf"), 0: 1.0}, {0: None}]
    for _ in range(500):
        seats = rng.sample(range(-2, 12), rng.randint(1, 6))
        cases.append(
            {
                s: rng.choice([rng.uniform(0, 2e9), rng.random(), 1.0 * rng.randint(0, 9)])
                for s in seats
            }
        )
    for deadlines in cases:
        assert repo.deadlines_json(deadlines) == reference(deadlines), deadlines
