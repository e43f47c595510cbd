"""bench/move_path.py on two tables: the human and the AIs play the moves asked for (the tables'
games reach them), and the line it prints counts every move committed."""

from __future__ import annotations

import pytest

from bench import move_path


def test_the_tables_play_the_moves_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    before = move_path.committed()
    assert move_path.main(["--tables", "2", "--moves", "8"]) == 0
    out = capsys.readouterr().out.splitlines()
    actions = int(next(line for line in out if line.startswith("actions ")).split()[1])
    # Two games of at least eight moves each, every one of them counted (the line is the
    # process's total: its counter ran on before).
    assert actions - before >= 16, out
    assert any("µs per action played" in line for line in out), out
