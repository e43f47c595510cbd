"""bench/loop_rest.py on one table for a second: each part it times is still where the bot's
work goes (a renamed entry point would leave its part at zero calls, its time silently in the
callbacks around it), the click's and the AI's tasks are found by their coroutines, and it
leaves ``bench/load.py``, the loop and the timed classes as it found them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bench import load, loop_cpu, loop_rest
from bot.service.snapshot import TableSnapshot
from cogs import panels


def test_every_part_is_timed_and_undone(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    drawn, view, run = panels.draw_panel, TableSnapshot.view, asyncio.events.Handle._run
    args = ["--tables", "1", "--seconds", "1.5", "--warmup", "0.1", "--think", "0.1"]
    assert loop_rest.main([*args, "--ai-delay", "0.05", "--db", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    first = out.index(next(line for line in out if line.startswith("the event loop's thread,")))
    parts = {line.split("  ")[-1].strip(): line for line in out[first + 1 :]}
    for _owner, _name, part in (*loop_cpu.TIMED, *loop_rest.MORE):
        assert part in parts, parts
        assert float(parts[part].split("µs per action")[1].split()[0]) > 0, parts[part]
    for part in ("engine moves", "task Players.click", "task Scheduler._run", loop_rest.OWN):
        assert part in parts, parts
    assert (panels.draw_panel, TableSnapshot.view) == (drawn, view)
    assert asyncio.events.Handle._run is run
    assert load.Stats().recording is False
