"""bench/loop_cpu.py on one table for a second: each part it times is still where the bot's
work goes (a renamed or moved entry point would leave its part at zero calls, and the split
would silently put it in "the rest"), and it leaves ``bench/load.py`` as it found it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import load, loop_cpu
from bench.fake_discord import Recorder
from cogs import panels


def test_every_part_is_timed_and_undone(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    drawn, recorded = panels.draw_panel, Recorder.record
    args = ["--tables", "1", "--seconds", "1.5", "--warmup", "0.1", "--think", "0.1"]
    assert loop_cpu.main([*args, "--ai-delay", "0.05", "--db", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    table = out[out.index(next(line for line in out if line.startswith("the event loop's"))) :]
    parts = {line.split("  ")[1].strip(): line for line in table[1:]}
    for _owner, _name, part in loop_cpu.TIMED:
        assert part in parts, table
        calls = float(parts[part].split("µs per action")[1].split()[1])
        assert calls > 0, parts[part]
    assert loop_cpu.REST in parts
    # Put back: the load bench and the bot run unwrapped afterwards.
    assert (panels.draw_panel, Recorder.record) == (drawn, recorded)
    assert load.Stats().recording is False
