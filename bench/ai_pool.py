"""Hard AI seats thinking at once: the process pool against the one worker thread it replaced.

    python bench/ai_pool.py [--tables 50] [--seconds 20] [--rounds 2]

``--tables`` Troeven tables, each a human (a bench coroutine playing a random legal move as soon
as it is his turn) against the hard AI, play through one ``TableService`` (no timer, no AI
delay): about ``--tables`` hard decisions are wanted at any moment. Two modes, alternated
``--rounds`` times (A/B/A/B, a fresh service each): ``pool`` (the driver as it is: the hard AI in
``driver.AI_WORKERS`` processes, ``driver.AI_BUDGET`` seconds per decision, the normal AI past
it) and ``thread`` (the driver before: every hard decision on one worker thread, no budget).

Printed per run: hard-AI moves per second, the wall time of a decision (asked to answered,
queueing included) p50/p99/max, how many went past the budget (the normal AI's), the event
loop's stall (how late a 5 ms timer fires) p50/p99/max, and the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import (  # noqa: E402
    ActionApplied,
    ActionSource,
    Limits,
    TableError,
    TableService,
    timers,  # noqa: E402
)
from bot.service import driver as driver_module  # noqa: E402

HUMAN = 1


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class LateDecisions(logging.Handler):
    """Counts the driver's "took over the budget" warnings (and keeps them off the screen)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += "the normal AI moves" in record.getMessage()


def use_one_thread(service: TableService) -> ThreadPoolExecutor:
    """The driver as it was: hard decisions on one worker thread, no budget."""
    thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tt-ai")

    async def decide_on_thread(
        name: str, level: str, seed: int, view: dict[str, Any], legal: list[str]
    ) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(thread, timers.decide, name, level, seed, view, legal)

    service.driver._decide_in_pool = decide_on_thread  # type: ignore[method-assign]
    return thread


async def run(folder: Path, mode: str, tables: int, seconds: float) -> dict[str, float]:
    service = TableService(folder / f"{mode}-{time.time_ns()}.db", limits=Limits.none())
    thread = use_one_thread(service) if mode == "thread" else None
    decisions: list[float] = []
    real = service.driver.decide

    async def timed(*args: Any) -> str:
        begin = time.perf_counter()
        try:
            return await real(*args)
        finally:
            decisions.append(time.perf_counter() - begin)

    service.driver.decide = timed  # type: ignore[method-assign]
    moves = [0]

    class Counter:
        async def on_table_event(self, event: Any) -> None:
            if isinstance(event, ActionApplied) and event.source is ActionSource.AI:
                moves[0] += 1

    service.add_listener(Counter())
    late = LateDecisions()
    driver_module.log.addHandler(late)
    await service.start()
    for channel in range(1, tables + 1):
        options = {"timer": "off"}
        await service.open_table(channel, None, HUMAN, "Ann", "troeven", options=options)
        await service.add_ai(channel, HUMAN, "hard")
        await service.start_game(channel, HUMAN)
    stalls: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def human(channel: int) -> None:
        rng = random.Random(channel)
        while time.perf_counter() < stop_at:
            legal = service.legal_actions(channel, HUMAN)
            if not legal:
                if service.get_table(channel) is None:  # the game ended: another one
                    await service.open_table(channel, None, HUMAN, "Ann", "troeven")
                    await service.add_ai(channel, HUMAN, "hard")
                    await service.start_game(channel, HUMAN)
                await asyncio.sleep(0.01)
                continue
            try:
                await service.act(channel, HUMAN, rng.choice(legal))
            except TableError:
                await asyncio.sleep(0.01)

    async def ticker() -> None:
        while time.perf_counter() < stop_at:
            begin = time.perf_counter()
            await asyncio.sleep(0.005)
            stalls.append(time.perf_counter() - begin - 0.005)

    start_moves = moves[0]
    await asyncio.gather(ticker(), *(human(c) for c in range(1, tables + 1)))
    rate = (moves[0] - start_moves) / seconds
    await service.close()
    driver_module.log.removeHandler(late)
    if thread is not None:
        thread.shutdown(wait=True)
    return {
        "moves_per_s": rate,
        "decide_p50_ms": percentile(decisions, 0.5) * 1e3,
        "decide_p99_ms": percentile(decisions, 0.99) * 1e3,
        "decide_max_ms": max(decisions, default=float("nan")) * 1e3,
        "stall_p50_ms": percentile(stalls, 0.5) * 1e3,
        "stall_p99_ms": percentile(stalls, 0.99) * 1e3,
        "stall_max_ms": max(stalls, default=float("nan")) * 1e3,
        "decisions": len(decisions),
        "late": late.count,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="troika-aipool-"))
    print(
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; {args.tables} tables"
        f" of a human and the hard AI; pool: {driver_module.AI_WORKERS} processes, budget"
        f" {driver_module.AI_BUDGET} s"
    )
    for number in range(args.rounds):
        for mode in ("pool", "thread"):
            out = asyncio.run(run(folder, mode, args.tables, args.seconds))
            print(
                f"{mode:<7}round {number + 1}: {out['moves_per_s']:.0f} hard-AI moves/s;"
                f" decision p50 {out['decide_p50_ms']:.0f} ms p99 {out['decide_p99_ms']:.0f} ms"
                f" max {out['decide_max_ms']:.0f} ms ({out['decisions']:.0f}, {out['late']:.0f}"
                " past the budget);"
                f" loop stall p50 {out['stall_p50_ms']:.1f} ms p99 {out['stall_p99_ms']:.1f} ms"
                f" max {out['stall_max_ms']:.1f} ms (load average {os.getloadavg()[0]:.2f})",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
