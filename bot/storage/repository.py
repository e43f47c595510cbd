"""SQL for tables, seats, the action log and results: plain functions of a sqlite3 connection.

They run on the database thread (``Database.run`` / ``Database.write``), inside the caller's
transaction; none commits. The service composes several into one write when a change spans them
(the last move of a game also stores its result).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


class StaleWrite(RuntimeError):
    """The stored move number is not the one the write expected (two writers on one table)."""


@dataclass
class SeatRow:
    seat: int
    name: str
    user_id: int | None = None
    ai_level: str | None = None
    team: int | None = None
    left_at: float | None = None


@dataclass
class TableRow:
    """A table as stored (JSON columns decoded)."""

    id: int
    channel_id: int
    guild_id: int | None
    game: str
    preset: str | None
    overrides: dict[str, Any]
    options: dict[str, Any]
    host_id: int
    status: str
    seed: int | None
    created_at: float
    started_at: float | None
    ended_at: float | None
    spectators: list[int]
    abandon_votes: list[int]
    snapshot: str | None
    snapshot_version: int | None
    initial_snapshot: str | None
    move_number: int
    hands: int
    deadlines: dict[int, float]
    seats: list[SeatRow] = field(default_factory=list)


@dataclass
class ActionRow:
    move_number: int
    seat: int
    action: str
    source: str
    user_id: int | None
    at: float


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _deadlines_json(deadlines: Mapping[int, float]) -> str:
    return _dumps({str(seat): at for seat, at in deadlines.items()})


# -- writes -----------------------------------------------------------------------------------
def insert_table(
    conn: sqlite3.Connection,
    *,
    channel_id: int,
    guild_id: int | None,
    game: str,
    preset: str | None,
    overrides: Mapping[str, Any],
    options: Mapping[str, Any],
    host_id: int,
    seed: int | None,
    created_at: float,
    seats: Sequence[SeatRow],
) -> int:
    """A new lobby; returns its id. Fails (IntegrityError) if the channel has an open table."""
    cursor = conn.execute(
        "INSERT INTO tables (channel_id, guild_id, game, preset, overrides, options, host_id,"
        " status, seed, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?)",
        (
            channel_id,
            guild_id,
            game,
            preset,
            _dumps(overrides),
            _dumps(options),
            host_id,
            seed,
            created_at,
        ),
    )
    table_id = int(cursor.lastrowid or 0)
    replace_seats(conn, table_id, seats)
    return table_id


def replace_seats(conn: sqlite3.Connection, table_id: int, seats: Sequence[SeatRow]) -> None:
    conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
    conn.executemany(
        "INSERT INTO seats (table_id, seat, user_id, name, ai_level, team, left_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(table_id, s.seat, s.user_id, s.name, s.ai_level, s.team, s.left_at) for s in seats],
    )


def update_lobby(
    conn: sqlite3.Connection,
    table_id: int,
    *,
    preset: str | None,
    overrides: Mapping[str, Any],
    options: Mapping[str, Any],
    host_id: int,
    spectators: Sequence[int],
    abandon_votes: Sequence[int],
) -> None:
    conn.execute(
        "UPDATE tables SET preset = ?, overrides = ?, options = ?, host_id = ?, spectators = ?,"
        " abandon_votes = ? WHERE id = ?",
        (
            preset,
            _dumps(overrides),
            _dumps(options),
            host_id,
            _dumps(list(spectators)),
            _dumps(list(abandon_votes)),
            table_id,
        ),
    )


def mark_started(
    conn: sqlite3.Connection,
    table_id: int,
    *,
    started_at: float,
    seed: int,
    snapshot: str,
    snapshot_version: int,
    deadlines: Mapping[int, float],
) -> None:
    conn.execute(
        "UPDATE tables SET status = 'playing', started_at = ?, seed = ?, snapshot = ?,"
        " initial_snapshot = ?, snapshot_version = ?, move_number = 0, deadlines = ?"
        " WHERE id = ? AND status = 'lobby'",
        (
            started_at,
            seed,
            snapshot,
            snapshot,
            snapshot_version,
            _deadlines_json(deadlines),
            table_id,
        ),
    )


def record_action(
    conn: sqlite3.Connection,
    table_id: int,
    *,
    move_number: int,
    seat: int,
    action: str,
    source: str,
    user_id: int | None,
    at: float,
    snapshot: str,
    hands: int,
    deadlines: Mapping[int, float],
) -> None:
    """Append to the log and store the snapshot after it; ``move_number`` counts from 1.

    The UPDATE checks the previous move number, so a write that would skip or repeat a move
    fails instead of corrupting the table.
    """
    cursor = conn.execute(
        "UPDATE tables SET snapshot = ?, move_number = ?, hands = ?, deadlines = ?"
        " WHERE id = ? AND move_number = ?",
        (snapshot, move_number, hands, _deadlines_json(deadlines), table_id, move_number - 1),
    )
    if cursor.rowcount != 1:
        raise StaleWrite(f"table {table_id}: move {move_number} does not follow the stored one")
    conn.execute(
        "INSERT INTO actions (table_id, move_number, seat, action, source, user_id, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (table_id, move_number, seat, action, source, user_id, at),
    )


def update_deadlines(
    conn: sqlite3.Connection, table_id: int, deadlines: Mapping[int, float]
) -> None:
    conn.execute(
        "UPDATE tables SET deadlines = ? WHERE id = ?", (_deadlines_json(deadlines), table_id)
    )


def mark_ended(
    conn: sqlite3.Connection,
    table_id: int,
    *,
    status: str,
    ended_at: float,
    result: Mapping[str, Any] | None,
    record: bool,
) -> None:
    """Close the table; with ``record`` also store it in results / result_players.

    A lobby that never started is closed without a result row.
    """
    conn.execute(
        "UPDATE tables SET status = ?, ended_at = ?, deadlines = '{}' WHERE id = ?",
        (status, ended_at, table_id),
    )
    if not record:
        return
    row = conn.execute(
        "SELECT guild_id, channel_id, game, options, hands, started_at FROM tables WHERE id = ?",
        (table_id,),
    ).fetchone()
    guild_id, channel_id, game, options, hands, started_at = row
    # An abandoned game has no final scores or winners (its result says where it stood).
    scores = list(result["scores"]) if result and "scores" in result else None
    winners = list(result["winners"]) if result and "winners" in result else None
    conn.execute(
        "INSERT INTO results (table_id, guild_id, channel_id, game, options, status, hands,"
        " started_at, ended_at, scores, winners, result) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            table_id,
            guild_id,
            channel_id,
            game,
            options,
            status,
            hands,
            started_at,
            ended_at,
            None if scores is None else _dumps(scores),
            None if winners is None else _dumps(winners),
            None if result is None else _dumps(dict(result)),
        ),
    )
    seats = conn.execute(
        "SELECT seat, user_id, name, ai_level, team, left_at FROM seats WHERE table_id = ?"
        " ORDER BY seat",
        (table_id,),
    ).fetchall()
    conn.executemany(
        "INSERT INTO result_players (table_id, seat, user_id, name, ai_level, left, team,"
        " score, winner) VALUES (?,?,?,?,?,?,?,?,?)",
        [
            (
                table_id,
                seat,
                user_id,
                name,
                ai_level,
                int(left_at is not None),
                team,
                _score_of(scores, seat),
                int(winners is not None and seat in winners),
            )
            for seat, user_id, name, ai_level, team, left_at in seats
        ],
    )


def _score_of(scores: list[Any] | None, seat: int) -> int | None:
    if scores is None or not 0 <= seat < len(scores):
        return None
    value = scores[seat]
    return int(value) if isinstance(value, int | float) else None


# -- reads ------------------------------------------------------------------------------------
_TABLE_COLUMNS = (
    "id, channel_id, guild_id, game, preset, overrides, options, host_id, status, seed,"
    " created_at, started_at, ended_at, spectators, abandon_votes, snapshot, snapshot_version,"
    " initial_snapshot, move_number, hands, deadlines"
)


def _table_row(conn: sqlite3.Connection, values: Sequence[Any]) -> TableRow:
    (
        table_id,
        channel_id,
        guild_id,
        game,
        preset,
        overrides,
        options,
        host_id,
        status,
        seed,
        created_at,
        started_at,
        ended_at,
        spectators,
        abandon_votes,
        snapshot,
        snapshot_version,
        initial_snapshot,
        move_number,
        hands,
        deadlines,
    ) = values
    seats = [
        SeatRow(*seat)
        for seat in conn.execute(
            "SELECT seat, name, user_id, ai_level, team, left_at FROM seats WHERE table_id = ?"
            " ORDER BY seat",
            (table_id,),
        )
    ]
    return TableRow(
        id=table_id,
        channel_id=channel_id,
        guild_id=guild_id,
        game=game,
        preset=preset,
        overrides=json.loads(overrides),
        options=json.loads(options),
        host_id=host_id,
        status=status,
        seed=seed,
        created_at=created_at,
        started_at=started_at,
        ended_at=ended_at,
        spectators=json.loads(spectators),
        abandon_votes=json.loads(abandon_votes),
        snapshot=snapshot,
        snapshot_version=snapshot_version,
        initial_snapshot=initial_snapshot,
        move_number=move_number,
        hands=hands,
        deadlines={int(k): float(v) for k, v in json.loads(deadlines).items()},
        seats=seats,
    )


def load_open_tables(conn: sqlite3.Connection) -> list[TableRow]:
    """Every table in lobby or play, oldest first."""
    rows = conn.execute(
        f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id"
    ).fetchall()
    return [_table_row(conn, row) for row in rows]


def load_table(conn: sqlite3.Connection, table_id: int) -> TableRow | None:
    row = conn.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
    return None if row is None else _table_row(conn, row)


def load_actions(conn: sqlite3.Connection, table_id: int) -> list[ActionRow]:
    return [
        ActionRow(*row)
        for row in conn.execute(
            "SELECT move_number, seat, action, source, user_id, at FROM actions"
            " WHERE table_id = ? ORDER BY move_number",
            (table_id,),
        )
    ]


def load_result(conn: sqlite3.Connection, table_id: int) -> dict[str, Any] | None:
    """The results row and its players, decoded (None if the table has no result)."""
    row = conn.execute(
        "SELECT guild_id, channel_id, game, options, status, hands, started_at, ended_at,"
        " scores, winners, result FROM results WHERE table_id = ?",
        (table_id,),
    ).fetchone()
    if row is None:
        return None
    keys = ("guild_id", "channel_id", "game", "options", "status", "hands", "started_at")
    keys += ("ended_at", "scores", "winners", "result")
    out = dict(zip(keys, row, strict=True))
    for key in ("options", "scores", "winners", "result"):
        if out[key] is not None:
            out[key] = json.loads(out[key])
    player_keys = ("seat", "user_id", "name", "ai_level", "left", "team", "score", "winner")
    out["players"] = [
        dict(zip(player_keys, p, strict=True))
        for p in conn.execute(
            "SELECT seat, user_id, name, ai_level, left, team, score, winner FROM result_players"
            " WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
    ]
    return out
