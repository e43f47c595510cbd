"""The bot's process's CPU per action, thread by thread: what the database's threads cost.

    python bench/db_threads.py [--commit-window-ms MS]
                               [bench/load.py's options: --tables 1000 --seconds 60 ...]

Runs ``bench/load.py`` as it is (the same options, the same lines printed) and reads, at the
start and at the end of its measured window (its two readings of the bot's CPU), every thread of
the process from ``/proc/self/task``: its CPU time (``schedstat``, nanoseconds: exact, unlike
the 10 ms ticks of ``stat``) and its writes (``io``: bytes and system calls). Threads are named
by ``threading``'s names (the database's: ``tt-db-writer`` and ``tt-db-checkpointer``, or
PostgreSQL's one, ``tt-pg_0``, its writer; others by what they run). Also counted in the
window: group commits (``commit_batch``: transactions and the writes in them) and the WAL's
checkpoint passes. Printed after the run: per thread, µs of CPU per action, bytes and write
calls per action; per transaction, writes (mean and median) and µs of the writer's thread; the
commit windows waited (``bot.storage.commit_window``), whose length ``--commit-window-ms`` sets
for the run (0: none; default: the bot's).
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import load, loop_cpu  # noqa: E402
from bot.storage import commit_window, db, group_commit  # noqa: E402


@dataclass
class ThreadReading:
    name: str
    cpu_ns: int
    wchar: int
    syscw: int


def read_threads() -> dict[int, ThreadReading]:
    """Every thread of this process now, by its native id."""
    names = {t.native_id: t.name for t in threading.enumerate()}
    out: dict[int, ThreadReading] = {}
    for task in Path("/proc/self/task").iterdir():
        tid = int(task.name)
        try:
            cpu_ns = int((task / "schedstat").read_text().split()[0])
            io = dict(
                line.split(": ") for line in (task / "io").read_text().splitlines() if ": " in line
            )
        except OSError:  # (ended meanwhile)
            continue
        name = names.get(tid) or (task / "comm").read_text().strip()
        out[tid] = ThreadReading(name, cpu_ns, int(io.get("wchar", 0)), int(io.get("syscw", 0)))
    return out


@dataclass
class Window:
    """Readings at the window's start and end, and what was counted between them."""

    readings: list[dict[int, ThreadReading]] = field(default_factory=list)
    #: Inside the measured window, and its actions (``loop_cpu.follow_window`` keeps them; its
    #: loop-thread seconds, ``window``, are not read here: the threads are, from /proc).
    on: bool = False
    window: float = 0.0
    transactions: int = 0
    writes: int = 0
    batch_sizes: collections.Counter[int] = field(default_factory=collections.Counter)
    passes: int = 0
    windows: int = 0
    actions: int = 0
    #: The writer's thread CPU seconds inside ``commit_batch`` (the writes and their SQL) and
    #: inside the whole job handed to it (``_commit_and_resolve``: also the way back).
    in_commit: float = 0.0
    in_job: float = 0.0

    def lines(self) -> list[str]:
        if len(self.readings) < 2:
            return ["db_threads: no window measured"]
        first, last = self.readings[0], self.readings[-1]
        actions = max(self.actions, 1)
        rows: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0])
        for tid, end in last.items():
            start = first.get(tid, ThreadReading(end.name, 0, 0, 0))
            row = rows[_kind(end.name)]
            row[0] += (end.cpu_ns - start.cpu_ns) / 1e3 / actions
            row[1] += (end.wchar - start.wchar) / actions
            row[2] += (end.syscw - start.syscw) / actions
        out = [f"the bot's process by thread, per action over {self.actions:,} actions:"]
        for name, (cpu, wchar, syscw) in sorted(rows.items(), key=lambda kv: -kv[1][0]):
            out.append(
                f"  {name:28s} {cpu:8.1f} µs CPU {wchar:9.0f} bytes written"
                f" {syscw:6.2f} write calls"
            )
        db_cpu = sum(v[0] for k, v in rows.items() if k.startswith(("tt-db-", "tt-pg_")))
        out.append(f"  the database's threads together: {db_cpu:.1f} µs per action")
        tx = max(self.transactions, 1)
        writer = rows.get("tt-db-writer", rows.get("tt-pg_0", [0.0]))[0] * actions / tx
        common = ", ".join(f"{n}: {c}" for n, c in sorted(self.batch_sizes.items())[:8])
        median = statistics.median(self.batch_sizes.elements()) if self.batch_sizes else 0
        out.append(
            f"  {self.transactions:,} transactions, {self.writes / tx:.2f} writes each, median"
            f" {median:g} ({common}, ...), {writer:.1f} µs of the writer's thread each;"
            f" {self.passes} checkpoint passes ({self.passes / max(self.actions, 1) * 1000:.2f}"
            " per 1,000 actions)"
        )
        out.append(
            f"  of the writer's thread per transaction: {self.in_commit / tx * 1e6:.1f} µs in"
            f" commit_batch, {(self.in_job - self.in_commit) / tx * 1e6:.1f} µs more in the rest"
            f" of the job (the way back), {writer - self.in_job / tx * 1e6:.1f} µs outside it"
            " (waking, the queue, the GIL)"
        )
        out.append(
            f"  commit windows of {commit_window.WINDOW * 1e3:g} ms waited: {self.windows:,}"
            f" ({self.windows / tx:.2f} per transaction)"
        )
        return out


