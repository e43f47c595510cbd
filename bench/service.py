"""Table service throughput and latency: 1,000 Troika tables playing at once on a SQLite file.

    python bench/service.py [--tables 1000] [--seconds 5] [--rounds 3] [--think 0.5] [--db PATH]
    python bench/service.py --database postgresql://... [--tables 1000] [--seconds 5]

Every table seats four "players" (bench coroutines) who each play a random legal action when
their turn comes, through ``TableService.act`` (validation, engine, the action's write, group
commit, acknowledgement after COMMIT). A finished game is replaced by a new one in the same
channel, so 1,000 tables stay busy.

Phases, in one run:

1. ``hop``: an empty round trip to aiosqlite's thread: every acknowledgement needs one, and its
   tail grows with the machine's load (a busy CPU delays waking the threads), and so does p99.
2. ``saturated`` against ``ceiling``, interleaved A/B/A/B (``--rounds`` of each, medians
   printed: a shared machine's load swings between runs). ``saturated``: every table acts as
   fast as it can (1,000 actions in flight); actions per second is the service's capacity.
   ``ceiling``: the same writes with nothing else: plain ``sqlite3`` on one connection (same
   pragmas and schema), the repository functions the service calls with the arguments it would
   pass (``record_action`` with a snapshot every ``SNAPSHOT_EVERY`` moves and at a hand's end,
   real Troika games played beforehand; a game's end and the next game's opening), committed by
   the service's own group commit (``group_commit.commit_batch``) in batches of the sizes the
   service's round just made, a second connection checkpointing the WAL meanwhile and the writer
   itself when it grows past ``WAL_FRAMES_LIMIT``, like the service's.
   Ratio = service / ceiling (target >= 0.3): what the service's Python (engine, validation,
   events, asyncio) costs on top of its SQL.
3. ``paced``: each player thinks an exponential time (mean ``--think`` seconds, as people do)
   before acting. Latency p50/p99 is what a player sees per action at that load.

``--database TARGET`` (a ``postgresql://`` URL, or a SQLite file to compare with) runs only the
service's phases, saturated then paced, on that database: the ceiling is SQLite's own.

Figures depend on the machine and on what else runs on it (the load average is printed).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from bot.service import Limits, TableError, TableService  # noqa: E402
from bot.service.service import SNAPSHOT_EVERY  # noqa: E402
from bot.storage import group_commit  # noqa: E402
from bot.storage import repository as repo  # noqa: E402
from bot.storage.db import WAL_FRAMES_LIMIT, Database, configure  # noqa: E402
from bot.storage.migrations import migrate  # noqa: E402
from bot.storage.urls import is_postgres_url, redact  # noqa: E402
from engine import normalize_action  # noqa: E402

OPTIONS = {"timer": "off", "end": "rounds", "rounds": 3}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the ceiling: the service's writes, nothing else -------------------------------------------
@dataclass
class Move:
    seat: int
    action: str
    hands: int
    snapshot: str | None  # written with this move (the service's rule)


@dataclass
class PlayedGame:
    initial: str
    moves: list[Move]
    result: dict[str, Any]


def played_games(count: int) -> list[PlayedGame]:
    """Troika games played to their end by random legal moves (as the bench's players do),
    each move with the snapshot the service would write with it."""
    games = []
    for seed in range(count):
        game = engine.new_game("troika", 4, options=OPTIONS, seed=seed)
        rng = random.Random(seed)
        initial, moves, hands, last = game.to_json(), [], 0, 0
        while not game.is_over():
            seat = game.to_act()[0]
            action = rng.choice(game.legal_actions(seat))
            ended = sum(1 for e in game.apply(seat, action) if e.get("type") == "hand_over")
            hands += ended
            number = len(moves) + 1
            due = ended or game.is_over() or number - last >= SNAPSHOT_EVERY
            if due:
                last = number
            moves.append(
                Move(seat, normalize_action(action), hands, game.to_json() if due else None)
            )
        games.append(PlayedGame(initial, moves, game.result()))
    return games


class Ceiling:
    """``tables`` Troika tables on a plain sqlite3 connection, each replaying a played game
    through the service's repository calls; ``run`` commits them in given batch sizes."""

    def __init__(self, path: Path, tables: int, games: list[PlayedGame]) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        configure(self.conn)
        migrate(self.conn)
        self.conn.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints: a second connection's
        self.path = path
        self.wal = path.with_name(path.name + "-wal")
        self.games = games
        self.tables = tables
        self.slots: list[list[int]] = []  # per channel: [table id, game index, moves made]
        self.opened = 0
        self.conn.execute("BEGIN")
        for channel in range(1, tables + 1):
            self.slots.append([self._open(self.conn, channel), channel % len(games), 0])
        self.conn.execute("COMMIT")
        self.next = 0

    def _open(self, conn: sqlite3.Connection, channel: int) -> int:
        """The service's writes for a new game: the lobby, three joins, the start."""
        self.opened += 1
        seats = [repo.Seat(index=0, name="P0", user_id=channel * 10)]
        columns = {"channel_id": channel, "guild_id": 1, "game": "troika", "host_id": channel}
        columns |= {"status": "lobby", "created_at": time.time(), "options": repo.dumps(OPTIONS)}
        table_id = repo.insert_table(conn, columns, seats)
        for n in range(1, 4):
            seats.append(repo.Seat(index=n, name=f"P{n}", user_id=channel * 10 + n))
            repo.update_table(conn, table_id, {"spectators": "[]"}, seats)
        game = self.games[(channel + self.opened) % len(self.games)]
        start = {"status": "playing", "started_at": time.time(), "snapshot": game.initial}
        start |= {"initial_snapshot": game.initial, "move_number": 0, "snapshot_move": 0}
        repo.update_table(conn, table_id, start, seats)
        return table_id

    def _write(self, channel: int) -> Callable[[sqlite3.Connection], None]:
        """The write of this channel's next move (and, after a game's last, the next game's)."""
        slot = self.slots[channel - 1]
        table_id, game = slot[0], self.games[slot[1]]
        number = slot[2] + 1
        move = game.moves[number - 1]
        over = number == len(game.moves)
        slot[2] = number
        if over:
            slot[1], slot[2] = (slot[1] + 1) % len(self.games), 0
        now = time.time()

        def write(conn: sqlite3.Connection) -> None:
            repo.record_action(
                conn,
                table_id,
                move_number=number,
                seat=move.seat,
                action=move.action,
                source="player",
                user_id=channel * 10 + move.seat,
                at=now,
                hands=move.hands,
                deadlines={},
                window_deadline=None,
                snapshot=move.snapshot,
            )
            if over:
                repo.mark_ended(
                    conn, table_id, status="finished", ended_at=now, result=game.result, record=True
                )
                slot[0] = self._open(conn, channel)

        return write

    def run(self, seconds: float, batches: list[int]) -> float:
        """Commit moves for ``seconds`` in batches of the sizes in ``batches`` (cycled);
        returns moves per second. A thread checkpoints the WAL meanwhile, as the service's
        second connection does."""
        stop = threading.Event()
        checkpointer = threading.Thread(target=self._checkpoints, args=(stop,), daemon=True)
        checkpointer.start()
        done = 0
        start = time.perf_counter()
        try:
            while time.perf_counter() - start < seconds:
                for size in batches:
                    writes = []
                    for _ in range(size):
                        self.next = self.next % self.tables + 1
                        writes.append(self._write(self.next))
                    group_commit.commit_batch(self.conn, writes=writes, begin=Database.BEGIN)
                    done += size
                    if self.wal.stat().st_size > WAL_FRAMES_LIMIT * 4096:
                        # What the service's writer does then (see Database._checkpoint_step):
                        # copy the rest itself, so that the WAL restarts.
                        self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    if time.perf_counter() - start >= seconds:
                        break
        finally:
            elapsed = time.perf_counter() - start
            stop.set()
            checkpointer.join()
        return done / elapsed

    def _checkpoints(self, stop: threading.Event) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None)
        conn.execute("PRAGMA busy_timeout=5000")
        try:
            while not stop.wait(0.05):
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            conn.close()

    def close(self) -> None:
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        self.conn.close()


