"""bench/load.py's core on 2 tables for 2 seconds: it runs the whole path and its JSON line has
every key with sane values (the figures themselves are the bench's business, not a test's)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bench import load


async def test_two_tables_for_two_seconds(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = load.Config(
        tables=2, seconds=2.0, warmup=0.2, think=0.2, ai_delay=0.05, folder=tmp_path
    )
    result = await load.run(config)
    line = json.loads(json.dumps(result.figures))
    assert tuple(line) == load.KEYS
    assert line["tables"] == 2
    # Two tables with 0.2 s players play many moves in 2 s: clicks were acknowledged.
    assert 0 < line["ack_p50_ms"] <= line["ack_p99_ms"] < 2000
    assert 0 <= line["stall_p50_ms"] <= line["stall_p99_ms"] <= line["stall_max_ms"] < 2000
    assert line["discord_rps"] > 0  # the table messages and the clicks' answers
    assert 0 < line["cpu_us_per_action"] < 1_000_000
    assert line["load"] >= 0 and math.isfinite(line["load"])
    assert not any("no presenter" in text for text in result.details), result.details
    # The whole path ran: no listener (the publisher, the live panels) failed on an event, or
    # the bench would measure less work than the bot does.
    failed = [r.getMessage() for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    assert not failed, failed[:3]


def test_the_last_line_printed_is_the_json_object(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ["--tables", "1", "--seconds", "1", "--warmup", "0.1", "--think", "0.2"]
    assert load.main([*args, "--ai-delay", "0.05", "--db", str(tmp_path)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert tuple(json.loads(last)) == load.KEYS


def test_bad_options_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in (["--tables", "0"], ["--games", "chess"], ["--seconds", "-1"]):
        with pytest.raises(SystemExit):
            load.main(bad)
    assert "--games" in capsys.readouterr().err