def _kind(name: str) -> str:
    """Threads grouped: the pool's workers together (``ThreadPoolExecutor-0_3``)."""
    if name.startswith("ThreadPoolExecutor"):
        return name.split("_")[0] + " workers"
    return name


def install(window: Window) -> Callable[[], None]:
    """Read the threads where ``load.run`` reads the bot's CPU; count commits and passes."""
    saved_cpu = load.bot_cpu
    saved_commit = group_commit.commit_batch
    saved_pass = db.Database._start_pass
    saved_job = group_commit._commit_and_resolve
    saved_wait = commit_window.CommitWindow.wait

    def bot_cpu(*args: Any, **kwargs: Any) -> float:
        value = saved_cpu(*args, **kwargs)
        window.readings.append(read_threads())
        return value

    def commit_batch(conn: Any, *, writes: list[Any], begin: str = "BEGIN") -> Any:
        if not window.on:
            return saved_commit(conn, writes=writes, begin=begin)
        window.transactions += 1
        window.writes += len(writes)
        window.batch_sizes[len(writes)] += 1
        start = time.thread_time()
        try:
            return saved_commit(conn, writes=writes, begin=begin)
        finally:
            window.in_commit += time.thread_time() - start

    def job(conn: Any, **kwargs: Any) -> None:
        start, on = time.thread_time(), window.on
        try:
            saved_job(conn, **kwargs)
        finally:
            if on:
                window.in_job += time.thread_time() - start

    def wait(self: commit_window.CommitWindow) -> bool:
        waited = saved_wait(self)
        if waited and window.on:
            window.windows += 1
        return waited

    def start_pass(self: db.Database) -> None:
        if window.on:
            window.passes += 1
        saved_pass(self)

    load.bot_cpu = bot_cpu  # type: ignore[assignment]
    group_commit.commit_batch = commit_batch  # type: ignore[assignment]
    group_commit._commit_and_resolve = job  # type: ignore[assignment]
    db.Database._start_pass = start_pass  # type: ignore[method-assign]
    commit_window.CommitWindow.wait = wait  # type: ignore[method-assign]
    unfollow = loop_cpu.follow_window(window)

    def undo() -> None:
        load.bot_cpu = saved_cpu
        group_commit.commit_batch = saved_commit
        group_commit._commit_and_resolve = saved_job
        db.Database._start_pass = saved_pass  # type: ignore[method-assign]
        commit_window.CommitWindow.wait = saved_wait  # type: ignore[method-assign]
        unfollow()

    return undo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--commit-window-ms", type=float)
    ours, rest = parser.parse_known_args(argv)
    if ours.commit_window_ms is not None:  # (read when the bot's database is made)
        commit_window.WINDOW = ours.commit_window_ms / 1e3
    window = Window()
    return load.main_with(rest, install(window), window.lines)


if __name__ == "__main__":
    sys.exit(main())
