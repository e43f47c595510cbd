"""Faults an outside probe of the table service found (issue 31), each pinned by a test: a
``settle`` that never returned, a refusal that changed its table, a full disk answered with the
database's raw words, and refusals that quoted a caller's input whole."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path

import pytest

from bot.service import TableError, TableService, TableStatus
from bot.service.tables import LiveTable
from bot.storage import repository as repo
from tests.bot.conftest import TEST_LIMITS, FakeClock

GUILD = 77
CHANNEL = 500
HOST, BOB = 1, 2
NO_TIMER = {"timer": "off"}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """These faults are the service's, not a backend's: SQLite alone."""
    return tmp_path / "troika.db"


@pytest.fixture
async def slow_ai(db_path: Path, clock: FakeClock) -> AsyncIterator[TableService]:
    """A service whose AI pauses a second before each move (the clock moves only by hand):
    its driver sleeps while it has a move to make."""
    svc = TableService(db_path, clock=clock, sleep=clock.sleep, ai_delay=1.0, limits=TEST_LIMITS)
    await svc.start()
    try:
        yield svc
    finally:
        await svc.close()


async def ai_awaited(service: TableService, clock: FakeClock) -> None:
    """A Troeven table, HOST against an easy AI, the AI's seat awaited and its driver asleep."""
    await service.open_table(CHANNEL, GUILD, HOST, "Ann", "troeven", options=NO_TIMER, seed=5)
    await service.add_ai(CHANNEL, HOST, "easy")
    await service.start_game(CHANNEL, HOST)
    for _ in range(10):
        table = service.get_table(CHANNEL)
        assert table is not None
        if table.to_act and table.seat(table.to_act[0]).is_ai:
            await asyncio.sleep(0)  # the driver starts its pause
            return
        await service.act(CHANNEL, HOST, service.legal_actions(CHANNEL, HOST)[0])
        await clock.advance(1.0)
    raise AssertionError("the AI's seat was never awaited")


# -- 1. settle() after a member took the awaited AI's seat ---------------------------------------
async def test_settle_returns_after_a_member_takes_the_awaited_ai_seat(
    slow_ai: TableService, clock: FakeClock
) -> None:
    await ai_awaited(slow_ai, clock)
    assert slow_ai.scheduler.busy(), "the AI's job is pausing before its move"
    ai_seat = slow_ai.get_table(CHANNEL).to_act[0]
    # Bob takes the seat the AI was about to play: the driver is cancelled and nothing is left
    # for it to do (no AI seat awaited, no timer).
    await slow_ai.join(CHANNEL, BOB, "Bob", seat=ai_seat)
    table = slow_ai.get_table(CHANNEL)
    assert table.status is TableStatus.PLAYING and table.seat(ai_seat).user_id == BOB
    await asyncio.wait_for(slow_ai.settle(), timeout=5)
    assert not slow_ai.scheduler.busy()


# -- 2. a refusal that changed its table ---------------------------------------------------------
def stored_row(db_path: Path, table_id: int) -> tuple[object, ...]:
    """The table's row and its seats' rows, as stored."""
    conn = sqlite3.connect(db_path)
    try:
        row = conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
        seats = conn.execute(
            "SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
        ).fetchall()
    finally:
        conn.close()
    return (row, tuple(seats))


async def human_vs_ai(service: TableService) -> None:
    await service.open_table(CHANNEL, GUILD, HOST, "Ann", "troeven", options=NO_TIMER, seed=5)
    await service.add_ai(CHANNEL, HOST, "easy")
    await service.start_game(CHANNEL, HOST)
    await service.settle()


async def test_an_invitation_of_a_wrong_typed_user_id_changes_nothing(
    service: TableService, db_path: Path
) -> None:
    await human_vs_ai(service)
    live = service._tables[CHANNEL]
    before = (service.get_table(CHANNEL), dict(live.settings), live.game.to_json())
    row = stored_row(db_path, live.id)
    with pytest.raises(TableError):  # (bytes: not a user id, and JSON cannot hold it)
        await service.invite(CHANNEL, HOST, b"7")  # type: ignore[arg-type]
    assert (service.get_table(CHANNEL), dict(live.settings), live.game.to_json()) == before
    assert stored_row(db_path, live.id) == row
    # Every write of the table goes on: a move, then the host's abandon closes it for good.
    moved = await service.act(CHANNEL, HOST, service.legal_actions(CHANNEL, HOST)[0])
    assert moved.move_number == 1
    await service.settle()
    done = await service.abandon(CHANNEL, HOST)
    assert done.abandoned and done.table.status is TableStatus.ABANDONED
    assert service.get_table(CHANNEL) is None
    await service.open_table(CHANNEL, GUILD, HOST, "Ann", "troika")  # the channel is free


