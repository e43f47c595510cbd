"""New deals' seeds: fixed inside ``deal_seeds.fixed`` (each test's, by ``tests/conftest.py``),
from the system's entropy outside it."""

from __future__ import annotations

import random
import subprocess
import sys

from bot.service import TableService, deal_seeds


def test_a_fixed_seed_gives_the_same_deals_every_time() -> None:
    with deal_seeds.fixed(7):
        first = [deal_seeds.new_seed() for _ in range(5)]
    with deal_seeds.fixed(7):
        again = [deal_seeds.new_seed() for _ in range(5)]
    with deal_seeds.fixed(8):
        other = [deal_seeds.new_seed() for _ in range(5)]
    assert first == again
    assert len(set(first)) == 5, "a table's next deal is a new one"
    assert first != other
    assert all(0 <= seed < 2**53 for seed in first + other)


async def test_a_table_opened_without_a_seed_is_dealt_from_the_fixed_source(
    service: TableService,
) -> None:
    """The lobby takes its deals' seeds from ``deal_seeds`` (what makes each test's fixed)."""
    await service.open_table(1, 99, 10, "Ann", "troika")
    for _ in range(3):
        await service.add_ai(1, 10, "easy")
    with deal_seeds.fixed(7):
        await service.start_game(1, 10)
    game = service._tables[1].game
    assert game is not None and game.seed == random.Random(7).randrange(2**53)


def test_a_block_puts_back_the_source_it_replaced() -> None:
    before = deal_seeds._source  # (this test's own: tests/conftest.py)
    with deal_seeds.fixed(7):
        assert deal_seeds._source is not before
    assert deal_seeds._source is before


def test_a_bot_deals_from_the_systems_entropy() -> None:
    """Outside the tests nothing fixes the seeds (a new process, as the bot is)."""
    code = "from bot.service import deal_seeds; print(type(deal_seeds._source).__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == random.SystemRandom.__name__
