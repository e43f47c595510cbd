"""The action log: a playing table's actions as rows, an ended game's as one compressed row.

While a table plays, each action is one row of ``actions`` (keyed by ``(table_id, move_number)``);
recovery replays the rows after the stored snapshot (``tail``). When the game ends its rows are
replaced by one ``action_logs`` row: zlib of a JSON document, about a tenth of the rows' size,
still replayable from the table's ``initial_snapshot`` (``load_actions`` reads either form).

The compressed form keeps the seat, the action, the source and the time (milliseconds after the
first action) of every move, numbered 1..n. It keeps no user id: a player's own move is always
made by the user of that seat (``seats.user_id``), which ``load_actions`` puts back, so a member
the leaderboard forgets (``seats.user_id`` cleared) is gone from the log too.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from dataclasses import dataclass

#: Format of the compressed document (its key ``v``).
FORMAT = 1


@dataclass
class ActionRow:
    move_number: int
    seat: int
    action: str
    source: str
    user_id: int | None
    at: float


class BadLog(ValueError):
    """A compressed log that cannot be read (damaged, or of an unknown format)."""


def encode(rows: list[ActionRow]) -> bytes:
    """The compressed document of ``rows`` (numbered 1..n, in order)."""
    start = rows[0].at if rows else 0.0
    moves = [[r.seat, r.action, r.source, round((r.at - start) * 1000)] for r in rows]
    text = json.dumps({"v": FORMAT, "at": start, "moves": moves}, separators=(",", ":"))
    return zlib.compress(text.encode(), 9)


def decode(blob: bytes, users: dict[int, int | None]) -> list[ActionRow]:
    """The rows of a compressed document; ``users``: seat -> user id (a player's own moves)."""
    try:
        document = json.loads(zlib.decompress(blob))
        if document.get("v") != FORMAT:
            raise BadLog(f"unknown action log format {document.get('v')!r}")
        start = float(document["at"])
        return [
            ActionRow(
                move_number=number,
                seat=int(seat),
                action=str(action),
                source=str(source),
                user_id=users.get(int(seat)) if source == "player" else None,
                at=start + int(offset) / 1000,
            )
            for number, (seat, action, source, offset) in enumerate(document["moves"], 1)
        ]
    except (zlib.error, ValueError, TypeError, KeyError) as exc:
        if isinstance(exc, BadLog):
            raise
        raise BadLog(f"damaged action log: {exc}") from None


def tail(conn: sqlite3.Connection, table_id: int, after: int) -> list[ActionRow]:
    """The logged actions after move ``after`` (what recovery replays on the snapshot)."""
    return [
        ActionRow(*row)
        for row in conn.execute(
            "SELECT move_number, seat, action, source, user_id, at FROM actions"
            " WHERE table_id = ? AND move_number > ? ORDER BY move_number",
            (table_id, after),
        )
    ]


def load_actions(conn: sqlite3.Connection, table_id: int) -> list[ActionRow]:
    """Every action of the table, from move 1, whether its game plays or ended (compacted):
    with the table's ``initial_snapshot`` it replays the game (``/history``, replays)."""
    row = conn.execute("SELECT log FROM action_logs WHERE table_id = ?", (table_id,)).fetchone()
    archived: list[ActionRow] = []
    if row is not None:
        users = dict(
            conn.execute("SELECT seat, user_id FROM seats WHERE table_id = ?", (table_id,))
        )
        archived = decode(row[0], users)
    return archived + tail(conn, table_id, len(archived))


def compact(conn: sqlite3.Connection, table_id: int) -> int:
    """Replace the ended table's action rows by one compressed row; returns how many moves
    it holds. Inside the caller's transaction (the write that ends the game)."""
    rows = load_actions(conn, table_id)
    if not rows:
        return 0
    conn.execute(
        "INSERT OR REPLACE INTO action_logs (table_id, moves, log) VALUES (?, ?, ?)",
        (table_id, len(rows), encode(rows)),
    )
    conn.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
    return len(rows)


def compact_ended_games(conn: sqlite3.Connection) -> int:
    """Compact every ended table that still has action rows (a migration's step); returns
    how many tables."""
    ended = conn.execute(
        "SELECT id FROM tables WHERE status IN ('finished', 'abandoned')"
        " AND id IN (SELECT DISTINCT table_id FROM actions)"
    ).fetchall()
    for (table_id,) in ended:
        compact(conn, table_id)
    return len(ended)
