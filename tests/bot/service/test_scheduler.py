"""The one scheduler of delayed jobs (``bot.service.scheduler``): absolute times on the service's
clock (a deadline days away, a clock that wakes a sleeper early), keyed jobs replaced and
cancelled, a job that arms its own successor, and ``settle``."""

from __future__ import annotations

import asyncio

from bot.service.scheduler import Scheduler
from tests.bot.conftest import FakeClock

DAY = 86_400.0


class Target:
    """Records the jobs fired; ``then`` runs inside ``fire`` (to arm from the firing job)."""

    def __init__(self) -> None:
        self.fired: list[object] = []
        self.then = None

    async def fire(self, job: object) -> None:
        self.fired.append(job)
        if self.then is not None:
            self.then(job)


def started(clock: FakeClock) -> tuple[Scheduler, Target]:
    scheduler, target = Scheduler(clock, clock.sleep), Target()
    scheduler.start(target)
    return scheduler, target


async def test_a_deadline_days_away_fires_when_the_clock_reaches_it() -> None:
    clock = FakeClock()
    scheduler, target = started(clock)
    scheduler.arm("k", "two days", at=clock() + 2 * DAY)
    await clock.advance(DAY)
    assert target.fired == []
    await clock.advance(DAY - 1)
    assert target.fired == []
    await clock.advance(1)
    assert target.fired == ["two days"]
    await scheduler.stop()


async def test_a_sleep_that_ends_early_waits_again_for_the_stored_time() -> None:
    """The wait re-reads the clock: a sleeper woken before the time (a sleep cut short, a wall
    clock behind the loop's) sleeps again rather than firing on the seconds it asked for."""
    clock = FakeClock()
    asked: list[float] = []

    async def cut_short(delay: float) -> None:
        asked.append(delay)
        await clock.sleep(delay / 2 if len(asked) == 1 else delay)

    scheduler, target = Scheduler(clock, cut_short), Target()
    scheduler.start(target)
    scheduler.arm("k", "due", at=clock() + 100)
    await asyncio.sleep(0)
    await clock.advance(50)  # the first sleep ends half-way: 50 s are left
    assert target.fired == [] and asked == [100, 50]
    await clock.advance(49)
    assert target.fired == []
    await clock.advance(1)
    assert target.fired == ["due"]
    await scheduler.stop()


async def test_arming_a_key_replaces_its_job_and_cancel_drops_it() -> None:
    clock = FakeClock()
    scheduler, target = started(clock)
    scheduler.arm("a", "first", at=clock() + 10)
    scheduler.arm("a", "second", at=clock() + 20)
    scheduler.arm("b", "other", at=clock() + 10)
    scheduler.cancel("b")
    await clock.advance(30)
    assert target.fired == ["second"]
    assert not scheduler.armed("a") and not scheduler.armed("b")
    assert clock.sleepers == 0
    await scheduler.stop()


async def test_a_firing_job_may_arm_its_own_key_again() -> None:
    clock = FakeClock()
    scheduler, target = started(clock)
    target.then = lambda job: job == "one" and scheduler.arm("k", "two", after=5)
    scheduler.arm("k", "one", after=5)
    await asyncio.sleep(0)  # (a pause counts from when its task starts: at once)
    await clock.advance(5)
    assert target.fired == ["one"] and scheduler.armed("k")
    await clock.advance(5)
    assert target.fired == ["one", "two"]
    await scheduler.stop()


async def test_settle_waits_for_busy_jobs_not_for_future_deadlines() -> None:
    clock = FakeClock()
    scheduler, target = started(clock)
    scheduler.arm("deadline", "later", at=clock() + 60)
    await asyncio.wait_for(scheduler.settle(), 1)  # a deadline ahead is not work now
    scheduler.arm("ai", "move", busy=True)  # an AI's move at the loop's next turn
    assert scheduler.busy()
    await asyncio.wait_for(scheduler.settle(), 1)
    assert target.fired == ["move"] and not scheduler.busy()
    await scheduler.stop()
    assert clock.sleepers == 0


async def test_nothing_is_armed_before_start_or_after_stop() -> None:
    clock = FakeClock()
    scheduler, target = Scheduler(clock, clock.sleep), Target()
    scheduler.arm("k", "early", after=0)
    assert not scheduler.armed("k")
    scheduler.start(target)
    await scheduler.stop()
    scheduler.arm("k", "late", after=0)
    await asyncio.sleep(0)
    assert target.fired == [] and not scheduler.armed("k")


