"""SQL of the leaderboard: seasons, rating the recorded games, boards, stats, hiding, forgetting.

Plain functions of a connection (``bot.storage.connection``: SQLite's or PostgreSQL's; run on
the database thread by ``Leaderboard``); none commits. The tables are created by migration 2
(``bot/storage/migrations.py``).

Rating works from what the table service records (``results`` / ``result_players``): ``catch_up``
rates every recorded game not yet looked at, oldest first, and marks it in ``rated_games``. So a
game is rated exactly once, even if the bot stops between recording a game and rating it (the
next ``catch_up`` does it), and games recorded before this migration are rated on the first
run. A game belongs to the guild's season current when it is rated.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import N_
from bot.leaderboard.rating import Participant, Skill, decide, rate
from bot.service import table_settings
from bot.storage.connection import Connection

#: Sort orders of the board.
SORTS: tuple[str, ...] = ("rating", "wins", "games", "win rate")
#: The name results keep for a member who asked to be forgotten.
# (Stored as the seat's name, in English; shown with ``_()`` where a name is read.)
FORGOTTEN = N_("Forgotten player")


@dataclass(frozen=True)
class Season:
    number: int
    started_at: float
    ended_at: float | None


@dataclass(frozen=True)
class Standing:
    """One member's line for one game and season."""

    user_id: int
    name: str
    game: str
    season: int
    mu: float
    sigma: float
    games: int
    wins: int
    streak: int
    best_streak: int
    last_played: float | None

    @property
    def rating(self) -> float:
        return Skill(self.mu, self.sigma).conservative

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class RatedGame:
    """The outcome of looking at one recorded game."""

    table_id: int
    guild_id: int | None
    game: str
    season: int | None
    rated: bool
    reason: str
    changes: dict[int, tuple[Skill, Skill]]


@dataclass(frozen=True)
class RecentResult:
    table_id: int
    game: str
    status: str
    ended_at: float
    winner: bool
    score: int | None
    rated: bool


# -- seasons ----------------------------------------------------------------------------------
def current_season(conn: Connection, guild_id: int, now: float) -> int:
    """The guild's current season number (season 1 starts with the first question)."""
    row = conn.execute(
        "SELECT MAX(number) FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
    ).fetchone()
    if row[0] is not None:
        return int(row[0])
    last = conn.execute(
        "SELECT MAX(number) FROM seasons WHERE guild_id = ?", (guild_id,)
    ).fetchone()
    number = int(last[0] or 0) + 1
    conn.execute(
        "INSERT INTO seasons (guild_id, number, started_at) VALUES (?, ?, ?)",
        (guild_id, number, now),
    )
    return number


def new_season(conn: Connection, guild_id: int, now: float) -> int:
    """End the current season and start the next; older seasons' ratings stay as they were.

    Games recorded but not yet rated are rated first, so they count in the season they were
    played in.
    """
    catch_up(conn, now)
    current = current_season(conn, guild_id, now)
    conn.execute(
        "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND number = ?",
        (now, guild_id, current),
    )
    conn.execute(
        "INSERT INTO seasons (guild_id, number, started_at) VALUES (?, ?, ?)",
        (guild_id, current + 1, now),
    )
    return current + 1


def seasons(conn: Connection, guild_id: int) -> list[Season]:
    return [
        Season(int(n), float(s), None if e is None else float(e))
        for n, s, e in conn.execute(
            "SELECT number, started_at, ended_at FROM seasons WHERE guild_id = ? ORDER BY number",
            (guild_id,),
        )
    ]


# -- rating -----------------------------------------------------------------------------------
def catch_up(conn: Connection, now: float) -> list[RatedGame]:
    """Rate every recorded game not looked at yet, in the order they ended."""
    pending = conn.execute(
        "SELECT r.table_id, r.guild_id, r.game, r.status, r.ended_at FROM results r"
        " LEFT JOIN rated_games g ON g.table_id = r.table_id"
        " WHERE g.table_id IS NULL ORDER BY r.ended_at, r.table_id"
    ).fetchall()
    return [_rate_one(conn, row, now) for row in pending]


