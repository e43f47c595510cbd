"""The Discord requests of many tables sharing the bot's request budget: today's live tables
against turn-based ones (turn pings coalesced, direct-message digests counted).

    python bench/budget.py [--tables 1000] [--seconds 30] [--think 3] [--repeat 3]
                           [--mode both|live|turn-based] [--digest-delay 600]
                           [--tables-per-player 3]

Each table seats four (human, AI, human, AI, as ``bench/load.py`` does) taking turns: a human
moves after an exponential think (mean ``--think`` seconds), an AI after the bot's ``AI_DELAY``.
Each table's message is edited by one worker that coalesces (it always sends the latest state)
and waits the publisher's interval (1 s) between edits, as ``TablePublisher`` does; every
request goes through ``RequestBudget`` (production settings: 40 requests/s, burst 5, 5 per 5 s
per channel). A mention costs two requests (the new one, and deleting the previous one).

- ``live`` (today, the option off: a clock of seconds): the player whose turn comes is
  mentioned at every turn, as the publisher did before turn pings were coalesced.
- ``turn-based`` (a clock of hours): mentions follow the publisher's rule
  (``bot.app.turn_pings``: not while one is unanswered, not within ``RECENT`` of his own move),
  and every player has asked for direct messages: when a turn comes to him a digest is armed
  ``--digest-delay`` seconds later unless one is (``bot.service.digests``), put off while he
  moved within that delay, and sent if turns not told yet still wait for him (one request, and
  one more for his first: opening the DM channel), through the same budget. Each player sits
  at ``--tables-per-player`` tables, so a digest can name several. With the real delay (600 s)
  a run of seconds sends none (nobody is idle that long): pass a short one
  (``--digest-delay 10``) to count them, a worst case.

The tables are under way when the run starts (every player moved a moment ago), so a run
measures the steady state. Humans think ``--think`` seconds in both modes: a turn-based table
whose players all happen to be online and quick, the worst case for its requests (at a turn-
based pace of hours a table makes a request every few hours). Printed for each mode, as the
median of ``--repeat`` runs: requests per second (all of them, and by kind), the busiest second,
how long a change waits before the message shows it (p50/p99: the staleness) and the load
average; the last line is one JSON object. The Discord side is a counter: no network.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app.budget import RequestBudget  # noqa: E402
from bot.app.turn_pings import Pings  # noqa: E402

SEATS = 4
HUMAN_SEATS = (0, 2)
AI_DELAY = 1.5  # the bot's default pause before an AI move (settings: AI_DELAY)
INTERVAL = 1.0  # the publisher's pause between two edits of one message
DM_KEY = 10**9  # budget keys of direct messages: the user's, apart from the channels'


@dataclass
class Config:
    tables: int = 1000
    seconds: float = 30.0
    think: float = 3.0
    mode: str = "live"
    digest_delay: float = 600.0
    tables_per_player: int = 3
    seed: int = 1


@dataclass
class Table:
    index: int
    version: int = 0
    shown: int = 0
    turn: int = 0
    changed: dict[int, float] = field(default_factory=dict)
    pings: list[int] = field(default_factory=list)
    pinging: Pings = field(default_factory=Pings)
    has_ping: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class Run:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.rng = random.Random(config.seed)
        self.budget = RequestBudget()
        self.tables = [Table(i) for i in range(config.tables)]
        self.sent: list[tuple[str, float]] = []
        self.stale: list[float] = []
        self.stop = 0.0
        #: Digests: each player's armed job, the turns he was told, whether his DM is open.
        self.armed: dict[int, asyncio.TimerHandle] = {}
        self.told: dict[int, frozenset[tuple[int, int]]] = {}
        self.dm_open: set[int] = set()
        self.acted: dict[int, float] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def user(self, table: int, seat: int) -> int:
        """Each player sits at ``tables_per_player`` tables (his seats spread across them)."""
        human = table * len(HUMAN_SEATS) + HUMAN_SEATS.index(seat)
        return human % max(
            1, (self.config.tables * len(HUMAN_SEATS)) // self.config.tables_per_player
        )

    async def request(self, kind: str, key: int) -> None:
        await self.budget.acquire(key)
        self.sent.append((kind, time.monotonic()))

    # -- the publisher's worker ---------------------------------------------------------------
    async def worker(self, table: Table) -> None:
        last_edit = float("-inf")
        while True:
            await table.wake.wait()
            table.wake.clear()
            while table.shown != table.version or table.pings:
                wait = last_edit + INTERVAL - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                if table.shown != table.version:
                    await self.budget.acquire(table.index)
                    version = table.version  # the latest state, once granted
                    now = time.monotonic()
                    self.sent.append(("edit", now))
                    self.stale.append(now - table.changed[version])
                    table.shown = version
                    last_edit = now
                if table.pings:
                    table.pings.clear()
                    if table.has_ping:
                        await self.request("ping", table.index)  # the previous one deleted
                    await self.request("ping", table.index)
                    table.has_ping = True

    # -- the players ----------------------------------------------------------------------------
    async def players(self, table: Table) -> None:
        config = self.config
        await asyncio.sleep(min(self.rng.random() * config.think, config.seconds))
        while time.monotonic() < self.stop:
            seat = table.turn
            human = seat in HUMAN_SEATS
            pause = self.rng.expovariate(1 / config.think) if human else AI_DELAY
            if time.monotonic() + pause > self.stop:  # (a long think ends with the run)
                return
            await asyncio.sleep(pause)
            now = time.monotonic()
            if human:
                table.pinging.moved(seat, now)
                self.acted[self.user(table.index, seat)] = now
            table.version += 1
            table.changed[table.version] = now
            table.turn = (seat + 1) % SEATS
            self.turn_came(table, table.turn, now)
            table.wake.set()

    def turn_came(self, table: Table, seat: int, now: float) -> None:
        if seat not in HUMAN_SEATS:
            return
        if self.config.mode == "live":
            table.pings.append(seat)  # today: every turn of a human
            return
        if table.pinging.due(seat, now):
            table.pings.append(seat)
            table.pinging.pinged(seat)
        user = self.user(table.index, seat)
        if user not in self.armed:
            loop = asyncio.get_running_loop()
            self.armed[user] = loop.call_later(self.config.digest_delay, self.fire, user)

    # -- the digests ----------------------------------------------------------------------------
    def waiting_for(self, user: int) -> frozenset[tuple[int, int]]:
        return frozenset(
            (t.index, t.version)
            for t in self.tables
            if t.turn in HUMAN_SEATS and self.user(t.index, t.turn) == user
        )

    def fire(self, user: int) -> None:
        del self.armed[user]
        since = time.monotonic() - self.acted.get(user, float("-inf"))
        if since < self.config.digest_delay:  # he is playing: again once he stops
            loop = asyncio.get_running_loop()
            wait = self.config.digest_delay - since
            self.armed[user] = loop.call_later(wait, self.fire, user)
            return
        turns = self.waiting_for(user)
        if not turns or turns <= self.told.get(user, frozenset()):
            return
        self.told[user] = turns
        task = asyncio.get_running_loop().create_task(self.send_dm(user))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def send_dm(self, user: int) -> None:
        if user not in self.dm_open:  # discord.py opens the DM channel once, then caches it
            self.dm_open.add(user)
            await self.request("dm", DM_KEY + user)
        await self.request("dm", DM_KEY + user)

    async def run(self) -> dict[str, float]:
        config = self.config
        self.stop = time.monotonic() + config.seconds
        # The tables are under way when the run starts (every player moved a moment ago): the
        # steady state, not two thousand first turns told at once.
        for table in self.tables:
            for seat in HUMAN_SEATS:
                table.pinging.moved(seat, time.monotonic())
                self.acted[self.user(table.index, seat)] = time.monotonic()
        workers = [asyncio.create_task(self.worker(t)) for t in self.tables]
        await asyncio.gather(*(self.players(t) for t in self.tables))
        await asyncio.sleep(5)  # let the last changes show
        for handle in self.armed.values():
            handle.cancel()
        for task in [*workers, *self.tasks]:
            task.cancel()
        await asyncio.gather(*workers, *self.tasks, return_exceptions=True)
        return self.figures()

    def figures(self) -> dict[str, float]:
        times = sorted(t for _, t in self.sent)
        span = times[-1] - times[0]
        kinds = Counter(kind for kind, _ in self.sent)
        busiest, lo = 0, 0
        for hi, t in enumerate(times):
            while times[lo] <= t - 1.0:
                lo += 1
            busiest = max(busiest, hi - lo + 1)
        q = statistics.quantiles(self.stale, n=100)
        return {
            "moves": float(sum(t.version for t in self.tables)),
            "rps": len(times) / span,
            "edit_rps": kinds["edit"] / span,
            "ping_rps": kinds["ping"] / span,
            "dm_rps": kinds["dm"] / span,
            "busiest_second": float(busiest),
            "stale_p50_s": q[49],
            "stale_p99_s": q[98],
        }


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(r[key] for r in runs) for key in runs[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=3.0, help="a human's mean think time")
    parser.add_argument("--repeat", type=int, default=3, help="runs per mode (medians)")
    parser.add_argument("--mode", choices=("both", "live", "turn-based"), default="both")
    parser.add_argument("--digest-delay", type=float, default=600.0)
    parser.add_argument("--tables-per-player", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    modes = ("live", "turn-based") if args.mode == "both" else (args.mode,)
    report: dict[str, dict[str, float]] = {}
    for mode in modes:
        runs = []
        for repeat in range(args.repeat):
            config = Config(args.tables, args.seconds, args.think, mode, args.digest_delay,
                            args.tables_per_player, args.seed + repeat)  # fmt: skip
            runs.append(asyncio.run(Run(config).run()))
        report[mode] = {**medians(runs), "load": os.getloadavg()[0]}
        print(f"-- {mode} ({args.tables} tables, median of {args.repeat} runs of "
              f"{args.seconds:.0f} s)")  # fmt: skip
        for key, value in report[mode].items():
            print(f"{key:>16}: {value:.2f}")
    print(json.dumps({"tables": args.tables, "think": args.think,
                      "digest_delay": args.digest_delay, **report}))  # fmt: skip


if __name__ == "__main__":
    main()
