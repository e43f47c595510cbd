"""The action log: a playing table's actions as rows, an ended game's as one compressed row.

While a table plays, each action is one row of ``actions`` (keyed by ``(table_id, move_number)``);
recovery replays the rows after the stored snapshot (``tail``). When the game ends, its rows and
its dealt game (``tables.initial_snapshot``) move into one ``action_logs`` row: zlib of a JSON
document, about a fifteenth of their size, from which ``load_game`` replays the game
(``/history``, replays). A finished game's last snapshot is dropped too (``tables.snapshot``
NULL): the replay gives it, and ``results`` holds its outcome. An abandoned game keeps its last
snapshot (its game may have been set aside as damaged).

The compressed form keeps the seat, the action, the source and the time (to the millisecond) of
every move, numbered 1..n. It keeps no user id: a player's own move is always made by the user
of that seat (``seats.user_id``), which ``load_actions`` puts back, so a member the leaderboard
forgets (``seats.user_id`` cleared) is gone from the log too.
"""

from __future__ import annotations

import itertools
import json
import zlib
from dataclasses import dataclass
from typing import Any

from bot.storage.connection import Connection

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


@dataclass
class GameLog:
    """What replays a game: the game as dealt (None for a lobby) and every action."""

    initial_snapshot: str | None
    actions: list[ActionRow]


class BadLog(ValueError):
    """A compressed log that cannot be read (damaged, or of an unknown format)."""


def encode(initial_snapshot: str | None, rows: list[ActionRow]) -> bytes:
    """The compressed document of a game (``rows`` numbered 1..n, in order). Column by column
    (every seat, then every action, ...): alike values side by side compress better."""
    start = rows[0].at if rows else 0.0
    times = [round((r.at - start) * 1000) for r in rows]  # ms after the first action
    document = {
        "v": FORMAT,
        "initial": initial_snapshot,
        "at": start,
        "seats": [r.seat for r in rows],
        "actions": [r.action for r in rows],
        "sources": [r.source for r in rows],
        # ms since the move before: short numbers (a few seconds) compress well.
        "ms": [b - a for a, b in zip([0, *times], times, strict=False)],
    }
    return zlib.compress(json.dumps(document, separators=(",", ":")).encode(), 9)


def decode(blob: bytes, users: dict[int, int | None]) -> GameLog:
    """The game of a compressed document; ``users``: seat -> user id (a player's own moves)."""
    try:
        document: dict[str, Any] = json.loads(zlib.decompress(blob))
        if not isinstance(document, dict) or document.get("v") != FORMAT:
            version = document.get("v") if isinstance(document, dict) else None
            raise BadLog(f"unknown action log format {version!r}")
        start = float(document["at"])
        times = list(itertools.accumulate(int(ms) for ms in document["ms"]))
        columns = zip(
            document["seats"], document["actions"], document["sources"], times, strict=True
        )
        rows = [
            ActionRow(
                move_number=number,
                seat=int(seat),
                action=str(action),
                source=str(source),
                user_id=users.get(int(seat)) if source == "player" else None,
                at=start + offset / 1000,
            )
            for number, (seat, action, source, offset) in enumerate(columns, 1)
        ]
        initial = document["initial"]
        if initial is not None and not isinstance(initial, str):
            raise BadLog("damaged action log: the dealt game is not text")
        return GameLog(initial, rows)
    except BadLog:
        raise
    except (zlib.error, ValueError, TypeError, KeyError) as exc:
        raise BadLog(f"damaged action log: {exc}") from None


def tail(conn: Connection, table_id: int, after: int) -> list[ActionRow]:
    """The logged actions after move ``after`` (what recovery replays on the snapshot)."""
    return [
        ActionRow(*row)
        for row in conn.execute(
            "SELECT move_number, seat, action, source, user_id, at FROM actions"
            " WHERE table_id = ? AND move_number > ? ORDER BY move_number",
            (table_id, after),
        )
    ]


def load_game(conn: Connection, table_id: int) -> GameLog:
    """The table's dealt game and every action from move 1, whether it plays or ended
    (compacted): replaying the actions on the dealt game gives the game (``/history``)."""
    (initial,) = conn.execute(
        "SELECT initial_snapshot FROM tables WHERE id = ?", (table_id,)
    ).fetchone() or (None,)
    row = conn.execute("SELECT log FROM action_logs WHERE table_id = ?", (table_id,)).fetchone()
    archived = GameLog(initial, [])
    if row is not None:
        users = dict(
            conn.execute("SELECT seat, user_id FROM seats WHERE table_id = ?", (table_id,))
        )
        archived = decode(row[0], users)
    moves = archived.actions + tail(conn, table_id, len(archived.actions))
    return GameLog(initial if initial is not None else archived.initial_snapshot, moves)


def load_actions(conn: Connection, table_id: int) -> list[ActionRow]:
    """Every action of the table from move 1 (see ``load_game``)."""
    return load_game(conn, table_id).actions


def compact(conn: Connection, table_id: int) -> int:
    """Move the ended table's action rows and dealt game into one compressed row (and drop a
    finished game's last snapshot); returns how many moves it holds. Inside the caller's
    transaction (the write that ends the game), after its status was stored."""
    game = load_game(conn, table_id)
    if not game.actions:
        return 0
    conn.execute(
        "INSERT INTO action_logs (table_id, moves, log) VALUES (?, ?, ?) ON CONFLICT (table_id)"
        " DO UPDATE SET moves = excluded.moves, log = excluded.log",
        (table_id, len(game.actions), encode(game.initial_snapshot, game.actions)),
    )
    conn.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
    conn.execute(
        "UPDATE tables SET initial_snapshot = NULL,"
        " snapshot = CASE status WHEN 'finished' THEN NULL ELSE snapshot END WHERE id = ?",
        (table_id,),
    )
    return len(game.actions)


def compact_ended_games(conn: Connection) -> int:
    """Compact every ended table that still has action rows (a migration's step); returns
    how many tables."""
    ended = conn.execute(
        "SELECT id FROM tables WHERE status IN ('finished', 'abandoned')"
        " AND id IN (SELECT DISTINCT table_id FROM actions)"
    ).fetchall()
    for (table_id,) in ended:
        compact(conn, table_id)
    return len(ended)