async def hops(path: Path, count: int = 2000) -> list[float]:
    """Round trips to aiosqlite's thread doing nothing: the floor under every acknowledgement
    (and a gauge of how busy the machine's CPUs are)."""
    db = Database(path)
    await db.open()
    times = []
    for _ in range(count):
        begin = time.perf_counter()
        await db.run(lambda conn: None)
        times.append(time.perf_counter() - begin)
        await asyncio.sleep(0.0002)
    await db.close()
    return times


# -- 2./3. the service ----------------------------------------------------------------------------
class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.games = 0
        self.refused = 0
        self.cpu = 0.0


async def open_table(service: TableService, channel: int, seed: int) -> None:
    base = channel * 10
    await service.open_table(channel, 1, base, "P0", "troika", options=OPTIONS, seed=seed)
    for seat in range(1, 4):
        await service.join(channel, base + seat, f"P{seat}")
    await service.start_game(channel, base)


async def play_table(
    service: TableService,
    channel: int,
    stop_at: float,
    think: float,
    stats: Stats,
    rng: random.Random,
) -> None:
    while time.perf_counter() < stop_at:
        table = service.get_table(channel)
        if table is None:
            stats.games += 1
            await open_table(service, channel, rng.randrange(2**31))
            continue
        seat = table.to_act[0]
        user = channel * 10 + seat
        action = rng.choice(service.legal_actions(channel, user))
        if think > 0:
            await asyncio.sleep(rng.expovariate(1 / think))
            if time.perf_counter() >= stop_at:
                return
        begin = time.perf_counter()
        try:
            await service.act(channel, user, action)
        except TableError:
            stats.refused += 1
            continue
        end = time.perf_counter()
        if end <= stop_at:  # actions acknowledged after the window do not count
            stats.latencies.append(end - begin)


