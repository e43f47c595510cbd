"""Database size after N finished games: the action log as it was (a snapshot and a log row per
action, the log kept for ever) against the lighter write and the compacted log (migration 4).

    python bench/dbsize.py [--games 10000] [--sample 12] [--db DIR]

The games are real: ``--sample`` games of each game of ``engine.GAMES`` played to their end by the
normal AI with default options (about 200 to 1,000 actions each: every move, snapshot and hand
end is the engine's), stored again and again under new table ids until ``--games`` are stored.
Each game goes through the repository functions the service uses: the table opened with its
seats, started (the dealt snapshot), one ``record_action`` per move, ended with its result.

- ``before``: the schema before migration 4 and the write the service made then: every action
  stored the whole snapshot and one row of ``actions`` (a rowid table plus its unique index),
  and nothing was ever compacted.
- ``after``: the current schema and write: a snapshot only every ``SNAPSHOT_EVERY`` moves and at
  a hand's end, and at the game's end its actions and dealt game compacted into one
  ``action_logs`` row (its last snapshot dropped: the replay gives it).

Move times are random (a human's exponential, mean 3 s; an AI's 0.3-1.5 s), like real ones.

Also printed: the WAL one action writes when it is its own transaction (a quiet bot), over one
game of the sample. Transactions hold 20 games each (the service's group commit makes them as
large or larger: the file's size does not depend on it). Prints each file's size and its
largest tables (SQLite's ``dbstat``), and the ratio before / after. The load average is printed
(this is disk and CPU work on a shared machine: the run time, not the size, depends on it).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from bot.service.service import SNAPSHOT_EVERY  # noqa: E402
from bot.storage import configure  # noqa: E402
from bot.storage import repository as repo  # noqa: E402
from bot.storage.migrations import MIGRATIONS, migrate  # noqa: E402
from engine import ai  # noqa: E402


def table_size(game: str) -> int:
    """The table size a game is measured at: its default (``GameSpec.default_players``)."""
    spec = engine.GAMES[game]
    return spec.default_players or spec.min_players


#: Migration 4 (the lighter write and the compacted log) is the one after these.
BEFORE_MIGRATIONS = 3
GAMES_PER_TRANSACTION = 20


@dataclass
class Move:
    seat: int
    action: str
    snapshot: str  # the game after the move
    hands: int  # hands ended so far
    hand_over: bool


@dataclass
class Played:
    game: str
    players: int
    options: str
    initial: str
    moves: list[Move]
    result: dict[str, object]


def play(game: str, seed: int) -> Played:
    """One game played to its end by the normal AI (default options)."""
    players = table_size(game)
    state = engine.new_game(game, players, seed=seed)
    bots = [ai.make_player(game, "normal", seed * 10 + s) for s in range(players)]
    initial, moves, hands = state.to_json(), [], 0
    while not state.is_over():
        seat = state.to_act()[0]
        action = bots[seat].choose(state.view(seat), state.legal_actions(seat))
        events = state.apply(seat, action)
        ended = sum(1 for e in events if e.get("type") == "hand_over")
        hands += ended
        moves.append(Move(seat, engine.normalize_action(action), state.to_json(), hands, ended > 0))
    options = repo.dumps(engine.GAMES[game].resolve(None, None))
    return Played(game, players, options, initial, moves, state.result())


def store(
    conn: sqlite3.Connection,
    played: Played,
    number: int,
    *,
    before: bool,
    commit_each: bool = False,
) -> None:
    """Open, start, play and end one game through the repository functions (``commit_each``:
    each move in its own transaction)."""
    now = 1_800_000_000.0 + number * 600
    columns = {
        "channel_id": 1_000_000 + number,
        "guild_id": 1 + number % 50,
        "game": played.game,
        "options": played.options,
        "host_id": 10_000 + number % 3_000,
        "status": "lobby",
        "created_at": now,
    }
    seats = [
        repo.Seat(index=s, name=f"Player {s}", user_id=10_000 + (number * 7 + s) % 3_000)
        if s < 2
        else repo.Seat(index=s, name=f"AI {s} (normal)", ai_level="normal")
        for s in range(played.players)
    ]
    table_id = repo.insert_table(conn, columns, seats)
    start = {"status": "playing", "seed": number, "started_at": now, "snapshot_version": 1}
    start |= {"snapshot": played.initial, "initial_snapshot": played.initial, "move_number": 0}
    repo.update_table(conn, table_id, start)
    last = 0
    rng = random.Random(number)
    at = now
    for move_number, move in enumerate(played.moves, 1):
        user = seats[move.seat].user_id
        source = "player" if user is not None else "ai"
        # People think (3 s on average), the AI pauses about a second: times as random as real
        # ones, so that the compressed log is not flattered by regular clicks.
        at += rng.expovariate(1 / 3.0) if user is not None else rng.uniform(0.3, 1.5)
        if commit_each:
            conn.execute("COMMIT")
            conn.execute("BEGIN IMMEDIATE")
        if before:
            record_action_before(conn, table_id, move_number, move, source, user, at)
            continue
        due = move.hand_over or move_number - last >= SNAPSHOT_EVERY
        due = due or move_number == len(played.moves)
        if due:
            last = move_number
        repo.record_action(
            conn,
            table_id,
            move_number=move_number,
            seat=move.seat,
            action=move.action,
            source=source,
            user_id=user,
            at=at,
            hands=move.hands,
            deadlines={},
            snapshot=move.snapshot if due else None,
        )
    ended = at + 1.0
    if before:  # (mark_ended compacts now; before, the log stayed as it was)
        conn.execute(
            "UPDATE tables SET status = 'finished', ended_at = ?, deadlines = '{}' WHERE id = ?",
            (ended, table_id),
        )
        repo.record_result(conn, table_id, status="finished", ended_at=ended, result=played.result)
    else:
        repo.mark_ended(
            conn, table_id, status="finished", ended_at=ended, result=played.result, record=True
        )


def record_action_before(
    conn: sqlite3.Connection,
    table_id: int,
    move_number: int,
    move: Move,
    source: str,
    user: int | None,
    at: float,
) -> None:
    """The write per action before migration 4 (``repository.record_action`` as it was)."""
    conn.execute(
        "UPDATE tables SET snapshot = ?, move_number = ?, hands = ?, deadlines = ?,"
        " window_deadline = ? WHERE id = ? AND move_number = ?",
        (move.snapshot, move_number, move.hands, "{}", None, table_id, move_number - 1),
    )
    conn.execute(
        "INSERT INTO actions (table_id, move_number, seat, action, source, user_id, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (table_id, move_number, move.seat, move.action, source, user, at),
    )


def build(path: Path, sample: Sequence[Played], games: int, *, before: bool) -> float:
    """Store ``games`` games in a new database at ``path``; returns the seconds it took."""
    conn = sqlite3.connect(path, isolation_level=None)
    configure(conn)
    migrate(conn, MIGRATIONS[:BEFORE_MIGRATIONS] if before else None)
    begin = time.perf_counter()
    for first in range(0, games, GAMES_PER_TRANSACTION):
        conn.execute("BEGIN IMMEDIATE")
        for number in range(first, min(games, first + GAMES_PER_TRANSACTION)):
            store(conn, sample[number % len(sample)], number, before=before)
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - begin
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    conn.close()
    return elapsed


def wal_per_action(path: Path, played: Played, *, before: bool) -> float:
    """Bytes of WAL one action adds when each is its own transaction (a quiet bot: no other
    write to share its pages with), over one whole game."""
    conn = sqlite3.connect(path, isolation_level=None)
    configure(conn)
    migrate(conn, MIGRATIONS[:BEFORE_MIGRATIONS] if before else None)
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    wal = path.with_name(path.name + "-wal")
    size = wal.stat().st_size if wal.exists() else 0
    conn.execute("BEGIN IMMEDIATE")
    store(conn, played, 0, before=before, commit_each=True)
    conn.execute("COMMIT")
    grown = wal.stat().st_size - size
    conn.close()
    return grown / len(played.moves)


def report(path: Path) -> tuple[int, list[tuple[str, int]]]:
    """(the file's size, the five largest tables and indexes by bytes)."""
    conn = sqlite3.connect(path)
    try:
        largest = conn.execute(
            "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 5"
        ).fetchall()
    finally:
        conn.close()
    return path.stat().st_size, largest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=12, help="games played per game type")
    parser.add_argument("--db", type=Path, help="directory for the database files")
    args = parser.parse_args(argv)
    folder = args.db or Path(tempfile.mkdtemp(prefix="troika-dbsize-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; files in {folder}")

    sample = [play(game, seed) for game in engine.GAMES for seed in range(1, args.sample + 1)]
    moves = [len(p.moves) for p in sample]
    print(
        f"sample: {len(sample)} games played by the normal AI, {min(moves)}-{max(moves)} actions"
        f" (mean {sum(moves) / len(moves):.0f})"
    )
    sizes = {}
    for label, before in (("before", True), ("after", False)):
        path = folder / f"{label}.db"
        path.unlink(missing_ok=True)
        seconds = build(path, sample, args.games, before=before)
        size, largest = report(path)
        sizes[label] = size
        parts = ", ".join(f"{name} {pages / 2**20:.1f}" for name, pages in largest)
        wal = wal_per_action(folder / f"{label}-wal.db", sample[0], before=before)
        print(f"{label:<7}WAL per action, one action per transaction: {wal / 1024:.1f} KiB")
        print(
            f"{label:<7}{args.games:,} finished games: {size / 2**20:,.1f} MiB"
            f" ({size / args.games / 1024:.1f} KiB per game; built in {seconds:.0f} s)."
            f" Largest (MiB): {parts}"
        )
    print(f"ratio before/after: {sizes['before'] / sizes['after']:.1f}x (target >= 5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
