"""The table service's own path of a move, counted: the commit, the scheduler, the events, the
AI's turn and the engine; no Discord, no pictures, no panels.

    python bench/move_path.py [--tables 40] [--moves 60]
    python bench/move_path.py --instructions [--tables 40] [--moves 60]

Every table seats one human and AIs of level ``easy`` that move at once (``ai_delay`` 0), the four
games in turn, the turn timer off. The human is woken by his table's events (no polling: the work
done does not depend on timing) and plays a random legal move, seeded per table, until the game
reaches ``--moves`` moves. A run prints the moves committed and the event loop thread's CPU per
action.

With ``--instructions`` the script runs itself twice under valgrind's cachegrind, with
``--moves`` and with none (the same start: the service and its tables opened), and prints the
instructions per action of the difference: a count the machine's load does not move, for an A/B
of two checkouts on a shared machine. Each run's actions vary by a few (the AIs move on until the
service closes): compare instructions per action, not totals.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import metrics  # noqa: E402
from bot.service import TableError, TableEvent, TableService  # noqa: E402
from bot.service.limits import Limits  # noqa: E402

GAMES = ("troeven", "troggu", "troika", "troikuntza")
SEATS = {"troeven": 2, "troggu": 4, "troika": 4, "troikuntza": 4}


class Wakes:
    """A listener waking each table's human at every event of his table."""

    def __init__(self) -> None:
        self.events: dict[int, asyncio.Event] = {}

    async def on_table_event(self, event: TableEvent) -> None:
        woken = self.events.get(event.table.channel_id)
        if woken is not None:
            woken.set()


def committed() -> int:
    """Moves committed so far in this process (``/metrics``' counter, by source)."""
    return int(sum(child._value.get() for child in metrics._ACTIONS_BY_SOURCE.values()))


async def open_table(service: TableService, channel: int, seed: int) -> None:
    game = GAMES[channel % len(GAMES)]
    host = channel * 10
    await service.open_table(channel, 1, host, "P0", game, seed=seed, options={"timer": "off"})
    for _ in range(1, SEATS[game]):
        await service.add_ai(channel, host, "easy")
    await service.start_game(channel, host)


async def play(service: TableService, channel: int, moves: int, wakes: Wakes) -> None:
    """The table's human: a random legal move whenever he may, until ``moves`` are made."""
    rng, user = random.Random(channel), channel * 10
    woken = wakes.events[channel] = asyncio.Event()
    while True:
        table = service.get_table(channel)
        if table is None or table.move_number >= moves:
            return
        legal = service.legal_actions(channel, user)
        if not legal:
            woken.clear()
            await woken.wait()
            continue
        try:
            await service.act(channel, user, rng.choice(legal))
        except TableError:  # (a window closed meanwhile: look again)
            continue


async def run(tables: int, moves: int) -> tuple[int, float]:
    """(moves committed while playing, the loop thread's CPU seconds then)."""
    with tempfile.TemporaryDirectory() as folder:
        service = TableService(Path(folder) / "bench.db", ai_delay=0, limits=Limits.none())
        await service.start()
        wakes = Wakes()
        service.add_listener(wakes)
        rng = random.Random(1)
        for channel in range(1, tables + 1):
            await open_table(service, channel, rng.randrange(2**31))
        before, cpu = committed(), time.thread_time()
        await asyncio.gather(*(play(service, ch, moves, wakes) for ch in range(1, tables + 1)))
        cpu = time.thread_time() - cpu
        await service.close()
        return committed() - before, cpu


def counted(tables: int, moves: int) -> tuple[int, int]:
    """(every move committed, instructions) of this script run under cachegrind."""
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                f"--cachegrind-out-file={folder}/cachegrind.out",
                sys.executable,
                __file__,
                "--tables",
                str(tables),
                "--moves",
                str(moves),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    actions = re.search(r"^actions (\d+)", done.stdout, re.MULTILINE)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if actions is None or refs is None:
        raise SystemExit(f"unexpected output:\n{done.stdout}\n{done.stderr}")
    return int(actions.group(1)), int(refs.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--moves", type=int, default=60, help="moves per game")
    parser.add_argument("--instructions", action="store_true", help="count under cachegrind")
    args = parser.parse_args(argv)
    if args.instructions:
        base_actions, base_refs = counted(args.tables, 0)
        actions, refs = counted(args.tables, args.moves)
        per_action = (refs - base_refs) / max(actions - base_actions, 1)
        print(
            f"{actions - base_actions:,} actions: {per_action:,.0f} instructions per action"
            f" ({refs:,} - {base_refs:,} for the start alone)"
        )
        return 0
    played, cpu = asyncio.run(run(args.tables, args.moves))
    # (Every move of the process, those the AIs made before the first click and after the last
    # included: what the instructions counted.)
    print(f"actions {committed()}")
    print(f"the event loop's thread: {cpu / max(played, 1) * 1e6:.1f} µs per action played")
    return 0


if __name__ == "__main__":
    sys.exit(main())
