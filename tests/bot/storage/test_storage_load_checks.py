"""Stored tables that read without an error but cannot play (issue 31, item 3): seats that do
not cover the game's players, a snapshot and an action log that disagree. Loading sets them
aside with the reason, as it does every other malformed row, and the other tables play on; a
restart finds them set aside still. On both backends (the log is read by the same queries)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service import TableStatus
from tests.bot.conftest import FakeClock
from tests.bot.databases import connect
from tests.bot.service.test_service_faults import (
    BAD,
    BOB,
    GOOD,
    GUILD,
    LOBBY,
    make_tables,
    new_service,
    play_moves,
)


def playing_row(conn: Any, channel: int) -> tuple[int, int, int]:
    """(id, move number, snapshot's move) of the channel's table in play."""
    row = conn.execute(
        "SELECT id, move_number, snapshot_move FROM tables"
        " WHERE channel_id = ? AND status = 'playing'",
        (channel,),
    ).fetchone()
    return int(row[0]), int(row[1]), int(row[2])


def no_seats(conn: Any, table_id: int, moves: int, snapshot_move: int) -> None:
    conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))


def no_ai_seat(conn: Any, table_id: int, moves: int, snapshot_move: int) -> None:
    # (seat 1 is the AI's: awaited at every other trick, the table would stall for good)
    conn.execute("DELETE FROM seats WHERE table_id = ? AND seat = 1", (table_id,))


def snapshot_ahead(conn: Any, table_id: int, moves: int, snapshot_move: int) -> None:
    conn.execute("UPDATE tables SET snapshot_move = ? WHERE id = ?", (moves + 5, table_id))


def log_ahead(conn: Any, table_id: int, moves: int, snapshot_move: int) -> None:
    conn.execute("UPDATE tables SET move_number = ? WHERE id = ?", (snapshot_move, table_id))


#: How the row is damaged, and words its reason must hold.
DAMAGE: dict[str, tuple[Callable[[Any, int, int, int], None], str]] = {
    "no seat rows": (no_seats, "seats"),
    "a seat row missing": (no_ai_seat, "seats"),
    "snapshot ahead of the move number": (snapshot_ahead, "snapshot"),
    "log ahead of the move number": (log_ahead, "action log"),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
async def test_a_row_that_cannot_play_is_set_aside_at_load(
    damage: str, db_path: Path, clock: FakeClock
) -> None:
    change, reason_word = DAMAGE[damage]
    await make_tables(db_path, clock)
    conn = connect(db_path)
    try:
        table_id, moves, snapshot_move = playing_row(conn, BAD)
        assert moves > snapshot_move, "the log holds moves after the snapshot"
        change(conn, table_id, moves, snapshot_move)
        conn.commit()
    finally:
        conn.close()

    for _restart in range(2):  # set aside at load, and still so after a restart
        service = new_service(db_path, clock)
        await service.start()
        try:
            listed = {t.channel_id: t for t in service.guild_tables(GUILD)}
            assert listed[BAD].status is TableStatus.BROKEN, damage
            assert reason_word in (listed[BAD].reason or ""), listed[BAD].reason
            assert service.get_table(BAD) is None
            assert listed[GOOD].status is TableStatus.PLAYING
            assert listed[LOBBY].status is TableStatus.LOBBY
            before = service.get_table(GOOD).move_number
            assert await play_moves(service, GOOD, BOB, 2) > before
        finally:
            await service.close()
