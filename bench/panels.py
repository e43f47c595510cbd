"""The hand panel's text: time to draw a player's private panel, in the event loop's thread.

    python bench/panels.py [--moves 120] [--rounds 5] [--languages en,fr]

A player's panel (``cogs.panels.draw_panel``: the embed, the buttons, the hand picture's key; not
the picture itself, which the render pool draws) is drawn at every change of his table for each
player whose live panel changes, and for the player who moved, as the answer to his click: at
1,000 tables it is the largest part of the event loop's thread. This plays seeded games of the
four games, all seats human, and at each state draws every seat's panel once, as the bot does
per state, then builds its payload as discord.py sends it (``Embed.to_dict``, the components):
the figure (CPU time of the thread, which a busy machine disturbs less than the clock) is the
median over ``--rounds`` (after one round of warm-up) of the microseconds
per panel. Each round plays other games (its own seeds: what is made once per hand, per state or
per moves is not found made by an earlier round), the same ones in every run, so two checkouts
compare (run one, then the other, interleaved; this script runs the checkout it lies in: copy
it into the other); the load average is printed. Each kind of panel is timed apart too: a
player's with moves to make (his click's answer, his turn come) and a waiting player's (most
live redraws).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.i18n.core import use_locale  # noqa: E402
from bot.service import Limits, TableService  # noqa: E402
from cogs import action_rows  # noqa: E402
from cogs.panels import draw_panel  # noqa: E402
from engine import GAMES  # noqa: E402

PLAYERS = {"troeven": 2, "troggu": 4, "troika": 4, "troikuntza": 4}


#: The kinds of panel a round times apart: a player's who has moves to make now (the answer to
#: his click, the redraw that brings him his turn: his moves and his hand picture change), and
#: a waiting player's (most live redraws: the table changed, his hand and moves did not).
KINDS = ("to act", "waiting")


async def run(
    moves: int, rounds: int, languages: list[str], kinds: dict[str, list[float]] | None = None
) -> list[float]:
    """Microseconds per panel drawn, per round; per kind of panel too, into ``kinds`` (each
    kind's microseconds per panel, per round)."""
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(rounds):
            service = TableService(Path(folder) / f"r{round_}.db", ai_delay=0,
                                   limits=Limits.none())  # fmt: skip
            await service.start()
            # A new state's buttons are made afresh in the bot (each state's moves differ). (An
            # older checkout has only the per channel cache.)
            forget = getattr(action_rows, "forget_action_rows", None)
            (forget or action_rows.shared_actions_view.cache_clear)()
            spent = 0.0
            drawn = 0
            by_kind = dict.fromkeys(KINDS, 0.0)
            of_kind = dict.fromkeys(KINDS, 0)
            for number, game in enumerate(sorted(GAMES)):
                if game not in PLAYERS:
                    continue
                channel = 1000 + number
                users = [channel * 10 + i for i in range(PLAYERS[game])]
                await service.open_table(channel, 1, users[0], "Ann", game,
                                         options={"timer": "off"},
                                         seed=7 + number + 1000 * round_)  # fmt: skip
                for i, user in enumerate(users[1:], 1):
                    await service.join(channel, user, f"P{i}")
                await service.start_game(channel, users[0])
                rng = random.Random(number + 1000 * round_)
                for _move in range(moves):
                    table = service.get_table(channel)
                    if table is None or table.status.value != "playing":
                        break
                    for user, language in zip(users, languages * len(users), strict=False):
                        kind = KINDS[0] if service.legal_actions(channel, user) else KINDS[1]
                        start = time.thread_time()
                        with use_locale(language):
                            panel = draw_panel(service, channel, user)
                            panel.embed.to_dict()
                            panel.components.to_components()
                        took = time.thread_time() - start
                        spent += took
                        drawn += 1
                        by_kind[kind] += took
                        of_kind[kind] += 1
                    movers = [u for u in users if service.legal_actions(channel, u)]
                    if not movers:
                        break
                    legal = service.legal_actions(channel, movers[0])
                    await service.act(channel, movers[0], rng.choice(legal))
            await service.close()
            times.append(spent / drawn * 1e6)
            for kind in KINDS if kinds is not None else ():
                kinds.setdefault(kind, []).append(by_kind[kind] / max(of_kind[kind], 1) * 1e6)
            counted = of_kind
            gc.collect()
    print("panels per round:", ", ".join(f"{kind} {n}" for kind, n in counted.items()))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--languages", default="en,fr")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}")
    kinds: dict[str, list[float]] = {}
    times = asyncio.run(run(args.moves, args.rounds + 1, args.languages.split(","), kinds))
    print("rounds µs per panel:", " ".join(f"{t:.0f}" for t in times), "(the first: warm-up)")
    for kind, each in kinds.items():
        print(f"median µs per panel {kind}: {statistics.median(each[1:]):.0f}")
    print(f"median µs per panel: {statistics.median(times[1:]):.0f}")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
