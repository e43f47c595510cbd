"""Turn timers with a controllable clock: the AI moves for a seat whose deadline passed, a
deadline that passed while the bot was down fires right after the restart, and TroiKuntza's
May I window closes by the same mechanism."""

from __future__ import annotations

import asyncio
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from bot.service import (
    ActionApplied,
    ActionSource,
    RecordingListener,
    TableService,
    TurnChanged,
    timers,
)
from bot.service import driver as driver_module
from engine import ai as engine_ai
from tests.bot.conftest import FakeClock
from tests.bot.databases import connect

CH = 77
HUMANS = ((1, "Ann"), (2, "Bob"), (3, "Cat"), (4, "Dan"))


async def four_humans(service: TableService, game: str, options: dict) -> None:
    await service.open_table(CH, None, 1, "Ann", game, options=options, seed=4)
    for uid, name in HUMANS[1:]:
        await service.join(CH, uid, name)
    await service.start_game(CH, 1)


def log_rows(db_path: Path) -> list[tuple]:
    conn = connect(db_path)
    try:
        return conn.execute("SELECT move_number, seat, source FROM actions").fetchall()
    finally:
        conn.close()


async def test_a_passed_deadline_makes_the_ai_move_for_the_seat(service, recorder, clock, db_path):
    await four_humans(service, "troika", {"timer": 30})
    waiting = service.get_table(CH).to_act[0]
    await clock.advance(29)
    await service.settle()
    assert service.get_table(CH).move_number == 0  # not yet
    await clock.advance(2)
    await service.settle()
    table = service.get_table(CH)
    assert table.move_number == 1
    moved = recorder.of_type(ActionApplied)[-1]
    assert moved.seat == waiting and moved.source is ActionSource.TIMEOUT and moved.user_id is None
    assert log_rows(db_path) == [(1, waiting, "timeout")]
    # the next seat got a fresh 30 s from the moment of the timed-out move
    assert service.deadlines(CH) == {table.to_act[0]: clock.now + 30}


async def test_a_move_in_time_cancels_the_timeout(service, recorder, clock):
    await four_humans(service, "troika", {"timer": 30})
    waiting = service.get_table(CH).to_act[0]
    user = HUMANS[waiting][0]
    await clock.advance(20)
    await service.act(CH, user, "pass")
    await clock.advance(15)  # 35 s after the first deadline was set: it must not fire
    await service.settle()
    sources = [e.source for e in recorder.of_type(ActionApplied)]
    assert sources == [ActionSource.PLAYER]


async def test_timer_off_never_fires(service, clock):
    await four_humans(service, "troika", {"timer": "off"})
    await clock.advance(10_000)
    await service.settle()
    assert service.get_table(CH).move_number == 0 and clock.sleepers == 0


async def test_a_deadline_passed_during_downtime_fires_after_restart(db_path: Path):
    clock = FakeClock()
    first = TableService(db_path, clock=clock, sleep=clock.sleep)
    await first.start()
    await four_humans(first, "troika", {"timer": 15})
    waiting = first.get_table(CH).to_act[0]
    await first.close()

    clock.now += 3600  # the bot was down for an hour
    second = TableService(db_path, clock=clock, sleep=clock.sleep)
    recorder = RecordingListener()
    second.add_listener(recorder)
    await second.start()
    try:
        await second.settle()
        moved = recorder.of_type(ActionApplied)
        assert moved and moved[0].seat == waiting and moved[0].source is ActionSource.TIMEOUT
        assert log_rows(db_path)[0] == (1, waiting, "timeout")
    finally:
        await second.close()


async def test_a_deadline_not_yet_passed_at_restart_is_rearmed(db_path: Path):
    clock = FakeClock()
    first = TableService(db_path, clock=clock, sleep=clock.sleep)
    await first.start()
    await four_humans(first, "troika", {"timer": 60})
    deadline = first.deadlines(CH)
    await first.close()

    clock.now += 10
    second = TableService(db_path, clock=clock, sleep=clock.sleep)
    await second.start()
    try:
        await second.settle()
        assert second.deadlines(CH) == deadline and second.get_table(CH).move_number == 0
        await clock.advance(51)
        await second.settle()
        assert second.get_table(CH).move_number == 1
    finally:
        await second.close()


async def test_the_may_i_window_closes_when_its_time_is_up(service, recorder, clock):
    await four_humans(service, "troikuntza", {"timer": "off", "mayi_window": 5})
    game = service._tables[CH].game
    assert timers.window_open(game)  # the first upcard opens a window
    current = game.state["current"]
    await service.act(CH, HUMANS[current][0], "draw")  # waits for the window
    assert timers.window_open(service._tables[CH].game)
    await clock.advance(4)
    await service.settle()
    assert timers.window_open(service._tables[CH].game)
    await clock.advance(1)
    await service.settle()
    closed = recorder.of_type(ActionApplied)[-1]
    assert closed.action == "close" and closed.source is ActionSource.TIMEOUT
    assert any(e.type == "window_closed" for e in closed.events)
    assert not timers.window_open(service._tables[CH].game)


async def test_window_deadline_survives_answers_to_the_same_window(service, clock):
    await four_humans(service, "troikuntza", {"timer": "off", "mayi_window": 10})
    table = service._tables[CH]
    first = table.window_deadline
    assert first == clock.now + 10
    current = table.game.state["current"]
    caller = next(s for s in table.game.to_act() if s != current)
    await clock.advance(3)
    await service.act(CH, HUMANS[caller][0], "pass")
    assert table.window_deadline == first


