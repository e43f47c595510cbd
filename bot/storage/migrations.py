"""The database schema, as numbered migrations.

These are SQLite's; ``bot.storage.migrations_postgres`` holds PostgreSQL's, one for one (a new
migration is one entry in each list). ``migrate`` and ``schema_version`` serve both.

``MIGRATIONS[i]`` upgrades a database from ``PRAGMA user_version = i`` to ``i + 1``. To change the
schema append one SQL script to the list (never edit a released one): ``migrate`` runs the
missing ones in order, each in its own transaction together with the version bump.

Times are epoch seconds (REAL). JSON columns hold ``json.dumps`` text.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from bot.storage import migrations_postgres
from bot.storage.connection import POSTGRES, Connection, dialect_of

MIGRATIONS: list[str] = [
    # 1: tables, seats, the action log, finished games.
    """
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL,
        guild_id INTEGER,
        game TEXT NOT NULL,
        preset TEXT,
        overrides TEXT NOT NULL DEFAULT '{}',      -- options the host set (JSON)
        options TEXT NOT NULL DEFAULT '{}',        -- resolved options (JSON)
        host_id INTEGER NOT NULL,
        status TEXT NOT NULL
            CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned')),
        seed INTEGER,
        created_at REAL NOT NULL,
        started_at REAL,
        ended_at REAL,
        spectators TEXT NOT NULL DEFAULT '[]',     -- user ids (JSON)
        abandon_votes TEXT NOT NULL DEFAULT '[]',  -- user ids (JSON)
        snapshot TEXT,                             -- Game.to_json() after the last action
        snapshot_version INTEGER,                  -- engine.SNAPSHOT_VERSION of snapshot
        initial_snapshot TEXT,                     -- the game as dealt (replays the log)
        move_number INTEGER NOT NULL DEFAULT 0,    -- actions applied so far
        hands INTEGER NOT NULL DEFAULT 0,          -- hand_over events so far
        deadlines TEXT NOT NULL DEFAULT '{}'       -- {"seat": epoch seconds} of awaited seats
    );
    CREATE UNIQUE INDEX tables_one_open_per_channel
        ON tables (channel_id) WHERE status IN ('lobby', 'playing');
    CREATE INDEX tables_status ON tables (status);

    CREATE TABLE seats (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,                           -- NULL for an AI seat
        name TEXT NOT NULL,
        ai_level TEXT,                             -- set for AI seats and humans who left
        team INTEGER,
        left_at REAL,
        PRIMARY KEY (table_id, seat)
    );

    CREATE TABLE actions (
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        move_number INTEGER NOT NULL,              -- 1 for the first action
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('player', 'ai', 'timeout')),
        user_id INTEGER,
        at REAL NOT NULL,
        UNIQUE (table_id, move_number)
    );

    CREATE TABLE results (
        table_id INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        options TEXT NOT NULL,                     -- resolved options (JSON)
        status TEXT NOT NULL CHECK (status IN ('finished', 'abandoned')),
        hands INTEGER NOT NULL,
        started_at REAL,
        ended_at REAL NOT NULL,
        scores TEXT,                               -- per seat (JSON); NULL if abandoned early
        winners TEXT,                              -- seats (JSON)
        result TEXT                                -- Game.result() (JSON)
    );
    CREATE INDEX results_guild_game ON results (guild_id, game);

    CREATE TABLE result_players (
        table_id INTEGER NOT NULL REFERENCES results (table_id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,                           -- NULL for an AI seat
        name TEXT NOT NULL,
        ai_level TEXT,                             -- AI seats and humans replaced by the AI
        left INTEGER NOT NULL DEFAULT 0,           -- 1: the human left; the AI finished
        team INTEGER,
        score INTEGER,
        winner INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX result_players_user ON result_players (user_id);
    """,
    # 2: leaderboard (bot/leaderboard): seasons, ratings, rated games, hidden members, guild
    # settings (default timer, allowed channels) and per-game defaults.
    """
    CREATE TABLE seasons (
        guild_id INTEGER NOT NULL,
        number INTEGER NOT NULL,                   -- 1, 2, ...
        started_at REAL NOT NULL,
        ended_at REAL,                             -- NULL: the guild's current season
        PRIMARY KEY (guild_id, number)
    );

    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        season INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,                        -- the name he last played under
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,          -- rated games
        wins INTEGER NOT NULL DEFAULT 0,
        streak INTEGER NOT NULL DEFAULT 0,         -- current run of wins
        best_streak INTEGER NOT NULL DEFAULT 0,
        last_played REAL,
        PRIMARY KEY (guild_id, season, game, user_id)
    );

    CREATE TABLE rated_games (                     -- every recorded game, once looked at
        table_id INTEGER PRIMARY KEY REFERENCES results (table_id) ON DELETE CASCADE,
        guild_id INTEGER,
        season INTEGER,
        rated INTEGER NOT NULL,                    -- 1: ratings changed
        reason TEXT NOT NULL                       -- 'rated', 'abandoned', 'a player left'...
    );

    CREATE TABLE rating_changes (
        table_id INTEGER NOT NULL REFERENCES results (table_id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu_after REAL NOT NULL,
        sigma_after REAL NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    CREATE INDEX rating_changes_user ON rating_changes (user_id);

    CREATE TABLE board_hidden (                    -- members an admin removed from the boards
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        hidden_at REAL NOT NULL,
        by_user_id INTEGER,
        PRIMARY KEY (guild_id, user_id)
    );

    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        timer TEXT,                                -- default `timer` option (JSON); NULL: none
        channels TEXT                              -- channel ids allowed (JSON); NULL: all
    );

    CREATE TABLE guild_game_defaults (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        preset TEXT,
        options TEXT NOT NULL DEFAULT '{}',        -- option overrides (JSON)
        PRIMARY KEY (guild_id, game)
    );
    """,
    # 3: the table record (bot/service/tables.py): status 'broken' (a table that could not be
    # read, set aside until an admin closes it) with its reason, and the timed window's deadline
    # in its own column instead of the key "-1" of `deadlines` (moved out of existing rows;
    # malformed `deadlines` are copied as they are, for the loader to report). SQLite cannot
    # change a CHECK constraint in place: the table is rebuilt with foreign keys off (else
    # dropping the old one would delete every seat, action and result by cascade).
    """
    -- foreign_keys: off
    CREATE TABLE tables_v3 (
        id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL,
        guild_id INTEGER,
        game TEXT NOT NULL,
        preset TEXT,
        overrides TEXT NOT NULL DEFAULT '{}',      -- options the host set (JSON)
        options TEXT NOT NULL DEFAULT '{}',        -- resolved options (JSON)
        host_id INTEGER NOT NULL,
        status TEXT NOT NULL
            CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned', 'broken')),
        seed INTEGER,
        created_at REAL NOT NULL,
        started_at REAL,
        ended_at REAL,
        spectators TEXT NOT NULL DEFAULT '[]',     -- user ids (JSON)
        abandon_votes TEXT NOT NULL DEFAULT '[]',  -- user ids (JSON)
        snapshot TEXT,                             -- Game.to_json() after the last action
        snapshot_version INTEGER,                  -- engine.SNAPSHOT_VERSION of snapshot
        initial_snapshot TEXT,                     -- the game as dealt (replays the log)
        move_number INTEGER NOT NULL DEFAULT 0,    -- actions applied so far
        hands INTEGER NOT NULL DEFAULT 0,          -- hand_over events so far
        deadlines TEXT NOT NULL DEFAULT '{}',      -- {"seat": epoch seconds} of awaited seats
        window_deadline REAL,                      -- when an open timed window closes
        broken_reason TEXT                         -- why the table is 'broken'
    );
    INSERT INTO tables_v3 (id, channel_id, guild_id, game, preset, overrides, options, host_id,
        status, seed, created_at, started_at, ended_at, spectators, abandon_votes, snapshot,
        snapshot_version, initial_snapshot, move_number, hands, deadlines, window_deadline)
    SELECT id, channel_id, guild_id, game, preset, overrides, options, host_id, status, seed,
        created_at, started_at, ended_at, spectators, abandon_votes, snapshot, snapshot_version,
        initial_snapshot, move_number, hands,
        CASE WHEN json_valid(deadlines) AND json_type(deadlines) = 'object'
            THEN json_remove(deadlines, '$."-1"') ELSE deadlines END,
        CASE WHEN json_valid(deadlines) AND json_type(deadlines) = 'object'
            THEN json_extract(deadlines, '$."-1"') END
    FROM tables;
    DROP TABLE tables;
    ALTER TABLE tables_v3 RENAME TO tables;
    CREATE UNIQUE INDEX tables_one_open_per_channel
        ON tables (channel_id) WHERE status IN ('lobby', 'playing');
    CREATE INDEX tables_status ON tables (status);
    """,
    # 4: a lighter write per action and a bounded action log. The snapshot is written every few
    # moves (and at a hand's end, the game's start and end), not at every move: `snapshot_move`
    # says which move it stands at, and the actions after it are replayed on load. `actions`
    # is keyed by (table_id, move_number) itself (WITHOUT ROWID: no separate index to write),
    # and an ended game's actions move into one compressed row of `action_logs`
    # (bot/storage/action_log.py); those of games that ended before this migration too.
    """
    -- python: compact_ended_games
    CREATE TABLE actions_v4 (
        table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        move_number INTEGER NOT NULL,              -- 1 for the first action
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('player', 'ai', 'timeout')),
        user_id INTEGER,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, move_number)
    ) WITHOUT ROWID;
    INSERT INTO actions_v4 (table_id, move_number, seat, action, source, user_id, at)
    SELECT table_id, move_number, seat, action, source, user_id, at FROM actions;
    DROP TABLE actions;
    ALTER TABLE actions_v4 RENAME TO actions;

    CREATE TABLE action_logs (                     -- an ended game's actions, compressed
        table_id INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
        moves INTEGER NOT NULL,                    -- how many (numbered 1..moves)
        log BLOB NOT NULL                          -- zlib of JSON (bot/storage/action_log.py)
    );

    ALTER TABLE tables ADD COLUMN snapshot_move INTEGER NOT NULL DEFAULT 0;
    UPDATE tables SET snapshot_move = move_number;  -- every snapshot so far was the last move's
    """,
    # 5: the table's service settings (away_after, who may take a seat in play, the table a
    # rematch comes from) and each seat's presence (timeouts in a row, away, removed).
    """
    ALTER TABLE tables ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN away_at REAL;
    ALTER TABLE seats ADD COLUMN kicked INTEGER NOT NULL DEFAULT 0;
    """,
    # 6: the record's version (bot/storage/repository.py update_table): each write of the whole
    # record checks it and counts one more, so a second process's write is refused (the move
    # number alone cannot tell two writers apart in a lobby, where it stays 0).
    """
    ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    """,
    # 7: the language of a server's public messages, chosen by its admins (``/admin defaults
    # language``; NULL: the server's own preferred locale).
    """
    ALTER TABLE guild_settings ADD COLUMN language TEXT;
    """,
    # 8: where ``/new`` opens a server's tables, chosen by its admins (``/admin defaults
    # tables``: 'thread' or 'channel'; NULL: the default, a thread).
    """
    ALTER TABLE guild_settings ADD COLUMN tables_in TEXT;
    """,
    # 9: each player's notification choices (``/notify``): a direct message for turn-based
    # tables, his quiet hours (hours of his day, his clock's offset from UTC in minutes), an
    # inbox found closed, his language, and the turns the last message told (JSON).
    """
    CREATE TABLE notify_prefs (
        user_id INTEGER PRIMARY KEY,
        dm INTEGER NOT NULL DEFAULT 0,
        quiet_start INTEGER,
        quiet_end INTEGER,
        utc_offset INTEGER NOT NULL DEFAULT 0,
        dm_closed INTEGER NOT NULL DEFAULT 0,
        language TEXT,
        told TEXT NOT NULL DEFAULT '[]'
    );
    """,
    # 10: each player's own choices, for every server (``bot.app.decks``: the card colours of his
    # hand pictures); a player who keeps the defaults has no row.
    """
    CREATE TABLE player_settings (
        user_id INTEGER PRIMARY KEY,
        deck TEXT NOT NULL
    );
    """,
]

#: A migration whose script holds this line runs with foreign keys off (a table rebuild); its
#: transaction checks them (``PRAGMA foreign_key_check``) before it commits.
FOREIGN_KEYS_OFF = "-- foreign_keys: off"
#: A line ``-- python: NAME`` in a script runs ``PYTHON_STEPS[NAME](conn)`` after its SQL, in the
#: same transaction (for what SQL cannot do, such as compressing).
PYTHON_STEP = "-- python: "


def _compact_ended_games(conn: Connection) -> None:
    from bot.storage.action_log import compact_ended_games  # (it needs the new tables)

    compact_ended_games(conn)


PYTHON_STEPS: dict[str, Callable[[Connection], None]] = {
    "compact_ended_games": _compact_ended_games,
    "move_window_deadline": migrations_postgres.move_window_deadline,
}


def schema_version(conn: Connection) -> int:
    if dialect_of(conn) == POSTGRES:
        return migrations_postgres.schema_version(conn)
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: Connection, migrations: list[str] | None = None) -> int:
    """Bring the database up to date; returns the new version. ``conn`` is in autocommit mode.
    ``migrations`` (tests): the scripts in this backend's dialect."""
    if dialect_of(conn) == POSTGRES:
        return migrations_postgres.migrate(conn, migrations)
    steps = MIGRATIONS if migrations is None else migrations
    version = schema_version(conn)
    if version > len(steps):
        raise RuntimeError(
            f"database schema version {version} is newer than this code ({len(steps)})"
        )
    for number in range(version, len(steps)):
        script = steps[number]
        rebuild = FOREIGN_KEYS_OFF in script
        keys_on = int(conn.execute("PRAGMA foreign_keys").fetchone()[0])
        if rebuild:  # a no-op inside a transaction: set it before BEGIN
            conn.execute("PRAGMA foreign_keys=OFF")
        # executescript would COMMIT first; run the script's statements inside one transaction.
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(script):
                conn.execute(statement)
            for step in python_steps(script):
                step(conn)
            if rebuild and conn.execute("PRAGMA foreign_key_check").fetchall():
                raise RuntimeError(f"migration {number + 1} broke a foreign key")
            conn.execute(f"PRAGMA user_version = {number + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        finally:
            if rebuild:
                conn.execute(f"PRAGMA foreign_keys={'ON' if keys_on else 'OFF'}")
    return len(steps)


def python_steps(script: str) -> list[Callable[[Connection], None]]:
    names = [
        line.strip().removeprefix(PYTHON_STEP).strip()
        for line in script.splitlines()
        if line.strip().startswith(PYTHON_STEP)
    ]
    return [PYTHON_STEPS[name] for name in names]


def _statements(script: str) -> list[str]:
    """Split a script into complete statements (sqlite3.complete_statement handles ';' in text)."""
    out: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                out.append(buffer.strip())
            buffer = ""
    if buffer.strip() and buffer.strip() != ";":
        out.append(buffer.strip())
    return out
