"""bench/loop_counts.py on one table for a second: it counts what the loop ran in the window
(turns, the callbacks of a move's commit and of the clicks' tasks), and leaves asyncio and
``bench/load.py`` as it found them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bench import load, loop_counts


def test_counts_what_the_loop_runs_and_is_undone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    loop = asyncio.base_events.BaseEventLoop
    before = (asyncio.events.Handle._run, loop._run_once, loop.create_task)  # type: ignore[attr-defined]
    lookups_before = (
        asyncio.get_running_loop,
        asyncio.events._get_running_loop,
        asyncio.current_task,
    )
    args = ["--tables", "1", "--seconds", "1.5", "--warmup", "0.1", "--think", "0.1"]
    assert loop_counts.main([*args, "--ai-delay", "0.05", "--db", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    head = next(line for line in out if line.startswith("the event loop per action"))
    actions = int(head.split("over ")[1].split(" actions")[0].replace(",", ""))
    turns = float(head.split(": ")[1].split(" turns")[0])
    assert actions > 0 and turns > 0, head
    table = out[out.index(head) :]
    # A move's commit is resolved by a callback from the database's thread; a click is a task.
    assert any(line.split()[-1] == "_resolve" for line in table), table
    assert any(line.split()[-1] == "Players.click" for line in table), table
    # The running loop's look-ups, by caller: the bench's stall monitor sleeps (``sleep``
    # looks it up) every millisecond.
    lookups = next(line for line in table if line.startswith("  the running loop looked up"))
    below = table[table.index(lookups) + 1 :]
    assert float(lookups.split("each): ")[1].split(",")[0]) > 0, lookups
    assert any(line.split()[-1] == "sleep" for line in below), below
    assert (asyncio.get_running_loop, asyncio.events._get_running_loop, asyncio.current_task) == (
        lookups_before
    )
    assert (asyncio.events.Handle._run, loop._run_once, loop.create_task) == before  # type: ignore[attr-defined]
    assert load.Stats().recording is False
