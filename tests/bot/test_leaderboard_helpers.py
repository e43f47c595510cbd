"""Helpers (no tests): recorded games written straight into a migrated database (SQLite's or
PostgreSQL's), as the table service records them (``tables`` / ``results`` /
``result_players``), for the leaderboard tests."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.storage.migrations import MIGRATIONS, migrate

GUILD = 900


@dataclass(frozen=True)
class P:
    """A seat of a recorded game: user None = AI seat."""

    user: int | None
    score: int
    winner: bool = False
    team: int | None = None
    left: bool = False
    name: str = ""


def open_db(
    path: Path | str = ":memory:", migrations: list[str] | None = None
) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    migrate(conn, MIGRATIONS if migrations is None else migrations)
    return conn


def record(
    conn: Any,
    game: str,
    seats: list[P],
    *,
    status: str = "finished",
    guild: int | None = GUILD,
    ended_at: float = 1000.0,
    channel: int = 50,
) -> int:
    """Store one ended game; returns its table id."""
    (table_id,) = conn.execute(
        "INSERT INTO tables (channel_id, guild_id, game, host_id, status, created_at, started_at,"
        " ended_at, hands) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 3) RETURNING id",
        (channel, guild, game, seats[0].user or 0, status, ended_at - 100, ended_at - 90, ended_at),
    ).fetchone()
    scores = [p.score for p in seats]
    winners = [i for i, p in enumerate(seats) if p.winner]
    for i, p in enumerate(seats):
        conn.execute(
            "INSERT INTO seats (table_id, seat, user_id, name, ai_level, team, left_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (table_id, i, p.user, _name(p), _ai(p), p.team, ended_at - 50 if p.left else None),
        )
        conn.execute(
            "INSERT INTO actions (table_id, move_number, seat, action, source, user_id, at)"
            " VALUES (?, ?, ?, 'pass', 'player', ?, ?)",
            (table_id, i + 1, i, p.user, ended_at - 80),
        )
    conn.execute(
        "INSERT INTO results (table_id, guild_id, channel_id, game, options, status, hands,"
        " started_at, ended_at, scores, winners, result) VALUES (?,?,?,?,'{}',?,3,?,?,?,?,?)",
        (
            table_id,
            guild,
            channel,
            game,
            status,
            ended_at - 90,
            ended_at,
            json.dumps(scores),
            json.dumps(winners),
            json.dumps({"scores": scores, "winners": winners}),
        ),
    )
    for i, p in enumerate(seats):
        conn.execute(
            'INSERT INTO result_players (table_id, seat, user_id, name, ai_level, "left", team,'
            " score, winner) VALUES (?,?,?,?,?,?,?,?,?)",
            (table_id, i, p.user, _name(p), _ai(p), int(p.left), p.team, p.score, int(p.winner)),
        )
    return table_id


def _name(p: P) -> str:
    return p.name or (f"user{p.user}" if p.user is not None else "AI (easy)")


def _ai(p: P) -> str | None:
    return "easy" if p.user is None or p.left else None


def troika(a: int | None, b: int | None, c: int | None, d: int | None, *, winner_team: int = 0,
           **kwargs: object) -> list[P]:  # fmt: skip
    """Seats 0+2 are team 0, 1+3 team 1."""
    users = [a, b, c, d]
    scores = [52, 30] if winner_team == 0 else [30, 52]
    return [
        P(u, scores[i % 2], winner=(i % 2 == winner_team), team=i % 2, **kwargs)  # type: ignore[arg-type]
        for i, u in enumerate(users)
    ]
