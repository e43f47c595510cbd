"""Start-up checks of the database (bot/storage/startup.py, instance_lock.py): each fault
refuses to start with one line naming the file and what to do, and changes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.__main__ as entry
from bot.app import run
from bot.app.client import TroikaBot
from bot.settings import ROOT, Settings
from bot.storage import Database
from bot.storage.instance_lock import InstanceLock, lock_path
from bot.storage.startup import StartupError, check_schema_seen, committed_wal_frames, wal_path


async def make_database(path: Path, rows: int = 10) -> None:
    db = Database(path)
    await db.open()
    await db.write(
        lambda c: c.executemany(
            "INSERT INTO board_hidden VALUES (?, ?, ?, ?)", [(1, i, 0.0, None) for i in range(rows)]
        )
    )
    await db.close()


def crash_image(source: Path, target: Path, *, guild: int, rows: int, pages: int = 200) -> None:
    """``target`` (+ -wal) as a process killed after committing ``rows`` rows of ``guild`` and
    ``pages`` one-page transactions would leave them: all of it only in the WAL (the files are
    copied while the connection is open, so its closing checkpoint never reaches the copy)."""
    conn = sqlite3.connect(source, isolation_level=None)
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("PRAGMA synchronous=OFF")  # the copy is what counts, not the disk
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO board_hidden VALUES (?, ?, ?, ?)",
        [(guild, i, 0.0, None) for i in range(rows)],
    )
    conn.execute("COMMIT")
    for n in range(pages):  # one transaction each: many commit frames
        conn.execute(
            "INSERT INTO guild_settings (guild_id, timer) VALUES (?, ?)",
            (guild * 1_000_000 + n, "x" * 3000),
        )
    shutil.copyfile(source, target)
    shutil.copyfile(wal_path(source), wal_path(target))
    conn.close()


async def refusal(path: Path) -> str:
    db = Database(path)
    with pytest.raises(StartupError) as caught:
        await db.open()
    assert not db.is_open
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    return message


# -- the read-only file ---------------------------------------------------------------------------
@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` as the bot's user cannot write it. Root writes any file whatever its mode, so
    as root the file is made immutable instead (``chattr +i``: even root's O_RDWR fails)."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    if shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: no way to make a file read-only")
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"running as root and chattr +i failed: {done.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


async def test_a_read_only_database_refuses_to_start(tmp_path: Path) -> None:
    path = tmp_path / "troika.db"
    await make_database(path)
    before = path.read_bytes()
    with read_only(path):
        with pytest.raises(OSError):  # really read-only, for this user too
            path.open("r+b").close()
        message = await refusal(path)
        assert "attempt to write a readonly database" in message
        assert "write access" in message
        assert path.read_bytes() == before


# -- the emptied database beside its WAL ---------------------------------------------------------
async def test_an_emptied_database_beside_a_wal_refuses_and_keeps_the_wal(tmp_path: Path) -> None:
    live = tmp_path / "live.db"
    await make_database(live)
    crashed = tmp_path / "troika.db"
    crash_image(live, crashed, guild=2, rows=50)
    assert committed_wal_frames(wal_path(crashed)) >= 200
    main_file = crashed.read_bytes()

    crashed.write_bytes(b"")  # the main file emptied, its WAL intact
    wal_before = wal_path(crashed).read_bytes()
    message = await refusal(crashed)
    assert "is empty (0 bytes)" in message and "committed transaction" in message
    assert "restore" in message
    # Nothing changed: SQLite never saw the file (it would have deleted the WAL).
    assert crashed.stat().st_size == 0 and wal_path(crashed).read_bytes() == wal_before

    crashed.write_bytes(b"\0" * 8192)  # zeroed instead of truncated: refused the same way
    assert "has no SQLite header" in await refusal(crashed)
    assert wal_path(crashed).read_bytes() == wal_before

    crashed.write_bytes(main_file)  # what the message asks for: the file restored
    db = Database(crashed)
    await db.open()
    try:
        rows = await db.run(
            lambda c: c.execute("SELECT count(*) FROM board_hidden WHERE guild_id = 2").fetchone()
        )
        assert rows[0] == 50  # the WAL the refusal kept held them
    finally:
        await db.close()


async def test_a_database_whose_wal_holds_nothing_committed_starts(tmp_path: Path) -> None:
    path = tmp_path / "troika.db"
    path.write_bytes(b"")
    wal_path(path).write_bytes(b"\0" * 100)  # a WAL that never got a valid header
    db = Database(path)
    await db.open()
    try:
        assert await db.run(lambda c: c.execute("PRAGMA user_version").fetchone()[0]) > 0
    finally:
        await db.close()


# -- a big WAL is checkpointed at open ------------------------------------------------------------
async def test_a_big_wal_left_by_a_crash_is_checkpointed_at_open(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger="bot.storage.startup")
    live = tmp_path / "live.db"
    await make_database(live)
    crashed = tmp_path / "troika.db"
    crash_image(live, crashed, guild=2, rows=1000, pages=3000)
    wal = wal_path(crashed)
    assert wal.stat().st_size > 20_000_000  # thousands of pages left behind by the "crash"
    db = Database(crashed)
    await db.open()
    try:
        assert wal.stat().st_size == 0  # copied into the database and truncated
        assert any("MB WAL at open" in record.message for record in caplog.records)
        rows = await db.run(
            lambda c: c.execute("SELECT count(*) FROM board_hidden WHERE guild_id = 2").fetchone()
        )
        assert rows[0] == 1000  # nothing committed before the crash was lost
    finally:
        await db.close()


# -- quick_check ----------------------------------------------------------------------------------
async def test_a_damaged_file_fails_quick_check_and_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "troika.db"
    await make_database(path, rows=3000)  # board_hidden spans pages under an interior root
    conn = sqlite3.connect(path)
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'board_hidden'")
    page = root.fetchone()[0]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    offset = (page - 1) * size
    assert data[offset] == 5  # an interior table page
    data[offset + 8 : offset + 12] = b"\xff\xff\xff\xff"  # its right child: page 4 billion
    path.write_bytes(bytes(data))

    message = await refusal(path)
    assert "failed PRAGMA quick_check" in message and "restore the newest backup" in message
    assert path.read_bytes() == bytes(data)


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "troika.db"
    path.write_bytes(b"this is a text file, not a database\n" * 200)
    message = await refusal(path)
    assert "not a database" in message and "DATABASE_PATH" in message


async def test_a_newer_schema_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "troika.db"
    await make_database(path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    assert "newer than this code" in await refusal(path)


# -- one bot per database -------------------------------------------------------------------------
def test_a_second_lock_on_the_same_database_is_refused(tmp_path: Path) -> None:
    lock_file = tmp_path / "troika.db"
    first = InstanceLock(lock_file).acquire()
    try:
        with pytest.raises(StartupError) as caught:
            InstanceLock(lock_file).acquire()
        message = str(caught.value)
        assert f"pid {os.getpid()}" in message and str(lock_path(lock_file)) in message
        assert "stop that process first" in message and "\n" not in message
        assert first.held
        with InstanceLock(lock_file.with_name("other.db")):  # another database: its own lock
            pass
    finally:
        first.release()
    with InstanceLock(lock_file) as again:  # released: the next process gets it
        assert again.held


HOLDER_CHILD = """
import asyncio, sys
from bot.service import Limits, TableService
from bot.storage.instance_lock import InstanceLock