async def test_a_replaced_job_leaves_no_garbage_cycle() -> None:
    """Every move replaces its table's job: a cancelled job's task must be freed by reference
    counting, not left in a cycle for the collector (at 1,000 tables those cycles made the
    collector's pauses longer)."""
    import gc

    scheduler = Scheduler(lambda: 0.0, asyncio.sleep)
    scheduler.start(Target())
    gc.collect()
    gc.disable()
    try:
        for round_ in range(50):
            scheduler.arm("k", round_, at=1e12)
            await asyncio.sleep(0)  # the replaced job's task sees its cancellation
        await asyncio.sleep(0)
        found = gc.collect()
    finally:
        gc.enable()
        await scheduler.stop()
    assert found < 50, f"{found} objects in garbage cycles after 50 replaced jobs"


# -- on the loop's own sleep: a waiting job is a timer of the loop, a task once it is due ------


class StillClock:
    """An epoch clock that moves only when told (the loop's timers run on real time)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def fired_soon(target: Target, count: int) -> None:
    async def wait() -> None:
        while len(target.fired) < count:
            await asyncio.sleep(0.005)

    await asyncio.wait_for(wait(), 5)


def on_the_loop(clock: StillClock) -> tuple[Scheduler, Target]:
    scheduler, target = Scheduler(clock, asyncio.sleep), Target()
    scheduler.start(target)
    return scheduler, target


async def test_waiting_jobs_are_timers_not_tasks() -> None:
    """2,000 jobs wait at 1,000 tables: a task each kept their coroutines, futures and contexts
    alive for the garbage collector to scan. Only a due job has a task."""
    clock = StillClock()
    scheduler, target = on_the_loop(clock)
    before = len(asyncio.all_tasks())
    for n in range(100):
        scheduler.arm(("play", n), n, at=clock() + 3600)
        scheduler.arm(("ai", n), n, after=3600, busy=True)
    assert len(asyncio.all_tasks()) == before
    assert all(scheduler.armed(("play", n)) for n in range(100))
    scheduler.arm("now", "now")
    await fired_soon(target, 1)
    assert target.fired == ["now"]
    await scheduler.stop()
    assert len(asyncio.all_tasks()) == before


async def test_a_timer_rereads_the_clock_before_firing() -> None:
    """The loop's timer ends when the loop's clock says; the job fires only once the service's
    clock has reached its stored time (a clock of days, a wall clock set back)."""
    clock = StillClock()
    scheduler, target = on_the_loop(clock)
    scheduler.arm("k", "due", at=clock() + 0.02)
    await asyncio.sleep(0.1)  # the timer ran, more than once: the clock stood still
    assert target.fired == [] and scheduler.armed("k") and not scheduler.busy()
    clock.now += 0.02
    await fired_soon(target, 1)
    assert target.fired == ["due"] and not scheduler.armed("k")
    await scheduler.stop()


async def test_timers_are_replaced_cancelled_and_rearmed_by_their_job() -> None:
    clock = StillClock()
    scheduler, target = on_the_loop(clock)
    target.then = lambda job: job == "one" and scheduler.arm("k", "two", after=0.01)
    scheduler.arm("a", "first", at=clock() - 1)
    scheduler.arm("a", "second", at=clock())  # replaces the first before the loop turns
    scheduler.arm("b", "other", after=0.01)
    scheduler.cancel("b")
    scheduler.arm("k", "one", after=0.01)
    await fired_soon(target, 3)
    await asyncio.sleep(0.05)
    assert sorted(target.fired) == ["one", "second", "two"]
    assert not any(scheduler.armed(key) for key in ("a", "b", "k"))
    await scheduler.stop()


async def test_settle_on_the_loop_waits_for_a_busy_timer() -> None:
    clock = StillClock()
    scheduler, target = on_the_loop(clock)
    scheduler.arm("deadline", "later", at=clock() + 60)
    await asyncio.wait_for(scheduler.settle(), 1)
    scheduler.arm("ai", "move", after=0.01, busy=True)
    assert scheduler.busy()
    await asyncio.wait_for(scheduler.settle(), 5)
    assert target.fired == ["move"] and not scheduler.busy()
    # A due job replaced before its task's first step: settle does not wait for it.
    scheduler.arm("ai", "first", busy=True)
    await asyncio.sleep(0)  # its timer ran: its task is made, not started
    scheduler.arm("ai", "second", after=3600)
    await asyncio.wait_for(scheduler.settle(), 1)
    assert target.fired == ["move"]
    await scheduler.stop()
