"""Pictures a loaded bot draws, recorded once, then replayed: the picture workers' CPU per picture.

    python bench/picture_jobs.py record FILE [bench/load.py's options]
    python bench/picture_jobs.py replay FILE [--workers N] [--pace X] [--kinds] [--limit N]
                                             [--group turn|MS]

``record`` runs ``bench/load.py`` (its options after FILE: ``--tables 1000 --seconds 60``)
and writes every picture job sent to the render pool's workers (its drawing function's name
and arguments, when it was sent and in which turn of the event loop) to FILE (a pickle; keep
it outside the repository).

``replay`` sends the recorded jobs, in order, through a fresh ``RenderPool`` of ``--workers``
processes (default 2, as the bot's), at ``--pace`` times the recorded rate (default 1: as
they came; a job is sent at its recorded time, so the workers idle between pictures as the
bot's do, and each picture starts with caches other processes have cooled), and prints the
workers' CPU per picture (user and system, from /proc), how many pictures the pool's first
worker drew, and the load average. With ``--kinds``, the same jobs are also drawn in this
process one after another (one worker, nothing else between): CPU per picture by kind.
With ``--group``, the jobs asked for together are sent as one job, drawn back to back by one
worker and answered together: those of one turn of the loop (``turn``), or those asked for
within MS milliseconds of the one before; a group is sent when its first job was (what one
job per picture would save in the workers' CPU, not when a group could really be sent). The
figures are CPU time: compare runs interleaved (the code before and after, in two worktrees),
as other work on the machine slows a process's CPU too (shared caches).

Measured (a 1,000-table minute recorded on a shared 2-core machine, its first 8,000 pictures,
three interleaved rounds, load 0.5-1.5), the workers' CPU per picture: one job each 0.532,
0.544, 0.565 ms; by loop turn (1.12 pictures a job) 0.537, 0.555, 0.629; within 1 ms (1.40 a
job) 0.526, 0.542, 0.547; within 3 ms (2.58 a job) 0.530, 0.546, 0.545. Grouping did not pay.
Drawn back to back a picture is cheaper (at 50x the pace 0.450 ms, in one process 0.409), and
in a 3 ms group the later pictures were (the drawing alone, timed in the worker: hand 0.50 ms
against 0.60 for a group's first, a layouts picture 0.21 against 0.28); but a group's first
cost more than a picture sent alone did (hand 0.60 ms against 0.53): the worker had slept
longer before it. What cools a worker is how long it sleeps, which grouping does not shorten.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import collections
import functools
import operator
import os
import pickle
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: A recorded job: when it was sent (monotonic seconds), its function's name in
#: ``bot.render.games.images``, its keyword arguments and the number of the loop's turn it was
#: sent in.
Job = tuple[float, str, dict[str, Any], int]


def record(file: Path, load_args: list[str]) -> int:
    """Run ``bench/load.py`` with ``load_args``, every picture job it sends kept in ``file``."""
    from bench import load
    from bot.render.pool import RenderPool

    jobs: list[Job] = []
    submit = RenderPool._submit
    # The loop's turn: a callback made soon after a job runs at the start of the next turn
    # (the loop runs only the callbacks ready when its turn began).
    turn = [0, False]  # its number, whether the next turn's callback is made

    def next_turn() -> None:
        turn[0] += 1
        turn[1] = False

    def recorded(self: RenderPool, job: Any, quick: bool = False) -> Any:
        if isinstance(job, functools.partial) and not job.args:
            if not turn[1]:
                asyncio.get_running_loop().call_soon(next_turn)
                turn[1] = True
            jobs.append((time.monotonic(), job.func.__name__, dict(job.keywords), turn[0]))
        return submit(self, job, quick)

    RenderPool._submit = recorded  # type: ignore[method-assign]

    def save() -> None:
        file.write_bytes(pickle.dumps(jobs))
        print(f"{len(jobs):,} picture jobs recorded in {file}", file=sys.stderr)

    atexit.register(save)
    return load.main(load_args)


def _ticks(pid: int) -> tuple[int, int]:
    """User and system clock ticks of ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]), int(fields[12])


def grouped(jobs: list[Job], by: str | None) -> list[list[Job]]:
    """The jobs in groups asked for together (``--group``): one each when ``by`` is None."""
    groups: list[list[Job]] = []
    gap = None if by in (None, "turn") else float(by) / 1e3
    for job in jobs:
        if groups and by is not None:
            last = groups[-1][-1]
            if (job[3] == last[3]) if gap is None else (job[0] - last[0] <= gap):
                groups[-1].append(job)
                continue
        groups.append([job])
    return groups


