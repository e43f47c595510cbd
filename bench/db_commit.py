"""What one action's commit costs the database's thread: CPU and WAL frames, commits spaced out.

    python bench/db_commit.py [--tables 1000] [--commits 3000] [--gap-ms 2] [--rounds 3]
                              [--variant NAME ...]

At 1,000 tables a batch holds one write at the median and batches come about 2 ms apart, so
each commit finds SQLite's and the CPU's caches cold (measured: the same UPDATE + INSERT costs
~28 µs committed back to back, 50-85 µs 2 ms apart). This replays the service's writes (real
Troika games through the repository's calls: ``bench/service.py``'s ``Ceiling``) one write per
transaction, ``--gap-ms`` apart, on a plain sqlite3 connection with the bot's pragmas, and
prints per commit: the thread's CPU (``time.thread_time``; median over ``--rounds``), the WAL
frames written (the WAL file's growth: no checkpoint runs inside a round; one runs between
rounds, as the service's checkpointer would), interleaving the variants round by round
(``--variant``: ``current`` and the alternatives in ``VARIANTS``). The load average is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.service import Ceiling, played_games  # noqa: E402
from bot.storage import group_commit  # noqa: E402
from bot.storage.db import Database  # noqa: E402

#: name -> what is done to the connection after the bot's pragmas.
VARIANTS: dict[str, Callable[[Ceiling], None]] = {
    "current": lambda c: None,
    "cache_size=-16000": lambda c: c.conn.execute("PRAGMA cache_size=-16000").fetchall(),
    "mmap_size=256MiB": lambda c: c.conn.execute("PRAGMA mmap_size=268435456").fetchall(),
}

FRAME = 24  # a WAL frame's header; the WAL's own header is 32 bytes


def one_round(ceiling: Ceiling, commits: int, gap: float) -> tuple[float, float]:
    """Median CPU µs per commit and WAL frames per commit over ``commits`` single writes."""
    ceiling.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    page = ceiling.conn.execute("PRAGMA page_size").fetchone()[0]
    before = ceiling.wal.stat().st_size if ceiling.wal.exists() else 0
    spent = []
    for _ in range(commits):
        ceiling.next = ceiling.next % ceiling.tables + 1
        write = ceiling._write(ceiling.next)
        start = time.thread_time()
        group_commit.commit_batch(ceiling.conn, writes=[write], begin=Database.BEGIN)
        spent.append(time.thread_time() - start)
        if gap:
            time.sleep(gap)
    frames = (ceiling.wal.stat().st_size - max(before, 32)) / (page + FRAME)
    return statistics.median(spent) * 1e6, frames / commits


def thread_cpu(name: str) -> float:
    """CPU seconds of this process's thread called ``name`` (``schedstat``: nanoseconds)."""
    for thread in threading.enumerate():
        if thread.name == name and thread.native_id is not None:
            stat = Path(f"/proc/self/task/{thread.native_id}/schedstat").read_text()
            return int(stat.split()[0]) / 1e9
    raise LookupError(name)


async def through_service(ceiling: Ceiling, commits: int, gap: float) -> tuple[float, float]:
    """The same writes through the bot's ``Database`` (aiosqlite's thread, group commit), one
    at a time ``gap`` apart: µs of CPU per commit of the database's thread and of the loop's
    thread (``submit`` and the way back; the sleeps' own wake-ups too, the same in A and B)."""
    ceiling.conn.close()
    database = Database(ceiling.path)
    await database.open()
    try:
        writer, loop = thread_cpu("tt-db-writer"), time.thread_time()
        for _ in range(commits):
            ceiling.next = ceiling.next % ceiling.tables + 1
            await database.submit(ceiling._write(ceiling.next))
            await asyncio.sleep(gap)
        writer, loop = thread_cpu("tt-db-writer") - writer, time.thread_time() - loop
    finally:
        await database.close()
    return writer / commits * 1e6, loop / commits * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--commits", type=int, default=3000)
    parser.add_argument("--gap-ms", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=8, help="Troika games played to replay")
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS))
    parser.add_argument(
        "--service",
        action="store_true",
        help="through the bot's Database (aiosqlite, group commit): the threads' CPU per commit",
    )
    args = parser.parse_args(argv)
    if args.service:
        return service_main(args)
    names = args.variant or ["current"]
    games = played_games(args.games)
    folder = Path(tempfile.mkdtemp(prefix="troika-db-commit-"))
    ceilings = {}
    for name in names:
        ceiling = Ceiling(folder / f"{len(ceilings)}.db", args.tables, games)
        VARIANTS[name](ceiling)
        ceilings[name] = ceiling
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for _ in range(args.rounds):
        for name in names:
            figures[name].append(one_round(ceilings[name], args.commits, args.gap_ms / 1000))
    for name in names:
        cpu = statistics.median(f[0] for f in figures[name])
        frames = statistics.median(f[1] for f in figures[name])
        rounds = ", ".join(f"{f[0]:.1f}" for f in figures[name])
        print(f"{name:20s} {cpu:7.1f} µs CPU per commit ({rounds}), {frames:.2f} WAL frames")
    for ceiling in ceilings.values():
        ceiling.close()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    return 0


def service_main(args: argparse.Namespace) -> int:
    games = played_games(args.games)
    folder = Path(tempfile.mkdtemp(prefix="troika-db-commit-"))
    figures = []
    for number in range(args.rounds):
        ceiling = Ceiling(folder / f"{number}.db", args.tables, games)
        figures.append(asyncio.run(through_service(ceiling, args.commits, args.gap_ms / 1000)))
    writer = statistics.median(f[0] for f in figures)
    loop = statistics.median(f[1] for f in figures)
    rounds = ", ".join(f"{f[0]:.1f}/{f[1]:.1f}" for f in figures)
    print(
        f"through Database.submit, one write {args.gap_ms:g} ms apart: the database's thread"
        f" {writer:.1f} µs, the loop's {loop:.1f} µs per commit (rounds: {rounds})"
    )
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