def _participants(conn: Connection, table_id: int) -> list[Participant]:
    return [
        Participant(
            seat=seat,
            user_id=user_id,
            name=name,
            ai_level=ai_level,
            left=bool(left),
            team=team,
            score=score,
            winner=bool(winner),
        )
        for seat, user_id, name, ai_level, left, team, score, winner in conn.execute(
            'SELECT seat, user_id, name, ai_level, "left", team, score, winner FROM result_players'
            " WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
    ]


def _hinted(conn: Connection, table_id: int) -> bool:
    """Were hints on during the game? (Its table's service settings say; see table_settings.)"""
    row = conn.execute("SELECT settings FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        return False
    try:
        settings = json.loads(row[0] or "{}")
    except ValueError:
        return False
    return isinstance(settings, dict) and table_settings.was_hinted(settings)


def _rate_one(conn: Connection, row: Sequence[object], now: float) -> RatedGame:
    table_id, guild_id, game, status, ended_at = row
    assert isinstance(table_id, int) and isinstance(game, str) and isinstance(status, str)
    guild = guild_id if isinstance(guild_id, int) else None
    players = _participants(conn, table_id)
    decision = decide(game, status, guild, players, hinted=_hinted(conn, table_id))
    season = current_season(conn, guild, now) if guild is not None else None
    changes: dict[int, tuple[Skill, Skill]] = {}
    if decision.rated and guild is not None and season is not None:
        current = {
            uid: Skill(mu, sigma)
            for uid, mu, sigma in conn.execute(
                "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND season = ?"
                " AND game = ?",
                (guild, season, game),
            )
        }
        changes = rate(decision, current)
        by_user = {p.user_id: p for p in players if p.user_id is not None}
        for uid, (before, after) in changes.items():
            player = by_user[uid]
            _store_rating(conn, guild, season, game, player, after, float(ended_at or now))
            conn.execute(
                "INSERT INTO rating_changes (table_id, user_id, mu_before, sigma_before,"
                " mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, uid, before.mu, before.sigma, after.mu, after.sigma),
            )
    conn.execute(
        "INSERT INTO rated_games (table_id, guild_id, season, rated, reason) VALUES (?,?,?,?,?)",
        (table_id, guild, season, int(decision.rated), decision.reason),
    )
    return RatedGame(table_id, guild, game, season, decision.rated, decision.reason, changes)


def _store_rating(
    conn: Connection,
    guild_id: int,
    season: int,
    game: str,
    player: Participant,
    skill: Skill,
    when: float,
) -> None:
    won = int(player.winner)
    row = conn.execute(
        "SELECT games, wins, streak, best_streak FROM ratings"
        " WHERE guild_id = ? AND season = ? AND game = ? AND user_id = ?",
        (guild_id, season, game, player.user_id),
    ).fetchone()
    games, wins, streak, best = row if row is not None else (0, 0, 0, 0)
    streak = streak + 1 if won else 0
    conn.execute(
        "INSERT INTO ratings (guild_id, season, game, user_id, name, mu, sigma, games,"
        " wins, streak, best_streak, last_played) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
        " ON CONFLICT (guild_id, season, game, user_id) DO UPDATE SET name = excluded.name,"
        " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
        " wins = excluded.wins, streak = excluded.streak, best_streak = excluded.best_streak,"
        " last_played = excluded.last_played",
        (
            guild_id,
            season,
            game,
            player.user_id,
            player.name,
            skill.mu,
            skill.sigma,
            games + 1,
            wins + won,
            streak,
            max(best, streak),
            when,
        ),
    )


# -- reading ----------------------------------------------------------------------------------
_STANDING = "user_id, name, game, season, mu, sigma, games, wins, streak, best_streak, last_played"


def board(
    conn: Connection,
    guild_id: int,
    season: int,
    game: str,
    sort: str = "rating",
) -> list[Standing]:
    """The season's board of one game, hidden members left out, best first."""
    if sort not in SORTS:
        raise ValueError(f"unknown sort {sort!r}")
    rows = [
        Standing(*row)
        for row in conn.execute(
            f"SELECT {_STANDING} FROM ratings WHERE guild_id = ? AND season = ? AND game = ?"
            " AND user_id NOT IN (SELECT user_id FROM board_hidden WHERE guild_id = ?)",
            (guild_id, season, game, guild_id),
        )
    ]

    def key(s: Standing) -> tuple[float, ...]:
        # Ties fall back to the rating, then to who played more, then to a stable id order.
        primary = {
            "rating": s.rating,
            "wins": float(s.wins),
            "games": float(s.games),
            "win rate": s.win_rate,
        }[sort]
        return (-primary, -s.rating, -float(s.games), float(s.user_id))

    return sorted(rows, key=key)


def standings_of(conn: Connection, guild_id: int, season: int, user_id: int) -> list[Standing]:
    """A member's lines (one per game he was rated in) of the season."""
    return [
        Standing(*row)
        for row in conn.execute(
            f"SELECT {_STANDING} FROM ratings WHERE guild_id = ? AND season = ? AND user_id = ?"
            " ORDER BY game",
            (guild_id, season, user_id),
        )
    ]


def recent_results(
    conn: Connection, guild_id: int, user_id: int, game: str | None = None, limit: int = 5
) -> list[RecentResult]:
    """The member's last recorded games in the guild (every season, rated or not), newest first."""
    sql = (
        "SELECT r.table_id, r.game, r.status, r.ended_at, p.winner, p.score,"
        " COALESCE(g.rated, 0) FROM result_players p JOIN results r ON r.table_id = p.table_id"
        " LEFT JOIN rated_games g ON g.table_id = r.table_id"
        " WHERE r.guild_id = ? AND p.user_id = ?"
    )
    params: list[object] = [guild_id, user_id]
    if game is not None:
        sql += " AND r.game = ?"
        params.append(game)
    sql += " ORDER BY r.ended_at DESC, r.table_id DESC LIMIT ?"
    params.append(limit)
    return [
        RecentResult(t, g, s, float(e), bool(w), sc, bool(rt))
        for t, g, s, e, w, sc, rt in conn.execute(sql, params)
    ]


def games_on_board(conn: Connection, guild_id: int, season: int) -> list[str]:
    """Games with at least one rated player this season, most played first."""
    return [
        game
        for (game,) in conn.execute(
            "SELECT game FROM ratings WHERE guild_id = ? AND season = ? GROUP BY game"
            " ORDER BY SUM(games) DESC, game",
            (guild_id, season),
        )
    ]


def is_hidden(conn: Connection, guild_id: int, user_id: int) -> bool:
    row = conn.execute(
        "SELECT 1 FROM board_hidden WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    ).fetchone()
    return row is not None


# -- admin ------------------------------------------------------------------------------------
def hide(conn: Connection, guild_id: int, user_id: int, by: int | None, now: float) -> bool:
    """Hide a member from the guild's boards (his games still count); False if already hidden."""
    cursor = conn.execute(
        "INSERT INTO board_hidden (guild_id, user_id, hidden_at, by_user_id)"
        " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (guild_id, user_id, now, by),
    )
    return cursor.rowcount == 1


def restore(conn: Connection, guild_id: int, user_id: int) -> bool:
    """Show a hidden member again; False if he was not hidden."""
    cursor = conn.execute(
        "DELETE FROM board_hidden WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return cursor.rowcount == 1


def forget(conn: Connection, guild_id: int, user_id: int) -> int:
    """Delete what the guild stores about a member; returns how many recorded games he was in.

    Ratings, rating changes and his hidden mark go. In the guild's closed tables and results his
    seat stays (so the other players' games keep their seats, scores and winners) but carries no
    id and the name ``FORGOTTEN``; his moves in the action log lose their user id, and he is
    dropped from spectator and vote lists. Open tables are left alone (the caller refuses while
    he sits at one). Other players' ratings are not recomputed: their history stays as it was.
    """
    closed = "SELECT id FROM tables WHERE guild_id = ? AND status IN ('finished', 'abandoned')"
    games = conn.execute(
        "SELECT COUNT(*) FROM result_players WHERE user_id = ? AND table_id IN"
        " (SELECT table_id FROM results WHERE guild_id = ?)",
        (user_id, guild_id),
    ).fetchone()[0]
    conn.execute("DELETE FROM ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    conn.execute("DELETE FROM board_hidden WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    conn.execute(
        "DELETE FROM rating_changes WHERE user_id = ? AND table_id IN"
        " (SELECT table_id FROM results WHERE guild_id = ?)",
        (user_id, guild_id),
    )
    conn.execute(
        "UPDATE result_players SET user_id = NULL, name = ? WHERE user_id = ? AND table_id IN"
        " (SELECT table_id FROM results WHERE guild_id = ?)",
        (FORGOTTEN, user_id, guild_id),
    )
    conn.execute(
        f"UPDATE seats SET user_id = NULL, name = ? WHERE user_id = ? AND table_id IN ({closed})",
        (FORGOTTEN, user_id, guild_id),
    )
    conn.execute(
        f"UPDATE actions SET user_id = NULL WHERE user_id = ? AND table_id IN ({closed})",
        (user_id, guild_id),
    )
    # host_id is NOT NULL: 0 is no Discord user.
    conn.execute(
        f"UPDATE tables SET host_id = 0 WHERE host_id = ? AND id IN ({closed})",
        (user_id, guild_id),
    )
    for table_id, spectators, votes in conn.execute(
        f"SELECT id, spectators, abandon_votes FROM tables WHERE id IN ({closed})",
        (guild_id,),
    ).fetchall():
        watching = [u for u in json.loads(spectators) if u != user_id]
        voting = [u for u in json.loads(votes) if u != user_id]
        if len(watching) != len(json.loads(spectators)) or len(voting) != len(json.loads(votes)):
            conn.execute(
                "UPDATE tables SET spectators = ?, abandon_votes = ? WHERE id = ?",
                (json.dumps(watching), json.dumps(voting), table_id),
            )
    return int(games)
