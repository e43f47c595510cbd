"""bench/picture_jobs.py's groups: the jobs of one loop turn, or those close in time, go to a
worker as one job, and a grouped replay draws them all."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest

from bench import picture_jobs

HAND = {"cards": ("KH", "8D", "KC", "7S")}
ROWS = {"max_rows": 1, "rows": (("discard", ("JK",)),)}


def jobs() -> list[picture_jobs.Job]:
    return [
        (10.0000, "hand_png", HAND, 0),
        (10.0004, "hand_png", HAND, 0),
        (10.0009, "rows_png", ROWS, 1),
        (10.0100, "hand_png", HAND, 2),
    ]


def test_groups_by_turn_by_gap_or_none() -> None:
    def sizes(by: str | None) -> list[int]:
        return [len(group) for group in picture_jobs.grouped(jobs(), by)]

    assert sizes(None) == [1, 1, 1, 1]
    assert sizes("turn") == [2, 1, 1]
    assert sizes("1") == [3, 1]  # within a millisecond of the one before
    assert sizes("0.45") == [2, 1, 1]
    assert sizes("20") == [4]


def test_a_grouped_replay_draws_every_picture(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    file = tmp_path / "jobs.pkl"
    file.write_bytes(pickle.dumps(jobs()))
    argv = ["picture_jobs.py", "replay", str(file), "--pace", "10", "--group", "turn"]
    monkeypatch.setattr(sys, "argv", argv)
    assert picture_jobs.main() == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert line.startswith("4 pictures through 2 workers at 10x their pace, 1.33 pictures a job")
