"""Picture speed: time per table picture and per hand picture, before and after.

    python bench/render.py [--rounds N] [--per-round K] [--pool] [--before COMMIT]

"Before" is the drawing module (``bot/render/games/images.py``, formerly ``bot/render/images.py``)
at ``--before`` (default 41ab2ed, the code before the phone-first pictures), loaded from git as
a module of its own; "after" is the working tree.
Runs are interleaved (A/B, then B/A...) so that a change in the machine's load hits both; the
figures are medians in milliseconds of CPU per picture. "after, new picture" draws a picture never
seen before (card faces already drawn, as in a running bot); "after, same picture" asks again
for one already made (the PNG cache). The load average is printed before and after: on a busy
machine compare the two columns, not the absolute numbers.

``--pool`` also compares the worker pools (``bot.render.pool``): 2 threads against 2 processes,
rendering distinct pictures concurrently, with the wall time and how late a 5 ms timer on the
event loop fired meanwhile (the event loop's responsiveness while pictures are drawn).

``--replays`` draws ``/replay``'s animated picture of the longest hand of each game instead
(``bot.render.replay``): whole games at the most players, played by the normal AI on
``--replay-seeds`` seeds, the hand with the most frames of each game, drawn 3 times in this
process (one core, no cache): its frames, its bytes against Discord's 10 MiB upload limit, and
the median drawing time.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.render.games import faces, images  # noqa: E402
from bot.render.games.cards import face  # noqa: E402
from bot.render.pool import RenderPool  # noqa: E402

FRENCH = [r + s for s in "SHDC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5")]
TAROT = [
    *(f"{r}-{s}" for s in ("CU", "CO") for r in ("K", "Q", "N", "J", "1", "2", "3", "4", "5", "6")),
    *(f"{r}-{s}" for s in ("SW", "BA") for r in ("K", "Q", "N", "J", "10", "9", "8", "7", "6")),
    "FOOL",
    *(f"T{n}" for n in range(1, 22)),
]
NAMES = ["Jürgen", "Zoë", "Иван", "Easy AI"]


def load_before(commit: str) -> ModuleType:
    # The drawing module moved (``bot/render/games/images.py`` since the per-game packages).
    for where in ("bot/render/games/images.py", "bot/render/images.py"):
        shown = subprocess.run(
            ["git", "show", f"{commit}:{where}"], cwd=ROOT, capture_output=True, text=True
        )
        if shown.returncode == 0:
            break
    shown.check_returncode()
    source = shown.stdout
    path = Path(tempfile.mkdtemp()) / "images_before.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("images_before", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _trick(rng: random.Random) -> list[tuple[int, str]]:
    cards = rng.sample(FRENCH + TAROT, 4)
    return [(seat, card) for seat, card in enumerate(cards)]


def _hand(rng: random.Random, size: int) -> list[str]:
    return rng.sample(TAROT if size > 13 else FRENCH, size)


Case = Callable[[ModuleType, random.Random], bytes]
CASES: dict[str, Case] = {
    "table, 4 players": lambda m, rng: m.table_png(NAMES, _trick(rng), viewer=0, highlight=1),
    "hand, 13 cards": lambda m, rng: m.hand_png(_hand(rng, 13)),
    "hand, 18 cards": lambda m, rng: m.hand_png(_hand(rng, 18)),
    "hand, 13, 6 faded": lambda m, rng: m.hand_png(_hand(rng, 13), dim=(1, 3, 5, 7, 9, 11)),
    "layouts, 2 players": lambda m, rng: m.layouts_png(_layouts(rng), highlight=1),
}


def _layouts(rng: random.Random) -> list[tuple[str, list[tuple[str | None, int]]]]:
    """The trick and two players' places (a face-up card or none over 0-2 face-down ones)."""
    places = [[(rng.choice([None, *FRENCH]), rng.randint(0, 2)) for _ in range(5)] for _ in "ab"]
    return [
        ("On the table", [(rng.choice(FRENCH), 0)]),
        ("Zoë 5↓", places[0]),
        ("You 4↓", places[1]),
    ]


def _uncached(case: Case) -> Case:
    """The case with the PNG cache bypassed (each call draws and encodes)."""

    def run(module: ModuleType, rng: random.Random) -> bytes:
        class Plain:
            table_png = staticmethod(getattr(module.table_png, "__wrapped__", module.table_png))
            hand_png = staticmethod(getattr(module.hand_png, "__wrapped__", module.hand_png))
            layouts_png = staticmethod(
                getattr(module.layouts_png, "__wrapped__", module.layouts_png)
            )

        return case(Plain, rng)  # type: ignore[arg-type]

    return run


def _time(module: ModuleType, case: Case, seed: int, count: int) -> list[float]:
    """Milliseconds of this thread's CPU per picture (not of the wall clock: on a machine
    shared with other work, a picture preempted half-way is not counted twice as long)."""
    out = []
    for i in range(count):
        rng = random.Random(seed + i)
        start = time.thread_time()
        case(module, rng)
        out.append((time.thread_time() - start) * 1000)
    return out


