"""bench/load.py's core on 2 tables for 2 seconds: it runs the whole path and its JSON line has
every key with sane values (the figures themselves are the bench's business, not a test's); on
PostgreSQL, one shard's process opens its servers' tables only, and two processes' figures
merge into one line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bench import load
from bench.load_processes import run_processes
from bench.web_pages import CUTOFF, WebPages
from bot.shards import Shards, shard_of
from tests.bot.databases import connect


async def test_two_tables_for_two_seconds(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
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
    # Nothing of the bot's path failed (a fake Discord missing what the bot came to use would
    # show here, the figures then measuring less than the bot does).
    assert not any(text.startswith("logged") for text in result.details), result.details
    assert (line["backend"], line["processes"], line["db_cpu_us_per_action"]) == ("sqlite", 1, None)


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
    refusals = {
        "--processes: more than one needs PostgreSQL": ["--processes", "2"],
        "--database: a postgresql:// URL": ["--database", "load.db"],
        "--shard-count/--shard-ids: shard 2 is not one of the 2": [
            *("--shard-count", "2", "--shard-ids", "2"),
        ],
        "no --shard-count/--shard-ids": [
            *("--postgres", "--processes", "2", "--shard-count", "2"),
        ],
    }
    for message, bad in refusals.items():
        with pytest.raises(SystemExit):
            load.main(bad)
        assert message in capsys.readouterr().err


async def test_one_shard_of_two_opens_its_servers_tables_only(pg_url: str) -> None:
    config = load.Config(
        tables=8, seconds=0.5, warmup=0.1, think=0.2, ai_delay=0.05, database=pg_url,
        shards=Shards(2, (1,)),
    )  # fmt: skip
    result = await load.run(config)
    assert result.figures["tables"] == 4 and result.figures["backend"] == "postgresql"
    conn = connect(pg_url)
    try:
        guilds = [g for (g,) in conn.execute("SELECT DISTINCT guild_id FROM tables").fetchall()]
    finally:
        conn.close()
    assert guilds and all(shard_of(g, 2) == 1 for g in guilds)
    with pytest.raises(load.BenchError, match="holds open tables already"):
        await load.run(config)  # (not an empty database any more)


def test_two_processes_on_postgresql_merge_their_figures(pg_url: str) -> None:
    config = load.Config(
        tables=8, seconds=1.0, warmup=0.2, think=0.2, ai_delay=0.05, database=pg_url
    )
    result = run_processes(config, 2)
    line = json.loads(json.dumps(result.figures))
    assert tuple(line)[: len(load.KEYS)] == load.KEYS
    assert (line["backend"], line["processes"], line["tables"]) == ("postgresql", 2, 8)
    own = line["per_process"]
    assert [p["tables"] for p in own] == [4, 4]
    assert line["discord_rps"] == pytest.approx(sum(p["discord_rps"] for p in own), abs=0.2)
    assert line["stall_max_ms"] == max(p["stall_max_ms"] for p in own)
    # (a percentile of every click lies between the processes' own)
    p99s = [p["ack_p99_ms"] for p in own]
    assert 0 < line["ack_p50_ms"] <= line["ack_p99_ms"] and min(p99s) <= line["ack_p99_ms"] <= max(
        p99s
    )
    assert any(text.startswith("[shard 1]") for text in result.details)


@pytest.mark.parametrize("clients", [2, 0])
async def test_with_two_open_pages_per_table_every_move_reaches_them(
    tmp_path: Path, clients: int
) -> None:
    config = load.Config(
        tables=2, seconds=2.0, warmup=0.3, think=0.2, ai_delay=0.05, folder=tmp_path, web=True,
        web_clients=clients,
    )  # fmt: skip
    result = await load.run(config)
    line = json.loads(json.dumps(result.figures))
    assert tuple(line) == (
        *load.KEYS,
        *("web_p50_ms", "web_p99_ms", "web_commit_p99_ms", "web_missed", "web_clients"),
    )
    assert 0 < line["web_p50_ms"] <= line["web_p99_ms"] < 2000
    assert 0 < line["web_commit_p99_ms"] <= line["web_p99_ms"]
    assert (line["web_missed"], line["web_clients"]) == (0, clients)
    where = f"in {clients} client processes" if clients else "in the bot's process"
    assert any(f"4 open pages {where}" in text for text in result.details), result.details
    if clients:  # (the client processes check each frame's sequence number)
        assert any(" 0 frames out of order" in text for text in result.details), result.details


def test_a_move_is_timed_to_each_page_by_the_first_frame_that_shows_it() -> None:
    pages = WebPages.__new__(WebPages)  # (no server: the matching alone)
    pages.latencies, pages.fanout, pages.missed, pages.reconnects = [], [], 0, 0
    pages._pages = [(1, 11, "", ""), (1, 13, "", "")]
    pages._window = (10.0, 20.0)
    pages._reconnect_times = [15.0, 30.0]
    # Move 5 arrived at 10.0 and was committed at 10.03; page 11 saw move 4 late, then 6 (a
    # frame for two moves); page 13 saw nothing of it within the cutoff.
    pages._commits = [(1, 5, 10.0, 10.03)]
    pages._frames = [(1, 11, 4, 10.01), (1, 11, 6, 10.05), (1, 13, 5, 10.0 + CUTOFF + 1)]
    pages._match()
    assert pages.latencies == [pytest.approx(0.05)]
    assert pages.fanout == [pytest.approx(0.02)]  # from its commit: the fan-out alone
    assert (pages.missed, pages.reconnects) == (1, 1)


def test_the_parts_of_a_click_add_up_to_its_acknowledgement() -> None:
    """``bench/ack_parts.py``: each stage runs from the previous mark; together they are the
    click's acknowledgement time."""
    from bench.ack_parts import MARKS, AckParts

    marks = {"due": 10.0, **{mark: 10.0 + 0.001 * (i + 1) for i, mark in enumerate(MARKS)}}
    parts = AckParts().parts_of(marks)
    assert abs(sum(parts.values()) - (marks["answered"] - marks["due"])) < 1e-9
    assert all(abs(v - 0.001) < 1e-9 for v in parts.values())


async def test_with_parts_the_slowest_clicks_are_taken_apart(tmp_path: Path) -> None:
    config = load.Config(
        tables=2, seconds=2.0, warmup=0.2, think=0.2, ai_delay=0.05, folder=tmp_path, parts=True
    )
    result = await load.run(config)
    text = "\n".join(result.details)
    assert "ack parts (ms), the slowest 1%" in text, text
    assert "commit_queue" in text and "ack p99 by 5 s of the window" in text
    assert tuple(result.figures) == load.KEYS  # the JSON line is the same