async def play_round(
    service: TableService, tables: int, seconds: float, think: float, seed: int
) -> tuple[float, Stats]:
    """Every table plays for ``seconds``; (acknowledged actions per second, stats)."""
    stats = Stats()
    start = time.perf_counter()
    cpu = time.process_time()
    await asyncio.gather(
        *(
            play_table(service, ch, start + seconds, think, stats, random.Random(ch * 7919 + seed))
            for ch in range(1, tables + 1)
        )
    )
    elapsed = time.perf_counter() - start
    stats.cpu = (time.process_time() - cpu) / elapsed
    # The window the counted actions were acknowledged in.
    return len(stats.latencies) / seconds, stats


async def started_service(path: Path | str, tables: int, freeze: bool) -> TableService:
    service = TableService(path, ai_delay=0, limits=Limits.none())  # a load test: no limits
    await service.start()
    rng = random.Random(7)
    for channel in range(1, tables + 1):
        seed = rng.randrange(2**31)
        if service.get_table(channel) is None:  # (--database: a previous phase's play on)
            await open_table(service, channel, seed)
    if freeze:
        gc.collect()
        gc.freeze()  # the tables opened so far leave the collector's scans
    return service


@contextlib.contextmanager
def batch_sizes() -> Iterator[list[int]]:
    """The sizes of the service's group commits meanwhile (``commit_batch`` observed)."""
    sizes: list[int] = []
    real = group_commit.commit_batch

    def observed(conn: sqlite3.Connection, *, writes: list[Any], begin: str) -> Any:
        sizes.append(len(writes))
        return real(conn, writes=writes, begin=begin)

    group_commit.commit_batch = observed  # type: ignore[assignment]
    try:
        yield sizes
    finally:
        group_commit.commit_batch = real  # type: ignore[assignment]


@dataclass
class Round:
    service: float
    stats: Stats
    ceiling: float
    batches: list[int]


async def interleaved(
    folder: Path, tables: int, seconds: float, rounds: int, freeze: bool
) -> list[Round]:
    """Service and ceiling in turn, ``rounds`` times each (A/B/A/B): the ceiling commits the
    batch sizes the service's round just made."""
    ceiling = Ceiling(folder / "ceiling.db", tables, played_games(32))
    service = await started_service(folder / "saturated.db", tables, freeze)
    out = []
    try:
        for number in range(rounds):
            with batch_sizes() as sizes:
                rate, stats = await play_round(service, tables, seconds, 0, number)
            raw = ceiling.run(seconds, sizes or [1])  # blocks the loop: the service is idle
            out.append(Round(rate, stats, raw, sizes))
            print(
                f"  round {number + 1}: service {rate:,.0f} actions/s (CPU {stats.cpu:.0%} of a"
                f" core), ceiling {raw:,.0f} actions/s, ratio {rate / raw:.2f}; group commits"
                f" of {statistics.fmean(sizes or [0]):.0f} writes on average"
                f" (load average {os.getloadavg()[0]:.2f})",
                flush=True,
            )
    finally:
        await service.close()
        ceiling.close()
        if freeze:
            gc.unfreeze()
    return out


