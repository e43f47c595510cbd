"""Crash recovery: a worker process plays random games through the service on a database (a
SQLite file, or a PostgreSQL database: ``db_path`` in tests/bot/conftest.py) and is killed with
SIGKILL at random moments. After every kill the database must hold, for each
table, exactly the state after its last acknowledged action (or one action more, committed but
killed before its acknowledgement was printed): the stored snapshot (written every few moves)
plus the actions logged after it must be the game the whole log replays to, and after the last
restart every game is played to its end. A second test kills the worker while its table has
moves logged after its last snapshot, and checks a restarted service replays them.

The worker is this file run as a script: ``python tests/bot/service/test_recovery.py run DB SEED``.
It prints ``READY`` once started, then ``ACK <table id> <move number> <sha256 of the game>`` for
every committed action (flushed), and in ``finish`` mode ``DONE`` when no table is left. In
``pause`` mode it plays one table until moves are logged after its last snapshot, prints
``PAUSED <table id> <move number> <sha256 of the game>`` and waits to be killed.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # run as a script
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bot.service import ActionApplied, Limits, TableError, TableService  # noqa: E402
from bot.storage import repository as repo  # noqa: E402
from tests.bot.databases import connect  # noqa: E402

HUMAN = 1
#: Short games, no timers: the worker must be deterministic apart from where it is killed.
SETUPS: dict[str, tuple[int, dict[str, Any]]] = {
    "troika": (4, {"end": "rounds", "rounds": 2, "timer": "off"}),
    "troeven": (2, {"timer": "off"}),
    "troggu": (4, {"deals": 1, "timer": "off"}),
    "troikuntza": (4, {"timer": "off", "mayi_window": 0}),
}
KILLS = 20


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# -- the worker -----------------------------------------------------------------------------------
async def worker(mode: str, db_path: str, seed: int) -> int:
    games = [name for name in SETUPS if name in engine.GAMES]
    service = TableService(db_path, ai_delay=0, limits=Limits.none())
    lives: dict[int, Any] = {}

    class Printer:
        async def on_table_event(self, event: Any) -> None:
            if isinstance(event, ActionApplied):
                # (the AI seats of a recovered table may move while ``start`` runs, before
                # ``lives`` is filled: their ACKs were lost to a KeyError, found in the service)
                live = lives.get(event.table.id)
                if live is None:
                    live = lives[event.table.id] = next(
                        t for t in service._tables.values() if t.id == event.table.id
                    )
                game = live.game.to_json()  # (the listener runs before the next move)
                print(f"ACK {event.table.id} {event.move_number} {digest(game)}", flush=True)

    service.add_listener(Printer())
    await service.start()
    for live in service._tables.values():
        lives[live.id] = live
    print("READY", flush=True)
    rng = random.Random(seed)

    async def open_one(channel: int, game: str) -> None:
        players, options = SETUPS[game]
        await service.open_table(
            channel, None, HUMAN, "Human", game, options=options, seed=rng.randrange(10**9)
        )
        for _ in range(players - 1):
            await service.add_ai(channel, HUMAN)
        await service.start_game(channel, HUMAN)

    async def play(channel: int, game: str) -> None:
        while True:
            table = service.get_table(channel)
            if table is None:
                if mode == "finish":
                    return
                await open_one(channel, game)
                continue
            if table.status.value == "lobby":  # killed between open and start
                await service.abandon(channel, HUMAN)
                continue
            legal = service.legal_actions(channel, HUMAN)
            if not legal:
                await asyncio.sleep(0.0005)  # the AIs are moving
                continue
            try:
                await service.act(channel, HUMAN, rng.choice(legal))
            except TableError:
                continue

    if mode == "pause":
        await pause(service, open_one)
        return 1
    await asyncio.gather(*(play(100 + i, game) for i, game in enumerate(games)))
    await service.close()
    print("DONE", flush=True)
    return 0


async def pause(service: TableService, open_one: Any) -> None:
    """Play one Troika table until moves are logged after its last stored snapshot, say so and
    wait to be killed (the moves after the snapshot exist only in the action log)."""
    channel = 99
    await open_one(channel, "troika")
    live = service._tables[channel]
    while True:
        # Settled first: no AI move may commit between PAUSED and the kill.
        await service.settle()
        if live.move_number - live.snapshot_move >= 5:
            break
        legal = service.legal_actions(channel, HUMAN)
        if legal:
            await service.act(channel, HUMAN, legal[0])
    digest_now = digest(live.game.to_json())
    print(f"PAUSED {live.id} {live.move_number} {digest_now}", flush=True)
    await asyncio.Event().wait()


# -- the test -------------------------------------------------------------------------------------
def start_worker(mode: str, db_path: Path | str, seed: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), mode, str(db_path), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )


def read_acks(output: str, acks: dict[int, tuple[int, str]]) -> int:
    """Record the last acknowledged (move, digest) per table; returns the number of ACK lines."""
    count = 0
    for line in output.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "ACK" and len(parts[3]) == 16:
            acks[int(parts[1])] = (int(parts[2]), parts[3])
            count += 1
    return count


def check_database(db_path: Path | str, acks: dict[int, tuple[int, str]]) -> None:
    conn = connect(db_path)
    try:
        tables = conn.execute(
            "SELECT id, status, snapshot, snapshot_move, move_number FROM tables"
        ).fetchall()
        for table_id, status, snapshot, snapshot_move, moves in tables:
            acked_move, acked_digest = acks.get(table_id, (0, None))
            # Rows, or the compacted log (with the dealt game) of an ended game.
            record = repo.load_game(conn, table_id)
            if record.initial_snapshot is None:  # a lobby (killed before its start committed)
                assert status in ("lobby", "abandoned") and acked_move == 0
                continue
            # Never behind the last acknowledgement; at most one commit beyond it.
            assert moves in (acked_move, acked_move + 1), (table_id, moves, acked_move)
            log = record.actions
            assert [a.move_number for a in log] == list(range(1, moves + 1))
            assert 0 <= snapshot_move <= moves
            game = engine.load(record.initial_snapshot)
            for action in log:
                game.apply(action.seat, action.action)
                if action.move_number == acked_move:
                    assert digest(game.to_json()) == acked_digest, (table_id, action.move_number)
                if action.move_number == snapshot_move and snapshot is not None:
                    assert game.to_json() == snapshot, (table_id, snapshot_move)
            assert (status == "finished") == game.is_over()
            if status in ("finished", "abandoned"):  # compacted: no rows left
                rows = conn.execute("SELECT count(*) FROM actions WHERE table_id = ?", (table_id,))
                assert rows.fetchone()[0] == 0 and snapshot_move == moves
            if status == "finished":  # its last snapshot is the replay's: not stored
                assert snapshot is None
                continue
            # What a restart loads: the snapshot and the moves after it replayed.
            stored = engine.load(snapshot)
            for action in log[snapshot_move:]:
                stored.apply(action.seat, action.action)
            assert stored.to_json() == game.to_json()
    finally:
        conn.close()


def test_killed_at_random_moments_recovers_every_acknowledged_action(db_path: Path | str) -> None:
    rng = random.Random(2026)
    acks: dict[int, tuple[int, str]] = {}
    total_acks = 0
    for kill in range(KILLS):
        proc = start_worker("run", db_path, 1000 + kill)
        assert proc.stdout is not None
        ready = proc.stdout.readline()
        assert ready.strip() == "READY", ready + proc.stderr.read() if proc.stderr else ""
        time.sleep(rng.uniform(0.02, 0.5))
        proc.send_signal(signal.SIGKILL)
        # Through the pipe's reader: what readline() read ahead of READY is in its buffer, which
        # communicate() (reading the pipe itself) would skip, and with it ACK lines.
        out = proc.stdout.read()
        proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        total_acks += read_acks(out, acks)
        check_database(db_path, acks)
    assert total_acks > KILLS  # the worker really played between the kills

    proc = start_worker("finish", db_path, 7)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "DONE" in out
    read_acks(out, acks)
    check_database(db_path, acks)
    conn = connect(db_path)
    try:
        open_tables = conn.execute(
            "SELECT count(*) FROM tables WHERE status IN ('lobby', 'playing')"
        ).fetchone()[0]
        finished = conn.execute("SELECT game, count(*) FROM results GROUP BY game").fetchall()
    finally:
        conn.close()
    assert open_tables == 0
    assert {game for game, _ in finished} == {g for g in SETUPS if g in engine.GAMES}


async def restarted_game(db_path: Path | str, table_id: int) -> tuple[str, int]:
    """(the game a restarted service loads, its move number), then three more moves on it."""
    service = TableService(db_path, ai_delay=0, limits=Limits.none())
    await service.start()
    try:
        live = next(t for t in service._tables.values() if t.id == table_id)
        loaded, move = live.game.to_json(), live.move_number
        for _ in range(3):
            await service.settle()
            legal = service.legal_actions(live.channel_id, HUMAN)
            if legal:
                await service.act(live.channel_id, HUMAN, legal[0])
        await service.settle()
        assert live.move_number > move  # it plays on
        return loaded, move
    finally:
        await service.close()


def test_killed_between_two_snapshots_the_logged_moves_are_replayed(db_path: Path | str) -> None:
    proc = start_worker("pause", db_path, 5)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "READY"
    line = proc.stdout.readline().split()
    while line and line[0] == "ACK":  # the moves before the pause
        line = proc.stdout.readline().split()
    assert line and line[0] == "PAUSED", line
    table_id, move, acked = int(line[1]), int(line[2]), line[3]
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    conn = connect(db_path)
    try:
        snapshot_move, moves = conn.execute(
            "SELECT snapshot_move, move_number FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
    finally:
        conn.close()
    assert moves == move and move - snapshot_move >= 5  # moves only in the log
    loaded, loaded_move = asyncio.run(restarted_game(db_path, table_id))
    assert loaded_move == move and digest(loaded) == acked


if __name__ == "__main__":
    sys.exit(asyncio.run(worker(sys.argv[1], sys.argv[2], int(sys.argv[3]))))
