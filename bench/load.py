"""The whole bot path under load, minus the network: N tables across the four games.

    python bench/load.py [--tables 100] [--seconds 30] [--seed 1] [--ai-delay 1.5]
                         [--think 3] [--warmup 3] [--no-live-panels]
                         [--games troeven,troggu,troika,troikuntza]
                         [--postgres | --database postgresql://...] [--processes 2]
                         [--web [--web-clients 2]] [--parts [--stall-stacks]]
                         [--gc-thresholds 300,2000,10]

What runs, in one process and one event loop, as in the bot:

- the real ``TableService`` (``from_settings``'s: it holds its shards' locks) on a SQLite file in
  a temporary directory, or on PostgreSQL: ``--database URL`` (an empty database: the bench
  opens its tables there), or ``--postgres``, a throwaway server started for the run
  (``bench/throwaway_postgres.py``); default options (the 60 s turn timer on), AI seats of
  level ``normal`` moving after the bot's default ``AI_DELAY``;
- the real ``TablePublisher`` (``interval=1.0``, the default ``RequestBudget``) rendering each
  table message with its picture, and ``LivePanels`` redrawing the last panel each player opened
  when the table changes for him (both listeners of the bot);
- a fake Discord (``bench/fake_discord.py``) that records every request with its time, after
  building its payload as discord.py does;
- the players: every table seats 2 humans and 2 normal AIs (human, AI, human, AI), except
  Troeven, which has two seats: 1 human and 1 AI (half the seats AI, as at the other tables).
  The games take turns: table i plays ``GAMES[i % 4]``; four tables in a row share a server
  (``guild_of``: each shard gets every game). When a human's turn comes he thinks an
  exponential time (mean ``--think`` seconds), then clicks a random legal move on his panel. A
  finished game is replaced by a new one in the same channel.

A click runs what ``cogs/panels.py`` runs for a panel button (``act_from_panel``, through a
fake interaction): ``service.act``, then the panel redrawn (his hand picture, the embed, the
buttons) as the interaction's answer, and the panel remembered as live. Its **acknowledgement
time** runs from the moment the click was due to arrive (the ``loop.call_at`` time at which it is
scheduled, so a late loop counts) to the interaction's first answer, its payload built as
discord.py builds it: the panel itself, or the deferral the cog sends when the new hand's
picture is still being drawn (the panel follows as soon as it is; both are counted requests).

Also measured: **event-loop stall** (a task sleeping 1 ms in a loop records how late it wakes),
Discord requests per second, the bot's CPU time per action (its process and its worker
processes: the pictures', the AI's; every action: humans, AIs and timeouts) and the load
average (other work on the machine slows everything).

With PostgreSQL, ``--processes N`` runs the bot as N processes on the database, as past one
machine (``bench/load_processes.py``): the script starts itself N times, process i serving shard
i of N (``--shard-count N --shard-ids i``: the tables of its shard's servers, about N-th of
them); all measure the same seconds, and their figures are merged (acknowledgements over every
click, stalls over every process and per process, requests summed, CPU per action over all).

With ``--web``, the bot's web server serves two open pages per table (``bench/web_pages.py``):
websocket clients in ``--web-clients`` processes of their own (default 2; 0: inside the bot's
process and event loop, as first measured), each move timed from its arrival at the service to
its frame's arrival at each open page (the kernel's receive timestamp: the clients' own lag is
not the bot's). The client processes are lean on purpose (``bench/web_clients.py``: one epoll,
plain sockets, a frame's move number all they read) since they share the bot's cores; a line
splits the CPU between the bot's loop thread, its picture workers, the rest of the bot and the
page clients, and another times each change's fan-out in the loop (``Hub.changed``: its
frames built and written; CPU per action and per frame sent, wall time p99 and max). The JSON
line gains ``web_p50_ms``, ``web_p99_ms``,
``web_commit_p99_ms`` (the same frames timed from the move's commit: the fan-out alone),
``web_missed`` (moves a page did not see within 5 s) and ``web_clients``.

With ``--parts``, each click's acknowledgement is taken apart (``bench/ack_parts.py``: the loop's
lateness, the channel's lock, the group commit's queue, run and way back, the listeners, the
reply), and the garbage collector's pauses are timed: lines above the JSON line give the parts of
the slowest 1% of clicks, the ack p99 by 5 s of the window and the collections.

The last line printed is one JSON object with the keys ``tables``, ``ack_p50_ms``,
``ack_p99_ms``, ``stall_p50_ms``, ``stall_p99_ms``, ``stall_max_ms``, ``discord_rps``,
``cpu_us_per_action``, ``load``, ``backend`` (``sqlite`` or ``postgresql``), ``processes`` and
``db_cpu_us_per_action`` (the PostgreSQL server's CPU per action, when the bench started it;
else null); with ``--processes``, also ``per_process`` (each one's figures). The lines above it
say more.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import gc
import heapq
import json
import logging
import os
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from bench.ack_parts import AckParts, StallWatch  # noqa: E402
from bench.cpu import server_cpu, tree_cpu  # noqa: E402
from bench.fake_discord import FakeBot, FakeInteraction, Recorder  # noqa: E402
from bench.throwaway_postgres import throwaway_database  # noqa: E402
from bench.web_pages import CUTOFF, WebPages  # noqa: E402
from bot.app.budget import RequestBudget  # noqa: E402
from bot.app.publisher import TablePublisher  # noqa: E402
from bot.render.pool import RenderPool, default_pool  # noqa: E402
from bot.service import (  # noqa: E402
    ActionApplied,
    GameOver,
    TableAbandoned,
    TableClosed,
    TableEvent,
    TableService,
    TableStatus,
    TurnChanged,
)
from bot.shards import Shards, parse_shard_ids  # noqa: E402
from bot.storage.urls import is_postgres_url  # noqa: E402
from cogs.live_panels import LivePanels  # noqa: E402
from cogs.panels import act_from_panel  # noqa: E402

GAMES = tuple(engine.GAMES)
#: The JSON line's keys, in order (the smoke test and the issue's scripts read these).
KEYS = (
    "tables",
    "ack_p50_ms",
    "ack_p99_ms",
    "stall_p50_ms",
    "stall_p99_ms",
    "stall_max_ms",
    "discord_rps",
    "cpu_us_per_action",
    "load",
    "backend",
    "processes",
    "db_cpu_us_per_action",
)
STALL_TICK = 0.001
#: A timer whose time is within this of the loop's clock runs (as asyncio's own timers).
CLOCK_RESOLUTION = time.get_clock_info("monotonic").resolution
#: Tables per server (one of each game; ``guild_of``).
GUILD_TABLES = len(GAMES)
#: What a process of ``--processes`` says once warmed up, and is told to start measuring.
READY, GO = "ready", "go"
#: The bot's default pause before an AI move (settings: AI_DELAY).
AI_DELAY = 1.5


def percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def milliseconds(seconds: float | None, digits: int = 2) -> float | None:
    """Milliseconds for the JSON line (None, never NaN, when nothing was measured)."""
    return None if seconds is None else round(seconds * 1000.0, digits)


@dataclass
class Config:
    tables: int = 100
    seconds: float = 30.0
    seed: int = 1
    think: float = 3.0
    ai_delay: float = AI_DELAY
    warmup: float = 3.0
    live_panels: bool = True
    folder: Path | None = None
    games: tuple[str, ...] = GAMES
    #: A PostgreSQL URL (an empty database); None: a SQLite file in ``folder``.
    database: str | None = None
    #: The shards this process serves: it opens the tables of their servers only.
    shards: Shards = Shards()
    #: The PostgreSQL server's main process, when the bench started it (its CPU is counted).
    server_pid: int | None = None
    #: Two open pages of the table in the browser per table (``bench/web_pages.py``).
    web: bool = False
    #: Processes the open pages run in (0: in the bot's own process and event loop).
    web_clients: int = 2
    #: Time each stage of every click (``bench/ack_parts.py``) and print the slowest 1%'s.
    parts: bool = False
    #: With ``parts``: sample the loop thread's stack in its long stalls (it slows the loop).
    stall_stacks: bool = False
    #: The garbage collector's thresholds instead of the bot's (``bot/service/gc_tuning.py``),
    #: set once the service has started (to compare settings in one checkout).
    gc_thresholds: tuple[int, int, int] | None = None


class BenchError(RuntimeError):
    """The bench cannot run as asked; ``str()`` says why."""


@dataclass
class Stats:
    """What happened inside the measured window (``recording`` is on)."""

    recording: bool = False
    acks: list[float] = field(default_factory=list)
    stalls: list[float] = field(default_factory=list)
    actions: collections.Counter[str] = field(default_factory=collections.Counter)
    #: Answered with a text instead of the panel: refused, or the redraw failed (logged).
    refused: int = 0
    #: Acknowledged first, the panel shown once its picture was drawn.
    deferred: int = 0
    games: int = 0
    errors: collections.Counter[str] = field(default_factory=collections.Counter)


class _CountingHandler(logging.Handler):
    """The bot's log warnings and errors, counted by their first words (not printed one by
    one: a missing presenter would log at every table edit)."""

    def __init__(self, stats: Stats) -> None:
        super().__init__(logging.WARNING)
        self.stats = stats

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f": {record.exc_info[1]!r}"
        self.stats.errors[f"{record.name}: {text[:100]}"] += 1


class Players:
    """The humans of every table, and the listener that tells them their turn came."""

    def __init__(
        self, service: TableService, client: FakeBot, live: LivePanels | None, config: Config
    ) -> None:
        self.service = service
        self.client = client
        self.recorder = client.recorder
        self.live = live
        self.config = config
        self.stats = Stats()
        self.rng = random.Random(config.seed)
        self.loop = asyncio.get_running_loop()
        #: The clicks on their way: (due, channel, user) in a heap, under one timer for the
        #: earliest, and their (channel, user). Plain tuples of numbers, which the garbage
        #: collector stops tracking: a timer handle per waiting player (2,000 at 1,000 tables)
        #: would lengthen the bot's collections, and the players are Discord's side.
        self._due: list[tuple[float, int, int]] = []
        self._pending: set[tuple[int, int]] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False
        self._games: dict[int, int] = {}  # channel -> games opened there
        #: With ``--web``: when each click under way arrived, by (channel, user), on the loop's
        #: clock (``time.monotonic``): the web pages time a player's move from there.
        self.arrivals: dict[tuple[int, int], float] | None = None
        #: With ``--parts``: each click's stages (``bench/ack_parts.py``).
        self.parts: AckParts | None = None

    # -- tables -----------------------------------------------------------------------------
    async def open(self, channel: int) -> None:
        """Open, seat and start the channel's next game (human, AI, human, AI)."""
        game = self.config.games[channel % len(self.config.games)]
        seats = engine.GAMES[game].min_players if game == "troeven" else 4
        count = self._games[channel] = self._games.get(channel, 0) + 1
        seed = self.config.seed * 1_000_003 + channel * 1_009 + count
        host = user_of(channel, 0)
        service = self.service
        await service.open_table(channel, guild_of(channel), host, "Human 1", game, seed=seed)
        for index in range(1, seats):
            if index % 2:
                await service.add_ai(channel, host, "normal", seat=index)
            else:
                await service.join(channel, user_of(channel, index), f"Human {index // 2 + 1}")
        await service.start_game(channel, host)

    # -- the listener ---------------------------------------------------------------------------
    async def on_table_event(self, event: TableEvent) -> None:
        # Called with the table's lock held: only look and schedule.
        table = event.table
        if isinstance(event, ActionApplied) and self.stats.recording:
            self.stats.actions[event.source.value] += 1
        if isinstance(event, GameOver | TableAbandoned | TableClosed):
            if self.stats.recording:
                self.stats.games += 1
            self._spawn(self._reopen(table.channel_id))
            return
        if not isinstance(event, TurnChanged) or self._stopping:
            return
        humans = {s.index: s.user_id for s in table.seats if s.is_human}
        for seat in event.to_act:
            user = humans.get(seat)
            if user is None or (table.channel_id, user) in self._pending:
                continue
            due = self.loop.time() + self.rng.expovariate(1 / self.config.think)
            self._pending.add((table.channel_id, user))
            heapq.heappush(self._due, (due, table.channel_id, user))
            if self._due[0][0] == due:  # the earliest now
                self._arm()

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self.loop.call_at(self._due[0][0], self._arrive) if self._due else None

    def _arrive(self) -> None:
        """The clicks due reach the bot (a socket read each, in the real one), in order, as
        the loop would have run one timer each."""
        self._timer = None
        now = self.loop.time()
        while self._due and self._due[0][0] <= now + CLOCK_RESOLUTION:
            due, channel, user = heapq.heappop(self._due)
            self._pending.discard((channel, user))
            self._spawn(self.click(channel, user, due, now))
        self._arm()

    def _spawn(self, coro: Any) -> None:
        task = self.loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _reopen(self, channel: int) -> None:
        await asyncio.sleep(0)  # the finished table's events are delivered first
        if not self._stopping:
            await self.open(channel)

    # -- a click --------------------------------------------------------------------------------
    async def click(self, channel: int, user: int, due: float, arrived: float = 0.0) -> None:
        """A panel button: what ``cogs/panels.py`` runs for it (``act_from_panel``: act, then
        the panel redrawn as the interaction's answer and kept live)."""
        # A click that arrives while measuring counts, however late its answer: counting only
        # the answers given before the window closes would drop the slowest clicks.
        counted = self.stats.recording
        parts = self.parts if counted else None
        if parts is not None:
            parts.begin(due, arrived)
        service = self.service
        table = service.get_table(channel)
        if table is None or table.status is not TableStatus.PLAYING:
            return
        reserved = engine.GAMES[table.game].service_actions
        legal = [a for a in service.legal_actions(channel, user) if a not in reserved]
        if not legal:
            return  # the window he could act in closed meanwhile
        action = self.rng.choice(legal)
        interaction = FakeInteraction(self.recorder, channel, user, self.client)
        if self.arrivals is not None:
            self.arrivals[(channel, user)] = due
        try:
            await act_from_panel(interaction, channel, action)  # type: ignore[arg-type]
        finally:
            if self.arrivals is not None:
                self.arrivals.pop((channel, user), None)
        if parts is not None:
            ack = None if interaction.answered_at is None else interaction.answered_at - due
            parts.end(
                ack if interaction.answer_kind != "message" else None,
                interaction.answer_kind == "defer",
            )
        if interaction.answer_kind == "message":
            # A refusal (the table moved on since he looked) or a failed redraw (logged).
            self.stats.refused += 1
            return
        if counted and interaction.answered_at is not None:
            self.stats.acks.append(interaction.answered_at - due)
            self.stats.deferred += interaction.answer_kind == "defer"

    async def stop(self) -> None:
        """No more clicks; the clicks under way finish (a click cancelled inside ``act`` would
        leave the service's memory behind its database: see the report of issue 18)."""
        self._stopping = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._due.clear()
        self._pending.clear()
        if self._tasks:
            _, late = await asyncio.wait(list(self._tasks), timeout=30)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)


