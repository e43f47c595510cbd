"""Hand pictures along a hand's tricks, as a running picture worker draws them: before and after.

    python bench/hands.py [--rounds N] [--deals D] [--before COMMIT]

Each deal gives a player 13 cards of 52, sorted by suit and rank as the games show them; at
each trick a suit is led, the cards of another suit fade when he holds the led one (he must
follow), and he plays one. Per trick, his hand is drawn twice, plain and faded: the panel
between his turns and the panel on his turn. "Before" is the drawing module at ``--before``
(default: main), loaded from git as ``bench/render.py`` does (the PNG writer is the working
tree's for both); "after" is the working tree. Both are warmed first by drawing every picture
once, as a worker that has run for a while has (its faces cut, its pastes worked out): the
timed pictures are drawn and encoded anew (the PNG cache bypassed). Rounds interleave before
and after; the figures are medians of this thread's CPU per picture, drawing alone and drawn
and encoded, with the load average before and after.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from render import ROOT, load_before  # noqa: E402

sys.path.insert(0, str(ROOT))
import bot.render.ready_faces  # noqa: E402, F401 (the faces a worker starts with)
from bot.render.games import images  # noqa: E402

SUITS = "SHCD"
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
#: (cards, faded positions) of one picture.
Picture = tuple[tuple[str, ...], tuple[int, ...]]


def deal(seed: int) -> list[Picture]:
    """A player's pictures along one deal's tricks (see the module docstring)."""
    rng = random.Random(seed)
    deck = [r + s for s in SUITS for r in RANKS]
    hand = sorted(rng.sample(deck, 13), key=deck.index)
    out: list[Picture] = []
    while hand:
        led = rng.choice(SUITS)
        follow = [c for c in hand if c.endswith(led)]
        faded = tuple(i for i, c in enumerate(hand) if follow and not c.endswith(led))
        out += [(tuple(hand), ()), (tuple(hand), faded)]
        hand.remove(rng.choice(follow or hand))
    return out


def times(module: ModuleType, pictures: list[Picture], encode: bool) -> list[float]:
    """Milliseconds of this thread's CPU per picture."""
    draw = getattr(module.hand_png, "__wrapped__", module.hand_png) if encode else module.hand_image
    out = []
    for cards, faded in pictures:
        start = time.thread_time()
        draw(list(cards), dim=faded)
        out.append((time.thread_time() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--before", default="main")
    args = parser.parse_args()
    before = load_before(args.before)
    pictures = [p for seed in range(args.deals) for p in deal(seed)]
    for module in (before, images):
        times(module, pictures, encode=True)  # warm: faces cut, pastes worked out
    print(f"load average before: {os.getloadavg()[0]:.2f}; {len(pictures)} pictures a round")
    figures: dict[str, list[float]] = {}
    for r in range(args.rounds):
        order = [("before", before), ("after", images)]
        for name, module in order if r % 2 == 0 else order[::-1]:
            for encode in (False, True):
                key = f"{name}, {'drawn and encoded' if encode else 'drawing'}"
                figures.setdefault(key, []).extend(times(module, pictures, encode))
    for kind in ("drawing", "drawn and encoded"):
        b, a = (statistics.median(figures[f"{n}, {kind}"]) for n in ("before", "after"))
        print(f"{kind:<18} before {b:.3f} ms  after {a:.3f} ms  ({(a - b) / b:+.0%})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