async def main():
    lock = InstanceLock(sys.argv[1]).acquire()
    service = TableService(sys.argv[1], ai_delay=0, limits=Limits.none())
    await service.start()
    await service.open_table(5, None, 1, "Ann", "troeven", seed=3)
    await service.add_ai(5, 1)
    await service.start_game(5, 1)
    await service.settle()
    print("READY", service.get_table(5).move_number, flush=True)
    sys.stdin.readline()  # the parent tries to start a second bot meanwhile
    before = service.get_table(5).move_number
    await service.act(5, 1, service.legal_actions(5, 1)[0])
    await service.settle()
    print("PLAYED", before, service.get_table(5).move_number, flush=True)
    await service.close()
    lock.release()

asyncio.run(main())
"""


def test_a_second_bot_process_refuses_to_start_and_the_first_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    path = tmp_path / "troika.db"
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER_CHILD, str(path)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None and child.stdin is not None
        ready = child.stdout.readline().split()
        assert ready[0] == "READY"

        def never(self: TroikaBot, *args: object, **kwargs: object) -> None:
            raise AssertionError("the second bot must not connect to Discord")

        monkeypatch.setattr(TroikaBot, "run", never)
        settings = Settings(
            discord_token="x.y.z",
            dev_guild_id=None,
            database_path=path,
            ai_delay=0.0,
            log_level="INFO",
        )
        assert run(settings) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1
        assert f"{path} is in use by another bot process (pid {child.pid}" in err[0]

        child.stdin.write("go\n")
        child.stdin.flush()
        played = child.stdout.readline().split()
        assert played[0] == "PLAYED" and int(played[2]) > int(played[1])
        assert child.wait(timeout=60) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    # The first is gone: a bot may start on the database now (the lock died with it).
    with InstanceLock(path) as lock:
        assert lock.held


async def test_python_m_bot_refuses_a_bad_database_in_one_line_before_connecting(
    tmp_path: Path,
) -> None:
    live = tmp_path / "live.db"
    await make_database(live)
    crashed = tmp_path / "troika.db"
    crash_image(live, crashed, guild=2, rows=5)
    crashed.write_bytes(b"")
    env = {**os.environ, "DISCORD_TOKEN": "not.a.token", "DATABASE_PATH": str(crashed)}
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{crashed} is empty (0 bytes)")
    assert "Traceback" not in done.stderr and "discord" not in done.stderr.lower()


async def test_the_checkpoint_at_open_does_not_wait_for_another_process(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A terminal table opening beside the running bot: the bot's reader keeps its snapshot,
    the open neither waits the busy timeout out nor fails; the WAL is left for later."""
    path = tmp_path / "troika.db"
    running = Database(path)
    await running.open()
    try:
        await running.write(lambda c: c.execute("INSERT INTO board_hidden VALUES (1, 1, 0, NULL)"))
        reader = sqlite3.connect(path, isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM board_hidden").fetchall()  # holds a snapshot
        await running.write(lambda c: c.execute("INSERT INTO board_hidden VALUES (1, 2, 0, NULL)"))
        second = Database(path)
        started = asyncio.get_running_loop().time()
        await second.open()
        took = asyncio.get_running_loop().time() - started
        try:
            assert took < 2.0  # not the 5 s busy timeout
            assert any("WAL checkpoint at open copied" in r.message for r in caplog.records)
            await second.write(
                lambda c: c.execute("INSERT INTO board_hidden VALUES (1, 3, 0, NULL)")
            )
            count = await running.run(
                lambda c: c.execute("SELECT count(*) FROM board_hidden").fetchone()[0]
            )
            assert count == 3
        finally:
            reader.execute("COMMIT")
            reader.close()
            await second.close()
    finally:
        await running.close()


def test_a_wal_whose_commits_do_not_show_is_refused(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "troika.db", isolation_level=None)
    check_schema_seen(conn, tmp_path / "troika.db", wal_commits=0)  # a new database: fine
    with pytest.raises(StartupError, match="shows no schema although troika.db-wal holds 3"):
        check_schema_seen(conn, tmp_path / "troika.db", wal_commits=3)


async def test_a_terminal_table_on_a_bad_database_gets_the_same_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    path = tmp_path / "troika.db"
    path.write_text("not a database\n" * 100)
    code = await asyncio.to_thread(entry.main, ["local", "troika", "--db", str(path)])
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{path} cannot be used (file is not a database)")
    assert "restore the newest backup" in err[0]