async def test_an_end_whose_row_cannot_be_built_leaves_the_table_playing(
    service: TableService, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await human_vs_ai(service)
    live = service._tables[CHANNEL]
    before = (service.get_table(CHANNEL), live.game.to_json())
    row = stored_row(db_path, live.id)
    real = LiveTable.columns

    def failing(self: LiveTable) -> dict[str, object]:
        raise TypeError("cannot encode")

    monkeypatch.setattr(LiveTable, "columns", failing)
    with pytest.raises(TableError):
        await service.abandon(CHANNEL, HOST)
    monkeypatch.setattr(LiveTable, "columns", real)
    assert service.get_table(CHANNEL) == before[0]
    assert live.status is TableStatus.PLAYING and live.game.to_json() == before[1]
    assert stored_row(db_path, live.id) == row
    moved = await service.act(CHANNEL, HOST, service.legal_actions(CHANNEL, HOST)[0])
    assert moved.move_number == 1


# -- 6. a full disk, met by a player's own move ------------------------------------------------
FULL = "database or disk is full"


@pytest.mark.parametrize("error", [sqlite3.OperationalError(FULL), OSError(28, "No space left")])
async def test_a_players_move_on_a_full_disk_is_refused_as_paused(
    error: Exception, service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    await human_vs_ai(service)
    real = repo.record_action

    def full(conn: object, table_id: int, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(repo, "record_action", full)
    before = service.get_table(CHANNEL)
    move = service.legal_actions(CHANNEL, HOST)[0]
    with pytest.raises(TableError) as refused:
        await service.act(CHANNEL, HOST, move)
    text = str(refused.value)
    assert "paused" in text and "can't be saved" in text, text
    assert FULL not in text and "space" not in text and "Error" not in text, text
    assert service.get_table(CHANNEL) == before
    # The disk has room again: the same move is made.
    monkeypatch.setattr(repo, "record_action", real)
    assert (await service.act(CHANNEL, HOST, move)).move_number == 1


# -- 7. refusals quote a bounded excerpt of what the caller sent -------------------------------
LONG = "q" * 100_000
#: The longest run of a caller's text a refusal may repeat (an excerpt, then an ellipsis).
EXCERPT = 40


def assert_bounded(error: TableError) -> None:
    text = str(error)
    assert "q" * (EXCERPT + 1) not in text, f"{len(text)} characters"
    assert "q" * 10 in text, "the excerpt is quoted"
    assert len(text) < 1000


async def refusal(call: Awaitable[object]) -> TableError:
    with pytest.raises(TableError) as refused:
        await call
    return refused.value


async def test_refusals_quote_an_excerpt_of_unknown_names(service: TableService) -> None:
    opening = [
        dict(game=LONG),
        dict(game="troika", preset=LONG),
        dict(game="troika", options={LONG: 1}),
        dict(game="troika", options={"timer": LONG}),
    ]
    for given in opening:
        game = given.pop("game")
        call = service.open_table(CHANNEL, GUILD, HOST, "Ann", game, **given)
        assert_bounded(await refusal(call))
    await service.open_table(CHANNEL, GUILD, HOST, "Ann", "troeven", options=NO_TIMER, seed=5)
    assert_bounded(await refusal(service.add_ai(CHANNEL, HOST, LONG)))
    assert_bounded(await refusal(service.set_options(CHANNEL, HOST, {LONG: 1})))
    assert_bounded(await refusal(service.set_options(CHANNEL, HOST, preset=LONG)))
    await service.add_ai(CHANNEL, HOST, "easy")
    await service.start_game(CHANNEL, HOST)
    await service.settle()
    # (seed 5: Ann names trumps first; an unknown suit is quoted)
    assert_bounded(await refusal(service.act(CHANNEL, HOST, f"trump {LONG}")))


async def test_refusals_quote_an_excerpt_of_long_names(service: TableService) -> None:
    await service.open_table(CHANNEL, GUILD, HOST, LONG, "troika", options=NO_TIMER)
    # "Seat 1 is taken by ...", "... already has a seat", "Only the host (...) can ..."
    assert_bounded(await refusal(service.join(CHANNEL, BOB, "Bob", seat=0)))
    await service.join(CHANNEL, BOB, "Bob")
    assert_bounded(await refusal(service.invite(CHANNEL, HOST, HOST)))
    assert_bounded(await refusal(service.add_ai(CHANNEL, BOB, "easy")))


async def test_an_admins_close_on_a_full_disk_is_refused_as_paused(
    service: TableService, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await human_vs_ai(service)
    table_id = service.get_table(CHANNEL).id
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE tables SET options = '{' WHERE id = ?", (table_id,))
    conn.commit()
    conn.close()
    await service.close()
    again = TableService(db_path, limits=TEST_LIMITS)
    await again.start()
    try:
        assert [t.status for t in again.guild_tables(GUILD)] == [TableStatus.BROKEN]

        def full(conn: object, table_id: int, *args: object) -> None:
            raise sqlite3.OperationalError(FULL)

        monkeypatch.setattr(repo, "update_table", full)
        with pytest.raises(TableError) as refused:
            await again.close_broken(CHANNEL, GUILD)
        assert "paused" in str(refused.value) and FULL not in str(refused.value)
        assert [t.status for t in again.guild_tables(GUILD)] == [TableStatus.BROKEN]
    finally:
        await again.close()