def user_of(channel: int, seat: int) -> int:
    return channel * 10 + seat + 1


def guild_of(channel: int) -> int:
    """The server of the channel's table: ``GUILD_TABLES`` channels in a row share one, so each
    shard plays every game alike (Discord's shard of a server: ``(guild >> 22) % N``)."""
    return (channel // GUILD_TABLES + 1) << 22


async def monitor_stalls(stats: Stats, watch: StallWatch | None = None) -> None:
    """Sleep 1 ms again and again; how late each wake-up is, is how long the loop was busy."""
    loop = asyncio.get_running_loop()
    while True:
        begin = loop.time()
        if watch is not None:
            watch.beat = begin
        await asyncio.sleep(STALL_TICK)
        late = loop.time() - begin - STALL_TICK
        if stats.recording:
            stats.stalls.append(max(late, 0.0))


@dataclass
class Result:
    figures: dict[str, Any]
    details: list[str]
    #: What the figures come from, for merging processes (``bench/load_processes.py``):
    #: ``acks`` and ``stalls`` (seconds), ``cpu`` and ``wall`` seconds, ``actions``, ``requests``.
    raw: dict[str, Any] = field(default_factory=dict)


async def run(config: Config, ready: Callable[[], Awaitable[None]] | None = None) -> Result:
    """Open the tables, warm up, then measure ``config.seconds``; with ``ready``, the
    measurement starts once it returns (the processes of ``--processes`` start together)."""
    database: Path | str
    if config.database is not None:
        database = config.database
    else:
        folder = config.folder or Path(tempfile.mkdtemp(prefix="troika-load-"))
        folder.mkdir(parents=True, exist_ok=True)
        database = folder / "load.db"
    recorder = Recorder()
    bot = FakeBot(recorder)
    # As the bot's (from_settings): on PostgreSQL it holds its shards' locks.
    service = TableService(
        database, ai_delay=config.ai_delay, shards=config.shards, hold_shards=True
    )
    publisher = TablePublisher(bot, service, interval=1.0, budget=RequestBudget())  # type: ignore[arg-type]
    live = LivePanels(service) if config.live_panels else None
    bot.service, bot.live_panels = service, live
    players = Players(service, bot, live, config)
    handler = _CountingHandler(players.stats)
    root = logging.getLogger()
    root.addHandler(handler)
    service.add_listener(players)
    service.add_listener(publisher)
    if live is not None:
        service.add_listener(live)
    pages = None
    if config.web:
        pages = WebPages(service, config.web_clients)
        service.add_listener(pages)
        players.arrivals = pages.arrivals
    try:
        await service.start()
    except BaseException:
        root.removeHandler(handler)
        raise
    if config.gc_thresholds is not None:
        gc.set_threshold(*config.gc_thresholds)
    watch = None
    if config.parts:
        players.parts = AckParts()
        players.parts.install(service)
        watch = StallWatch(stacks=config.stall_stacks)
    loop = asyncio.get_running_loop()
    monitor = loop.create_task(monitor_stalls(players.stats, watch))
    db_cpu: float | None = None
    try:
        if service.tables():
            raise BenchError(
                "the database holds open tables already: give the bench an empty database"
            )
        setup = time.perf_counter()
        await default_pool().start()  # as the bot does before it serves anyone
        channels = [c for c in range(1, config.tables + 1) if config.shards.owns(guild_of(c))]
        # Open the tables 50 at a time: group commits, as many players opening at once.
        for first in range(0, len(channels), 50):
            await asyncio.gather(*(players.open(c) for c in channels[first : first + 50]))
        if pages is not None:  # two pages per table: the two humans (a watcher at Troeven)
            await pages.start()
            for channel in channels:
                pages.open(channel, (user_of(channel, 0), user_of(channel, 2)))
            await pages.connect()
        setup = time.perf_counter() - setup
        await asyncio.sleep(config.warmup)
        if ready is not None:
            await ready()

        stats = players.stats
        first_request = len(recorder.requests)
        if config.server_pid is not None:
            db_cpu = server_cpu(config.server_pid)
        clients = pages.client_pids if pages is not None else []
        cpu, wall = bot_cpu(config, clients), time.perf_counter()
        loop_cpu = time.thread_time()  # the event loop's thread alone (this one)
        cache = default_pool().cache
        hits, misses = cache.hits, cache.misses
        kinds_asked = count_pictures(default_pool())
        drawers = default_pool().processes().pids() if default_pool().kind == "process" else []
        drawing_cpu = sum(tree_cpu(pid) for pid in drawers)
        stats.recording = True
        measured_from = loop.time()
        if watch is not None:
            watch.start()
        if pages is not None:
            pages.begin()
        await asyncio.sleep(config.seconds)
        stats.recording = False
        if watch is not None:
            watch.stop()
        if pages is not None:
            pages.end()
        cpu, wall = bot_cpu(config, clients) - cpu, time.perf_counter() - wall
        loop_cpu = time.thread_time() - loop_cpu
        hits, misses = cache.hits - hits, cache.misses - misses
        asked = {
            kind: {"asked": counts["asked"], "drawn": counts["drawn"]}
            for kind, counts in kinds_asked.items()
        }
        # (a worker replaced meanwhile would be missed: none is, unless one dies)
        drawing_cpu = sum(tree_cpu(pid) for pid in drawers) - drawing_cpu
        if config.server_pid is not None and db_cpu is not None:
            db_cpu = server_cpu(config.server_pid) - db_cpu
        requests = recorder.requests[first_request:]
        load = os.getloadavg()[0]
    finally:
        monitor.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await monitor
        await players.stop()
        if pages is not None:
            await pages.stop()
        await service.close()
        # The publisher's and live panels' workers still waiting for their turn.
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in others:
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)
        root.removeHandler(handler)

    actions = sum(stats.actions.values())
    kinds = collections.Counter(kind for kind, _, _ in requests)
    backend = "postgresql" if config.database is not None else "sqlite"
    figures: dict[str, Any] = {
        "tables": len(channels),
        "ack_p50_ms": milliseconds(percentile(stats.acks, 0.50)),
        "ack_p99_ms": milliseconds(percentile(stats.acks, 0.99)),
        "stall_p50_ms": milliseconds(percentile(stats.stalls, 0.50), 3),
        "stall_p99_ms": milliseconds(percentile(stats.stalls, 0.99)),
        "stall_max_ms": milliseconds(max(stats.stalls, default=None)),
        "discord_rps": round(len(requests) / wall, 1),
        "cpu_us_per_action": per_action(cpu, actions),
        "load": round(load, 2),
        "backend": backend,
        "processes": 1,
        "db_cpu_us_per_action": per_action(db_cpu, actions),
    }
    if pages is not None:
        figures["web_p50_ms"] = milliseconds(percentile(pages.latencies, 0.50))
        figures["web_p99_ms"] = milliseconds(percentile(pages.latencies, 0.99))
        figures["web_commit_p99_ms"] = milliseconds(percentile(pages.fanout, 0.99))
        figures["web_missed"] = pages.missed
        figures["web_clients"] = config.web_clients
    answers = {"interaction", "answer", "followup", "live"}  # interaction webhooks: unbudgeted
    bot_own = sum(n for kind, n in kinds.items() if kind not in answers)
    details = [
        f"{len(channels)} tables ({', '.join(config.games)} in turn) on {backend}, {config.shards},"
        f" {config.seconds:g} s measured"
        f" after {setup:.1f} s of setup and {config.warmup:g} s of warm-up; think"
        f" {config.think:g} s, AI delay {config.ai_delay:g} s, live panels"
        f" {'on' if config.live_panels else 'off'}",
        f"actions {actions:,} ({actions / wall:,.1f}/s): "
        + ", ".join(f"{k} {n:,}" for k, n in sorted(stats.actions.items()))
        + f"; clicks acknowledged {len(stats.acks):,} ({stats.deferred:,} deferred until the"
        f" new hand was drawn), refused or not redrawn"
        f" {stats.refused}; games finished {stats.games}",
        f"requests {len(requests):,} ({len(requests) / wall:,.1f}/s): "
        + ", ".join(f"{k} {n:,}" for k, n in sorted(kinds.items()))
        + f"; the bot's own (budgeted) {bot_own / wall:,.1f}/s",
        f"CPU {cpu / wall:.0%} of a core, of which the event loop's thread {loop_cpu / wall:.0%}"
        f" ({loop_cpu / max(actions, 1) * 1e6:,.0f} µs per action); load average {load:.2f} on"
        f" {os.cpu_count()} CPUs",
        f"pictures: {hits + misses:,} asked for, {misses:,} not in the render pool's cache"
        f" ({misses / wall:,.1f}/s)",
        f"the picture workers' CPU {drawing_cpu / max(actions, 1) * 1e6:,.0f} µs per action,"
        f" {drawing_cpu / max(sum(c['drawn'] for c in asked.values()), 1) * 1e3:.2f} ms per"
        " picture drawn; pictures per action (asked / drawn): "
        + ", ".join(
            f"{kind} {c['asked'] / max(actions, 1):.3f} / {c['drawn'] / max(actions, 1):.3f}"
            for kind, c in sorted(asked.items())
        ),
    ]
    if db_cpu is not None:
        details.append(f"the PostgreSQL server's CPU {db_cpu / wall:.0%} of a core")
    if pages is not None:
        where = (
            f"in {config.web_clients} client processes (not counted as the bot's)"
            if config.web_clients
            else "in the bot's process and event loop (counted as the bot's)"
        )
        details.append(
            f"web: {pages.pages:,} open pages {where}; {len(pages.latencies):,} frames timed from"
            f" the move's arrival to the page ({pages.clicks:,} moves from a click's arrival, the"
            f" others from their commit), {pages.missed:,} not shown within {CUTOFF:g} s,"
            f" {pages.reconnects} reconnects; from the commit (the fan-out alone): p50"
            f" {milliseconds(percentile(pages.fanout, 0.50))} ms, p99"
            f" {milliseconds(percentile(pages.fanout, 0.99))} ms (web_commit_p99_ms)"
        )
        if config.web_clients:
            details.append(
                f"web clients: {pages.opened:,} of {pages.pages:,} pages open when measuring"
                f" began; {pages.window_frames:,} frames received in the window"
                f" ({pages.window_frames / wall:,.0f}/s,"
                f" {pages.window_frames / max(actions, 1):.2f} per action); sequence numbers:"
                f" {pages.out_of_order} frames out of order, {pages.gaps} skipping some (the"
                f" whole run); their own lag p99"
                f" {milliseconds(pages.client_lag_p99)} ms (a frame waiting in its socket for"
                " them: not in web_p99_ms, which runs to the frame's arrival)"
            )
    if pages is not None:
        spent = sorted(pages.changes)
        details.append(
            f"web fan-out in the loop (Hub.changed: a change's frames built and written):"
            f" {len(spent):,} changes, the loop thread's CPU in them"
            f" {pages.changes_cpu / max(actions, 1) * 1e6:,.0f} µs per action,"
            f" {pages.changes_cpu / max(pages.window_frames, 1) * 1e6:,.1f} µs per frame sent"
            f" ({pages.changes_cpu / max(loop_cpu, 1e-9):.1%} of its CPU), of which reading"
            f" the views and moves from the snapshot (its first reader computes them, for the"
            f" panels too) {pages.views_cpu / max(actions, 1) * 1e6:,.0f} µs per action; wall"
            " time p50"
            f" {milliseconds(percentile(spent, 0.5), 3)} ms, p99"
            f" {milliseconds(percentile(spent, 0.99), 3)} ms, max"
            f" {milliseconds(max(spent, default=None))} ms,"
            f" {sum(t > 0.010 for t in spent)} over 10 ms (a collection or a wait for a core"
            " inside one counts)"
        )
    if pages is not None and config.web_clients:
        # Where the two cores went: a load generator that takes a core starves the bot.
        others = cpu - loop_cpu - drawing_cpu
        split = [
            ("the bot's event loop thread", loop_cpu),
            ("its picture workers", drawing_cpu),
            ("the rest of the bot (database thread, AI pool, ...)", others),
            (f"the {config.web_clients} page client processes", pages.client_cpu),
        ]
        details.append(
            "CPU split: "
            + "; ".join(
                f"{name} {used / wall:.0%} of a core ({used / max(actions, 1) * 1e6:,.0f} µs"
                " per action)"
                for name, used in split
            )
            + f"; load average {load:.2f} on {os.cpu_count()} CPUs"
        )
    if players.parts is not None:
        details += players.parts.summary(
            measured_from, watch.collections if watch is not None else ()
        )
        if watch is not None:
            details += watch.summary(measured_from)
        players.parts.uninstall()
    for text, count in stats.errors.most_common(5):
        details.append(f"logged x{count}: {text}")
    raw = {
        "acks": stats.acks,
        "stalls": stats.stalls,
        "cpu": cpu,
        "wall": wall,
        "actions": actions,
        "requests": len(requests),
    }
    if pages is not None:  # (merged over the processes of --processes)
        raw["web"] = pages.latencies
        raw["web_commit"] = pages.fanout
    return Result(figures, details, raw)


