"""One bad row, one damaged game, one failed write: the service keeps serving the other tables.

Each malformed column and snapshot kind is written into a stored table; the service still
starts, the other tables play on, the bad one is listed as broken (``guild_tables``, what
``/admin tables`` shows), its channel takes a new table and ``close_broken`` (``/admin end``)
closes it. A game that raises on a command gets a refusal, never the raw error. A move the
database refuses (N times, or a full disk) is retried with backoff and the table resumes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service import (
    ActionApplied,
    ActionSource,
    NoTable,
    RecordingListener,
    TableBroken,
    TableError,
    TableService,
    TableSetAside,
    TableStalled,
    TableStatus,
)
from bot.service import driver as driver_module
from bot.storage import repository as repo
from tests.bot.conftest import TEST_LIMITS, FakeClock, replay_log
from tests.bot.databases import connect

GUILD = 77
BAD, GOOD, LOBBY = 101, 102, 103
HOST, BOB, CAT = 1, 2, 3
NO_TIMER = {"timer": "off"}


def new_service(db_path: Path, clock: FakeClock) -> TableService:
    return TableService(db_path, clock=clock, sleep=clock.sleep, ai_delay=0, limits=TEST_LIMITS)


async def human_vs_ai(service: TableService, channel: int, host: int, seed: int) -> None:
    """A Troeven game: ``host`` against an easy AI, started."""
    name = f"P{host}"
    await service.open_table(channel, GUILD, host, name, "troeven", options=NO_TIMER, seed=seed)
    await service.add_ai(channel, host, "easy")
    await service.start_game(channel, host)


async def play_moves(service: TableService, channel: int, user: int, moves: int) -> int:
    """The user plays ``moves`` legal moves (the AI answering); returns the move number."""
    for _ in range(moves):
        await service.settle()
        legal = service.legal_actions(channel, user)
        if not legal:
            break
        await service.act(channel, user, legal[0])
    await service.settle()
    table = service.get_table(channel)
    return 0 if table is None else table.move_number


async def make_tables(db_path: Path, clock: FakeClock) -> None:
    """Two games in play (BAD, GOOD) and a lobby, stored; the service is closed after."""
    service = new_service(db_path, clock)
    await service.start()
    await human_vs_ai(service, BAD, HOST, seed=5)
    await human_vs_ai(service, GOOD, BOB, seed=6)
    await play_moves(service, BAD, HOST, 2)
    await play_moves(service, GOOD, BOB, 2)
    await service.open_table(LOBBY, GUILD, CAT, "Cat", "troika")
    await service.spectate(BAD, CAT)
    await service.close()


def edit_row(db_path: Path, channel: int, column: str, change: Callable[[Any], Any]) -> None:
    conn = connect(db_path)
    try:
        (value,) = conn.execute(
            f"SELECT {column} FROM tables WHERE channel_id = ? AND status = 'playing'", (channel,)
        ).fetchone()
        conn.execute(
            f"UPDATE tables SET {column} = ? WHERE channel_id = ? AND status = 'playing'",
            (change(value), channel),
        )
        conn.commit()
    finally:
        conn.close()


def drop_state_key(key: str) -> Callable[[str], str]:
    def change(snapshot: str) -> str:
        data = json.loads(snapshot)
        del data["state"][key]
        return json.dumps(data)

    return change


def drop_key(key: str) -> Callable[[str], str]:
    def change(snapshot: str) -> str:
        data = json.loads(snapshot)
        del data[key]
        return json.dumps(data)

    return change


#: (column, how it is damaged, a word the reason must hold)
FAULTS: dict[str, tuple[str, Callable[[Any], Any], str]] = {
    "spectators malformed": ("spectators", lambda _: "[1, 2", "column spectators"),
    "spectators not ids": ("spectators", lambda _: '{"a": 1}', "column spectators"),
    "options malformed": ("options", lambda _: "{bad json", "column options"),
    "overrides malformed": ("overrides", lambda _: "[1,", "column overrides"),
    "deadlines malformed": ("deadlines", lambda _: "{oops", "column deadlines"),
    "deadline key not a number": ("deadlines", lambda _: '{"north": 1.0}', "column deadlines"),
    "deadline not a number": ("deadlines", lambda _: '{"0": "soon"}', "column deadlines"),
    "unknown game": ("game", lambda _: "chess", "column game"),
    "snapshot without state": ("snapshot", drop_key("state"), "KeyError"),
    "snapshot state without turn": ("snapshot", drop_state_key("turn"), "KeyError"),
    "snapshot state without trick": ("snapshot", drop_state_key("trick"), "KeyError"),
    "snapshot state without scores": ("snapshot", drop_state_key("scores"), "KeyError"),
    # (reads fine; only a move needs it: the probe's trial move finds it)
    "snapshot state without players": ("snapshot", drop_state_key("players"), "KeyError"),
    "snapshot not json": ("snapshot", lambda s: s[: len(s) // 2], "JSONDecodeError"),
    "snapshot missing": ("snapshot", lambda _: None, "no snapshot"),
}


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_a_bad_row_is_set_aside_and_the_rest_plays_on(
    fault: str, db_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    column, change, reason_word = FAULTS[fault]
    await make_tables(db_path, clock)
    edit_row(db_path, BAD, column, change)

    service = new_service(db_path, clock)
    with caplog.at_level(logging.ERROR, logger="bot.service.service"):
        await service.start()  # does not raise
    try:
        # Logged once, with the table id and the channel.
        logged = [r.getMessage() for r in caplog.records if "set aside" in r.getMessage()]
        assert len(logged) == 1 and f"(channel {BAD})" in logged[0], logged
        # The bad one is listed as broken with its reason; the others are open as before.
        listed = {t.channel_id: t for t in service.guild_tables(GUILD)}
        assert listed[BAD].status is TableStatus.BROKEN
        assert reason_word in (listed[BAD].reason or ""), listed[BAD].reason
        assert listed[GOOD].status is TableStatus.PLAYING
        assert listed[LOBBY].status is TableStatus.LOBBY
        assert service.get_table(BAD) is None
        with pytest.raises(NoTable):
            await service.act(BAD, HOST, "anything")
        # Its row says so.
        conn = connect(db_path)
        status, reason = conn.execute(
            "SELECT status, broken_reason FROM tables WHERE channel_id = ? ORDER BY id DESC",
            (BAD,),
        ).fetchone()
        conn.close()
        assert status == "broken" and reason_word in reason

        # The other tables play on.
        before = service.get_table(GOOD).move_number
        assert await play_moves(service, GOOD, BOB, 3) > before
        await service.join(LOBBY, HOST, "Ann")

        # The channel takes a new table; then an admin closes the broken one.
        await human_vs_ai(service, BAD, HOST, seed=9)
        assert service.get_table(BAD).status is TableStatus.PLAYING
        closed = await service.close_broken(BAD, GUILD)
        assert [t.status for t in closed] == [TableStatus.BROKEN]
        assert service.get_table(BAD) is not None, "the new table stays"
        assert all(t.status is not TableStatus.BROKEN for t in service.guild_tables(GUILD))
        assert await service.close_broken(BAD, GUILD) == []
    finally:
        await service.close()

    # After a restart the closed one stays closed (abandoned, no result) and nothing is broken.
    again = new_service(db_path, clock)
    await again.start()
    try:
        assert {t.status for t in again.guild_tables(GUILD)} == {
            TableStatus.PLAYING,
            TableStatus.LOBBY,
        }
        conn = connect(db_path)
        statuses = conn.execute("SELECT status FROM tables ORDER BY id").fetchall()
        results = conn.execute("SELECT count(*) FROM results").fetchone()[0]
        conn.close()
        assert statuses[0] == ("abandoned",) and results == 0
    finally:
        await again.close()


async def test_a_broken_table_is_still_listed_after_a_restart(
    db_path: Path, clock: FakeClock
) -> None:
    await make_tables(db_path, clock)
    edit_row(db_path, BAD, "options", lambda _: "{")
    for _ in range(2):
        service = new_service(db_path, clock)
        await service.start()
        broken = [t for t in service.guild_tables(GUILD) if t.status is TableStatus.BROKEN]
        await service.close()
        assert [(t.channel_id, t.title) for t in broken] == [(BAD, "2-Player Troeven")]
        assert broken[0].players == ("P1", "AI 1 (easy)")


async def test_an_old_style_window_deadline_is_still_read(db_path: Path, clock: FakeClock) -> None:
    await make_tables(db_path, clock)
    edit_row(db_path, GOOD, "deadlines", lambda _: '{"-1": 1900000000.0}')
    service = new_service(db_path, clock)
    await service.start()
    try:
        table = service.get_table(GOOD)
        assert table is not None and table.window_deadline == 1900000000.0
        assert dict(table.deadlines) == {}
    finally:
        await service.close()


# -- a game that raises when used ------------------------------------------------------------
def raising(error: Exception) -> Callable[..., Any]:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise error

    return fail


async def test_a_game_that_raises_on_a_command_is_refused_and_set_aside(
    service: TableService, recorder: RecordingListener
) -> None:
    await human_vs_ai(service, BAD, HOST, seed=5)
    await human_vs_ai(service, GOOD, BOB, seed=6)
    await service.settle()
    live = service._tables[BAD]
    assert live.game is not None
    live.game.to_act = raising(KeyError("turn"))  # type: ignore[method-assign]

    with pytest.raises(TableBroken) as refused:
        await service.act(BAD, HOST, "anything")
    assert "/admin end" in str(refused.value) and len(str(refused.value)) < 200
    # Set aside once: the channel is free, the table is told, the next command finds nothing.
    assert service.get_table(BAD) is None
    assert [e.reason for e in recorder.of_type(TableSetAside)] == ["KeyError: 'turn'"]
    with pytest.raises(NoTable):
        await service.act(BAD, HOST, "anything")
    broken = [t for t in service.guild_tables(GUILD) if t.status is TableStatus.BROKEN]
    assert [t.channel_id for t in broken] == [BAD]
    await human_vs_ai(service, BAD, CAT, seed=8)  # /new works there
    assert [t.table_id for t in await service.close_broken(BAD, GUILD)] == [live.id]
    assert await play_moves(service, GOOD, BOB, 2) > 0


async def test_reads_of_a_raising_game_are_refusals(service: TableService) -> None:
    await human_vs_ai(service, BAD, HOST, seed=5)
    await service.settle()
    live = service._tables[BAD]
    assert live.game is not None
    live.game.view = raising(KeyError("hands"))  # type: ignore[method-assign]
    assert service.public_view(BAD) is None
    with pytest.raises(TableBroken):
        service.view(BAD, HOST)
    # The background check takes the lock, probes, and sets the table aside.
    await asyncio.wait_for(asyncio.gather(*service._checks), 5)
    assert service.get_table(BAD) is None
    assert [t.channel_id for t in service.guild_tables(GUILD)] == [BAD]


async def test_a_move_the_game_chokes_on_is_refused_and_changes_nothing(
    service: TableService,
) -> None:
    await human_vs_ai(service, BAD, HOST, seed=5)
    await service.settle()
    live = service._tables[BAD]
    assert live.game is not None
    before = live.game.to_json()
    legal = service.legal_actions(BAD, HOST)
    real_apply = type(live.game).apply
    live.game.apply = raising(IndexError("list index out of range"))  # type: ignore[method-assign]
    with pytest.raises(TableError) as refused:
        await service.act(BAD, HOST, legal[0])
    assert not isinstance(refused.value, TableBroken), "the game itself reads fine"
    assert "nothing changed" in str(refused.value)
    # The table is as it was (its game reloaded from the committed snapshot) and plays on.
    assert service._tables[BAD].game.to_json() == before
    assert service._tables[BAD].game.apply.__func__ is real_apply  # type: ignore[attr-defined]
    await service.act(BAD, HOST, legal[0])
    assert service.get_table(BAD).move_number >= 1


async def test_an_admin_can_end_a_game_whose_view_raises(service: TableService) -> None:
    await human_vs_ai(service, BAD, HOST, seed=5)
    await service.settle()
    live = service._tables[BAD]
    assert live.game is not None
    live.game.view = raising(KeyError("scores"))  # type: ignore[method-assign]
    ended = await service.force_end(BAD, 999, "a server admin ended it")
    assert ended.status is TableStatus.ABANDONED and service.get_table(BAD) is None


# -- refused writes -----------------------------------------------------------------------------
class FlakyLog:
    """``repo.record_action`` that fails the AI's next ``times`` moves with ``error``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, times: int, error: Exception) -> None:
        self.left = times
        self.error = error
        self.failed = 0
        self.real = repo.record_action
        monkeypatch.setattr(repo, "record_action", self)

    def __call__(self, conn: sqlite3.Connection, table_id: int, **kwargs: Any) -> None:
        if kwargs["source"] == ActionSource.AI.value and self.left > 0:
            self.left -= 1
            self.failed += 1
            raise self.error
        self.real(conn, table_id, **kwargs)