async def replay(jobs: list[Job], workers: int, pace: float, by: str | None) -> None:
    """The jobs through a fresh process pool, at ``pace`` times their recorded rate, in groups
    (``grouped``)."""
    from bot.render.games import images
    from bot.render.pool import RenderPool

    pool = RenderPool("process", workers, cache_size=4096)
    try:
        await pool.start()
        pids = pool.processes().pids()
        drew: collections.Counter[int] = collections.Counter()
        before = [_ticks(pid) for pid in pids]
        first, start = jobs[0][0], time.monotonic()
        pending = []
        groups = grouped(jobs, by)
        for n, group in enumerate(groups):
            delay = start + (group[0][0] - first) / pace - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            # Keyed apart: the recorded jobs were all drawn (none was in the pool's cache).
            # A group: its pictures' list, drawn by a function of the standard library only.
            parts = [
                functools.partial(getattr(images, name), **kwargs) for _, name, kwargs, _ in group
            ]
            job = (
                pool.render_keyed(("job", n), parts[0])
                if len(parts) == 1
                else pool.render_keyed(("job", n), list, map(operator.call, parts))
            )
            pending.append(asyncio.ensure_future(job))
        await asyncio.gather(*pending)
        after = [_ticks(pid) for pid in pids]
        # Which worker drew most: the one whose CPU grew most.
        for pid, (b, a) in zip(pids, zip(before, after, strict=True), strict=True):
            drew[pid] = sum(a) - sum(b)
    finally:
        pool.close()
    hz = os.sysconf("SC_CLK_TCK")
    user = sum(a[0] - b[0] for a, b in zip(after, before, strict=True)) / hz
    system = sum(a[1] - b[1] for a, b in zip(after, before, strict=True)) / hz
    count = len(jobs)
    sizes = f"{count / len(groups):.2f} pictures a job ({by or 'one each'})"
    shares = ", ".join(f"{ticks / max(sum(drew.values()), 1):.0%}" for ticks in drew.values())
    print(
        f"{count:,} pictures through {workers} workers at {pace:g}x their pace, {sizes}: the"
        f" workers' CPU"
        f" {(user + system) / count * 1e3:.3f} ms per picture (user {user / count * 1e3:.3f},"
        f" system {system / count * 1e3:.3f}); each worker's share of it: {shares}; load average"
        f" {os.getloadavg()[0]:.2f}"
    )


def by_kind(jobs: list[Job]) -> None:
    """The jobs drawn here one after another, as a worker draws them (the job unpickled, the
    answer pickled): CPU per picture by kind."""
    from multiprocessing.reduction import ForkingPickler

    import bot.render.ready_faces  # noqa: F401 (the faces a worker starts with)
    from bot.render.games import images

    spent: dict[str, list[float]] = collections.defaultdict(list)
    for _sent, name, kwargs, _turn in jobs:
        kind = name + (" dimmed" if kwargs.get("dim") else "")
        began = time.thread_time()
        message = ForkingPickler.dumps((0, functools.partial(getattr(images, name), **kwargs)))
        _number, job = pickle.loads(message)
        ForkingPickler.dumps((0, True, job()))
        spent[kind].append(time.thread_time() - began)
    total = sum(sum(times) for times in spent.values())
    for kind, times in sorted(spent.items()):
        print(f"  {kind:<16} {len(times):6,} pictures, {sum(times) / len(times) * 1e3:.3f} ms each")
    print(
        f"  all {len(jobs):,} pictures in one process: {total / len(jobs) * 1e3:.3f} ms each;"
        f" load average {os.getloadavg()[0]:.2f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=("record", "replay"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pace", type=float, default=1.0)
    parser.add_argument("--kinds", action="store_true")
    parser.add_argument("--limit", type=int, help="the first N jobs only")
    parser.add_argument("--group", help="'turn' or MS: the jobs asked for together as one")
    args, rest = parser.parse_known_args()
    if args.action == "record":
        return record(args.file, rest)
    if rest:
        parser.error(f"unknown options: {' '.join(rest)}")
    # (A file recorded before turns were: each job its own turn.)
    jobs: list[Job] = [
        (*job[:3], job[3] if len(job) > 3 else n)
        for n, job in enumerate(pickle.loads(args.file.read_bytes())[: args.limit])
    ]
    asyncio.run(replay(jobs, args.workers, args.pace, args.group))
    if args.kinds:
        by_kind(jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
