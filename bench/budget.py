"""How stale table messages get when many tables share the bot's request budget.

    python bench/budget.py [--tables 1000] [--seconds 30] [--think 3]

Each table's message is edited by one worker that coalesces (it always sends the latest state),
as the publisher does; each table changes every ``--think`` seconds on average (exponential, a
human pace; every change also costs a turn ping every fourth time), and every request goes through
``RequestBudget`` (production settings: 40 requests/s, burst 5, 5 per 5 s per channel). Printed:
requests per second (never above the budget), how long a change waits before the message shows it
(p50/p99/max: the staleness) and the load average. The Discord side is a counter: no network.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app.budget import RequestBudget  # noqa: E402


async def run(tables: int, seconds: float, think: float, seed: int) -> dict[str, float]:
    budget = RequestBudget()
    rng = random.Random(seed)
    latest = [0] * tables
    changed: dict[tuple[int, int], float] = {}
    wake = [asyncio.Event() for _ in range(tables)]
    stale: list[float] = []
    sent: list[float] = []
    stop = time.monotonic() + seconds

    async def worker(table: int) -> None:
        shown = 0
        while True:
            await wake[table].wait()
            wake[table].clear()
            while shown != latest[table]:
                await budget.acquire(table)
                version = latest[table]
                now = time.monotonic()
                sent.append(now)
                stale.append(now - changed[(table, version)])
                shown = version
                if version % 4 == 0:  # a turn ping now and then: one more request
                    await budget.acquire(table)
                    sent.append(time.monotonic())

    async def players(table: int) -> None:
        await asyncio.sleep(rng.random() * think)
        while time.monotonic() < stop:
            latest[table] += 1
            changed[(table, latest[table])] = time.monotonic()
            wake[table].set()
            await asyncio.sleep(rng.expovariate(1 / think))

    workers = [asyncio.create_task(worker(t)) for t in range(tables)]
    await asyncio.gather(*(players(t) for t in range(tables)))
    await asyncio.sleep(5)  # let the last changes show
    for task in workers:
        task.cancel()
    await asyncio.gather(*workers, return_exceptions=True)
    span = max(sent) - min(sent)
    q = statistics.quantiles(stale, n=100)
    busiest = 0
    lo = 0
    sent.sort()
    for hi, t in enumerate(sent):
        while sent[lo] <= t - 1.0:
            lo += 1
        busiest = max(busiest, hi - lo + 1)
    return {
        "tables": tables,
        "changes": sum(latest),
        "requests": len(sent),
        "rps": len(sent) / span,
        "busiest_second": busiest,
        "stale_p50_s": q[49],
        "stale_p99_s": q[98],
        "stale_max_s": max(stale),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = asyncio.run(run(args.tables, args.seconds, args.think, args.seed))
    for key, value in figures.items():
        print(f"{key:>16}: {value:.2f}" if isinstance(value, float) else f"{key:>16}: {value}")
    print(f"{'load':>16}: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
