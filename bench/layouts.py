"""Layouts pictures along a game's moves: drawn whole (before) against written from kept bands.

    python bench/layouts.py [--rounds N] [--games G] [--before COMMIT]

A two-player game of layouts (eight places each, a face-up card over a face-down one) is
played at random: each move takes a card from the mover's places onto the trick, and two
pictures are drawn per move, as the bot draws them: the public one (seat 0's row last) and the
mover's panel (his row last, named "You"). "Before" is the drawing module at ``--before``
(default: main's parent of the bands), loaded from git as ``bench/render.py`` does; "after" the
working tree. CPU per picture (this thread's), the mean over every picture of the games,
rounds interleaved; each "after" round starts with no band kept. The load average is printed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from render import ROOT, load_before  # noqa: E402

sys.path.insert(0, str(ROOT))
from bot.render.games import images  # noqa: E402

FRENCH = [r + s for s in "SHDC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7")]


def game(seed: int) -> list[dict[str, Any]]:
    """The keyword arguments of every picture of one random game, in order."""
    rng = random.Random(seed)
    deck = FRENCH[:]
    rng.shuffle(deck)
    places = [[[deck.pop(), 1] for _ in range(8)] for _ in (0, 1)]
    trick: list[str] = []
    pictures = []

    def rows(names: tuple[str, str], order: tuple[int, int]) -> list[Any]:
        out: list[Any] = [("On the table", [(card, 0) for card in trick])]
        for seat in order:
            hidden = sum(down for _up, down in places[seat])
            stacks = [(up, down) for up, down in places[seat] if up or down]
            out.append((f"{names[seat]} {hidden}↓", stacks))
        return out

    for move in range(16):
        seat = move % 2
        place = rng.choice([p for p in places[seat] if p[0] is not None])
        trick = [*trick[-1:], place[0]] if len(trick) < 2 else [place[0]]
        place[0], place[1] = (deck.pop() if place[1] and deck else None), 0
        pictures.append({"rows": rows(("Zoë", "Ivan"), (1, 0)), "highlight": 2 - seat})
        you = ("You", "Ivan") if seat == 0 else ("Zoë", "You")
        pictures.append({"rows": rows(you, (1 - seat, seat)), "highlight": 1})
    return pictures


def run(module: ModuleType, pictures: list[dict[str, Any]]) -> float:
    """Mean ms of CPU per picture, each drawn as new (the whole picture's cache bypassed)."""
    draw = getattr(module.layouts_png, "__wrapped__", module.layouts_png)
    kept = getattr(module, "_bands_kept", None)
    if kept is not None:
        kept.clear()
    times = []
    for kwargs in pictures:
        start = time.thread_time()
        draw(**kwargs)
        times.append(time.thread_time() - start)
    return statistics.mean(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--before", default="87abf01")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    before = load_before(args.before)
    pictures = [p for seed in range(args.games) for p in game(seed)]
    run(before, pictures[:20])  # warm up both (fonts, card indexes)
    run(images, pictures[:20])
    results: dict[str, list[float]] = {"before": [], "after": []}
    for r in range(args.rounds):
        for name in ("before", "after") if r % 2 == 0 else ("after", "before"):
            results[name].append(run(before if name == "before" else images, pictures))
    sizes = [len(images.layouts_png.__wrapped__(**p)) for p in pictures[:100]]
    whole = [len(images._png(images.layouts_image(**p))) for p in pictures[:100]]
    print(f"{len(pictures)} pictures a round, {args.rounds} rounds; ms of CPU per picture:")
    for name, values in results.items():
        print(f"  {name:<7} median of rounds {statistics.median(values):.3f}  ({values})")
    print(f"bytes: whole {statistics.mean(whole):,.0f}, from bands {statistics.mean(sizes):,.0f}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