def count_pictures(pool: RenderPool) -> dict[str, collections.Counter[str]]:
    """From now on, count the pictures ``pool`` is asked for and those it draws (neither in its
    cache nor in flight), by kind: the drawing function's name, ``dimmed`` for a hand with
    faded cards."""
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    render_keyed = pool.render_keyed

    async def counted(key: Hashable, fn: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
        kind = getattr(key, "draw", getattr(fn, "__name__", "?")) + (
            " dimmed" if kwargs.get("dim") else ""
        )
        counts[kind]["asked"] += 1
        if pool.cache.peek(key) is None and key not in pool._inflight:
            counts[kind]["drawn"] += 1
        return await render_keyed(key, fn, *args, **kwargs)

    pool.render_keyed = counted  # type: ignore[method-assign]
    return counts


def bot_cpu(config: Config, clients: Sequence[int] = ()) -> float:
    """CPU seconds of the bot: this process and its worker processes (the pictures' and the
    AI's pools), not a database server the bench started nor the web page clients."""
    skip = [*clients, *([config.server_pid] if config.server_pid is not None else [])]
    return tree_cpu(os.getpid(), skip=skip)


def per_action(seconds: float | None, actions: int) -> int | None:
    """Microseconds of CPU per action (None when not measured, or no action)."""
    return round(seconds / actions * 1e6) if seconds is not None and actions else None


def table_text(figures: dict[str, Any]) -> str:
    processes = figures["processes"]
    rows = [
        ("tables", f"{figures['tables']}", f"{figures['backend']}, {processes} process(es)"),
        ("click-to-ack", f"p50 {figures['ack_p50_ms']} ms", f"p99 {figures['ack_p99_ms']} ms"),
        ("loop stall", f"p50 {figures['stall_p50_ms']} ms", f"p99 {figures['stall_p99_ms']} ms"),
        ("", f"max {figures['stall_max_ms']} ms", ""),
        ("Discord requests", f"{figures['discord_rps']}/s", ""),
        ("CPU per action", f"{figures['cpu_us_per_action']} µs", "(the bot's processes)"),
    ]
    if figures["db_cpu_us_per_action"] is not None:
        rows.append(("", f"{figures['db_cpu_us_per_action']} µs", "(the PostgreSQL server)"))
    for index, own in enumerate(figures.get("per_process", ())):
        stall = f"stall p99 {own['stall_p99_ms']} ms, max {own['stall_max_ms']} ms"
        rows.append((f"process {index}", f"ack p99 {own['ack_p99_ms']} ms", stall))
    rows.append(("load average", f"{figures['load']}", ""))
    return "\n".join(f"{a:<18}{b:<20}{c}" for a, b, c in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=3.0, help="a human's mean think time")
    parser.add_argument("--ai-delay", type=float, default=AI_DELAY)
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds not measured")
    parser.add_argument("--no-live-panels", action="store_true")
    parser.add_argument(
        "--parts", action="store_true", help="time each stage of a click (bench/ack_parts.py)"
    )
    parser.add_argument(
        "--stall-stacks",
        action="store_true",
        help="with --parts: sample the loop's stack in long stalls (a thread: it slows the loop)",
    )
    parser.add_argument(
        "--gc-thresholds",
        type=_thresholds,
        help="the garbage collector's thresholds (gen0,gen1,gen2) instead of the bot's",
    )
    parser.add_argument(
        "--web", action="store_true", help="two open pages of the web table per table"
    )
    parser.add_argument(
        "--web-clients",
        type=int,
        default=2,
        help="processes the open pages run in (0: in the bot's own process, as before)",
    )
    parser.add_argument("--db", type=Path, help="directory for the database file (SQLite)")
    parser.add_argument(
        "--games", default=",".join(GAMES), help="the games tables play, in turn (comma list)"
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--database", help="a postgresql:// URL of an empty database")
    where.add_argument(
        "--postgres", action="store_true", help="start a throwaway PostgreSQL server for the run"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="bot processes, one shard each (PostgreSQL)"
    )
    parser.add_argument("--shard-count", type=int, default=1, help="Discord's shard count")
    parser.add_argument(
        "--shard-ids", type=parse_shard_ids, help="the shards this process serves (0-1,3)"
    )
    # A process of --processes: it measures when told "go", and writes its Result to the file.
    parser.add_argument("--child-report", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    games = tuple(g.strip() for g in args.games.split(",") if g.strip())
    unknown = [g for g in games if g not in engine.GAMES]
    if unknown or not games:
        parser.error(f"--games: one or more of {', '.join(GAMES)} (not {', '.join(unknown)})")
    if args.tables < 1 or args.seconds <= 0 or args.think <= 0 or args.ai_delay < 0:
        parser.error("--tables >= 1, --seconds > 0, --think > 0 and --ai-delay >= 0")
    if args.database is not None and not is_postgres_url(args.database):
        parser.error("--database: a postgresql:// URL (a SQLite file: --db FOLDER)")
    if args.processes < 1:
        parser.error("--processes: 1 or more")
    if args.web_clients < 0:
        parser.error("--web-clients: 0 or more")
    postgres = args.postgres or args.database is not None
    if args.processes > 1 and not postgres:
        parser.error("--processes: more than one needs PostgreSQL (--postgres or --database)")
    if args.processes > 1 and (args.shard_ids is not None or args.shard_count != 1):
        parser.error("--processes gives each process its shard: no --shard-count/--shard-ids")
    try:
        shards = Shards(args.shard_count, args.shard_ids)
    except ValueError as error:
        parser.error(f"--shard-count/--shard-ids: {error}")
    config = Config(
        tables=args.tables,
        seconds=args.seconds,
        seed=args.seed,
        think=args.think,
        ai_delay=args.ai_delay,
        warmup=args.warmup,
        live_panels=not args.no_live_panels,
        folder=args.db,
        games=games,
        database=args.database,
        shards=shards,
        web=args.web,
        web_clients=args.web_clients,
        parts=args.parts,
        stall_stacks=args.stall_stacks,
        gc_thresholds=args.gc_thresholds,
    )
    try:
        with _database(args.postgres, config) as config:
            if args.processes > 1:
                from bench.load_processes import run_processes

                result = run_processes(config, args.processes)
            elif args.child_report is not None:
                result = asyncio.run(run(config, ready=_go_on_stdin))
                args.child_report.write_text(json.dumps(dataclasses.asdict(result)))
            else:
                result = asyncio.run(run(config))
    except BenchError as error:
        print(f"bench/load.py: {error}", file=sys.stderr)
        return 2
    print("\n".join(result.details))
    print(table_text(result.figures))
    print(json.dumps(result.figures))
    return 0


def _thresholds(text: str) -> tuple[int, int, int]:
    try:
        first, second, third = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("three whole numbers: gen0,gen1,gen2") from None
    if min(first, second, third) < 1:
        raise argparse.ArgumentTypeError("each 1 or more")
    return first, second, third


@contextlib.contextmanager
def _database(throwaway: bool, config: Config) -> Iterator[Config]:
    """The config, on a throwaway PostgreSQL server started for the run if asked."""
    if not throwaway:
        yield config
        return
    print("starting a throwaway PostgreSQL server...", flush=True)
    with throwaway_database() as server:
        yield dataclasses.replace(config, database=server.url, server_pid=server.pid)


async def _go_on_stdin() -> None:
    """A process of ``--processes``: say it is ready, and measure when told to go."""
    print(READY, flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    if line.strip() != GO:
        raise BenchError(f"expected {GO!r} on stdin, got {line.strip()!r}")


def main_with(
    argv: list[str] | None, undo: Callable[[], None], report: Callable[[], list[str]]
) -> int:
    """``main(argv)`` under a tool already installed (``bench/loop_cpu.py``,
    ``bench/loop_counts.py``): ``undo`` takes it out whatever happens; ``report``'s lines are
    printed after a run that succeeded."""
    try:
        code = main(argv)
    finally:
        undo()
    if code == 0:
        print("\n".join(report()))
    return code


if __name__ == "__main__":
    # Run as ``bench.load``, not ``__main__``: bench/load_processes.py imports this module by
    # that name, and the BenchError it raises must be the one ``main`` catches.
    from bench.load import main as load_main

    sys.exit(load_main())
