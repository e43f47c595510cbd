"""Past one machine: bot processes as real OS processes on one PostgreSQL database, each serving
some shards (``tests/bot/service_process.py`` runs the table service without Discord).

- two processes with disjoint shards load disjoint tables, and a third claiming a held shard
  exits with the shard named;
- the owner of a shard killed (SIGKILL) before a turn's deadline: its replacement, started
  after the deadline, re-arms it from the stored row and the timeout move is made once, never
  again after another restart;
- a rogue process that loaded a table it does not own (no shard lock) is refused its write
  (``StaleWrite``): the owner's move stands, nothing is merged.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.shards import shard_of
from tests.bot.databases import connect
from tests.bot.storage.test_shard_locks import held_shards

ROOT = Path(__file__).resolve().parents[3]
#: Seconds a process may take to start or answer (a loaded machine is slow; nothing is timed).
PATIENCE = 60.0
SHARDS = 2
#: Two servers of each of the 2 shards (Discord's rule: (guild_id >> 22) % shard_count).
GUILDS = {0: (10 << 22, 12 << 22), 1: (11 << 22, 13 << 22)}
HOST, BOB = 1, 2
USERS = {0: HOST, 1: BOB}  # seat -> user at the two-player tables


class ServiceProcess:
    """``python -m tests.bot.service_process`` running in a process of its own."""

    def __init__(
        self,
        url: str,
        shard_ids: str,
        folder: Path,
        *,
        hold: bool = True,
        name: str = "p",
        shards: int = SHARDS,
        extra: tuple[str, ...] = (),
    ) -> None:
        command = [sys.executable, "-m", "tests.bot.service_process", url]
        command += ["--shard-count", str(shards), "--shard-ids", shard_ids, *extra]
        if not hold:
            command.append("--no-hold")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        # (stderr to a file: a full pipe would block a process that logs)
        self.stderr_path = folder / f"{name}-{time.monotonic_ns()}.err"
        with self.stderr_path.open("w") as stderr:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, text=True, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=stderr,
            )  # fmt: skip
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.moves: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)  # the process ended

    def _next(self, what: str) -> dict[str, Any]:
        try:
            message = self.lines.get(timeout=PATIENCE)
        except queue.Empty:
            raise AssertionError(f"no {what} within {PATIENCE:g} s: {self.stderr()}") from None
        if message is None:
            raise AssertionError(f"the process ended before its {what}: {self.stderr()}")
        if "moved" in message:
            self.moves.append(message["moved"])
        return message

    def started(self) -> list[dict[str, Any]]:
        """The tables the process loaded, once it started."""
        while "started" not in (message := self._next("start")):
            pass
        self.web_port = message["started"].get("web_port")
        return message["started"]["tables"]

    def call(self, op: str, **fields: Any) -> dict[str, Any]:
        """``{"reply": ...}`` or ``{"error": ..., "message": ...}``."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"op": op, **fields}) + "\n")
        self.process.stdin.flush()
        while not {"reply", "error"} & set(message := self._next(f"answer to {op}")):
            pass
        return message

    def ok(self, op: str, **fields: Any) -> Any:
        answer = self.call(op, **fields)
        assert "reply" in answer, answer
        return answer["reply"]

    def wait_for_move(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            for move in self.moves:
                if wanted(move):
                    return move
            self._next("move")

    def exit_code(self) -> int:
        return self.process.wait(timeout=PATIENCE)

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def quit(self) -> None:
        self.call_quietly("quit")
        assert self.exit_code() == 0, self.stderr()

    def call_quietly(self, op: str) -> None:
        if self.process.poll() is None and self.process.stdin is not None:
            self.process.stdin.write(json.dumps({"op": op}) + "\n")
            self.process.stdin.flush()

    def kill(self) -> None:
        """SIGKILL: no close, no goodbye; the database sees the connections drop."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=PATIENCE)


@pytest.fixture
def spawn(tmp_path: Path, pg_url: str) -> Iterator[Callable[..., ServiceProcess]]:
    """Starts service processes on the test's database; kills those left at the end."""
    processes: list[ServiceProcess] = []

    def start(shard_ids: str, *, hold: bool = True, name: str = "p") -> ServiceProcess:
        process = ServiceProcess(pg_url, shard_ids, tmp_path, hold=hold, name=name)
        processes.append(process)
        return process

    yield start
    for process in processes:
        if process.process.poll() is None:
            process.kill()
        if process.process.stdin is not None:
            process.process.stdin.close()


def stored(url: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    conn = connect(url)
    try:
        return [tuple(row) for row in conn.execute(sql, params).fetchall()]
    finally:
        conn.close()


def wait_released(url: str) -> None:
    """Until no shard lock is held: a process that quit or was killed is gone at once, its
    server process (which drops its locks) a moment later."""
    give_up = time.monotonic() + PATIENCE
    while held_shards(url):
        assert time.monotonic() < give_up, f"shards still held: {held_shards(url)}"
        time.sleep(0.05)


def channel_of(guild: int) -> int:
    return guild + 7  # any channel; the guild decides the shard


def open_game(process: ServiceProcess, guild: int, options: dict[str, Any]) -> dict[str, Any]:
    """A two-human Troeven game in play in the guild's channel: its description."""
    channel = channel_of(guild)
    process.ok("open", channel=channel, guild=guild, user=HOST, game="troeven", options=options)
    process.ok("join", channel=channel, user=BOB)
    return process.ok("start", channel=channel, user=HOST)


def test_the_test_guilds_are_where_discord_sends_them() -> None:
    for shard, guilds in GUILDS.items():
        assert all(shard_of(guild, SHARDS) == shard for guild in guilds)


def test_two_processes_serve_disjoint_shards_and_a_third_is_refused(
    spawn: Callable[..., ServiceProcess], pg_url: str
) -> None:
    # Beforehand, one process serving both shards opens a lobby and a game in every server.
    first = spawn("0-1", name="setup")
    assert first.started() == []
    for lobby, playing in GUILDS.values():
        first.ok("open", channel=channel_of(lobby), guild=lobby, user=HOST, game="troika")
        open_game(first, playing, {"timer": "off"})
    first.quit()
    wait_released(pg_url)

    zero, one = spawn("0", name="zero"), spawn("1", name="one")  # (starting side by side)
    loaded = {0: zero.started(), 1: one.started()}
    for shard, tables in loaded.items():
        lobby, playing = GUILDS[shard]
        assert [(t["guild"], t["status"]) for t in tables] == [
            (lobby, "lobby"),
            (playing, "playing"),
        ]
    assert held_shards(pg_url) == [0, 1]

    # Each plays at its own table; a server of the other shard is not its to open.
    for shard, process in ((0, zero), (1, one)):
        channel = channel_of(GUILDS[shard][1])
        (table,) = [t for t in process.ok("tables") if t["channel"] == channel]
        user = USERS[table["to_act"][0]]
        assert process.ok("act", channel=channel, user=user)["move_number"] == 1
        other = GUILDS[1 - shard][0]
        refused = process.call("open", channel=5, guild=other, user=HOST, game="troika")
        assert refused["error"] == "OtherShard"

    third = spawn("1", name="third")
    assert third.exit_code() == 1
    message = third.stderr().strip()
    assert "shard 1 of 2 is served by another process" in message, message
    assert "Traceback" not in message
    assert held_shards(pg_url) == [0, 1]  # still the first two's
    zero.quit()
    one.quit()
    wait_released(pg_url)
    moves = stored(pg_url, "SELECT guild_id, move_number FROM tables WHERE status = 'playing'")
    assert sorted(moves) == [(GUILDS[0][1], 1), (GUILDS[1][1], 1)]


def test_a_replacement_makes_the_overdue_timeout_move_once(
    spawn: Callable[..., ServiceProcess], pg_url: str
) -> None:
    guild = GUILDS[0][1]
    channel = channel_of(guild)
    owner = spawn("0", name="owner")
    owner.started()
    table = open_game(owner, guild, {"timer": 7})  # the shortest timer there is
    (waiting,) = table["to_act"]
    deadline = table["deadlines"][str(waiting)]
    owner.kill()  # before the deadline
    assert time.time() < deadline
    assert stored(pg_url, "SELECT move_number FROM tables") == [(0,)]

    time.sleep(max(0.0, deadline - time.time()) + 0.5)
    wait_released(pg_url)
    replacement = spawn("0", name="replacement")
    replacement.started()
    move = replacement.wait_for_move(lambda m: m["channel"] == channel)
    assert (move["seat"], move["source"], move["move_number"]) == (waiting, "timeout", 1)
    (after,) = replacement.ok("tables")
    replacement.kill()  # roughly again: what it committed stays
    wait_released(pg_url)
    log = stored(pg_url, "SELECT move_number, seat, source FROM actions ORDER BY move_number")
    assert log == [(1, waiting, "timeout")]

    # Another restart (the next seat's deadline is 7 s away): the timeout is not made again,
    # and the next deadline is the stored one, not a new one.
    again = spawn("0", name="again")
    (loaded,) = again.started()
    assert loaded["move_number"] == 1 and loaded["deadlines"] == after["deadlines"]
    assert again.moves == []
    again.quit()
    log = stored(pg_url, "SELECT move_number, seat, source FROM actions ORDER BY move_number")
    assert log == [(1, waiting, "timeout")]
    assert stored(pg_url, "SELECT move_number FROM tables") == [(1,)]


def test_a_rogue_writer_is_refused_never_merged(
    spawn: Callable[..., ServiceProcess], pg_url: str
) -> None:
    guild = GUILDS[0][1]
    channel = channel_of(guild)
    owner = spawn("0", name="owner")
    owner.started()
    table = open_game(owner, guild, {"timer": "off"})
    # A second process on the same shard that skipped the shard locks loads the same game.
    rogue = spawn("0", hold=False, name="rogue")
    assert [t["channel"] for t in rogue.started()] == [channel]

    user = USERS[table["to_act"][0]]
    mine = owner.ok("act", channel=channel, user=user)
    assert mine["move_number"] == 1
    refused = rogue.call("act", channel=channel, user=user)  # its copy is a move behind
    assert refused["error"] == "StaleWrite", refused
    assert "does not follow the stored one" in refused["message"]

    log = stored(pg_url, "SELECT move_number, action, source FROM actions")
    assert log == [(1, mine["action"], "player")]
    # The owner goes on as if nothing happened.
    (now,) = owner.ok("tables")
    assert owner.ok("act", channel=channel, user=USERS[now["to_act"][0]])["move_number"] == 2
    rogue.quit()
    owner.quit()
    assert stored(pg_url, "SELECT move_number FROM tables") == [(2,)]
    assert len(stored(pg_url, "SELECT 1 FROM actions")) == 2