async def ai_to_move(service: TableService) -> int:
    """A Troeven table where the human just moved and the AI is to answer; its move number."""
    await human_vs_ai(service, BAD, HOST, seed=5)
    await service.settle()
    while True:
        legal = service.legal_actions(BAD, HOST)
        await service.act(BAD, HOST, legal[0])
        table = service.get_table(BAD)
        if table.to_act and table.seat(table.to_act[0]).is_ai:
            return table.move_number
        await service.settle()


@pytest.mark.parametrize(
    ("times", "error"),
    [
        (1, sqlite3.OperationalError("database is locked")),
        (3, sqlite3.OperationalError("disk I/O error")),
        (7, sqlite3.OperationalError("database or disk is full")),
    ],
)
async def test_refused_ai_writes_are_retried_with_backoff_and_the_table_resumes(
    times: int,
    error: Exception,
    service: TableService,
    recorder: RecordingListener,
    clock: FakeClock,
    db_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    flaky = FlakyLog(monkeypatch, 0, error)
    moved = await ai_to_move(service)
    # ``act`` returned without yielding to the loop: the AI's driver has not run yet.
    flaky.left = times
    waits = []
    for attempt in range(1, times + 1):
        await service.settle()
        assert flaky.failed == attempt
        table = service.get_table(BAD)
        assert table.move_number == moved, "the refused move is not applied"
        assert table.to_act and table.seat(table.to_act[0]).is_ai
        delay = driver_module.retry_delay(attempt)
        waits.append(delay)
        await clock.advance(delay - 0.01)
        assert flaky.failed == attempt, "not before its time"
        await clock.advance(0.01)
    await service.settle()
    assert service.get_table(BAD).move_number > moved, "the AI moved once the disk took it"
    ai_moves = [e for e in recorder.of_type(ActionApplied) if e.source is ActionSource.AI]
    assert ai_moves and ai_moves[-1].move_number > moved
    assert waits == [min(0.5 * 2**i, 30.0) for i in range(times)]
    stalls = recorder.of_type(TableStalled)
    if times >= driver_module.STALL_AFTER:
        assert len(stalls) == 1 and str(error) in stalls[0].reason
    else:
        assert stalls == []
    # The game goes on, and the log replays to the stored game.
    assert await play_moves(service, BAD, HOST, 3) > moved + 1
    replayed, stored, _ = replay_log(db_path, service.get_table(BAD).id)
    assert replayed == stored == service._tables[BAD].game


async def test_a_refused_timeout_move_is_retried(
    service: TableService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    await service.open_table(BAD, GUILD, HOST, "Ann", "troeven", options={"timer": 30}, seed=5)
    await service.join(BAD, BOB, "Bob")
    await service.start_game(BAD, HOST)
    real = repo.record_action
    failures = []

    def flaky(conn: sqlite3.Connection, table_id: int, **kwargs: Any) -> None:
        if kwargs["source"] == ActionSource.TIMEOUT.value and len(failures) < 2:
            failures.append(kwargs["move_number"])
            raise sqlite3.OperationalError("database or disk is full")
        real(conn, table_id, **kwargs)

    monkeypatch.setattr(repo, "record_action", flaky)
    await clock.advance(30)
    await service.settle()
    assert failures == [1] and service.get_table(BAD).move_number == 0
    await clock.advance(0.5)
    await service.settle()
    assert failures == [1, 1]
    await clock.advance(1.0)
    await service.settle()
    assert service.get_table(BAD).move_number == 1, "the timed-out move was made"


async def test_a_failed_commit_between_snapshots_restores_the_committed_game(
    service: TableService, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await service.open_table(BAD, GUILD, HOST, "Ann", "troeven", options={"timer": "off"}, seed=9)
    await service.join(BAD, BOB, "Bob")
    await service.start_game(BAD, HOST)

    async def move() -> None:
        user = next(u for u in (HOST, BOB) if service.legal_actions(BAD, u))
        await service.act(BAD, user, service.legal_actions(BAD, user)[0])

    for _ in range(5):
        await move()
    live = service._tables[BAD]
    assert live.snapshot_move < live.move_number == 5  # the last moves are only in the log
    committed = live.game.to_json()

    def refused(conn: sqlite3.Connection, table_id: int, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as patch:
        patch.setattr(repo, "record_action", refused)
        with pytest.raises(TableError):  # (TablePaused: the player's clear refusal)
            await move()
    # The game applied the move in memory; the failed commit put the committed one back:
    # the stored snapshot with the logged moves after it replayed.
    assert live.game.to_json() == committed and live.move_number == 5
    for _ in range(3):
        await move()
    replayed, stored, moves = replay_log(db_path, live.id)
    assert moves == 8 and replayed.to_json() == stored.to_json() == live.game.to_json()
