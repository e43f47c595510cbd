"""The SQL behind ``/games`` and ``/export``: finished games of one server, read from
``results``, ``result_players`` and the compacted action log. Plain functions of a connection,
run on the database thread (``Database.run``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.storage.action_log import ActionRow, load_game
from bot.storage.connection import Connection


@dataclass(frozen=True)
class GameSummary:
    """One line of ``/games``: a finished game of the server."""

    table_id: int
    game: str
    ended_at: float
    hands: int
    #: (seat, name, user id or None, score or None, winner) in seat order.
    players: tuple[tuple[int, str, int | None, int | None, bool], ...]


@dataclass(frozen=True)
class FinishedGame:
    """What a record is built from: the results row, its players and the game's log."""

    table_id: int
    guild_id: int | None
    game: str
    options: dict[str, Any]
    started_at: float | None
    ended_at: float
    result: dict[str, Any] | None
    seats: list[dict[str, Any]]
    dealt: str | None
    actions: list[ActionRow]


def recent_games(
    conn: Connection, guild_id: int, *, user_id: int | None, limit: int, offset: int
) -> tuple[list[GameSummary], int]:
    """The server's finished games, newest first (a member's own with ``user_id``): one page
    of them, and how many there are in all."""
    where = "r.guild_id = ? AND r.status = 'finished'"
    params: list[Any] = [guild_id]
    if user_id is not None:
        where += " AND EXISTS (SELECT 1 FROM result_players p WHERE p.table_id = r.table_id"
        where += " AND p.user_id = ?)"
        params.append(user_id)
    (total,) = conn.execute(f"SELECT COUNT(*) FROM results r WHERE {where}", params).fetchone()
    rows = conn.execute(
        f"SELECT r.table_id, r.game, r.ended_at, r.hands FROM results r WHERE {where}"
        " ORDER BY r.ended_at DESC, r.table_id DESC LIMIT ? OFFSET ?",
        [*params, limit, offset],
    ).fetchall()
    games = [
        GameSummary(
            table_id=int(table_id),
            game=str(game),
            ended_at=float(ended_at),
            hands=int(hands),
            players=tuple(
                (int(seat), str(name), user, score, bool(winner))
                for seat, name, user, score, winner in conn.execute(
                    "SELECT seat, name, user_id, score, winner FROM result_players"
                    " WHERE table_id = ? ORDER BY seat",
                    (table_id,),
                )
            ),
        )
        for table_id, game, ended_at, hands in rows
    ]
    return games, int(total)


def finished_game(conn: Connection, guild_id: int, table_id: int) -> FinishedGame | None:
    """The finished game ``table_id`` of server ``guild_id``; None if there is none (a game of
    another server, a game still running or abandoned, no such id)."""
    row = conn.execute(
        "SELECT game, options, started_at, ended_at, result FROM results"
        " WHERE table_id = ? AND guild_id = ? AND status = 'finished'",
        (table_id, guild_id),
    ).fetchone()
    if row is None:
        return None
    game, options, started_at, ended_at, result = row
    seats = [
        {"seat": seat, "name": name, "user_id": user_id, "ai_level": ai_level, "team": team}
        for seat, name, user_id, ai_level, team in conn.execute(
            "SELECT seat, name, user_id, ai_level, team FROM result_players"
            " WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
    ]
    log = load_game(conn, table_id)
    return FinishedGame(
        table_id=int(table_id),
        guild_id=guild_id,
        game=str(game),
        options=json.loads(options),
        started_at=started_at,
        ended_at=float(ended_at),
        result=None if result is None else json.loads(result),
        seats=seats,
        dealt=log.initial_snapshot,
        actions=log.actions,
    )


def running_here(conn: Connection, guild_id: int, table_id: int) -> bool:
    """Whether ``table_id`` is a table of server ``guild_id`` still in its lobby or playing
    (its record would show a live game's hidden cards: it has none yet)."""
    row = conn.execute(
        "SELECT 1 FROM tables WHERE id = ? AND guild_id = ? AND status IN ('lobby', 'playing')",
        (table_id, guild_id),
    ).fetchone()
    return row is not None


def last_finished_in(conn: Connection, guild_id: int | None, channel_id: int) -> int | None:
    """The id of the last game finished in ``channel_id`` (of server ``guild_id``), if any."""
    row = conn.execute(
        "SELECT MAX(table_id) FROM results WHERE channel_id = ? AND status = 'finished'"
        " AND (guild_id = ? OR (guild_id IS NULL AND ? IS NULL))",
        (channel_id, guild_id, guild_id),
    ).fetchone()
    return None if row is None or row[0] is None else int(row[0])
