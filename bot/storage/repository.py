"""SQL for tables, seats, the action log and results: plain functions of a connection
(``bot.storage.connection``: sqlite3's, or PostgreSQL's behind the same interface).

They run on the database thread (``Database.run`` / ``Database.write``), inside the caller's
transaction; none commits. The service composes several into one write when a change spans them
(the last move of a game also stores its result).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.action_log import ActionRow, compact, tail
from bot.storage.action_log import load_actions as load_actions  # (callers use them from here)
from bot.storage.action_log import load_game as load_game
from bot.storage.connection import Connection
from bot.storage.seat import Seat

#: The columns ``update_table`` checks against the stored row when it is given them.
GUARDS = ("move_number", "version")


class StaleWrite(RuntimeError):
    """The stored move number is not the one the write expected: another process wrote the
    table since this one loaded it (two writers on one table). The write is refused whole (its
    transaction rolls back), never merged with the other's."""


#: The seats columns, in the order of ``Seat``'s fields.
SEAT_COLUMNS = "seat, name, user_id, ai_level, team, left_at, timeouts, away_at, kicked"


@dataclass
class StoredTable:
    """One ``tables`` row as stored: ``columns`` maps each column to its raw value (JSON columns
    still text). The service decodes and checks them table by table (``bot.service.tables``),
    so that one malformed row cannot fail a query that loads every table."""

    columns: dict[str, Any]
    seats: list[Seat] = field(default_factory=list)
    #: The logged actions after the stored snapshot (a playing table's): replayed on it.
    tail: list[ActionRow] = field(default_factory=list)

    @property
    def id(self) -> int:
        return int(self.columns["id"])


#: ``dumps``' encoder, made once: ``json.dumps`` with options makes one at every call, and every
#: action's write stores a JSON column (``deadlines``) on the database's thread (2.2 -> 1.6 us).
_ENCODER = json.JSONEncoder(separators=(",", ":"), sort_keys=True)


def dumps(value: Any) -> str:
    """A JSON column's text (compact, keys sorted)."""
    return _ENCODER.encode(value)


def deadlines_json(deadlines: Mapping[int, float]) -> str:
    """The ``deadlines`` column: ``{"seat": epoch seconds}``."""
    return dumps({str(seat): at for seat, at in deadlines.items()})


# -- writes -----------------------------------------------------------------------------------
def insert_table(conn: Connection, columns: Mapping[str, Any], seats: Sequence[Seat]) -> int:
    """A new table row from ``columns`` (column -> stored value; ``id`` is assigned) and its
    seats; returns its id. Fails (IntegrityError) if the channel has an open table."""
    names = [name for name in columns if name != "id"]
    (table_id,) = conn.execute(
        f"INSERT INTO tables ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
        " RETURNING id",
        [columns[name] for name in names],
    ).fetchone()
    replace_seats(conn, table_id, seats)
    return table_id


def update_table(
    conn: Connection,
    table_id: int,
    columns: Mapping[str, Any],
    seats: Sequence[Seat] | None = None,
) -> None:
    """Store ``columns`` (column -> stored value) of the table, and its seats if given.

    The service writes the whole record, with the ``move_number`` and ``version`` it loaded:
    the stored ones must be the same (the check is part of the UPDATE, which also counts the
    write: ``version`` + 1), so a process that loaded the table before another one wrote it is
    refused (``StaleWrite``, nothing written), never merged with it."""
    names = [name for name in columns if name != "id"]
    if names:
        guards = [name for name in GUARDS if name in columns]
        values = {**columns}
        if "version" in columns:
            values["version"] = columns["version"] + 1
        assignments = ", ".join(f"{name} = ?" for name in names)
        where = " AND ".join(["id = ?", *(f"{name} = ?" for name in guards)])
        cursor = conn.execute(
            f"UPDATE tables SET {assignments} WHERE {where}",
            [*(values[name] for name in names), table_id, *(columns[name] for name in guards)],
        )
        if cursor.rowcount != 1 and guards:
            expected = ", ".join(f"{name} {columns[name]}" for name in guards)
            raise StaleWrite(
                f"table {table_id}: the stored record is not at {expected} "
                "(another process wrote the table)"
            )
    if seats is not None:
        replace_seats(conn, table_id, seats)


def replace_seats(conn: Connection, table_id: int, seats: Sequence[Seat]) -> None:
    conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
    conn.executemany(
        f"INSERT INTO seats (table_id, {SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                table_id,
                s.index,
                s.name,
                s.user_id,
                s.ai_level,
                s.team,
                s.left_at,
                s.timeouts,
                s.away_at,
                int(s.kicked),
            )
            for s in seats
        ],
    )


