"""Engine speed: random complete games per configuration, on one core.

    python bench/engine.py [--seconds N] [--only GAME]

For every game of ``engine.GAMES`` (its configurations below, or by default its default table
and its largest one, with its default options), plays random complete
games with the `easy` AI (it picks from ``legal_actions(seat)`` for a seat in ``to_act()``; it
ignores the view, so the bench passes ``{}``) for about N seconds and prints deals (``hand_over``
events), games and actions per second. ``uptime`` load is printed first: the figures are per core
and only mean something on an idle machine.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.ai import make_player  # noqa: E402

#: A game that has not ended after this many actions is abandoned (and reported).
MAX_ACTIONS = 200_000


@dataclass(frozen=True)
class Config:
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    preset: str | None = None

    @property
    def label(self) -> str:
        parts = [f"{self.game} x{self.players}"]
        if self.preset:
            parts.append(f"preset={self.preset}")
        parts += [f"{k}={v}" for k, v in self.options.items()]
        return " ".join(parts)


# The configurations the published figures were measured on, where a game wants other ones than
# its default table and its largest (``default_configs``). Random players rarely make their
# bids, so Troika games to 52 points may never end (scores drift down): the Troika rows play a
# fixed number of hands.
CONFIGS: dict[str, tuple[Config, ...]] = {
    "troika": (
        Config("troika", 4, {"end": "rounds", "rounds": 10}),
        Config("troika", 4, {"end": "rounds", "rounds": 10}, preset="saskatchewan"),
        Config("troika", 4, {"end": "rounds", "rounds": 10}, preset="online"),
    ),
    "troeven": (
        Config("troeven", 2, {"version": "layout"}),
        Config("troeven", 2, {"version": "stock"}),
    ),
    "troikuntza": (Config("troikuntza", 4), Config("troikuntza", 8)),
}


def default_configs(name: str) -> tuple[Config, ...]:
    """A game's default table and its largest, with its default options."""
    spec = engine.GAMES[name]
    sizes = dict.fromkeys((spec.default_players or spec.min_players, spec.max_players))
    return tuple(Config(name, players) for players in sizes)


def configs() -> list[Config]:
    """Every configuration of every registered game."""
    return [c for name in engine.GAMES for c in CONFIGS.get(name) or default_configs(name)]


@dataclass
class Tally:
    games: int = 0
    deals: int = 0
    actions: int = 0
    abandoned: int = 0
    seconds: float = 0.0


def play_one(config: Config, seed: int, tally: Tally) -> None:
    game = engine.new_game(
        config.game, config.players, options=config.options, seed=seed, preset=config.preset
    )
    ai = make_player(config.game, "easy", seed)
    choose, to_act, legal_actions, apply = ai.choose, game.to_act, game.legal_actions, game.apply
    empty: dict[str, Any] = {}
    actions = deals = 0
    while actions < MAX_ACTIONS:
        waiting = to_act()
        if not waiting:
            break
        seat = waiting[0]
        for event in apply(seat, choose(empty, legal_actions(seat))):
            if event["type"] == "hand_over":
                deals += 1
        actions += 1
    if game.is_over():
        tally.games += 1
    else:
        tally.abandoned += 1
    tally.deals += deals
    tally.actions += actions


def run(config: Config, seconds: float) -> Tally:
    tally = Tally()
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        play_one(config, seed, tally)
        seed += 1
    tally.seconds = time.process_time() - start
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per configuration")
    parser.add_argument("--only", help="run only this game's configurations")
    args = parser.parse_args(argv)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {args.seconds:g} CPU s each")
    print(f"{'configuration':<58} {'deals/s':>9} {'games/s':>9} {'actions/s':>10}")
    for config in configs():
        if args.only and config.game != args.only:
            continue
        try:
            tally = run(config, args.seconds)
        except Exception as exc:  # a game still being written must not hide the others
            print(f"{config.label:<58} failed: {type(exc).__name__}: {exc}", flush=True)
            continue
        s = tally.seconds
        note = f"  ({tally.abandoned} abandoned)" if tally.abandoned else ""
        print(
            f"{config.label:<58} {tally.deals / s:>9.0f} {tally.games / s:>9.1f} "
            f"{tally.actions / s:>10.0f}{note}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
