"""Table service throughput and latency: 1,000 Troika tables playing at once on a SQLite file.

    python bench/service.py [--tables 1000] [--seconds 10] [--think 0.5] [--db PATH]

Every table seats four "players" (bench coroutines) who each play a random legal action when
their turn comes, through ``TableService.act`` (validation, engine, snapshot, one group-commit
transaction per batch, acknowledgement after COMMIT). A finished game is replaced by a new one in
the same channel, so 1,000 tables stay busy.

Phases, in one run:

1. ``ceiling``: plain ``sqlite3`` on one connection (same pragmas, same schema, real Troika
   snapshots) committing transactions of the action's shape: read one snapshot, write one
   snapshot, insert one log row, COMMIT. Transactions per second is the raw ceiling.
2. ``saturated``: every table acts as fast as it can (1,000 actions in flight). Actions per
   second is the service's capacity; ratio = capacity / ceiling. Latency here is mostly queueing
   (1,000 closed-loop clients: latency ~ 1,000 / throughput).
3. ``paced``: each player thinks an exponential time (mean ``--think`` seconds, as people do)
   before acting. Latency p50/p99 is what a player sees per action at that load.

``hop`` is an empty round trip to aiosqlite's thread: every acknowledgement needs one, and its
tail grows with the machine's load (a busy CPU delays waking the threads), and so does p99.

Figures depend on the machine and on what else runs on it (the load average is printed).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from bot.service import Limits, TableError, TableService  # noqa: E402
from bot.storage.db import Database, configure  # noqa: E402
from bot.storage.migrations import migrate  # noqa: E402

OPTIONS = {"timer": "off", "end": "rounds", "rounds": 3}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- 1. the raw ceiling ---------------------------------------------------------------------------
def ceiling(path: Path, tables: int, seconds: float) -> float:
    conn = sqlite3.connect(path, isolation_level=None)
    configure(conn)
    migrate(conn)
    snapshots = []
    for n in range(64):
        game = engine.new_game("troika", 4, options=OPTIONS, seed=n)
        rng = random.Random(n)
        for _ in range(rng.randrange(0, 30)):
            seat = game.to_act()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        snapshots.append(game.to_json())
    conn.execute("BEGIN")
    for n in range(tables):
        conn.execute(
            "INSERT INTO tables (id, channel_id, game, host_id, status, created_at, snapshot,"
            " move_number) VALUES (?, ?, 'troika', 1, 'playing', 0, ?, 0)",
            (n + 1, n + 1, snapshots[n % 64]),
        )
    conn.execute("COMMIT")
    moves = [0] * (tables + 1)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            table = done % tables + 1
            moves[table] += 1
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("SELECT snapshot FROM tables WHERE id = ?", (table,)).fetchone()
            conn.execute(
                "UPDATE tables SET snapshot = ?, move_number = ? WHERE id = ?",
                (snapshots[done % 64], moves[table], table),
            )
            conn.execute(
                "INSERT INTO actions (table_id, move_number, seat, action, source, user_id, at)"
                " VALUES (?, ?, 0, 'play 5h', 'player', 1, ?)",
                (table, moves[table], time.time()),
            )
            conn.execute("COMMIT")
            done += 1
    elapsed = time.perf_counter() - start
    conn.close()
    return done / elapsed


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


async def run_service(
    path: Path, tables: int, seconds: float, think: float, freeze: bool = False
) -> tuple[float, Stats]:
    service = TableService(path, ai_delay=0, limits=Limits.none())  # a load test: no limits
    await service.start()
    rng = random.Random(7)
    for channel in range(1, tables + 1):
        await open_table(service, channel, rng.randrange(2**31))
    stats = Stats()
    if freeze:
        gc.collect()
        gc.freeze()  # the tables opened so far leave the collector's scans
    start = time.perf_counter()
    cpu = time.process_time()
    await asyncio.gather(
        *(
            play_table(service, ch, start + seconds, think, stats, random.Random(ch))
            for ch in range(1, tables + 1)
        )
    )
    elapsed = time.perf_counter() - start
    stats.cpu = (time.process_time() - cpu) / elapsed
    elapsed = seconds  # the window the counted actions were acknowledged in
    await service.close()
    if freeze:
        gc.unfreeze()
    return len(stats.latencies) / elapsed, stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean think time, paced phase")
    parser.add_argument("--db", type=Path, help="directory for the database files")
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

    folder = args.db or Path(tempfile.mkdtemp(prefix="troika-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; files in {folder}")

    raw = ceiling(folder / "ceiling.db", args.tables, min(args.seconds, 5.0))
    print(f"ceiling   plain sqlite3, one tx per action (read+write snapshot, log row): "
          f"{raw:,.0f} tx/s")  # fmt: skip

    hop = asyncio.run(hops(folder / "hops.db"))
    print(
        f"hop       aiosqlite round trip, no SQL: p50 {percentile(hop, 0.5) * 1e3:.2f} ms"
        f" p99 {percentile(hop, 0.99) * 1e3:.2f} ms"
    )

    rate, stats = asyncio.run(
        run_service(folder / "saturated.db", args.tables, args.seconds, 0, args.tuned)
    )
    lat = stats.latencies
    print(
        f"saturated {args.tables} tables, no think time: {rate:,.0f} actions/s, "
        f"ratio service/ceiling {rate / raw:.2f}; latency p50 {percentile(lat, 0.5) * 1e3:.1f} ms"
        f" p99 {percentile(lat, 0.99) * 1e3:.1f} ms ({len(lat):,} actions, {stats.games} new"
        f" games, {stats.refused} refused; CPU {stats.cpu:.0%} of a core)"
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
    print("targets: ratio >= 0.3, p99 <= 5 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