def test_a_seat_keeps_its_deadline_while_others_move() -> None:
    deadlines = timers.next_deadlines(
        awaited=[0, 1, 2],
        ai_seats=[2],
        previous={0: 100.0, 1: 100.0},
        acted=0,
        now=50.0,
        seconds=30,
    )
    assert deadlines == {0: 80.0, 1: 100.0}  # the mover gets a fresh timer; AI seats none


def test_timeout_ai_level_and_seed_are_deterministic() -> None:
    assert timers.timeout_level() in ("normal", "easy")
    assert timers.move_seed(3, 10, 1) == timers.move_seed(3, 10, 1)
    assert timers.move_seed(3, 10, 1) != timers.move_seed(3, 11, 1)
    assert timers.move_seed(3, 10, 1) != timers.move_seed(4, 10, 1)


async def test_turn_changed_tells_when_the_window_closes(service, recorder, clock):
    await four_humans(service, "troikuntza", {"timer": "off", "mayi_window": 5})
    turn = recorder.of_type(TurnChanged)[-1]
    assert turn.window_deadline == clock.now + 5 == service.get_table(CH).window_deadline


async def test_an_ai_that_errs_does_not_stall_the_table(service, recorder, monkeypatch):
    monkeypatch.setattr(timers, "decide", lambda *args: "nonsense")
    await service.open_table(CH, None, 1, "Ann", "troika", options={"timer": "off"}, seed=3)
    for _ in range(3):
        await service.add_ai(CH, 1)
    await service.start_game(CH, 1)
    await service.settle()
    assert service.get_table(CH).to_act == (0,)  # the AIs still moved, with legal moves
    moves = recorder.of_type(ActionApplied)
    assert moves and all(m.action != "nonsense" for m in moves)


async def test_slow_ai_levels_think_in_a_process_pool(service, recorder):
    if "hard" not in engine_ai.LEVELS:
        pytest.skip("no hard AI yet")
    assert "hard" in service.ai_thread_levels
    await service.open_table(CH, None, 1, "Ann", "troeven", options={"timer": "off"}, seed=3)
    await service.add_ai(CH, 1, "hard")
    await service.start_game(CH, 1)
    for _ in range(8):
        await service.settle()
        legal = service.legal_actions(CH, 1)
        if not legal:
            break
        await service.act(CH, 1, legal[0])
    ai_moves = [m for m in recorder.of_type(ActionApplied) if m.source is ActionSource.AI]
    pool = service.driver._ai_pool
    assert ai_moves and isinstance(pool, ProcessPoolExecutor)
    assert pool._max_workers == driver_module.AI_WORKERS >= 2
    await service.close()
    assert service.driver._ai_pool is None and pool._shutdown_thread


async def hard_ai_game(service: TableService) -> None:
    """A Troeven game against the hard AI, the human playing his first legal move."""
    await service.open_table(CH, None, 1, "Ann", "troeven", options={"timer": "off"}, seed=3)
    await service.add_ai(CH, 1, "hard")
    await service.start_game(CH, 1)


async def human_moves(service: TableService, count: int) -> None:
    for _ in range(count):
        await service.settle()
        legal = service.legal_actions(CH, 1)
        if legal:
            await service.act(CH, 1, legal[0])
    await service.settle()


async def test_a_broken_ai_pool_is_replaced_and_the_table_goes_on(service, recorder, caplog):
    await hard_ai_game(service)
    await human_moves(service, 4)
    pool = service.driver._ai_pool
    assert pool is not None
    for process in list(pool._processes.values()):  # the workers die (the OOM killer, say)
        process.kill()
        process.join()
    moved = len(recorder.of_type(ActionApplied))
    await human_moves(service, 6)
    assert len(recorder.of_type(ActionApplied)) >= moved + 8, "the AI kept moving"
    assert "process pool broke" in caplog.text
    assert service.driver._ai_pool is not None and service.driver._ai_pool is not pool


async def test_a_decision_over_its_budget_is_the_normal_ais(service, recorder, caplog):
    service.driver.ai_budget = 0.0  # every pooled decision is late
    await hard_ai_game(service)
    await human_moves(service, 4)
    ai_moves = [m for m in recorder.of_type(ActionApplied) if m.source is ActionSource.AI]
    assert len(ai_moves) >= 3, "the table did not wait for the pool"
    assert "the hard AI took over 0.0 s: the normal AI moves" in caplog.text


async def test_ai_seats_answer_a_may_i_window_after_one_pause(db_path: Path):
    clock = FakeClock()
    service = TableService(db_path, clock=clock, sleep=clock.sleep, ai_delay=1.0)
    recorder = RecordingListener()
    service.add_listener(recorder)
    await service.start()
    try:
        options = {"timer": "off", "mayi_window": 30, "first_dealer": 3}  # seat 0 is current
        await service.open_table(CH, None, 1, "Ann", "troikuntza", options=options, seed=5)
        for _ in range(3):
            await service.add_ai(CH, 1, "easy")
        await service.start_game(CH, 1)
        assert service.get_table(CH).to_act == (0, 1, 2, 3)
        await clock.advance(0)  # the driver starts its pause
        await clock.advance(0.5)
        assert recorder.of_type(ActionApplied) == []  # the AIs wait their pause
        await clock.advance(0.5)
        for _ in range(2000):  # commits take real time on the database thread; the clock stays
            if len(recorder.of_type(ActionApplied)) >= 3:
                break
            await asyncio.sleep(0.001)
        answers = [e.seat for e in recorder.of_type(ActionApplied)]
        assert answers == [1, 2, 3]  # all three answered after the one pause
    finally:
        await service.close()