def record_action(
    conn: Connection,
    table_id: int,
    *,
    move_number: int,
    seat: int,
    action: str,
    source: str,
    user_id: int | None,
    at: float,
    hands: int,
    deadlines: Mapping[int, float],
    window_deadline: float | None = None,
    snapshot: str | None = None,
) -> None:
    """Append to the log (``move_number`` counts from 1) and store what the move changed of the
    table; with ``snapshot`` (the game after this move) also store the snapshot, which then
    stands at this move (``snapshot_move``). Without it, recovery replays this action on the
    stored snapshot: the service writes one only every few moves (``SNAPSHOT_EVERY``).

    The UPDATE checks the previous move number, so a write that would skip or repeat a move
    fails (``StaleWrite``) instead of corrupting the table.
    """
    if snapshot is None:
        cursor = conn.execute(
            "UPDATE tables SET move_number = ?, hands = ?, deadlines = ?, window_deadline = ?"
            " WHERE id = ? AND move_number = ?",
            (
                move_number,
                hands,
                deadlines_json(deadlines),
                window_deadline,
                table_id,
                move_number - 1,
            ),
        )
    else:
        cursor = conn.execute(
            "UPDATE tables SET snapshot = ?, snapshot_move = ?, move_number = ?, hands = ?,"
            " deadlines = ?, window_deadline = ? WHERE id = ? AND move_number = ?",
            (
                snapshot,
                move_number,
                move_number,
                hands,
                deadlines_json(deadlines),
                window_deadline,
                table_id,
                move_number - 1,
            ),
        )
    if cursor.rowcount != 1:
        raise StaleWrite(f"table {table_id}: move {move_number} does not follow the stored one")
    conn.execute(
        "INSERT INTO actions (table_id, move_number, seat, action, source, user_id, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (table_id, move_number, seat, action, source, user_id, at),
    )


def mark_ended(
    conn: Connection,
    table_id: int,
    *,
    status: str,
    ended_at: float,
    result: Mapping[str, Any] | None,
    record: bool,
) -> None:
    """Close the table; with ``record`` also store it in results / result_players. Its
    actions are compacted into one row (``action_log.compact``).

    A lobby that never started is closed without a result row.
    """
    conn.execute(
        "UPDATE tables SET status = ?, ended_at = ?, deadlines = '{}', window_deadline = NULL"
        " WHERE id = ?",
        (status, ended_at, table_id),
    )
    if record:
        record_result(conn, table_id, status=status, ended_at=ended_at, result=result)
    compact(conn, table_id)


def record_result(
    conn: Connection,
    table_id: int,
    *,
    status: str,
    ended_at: float,
    result: Mapping[str, Any] | None,
) -> None:
    """Store the ended table in results / result_players (from its stored row and seats)."""
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
            None if scores is None else dumps(scores),
            None if winners is None else dumps(winners),
            None if result is None else dumps(dict(result)),
        ),
    )
    seats = conn.execute(
        "SELECT seat, user_id, name, ai_level, team, left_at FROM seats WHERE table_id = ?"
        " ORDER BY seat",
        (table_id,),
    ).fetchall()
    conn.executemany(
        'INSERT INTO result_players (table_id, seat, user_id, name, ai_level, "left", team,'
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
def _stored_tables(conn: Connection, where: str, params: Sequence[Any]) -> list[StoredTable]:
    cursor = conn.execute(f"SELECT * FROM tables WHERE {where} ORDER BY id", params)
    names = [d[0] for d in cursor.description]
    rows = [StoredTable(dict(zip(names, values, strict=True))) for values in cursor.fetchall()]
    for row in rows:
        snapshot_move, moves = row.columns.get("snapshot_move"), row.columns.get("move_number")
        if isinstance(snapshot_move, int) and isinstance(moves, int):
            # (also when the row says nothing follows the snapshot: the load check compares
            # what the log holds with the move number, and a log ahead of it is damage)
            row.tail = tail(conn, row.id, snapshot_move)
        row.seats = [
            Seat(*seat[:-1], kicked=bool(seat[-1]))
            for seat in conn.execute(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY seat",
                (row.id,),
            )
        ]
    return rows


def load_tables(conn: Connection, statuses: Sequence[str]) -> list[StoredTable]:
    """Every table whose status is one of ``statuses``, oldest first."""
    marks = ", ".join("?" * len(statuses))
    return _stored_tables(conn, f"status IN ({marks})", list(statuses))


def load_table(conn: Connection, table_id: int) -> StoredTable | None:
    rows = _stored_tables(conn, "id = ?", (table_id,))
    return rows[0] if rows else None


def load_result(conn: Connection, table_id: int) -> dict[str, Any] | None:
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
            'SELECT seat, user_id, name, ai_level, "left", team, score, winner'
            " FROM result_players WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
    ]
    return out


def last_finished(conn: Connection, channel_id: int) -> StoredTable | None:
    """The channel's last finished table (what a rematch plays again), or None."""
    rows = _stored_tables(
        conn,
        "id = (SELECT MAX(id) FROM tables WHERE channel_id = ? AND status = 'finished')",
        (channel_id,),
    )
    return rows[0] if rows else None
