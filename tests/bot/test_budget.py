"""The bot's request budget: a thousand tables acting at once share it fairly, never above the
rate, and every table ends up showing its latest state.

On virtual time (``tests.virtual_time``): the rule is tested, not the machine. On a real loop a
loaded machine wakes sleepers late and sends slots due apart together, which made a window count
depend on the load average.
"""

from __future__ import annotations

import asyncio
import random

from bot.app.budget import BOT_RATE, RequestBudget
from tests.virtual_time import run

TABLES = 1000
RATE, BURST = BOT_RATE, 5.0  # production's


def test_a_thousand_tables_share_the_budget_fairly() -> None:
    run(a_thousand_tables_share_the_budget_fairly())


async def a_thousand_tables_share_the_budget_fairly() -> None:
    budget = RequestBudget(rate=RATE, burst=BURST)
    clock = asyncio.get_running_loop().time
    latest = [0] * TABLES
    shown = [0] * TABLES
    changed_at: dict[tuple[int, int], float] = {}
    grants: list[float] = []
    stale: list[float] = []
    wake = [asyncio.Event() for _ in range(TABLES)]
    start = clock()

    async def worker(table: int) -> None:
        while True:
            await wake[table].wait()
            wake[table].clear()
            while shown[table] != latest[table]:
                await budget.acquire(table)
                grants.append(clock())
                version = latest[table]  # coalesced: the newest state, whatever came before
                stale.append(clock() - changed_at[(table, version)])
                shown[table] = version

    async def player(table: int, rng: random.Random) -> None:
        for _ in range(3):  # three moves each, all tables at once
            await asyncio.sleep(rng.random())
            latest[table] += 1
            changed_at[(table, latest[table])] = clock()
            wake[table].set()

    rng = random.Random(5)
    workers = [asyncio.create_task(worker(t)) for t in range(TABLES)]
    await asyncio.gather(*(player(t, rng) for t in range(TABLES)))
    deadline = clock() + 30
    while shown != latest and clock() < deadline:
        await asyncio.sleep(0.05)
    for task in workers:
        task.cancel()
    await asyncio.gather(*workers, return_exceptions=True)

    assert shown == latest, "every table shows its latest state"
    assert budget.granted == len(grants) <= 3 * TABLES, "coalesced: never more than one per move"
    # Never above the rate: in any one-second window at most rate + burst requests (the times
    # when the requests went out).
    grants.sort()
    lo = 0
    for hi, t in enumerate(grants):
        while grants[lo] <= t - 1.0:
            lo += 1
        assert hi - lo + 1 <= RATE + BURST, f"{hi - lo + 1} requests within a second"
    longest = max(stale)
    print(
        f"\n{TABLES} tables, {len(grants)} requests in {grants[-1] - start:.2f} s, "
        f"longest staleness {longest:.2f} s"
    )
    # Fair: nobody waits much longer than the queue ahead of him (all requests at the rate).
    assert longest <= 2 * (3 * TABLES / RATE + 1.0)


def test_one_channel_gets_at_most_its_share_per_window() -> None:
    async def one_channel() -> list[float]:
        budget = RequestBudget(rate=1000.0, burst=100.0, per_channel=5, window=0.2)
        times: list[float] = []
        for _ in range(12):
            await budget.acquire(7)
            times.append(asyncio.get_running_loop().time())
        return times

    times = run(one_channel())
    for i in range(len(times) - 5):
        assert times[i + 5] - times[i] >= 0.2, "at most 5 in any 0.2 s window"
    assert times[-1] - times[0] < 0.5, "and no slower than that: two windows for 12 requests"


def test_processes_share_the_bots_rate_by_their_shards() -> None:
    from bot.app.budget import BOT_RATE, share_of_rate

    assert share_of_rate(1, 1) == BOT_RATE
    halves = [share_of_rate(1, 2), share_of_rate(1, 2)]
    assert sum(halves) == BOT_RATE, "two processes together stay within the bot's rate"
    assert share_of_rate(3, 4) + share_of_rate(1, 4) == BOT_RATE