def bench_ab(rounds: int, per_round: int, before: ModuleType) -> None:
    print(f"{'picture':<18} {'before':>10} {'after, new':>12} {'after, same':>12}  (ms, median)")
    for label, case in CASES.items():
        fresh = _uncached(case)
        # Warm up both (fonts; every card face at the sizes used): a bot draws for hours, so a
        # face drawn for the first time is rare. The cost of that first drawing is shown below.
        try:
            _time(before, fresh, 0, 3)
        except (AttributeError, TypeError):  # a picture the code before did not draw yet
            print(f"{label:<18} {'-':>10}")
            continue
        for code in FRENCH + TAROT:
            images.card_face(code, images.CARD_W)
            images.card_face(code, images.HAND_W)
        _time(images, fresh, 0, 3)
        times: dict[str, list[float]] = {"before": [], "new": [], "same": []}
        for r in range(rounds):
            order = ["before", "new", "same"] if r % 2 == 0 else ["same", "new", "before"]
            for variant in order:
                if variant == "before":
                    times[variant] += _time(before, fresh, 1000 * r, per_round)
                elif variant == "new":
                    times[variant] += _time(images, fresh, 1000 * r, per_round)
                else:
                    case(images, random.Random(7))  # made once, then asked again
                    times[variant] += [
                        t for _ in range(per_round) for t in _time(images, case, 7, 1)
                    ]
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"{label:<18} {med['before']:>10.2f} {med['new']:>12.2f} {med['same']:>12.3f}")
    drawn = []
    for code in FRENCH[:8] + TAROT[-8:]:
        start = time.perf_counter()
        faces.draw_face(face(code), images.CARD_W, "two")  # what the face cache saves
        drawn.append((time.perf_counter() - start) * 1000)
    print(f"one card face drawn the first time (then reused): {statistics.median(drawn):.2f} ms")


async def _pool_run(pool: RenderPool | None, count: int, seed: int) -> tuple[float, float, float]:
    """(wall seconds, p99 and max lateness in ms of a 5 ms timer) while ``count`` pictures
    never drawn before (seeds from ``seed`` on) are drawn."""
    late: list[float] = []
    stop = False

    async def ticker() -> None:
        while not stop:
            start = time.perf_counter()
            await asyncio.sleep(0.005)
            late.append((time.perf_counter() - start) * 1000 - 5)

    tick = asyncio.create_task(ticker())
    draw = images.table_png
    start = time.perf_counter()
    if pool is None:
        for i in range(seed, seed + count):
            draw(NAMES, _trick(random.Random(i)), 0)
            await asyncio.sleep(0)
    else:
        seeds = range(seed, seed + count)
        jobs = [pool.render(draw, NAMES, _trick(random.Random(i)), 0) for i in seeds]
        await asyncio.gather(*jobs)
    wall = time.perf_counter() - start
    stop = True
    await tick
    late.sort()
    return wall, late[int(len(late) * 0.99) - 1] if late else 0.0, late[-1] if late else 0.0


def bench_pools(count: int) -> None:
    print(f"\n{count} table pictures drawn while the event loop runs a 5 ms timer:")
    print(f"{'how':<22} {'wall s':>8} {'timer late p99 ms':>18} {'max ms':>8}")
    pools: dict[str, Callable[[], RenderPool | None]] = {
        "inline (no pool)": lambda: None,
        "2 threads": lambda: RenderPool("thread", 2),
        "2 processes": lambda: RenderPool("process", 2),
    }
    results: dict[str, list[tuple[float, float, float]]] = {k: [] for k in pools}
    seed = 10**6
    for r in range(3):
        for name in list(pools) if r % 2 == 0 else list(reversed(pools)):
            pool = pools[name]()
            if pool is not None:
                asyncio.run(_pool_run(pool, 8, 0))  # start the workers, draw the faces
            seed += count
            results[name].append(asyncio.run(_pool_run(pool, count, seed)))
            if pool is not None:
                pool.close()
    for name, runs in results.items():
        wall = statistics.median(r[0] for r in runs)
        p99 = statistics.median(r[1] for r in runs)
        worst = max(r[2] for r in runs)
        print(f"{name:<22} {wall:>8.2f} {p99:>18.1f} {worst:>8.1f}")


def bench_replays(seeds: int) -> None:
    import engine
    from bot.records.record import played
    from bot.render import replay

    print("replay: the longest hand of each game (most players, default options)")
    for name, spec in engine.GAMES.items():
        longest: tuple[int, dict, int] | None = None
        for seed in range(seeds):
            record = played(name, spec.max_players, seed=seed)
            for hand in range(1, replay.hands_in(record) + 1):
                count = len(replay.frames(record, hand, [f"P{i}" for i in range(spec.max_players)]))
                if longest is None or count > longest[0]:
                    longest = (count, record, hand)
        assert longest is not None
        count, record, hand = longest
        stills = tuple(replay.frames(record, hand, [f"P{i}" for i in range(spec.max_players)]))
        times, size = [], 0
        for _ in range(3):
            start = time.perf_counter()
            size = len(replay.draw(stills))
            times.append(time.perf_counter() - start)
        limit = "under" if size < replay.UPLOAD_LIMIT else "OVER"
        print(
            f"  {name} x{spec.max_players}: hand {hand} of seed {record['seed']}, {count} frames,"
            f" {size / 1024:.0f} KiB ({limit} the upload limit),"
            f" drawn in {statistics.median(times):.2f} s (median of 3)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--per-round", type=int, default=10)
    parser.add_argument("--before", default="41ab2ed")
    parser.add_argument("--pool", action="store_true", help="also compare threads and processes")
    parser.add_argument("--pool-count", type=int, default=60)
    parser.add_argument("--replays", action="store_true", help="time /replay's pictures instead")
    parser.add_argument("--replay-seeds", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.replays:
        bench_replays(args.replay_seeds)
    else:
        bench_ab(args.rounds, args.per_round, load_before(args.before))
    if args.pool:
        bench_pools(args.pool_count)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
