"""``bench/load.py --processes N``: the bot as N processes on one PostgreSQL database, process i
serving shard i of N, as past one machine; their figures merged into one line.

Each process is ``bench/load.py`` itself (``--shard-count N --shard-ids i --child-report FILE``):
it opens the tables of its shard's servers and warms up, says ``ready``, and measures its
``--seconds`` when told ``go`` (all are told at once: the windows coincide). Merged: the
click-to-ack percentiles over every click of every process, the loop stalls over every process
and each one's own (``per_process``), the requests per second summed, and CPU per action over
all (every process's CPU over every process's actions; the server's, when the bench started it,
measured here over the same window).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.cpu import server_cpu
from bench.load import (
    GO,
    READY,
    BenchError,
    Config,
    Result,
    milliseconds,
    per_action,
    percentile,
)
from bot.storage.urls import redact

SCRIPT = Path(__file__).resolve().parent / "load.py"
#: Each process's own figures kept in the merged line's ``per_process``.
PER_PROCESS = (
    "tables",
    "ack_p50_ms",
    "ack_p99_ms",
    "stall_p50_ms",
    "stall_p99_ms",
    "stall_max_ms",
    "discord_rps",
    "cpu_us_per_action",
)
#: Seconds a process may take to open its tables and warm up, on top of the warm-up itself.
SETUP_PATIENCE = 300.0


def child_command(config: Config, processes: int, shard: int, report: Path) -> list[str]:
    assert config.database is not None
    command = [sys.executable, str(SCRIPT), "--database", config.database]
    command += ["--tables", str(config.tables), "--seconds", str(config.seconds)]
    command += ["--seed", str(config.seed), "--think", str(config.think)]
    command += ["--ai-delay", str(config.ai_delay), "--warmup", str(config.warmup)]
    command += ["--games", ",".join(config.games)]
    command += ["--shard-count", str(processes), "--shard-ids", str(shard)]
    command += ["--child-report", str(report)]
    if config.web:  # each process its own web table, with its tables' pages
        command += ["--web", "--web-clients", str(config.web_clients)]
    if config.gc_thresholds is not None:
        command += ["--gc-thresholds", ",".join(map(str, config.gc_thresholds))]
    return command if config.live_panels else [*command, "--no-live-panels"]


def run_processes(config: Config, processes: int) -> Result:
    """Start the processes, let them measure together, and merge what they measured."""
    folder = Path(tempfile.mkdtemp(prefix="troika-load-processes-"))
    reports = [folder / f"shard-{shard}.json" for shard in range(processes)]
    children = [
        subprocess.Popen(
            child_command(config, processes, shard, reports[shard]),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for shard in range(processes)
    ]
    try:
        for shard, child in enumerate(children):
            _wait_ready(shard, child)
        db_cpu = server_cpu(config.server_pid) if config.server_pid is not None else None
        for child in children:
            assert child.stdin is not None
            child.stdin.write(GO + "\n")
            child.stdin.flush()
        time.sleep(config.seconds)
        if config.server_pid is not None and db_cpu is not None:
            db_cpu = server_cpu(config.server_pid) - db_cpu
        load = os.getloadavg()[0]
        for child in children:  # (what they print at the end is in their reports too)
            child.communicate(timeout=SETUP_PATIENCE)
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    for shard, child in enumerate(children):
        if child.returncode != 0:
            raise BenchError(f"the process of shard {shard} failed ({child.returncode})")
    parts = [json.loads(report.read_text()) for report in reports]
    details = [f"{processes} processes, one shard each, on {redact(str(config.database))}"]
    for shard, part in enumerate(parts):
        details += [f"[shard {shard}] {line}" for line in part["details"]]
    figures = merge([part["figures"] for part in parts], [part["raw"] for part in parts])
    figures["load"] = round(load, 2)
    figures["db_cpu_us_per_action"] = per_action(db_cpu, sum(p["raw"]["actions"] for p in parts))
    if db_cpu is not None:
        details.append(f"the PostgreSQL server's CPU {db_cpu / config.seconds:.0%} of a core")
    return Result(figures, details)


def merge(figures: list[dict[str, Any]], raws: list[dict[str, Any]]) -> dict[str, Any]:
    """One line from the processes' figures and what they come from (``Result.raw``)."""
    acks = [a for raw in raws for a in raw["acks"]]
    stalls = [s for raw in raws for s in raw["stalls"]]
    actions = sum(raw["actions"] for raw in raws)
    merged: dict[str, Any] = {
        "tables": sum(f["tables"] for f in figures),
        "ack_p50_ms": milliseconds(percentile(acks, 0.50)),
        "ack_p99_ms": milliseconds(percentile(acks, 0.99)),
        "stall_p50_ms": milliseconds(percentile(stalls, 0.50), 3),
        "stall_p99_ms": milliseconds(percentile(stalls, 0.99)),
        "stall_max_ms": milliseconds(max(stalls, default=None)),
        "discord_rps": round(sum(raw["requests"] / raw["wall"] for raw in raws), 1),
        "cpu_us_per_action": per_action(sum(raw["cpu"] for raw in raws), actions),
        "load": max(f["load"] for f in figures),
        "backend": "postgresql",
        "processes": len(figures),
        "db_cpu_us_per_action": None,
        "per_process": [{key: f[key] for key in PER_PROCESS} for f in figures],
    }
    if all("web" in raw for raw in raws):
        latencies = [w for raw in raws for w in raw["web"]]
        merged["web_p50_ms"] = milliseconds(percentile(latencies, 0.50))
        merged["web_p99_ms"] = milliseconds(percentile(latencies, 0.99))
        fanout = [w for raw in raws for w in raw.get("web_commit", [])]
        merged["web_commit_p99_ms"] = milliseconds(percentile(fanout, 0.99))
        merged["web_missed"] = sum(f["web_missed"] for f in figures)
        merged["web_clients"] = sum(f["web_clients"] for f in figures)
    return merged


def _wait_ready(shard: int, child: subprocess.Popen[str]) -> None:
    """Until the process says it is ready (its other lines are printed here as they come)."""
    assert child.stdout is not None
    give_up = time.monotonic() + SETUP_PATIENCE
    for line in child.stdout:
        if line.strip() == READY:
            return
        print(f"[shard {shard}] {line.rstrip()}", flush=True)
        if time.monotonic() > give_up:
            break
    raise BenchError(f"the process of shard {shard} ended or hung before it was ready")