async def run_service(
    path: Path | str, tables: int, seconds: float, think: float, freeze: bool = False
) -> tuple[float, Stats]:
    service = await started_service(path, tables, freeze)
    try:
        return await play_round(service, tables, seconds, think, 0)
    finally:
        await service.close()
        if freeze:
            gc.unfreeze()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=5.0, help="per round / phase")
    parser.add_argument("--rounds", type=int, default=3, help="service/ceiling pairs")
    parser.add_argument("--think", type=float, default=0.5, help="mean think time, paced phase")
    parser.add_argument("--db", type=Path, help="directory for the database files")
    parser.add_argument(
        "--database",
        help="only the service's phases, on this database (a postgresql:// URL or a file)",
    )
    parser.add_argument(
        "--tuned",
        action="store_true",
        help="GIL switch interval 0.5 ms and gc.freeze() after the tables are open",
    )
    args = parser.parse_args(argv)
    if args.tuned:
        # The database thread needs the GIL back after every statement; by default it may
        # wait up to 5 ms for the event loop's thread to let go of it.
        sys.setswitchinterval(0.0005)

    if args.database:
        return service_only(args)
    folder = args.db or Path(tempfile.mkdtemp(prefix="troika-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; files in {folder}")

    hop = asyncio.run(hops(folder / "hops.db"))
    print(
        f"hop       aiosqlite round trip, no SQL: p50 {percentile(hop, 0.5) * 1e3:.2f} ms"
        f" p99 {percentile(hop, 0.99) * 1e3:.2f} ms"
    )

    print(
        f"saturated {args.tables} tables, no think time, against the ceiling (A/B x{args.rounds}):"
    )
    rounds = asyncio.run(interleaved(folder, args.tables, args.seconds, args.rounds, args.tuned))
    service = statistics.median(r.service for r in rounds)
    raw = statistics.median(r.ceiling for r in rounds)
    pairs = statistics.median(r.service / r.ceiling for r in rounds)
    lat = [x for r in rounds for x in r.stats.latencies]
    print(
        f"saturated median {service:,.0f} actions/s; ceiling median {raw:,.0f} actions/s;"
        f" ratio service/ceiling {service / raw:.2f} (median of the rounds' ratios {pairs:.2f});"
        f" latency p50 {percentile(lat, 0.5) * 1e3:.1f} ms p99 {percentile(lat, 0.99) * 1e3:.1f}"
        f" ms ({len(lat):,} actions, {sum(r.stats.games for r in rounds)} new games,"
        f" {sum(r.stats.refused for r in rounds)} refused)"
    )

    rate, stats = asyncio.run(
        run_service(folder / "paced.db", args.tables, args.seconds, args.think, args.tuned)
    )
    lat = stats.latencies
    print(
        f"paced     {args.tables} tables, think {args.think} s: {rate:,.0f} actions/s; latency "
        f"p50 {percentile(lat, 0.5) * 1e3:.2f} ms p99 {percentile(lat, 0.99) * 1e3:.2f} ms"
        f" mean {statistics.fmean(lat) * 1e3:.2f} ms ({len(lat):,} actions;"
        f" CPU {stats.cpu:.0%} of a core)"
    )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    print("targets: ratio >= 0.3, p99 <= 5 ms")
    return 0


def service_only(args: argparse.Namespace) -> int:
    """``--database``: saturated, then paced, on that database (no ceiling: it is SQLite's)."""
    shown = redact(args.database) if is_postgres_url(args.database) else args.database
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; database {shown}")
    for label, think in (("saturated", 0.0), ("paced", args.think)):
        rate, stats = asyncio.run(
            run_service(args.database, args.tables, args.seconds, think, args.tuned)
        )
        lat = stats.latencies
        print(
            f"{label:9} {args.tables} tables, think {think} s: {rate:,.0f} actions/s; latency"
            f" p50 {percentile(lat, 0.5) * 1e3:.2f} ms p99 {percentile(lat, 0.99) * 1e3:.2f} ms"
            f" ({len(lat):,} actions; CPU {stats.cpu:.0%} of a core)",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
