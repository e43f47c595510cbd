"""Engine speed: random complete games per configuration, on one core, against OpenSpiel.

    python bench/engine.py [--seconds N] [--rounds R] [--only GAME]

For every game of ``engine.GAMES`` (its configurations below, or by default its default table
and its largest one, with its default options), plays random complete games for about N CPU
seconds and reports deals (``hand_over`` events), games and actions per
second. Each move is what a driver of the engine does: ``to_act()``, ``legal_actions(seat)``,
one random choice among them (the `easy` AI: ``random.Random.choice``; it ignores the view, so
the bench passes ``{}``), then ``apply(seat, action)``.

The yardstick is OpenSpiel's Oh Hell (``pip install open-spiel``; not a dependency of the bot:
without it the bench says so and runs the rest) driven from Python the same way: 4 players,
a 36-card deck (4 suits of 9), 8 tricks fixed, so 8 cards each, 4 bids and 32 cards played per
deal, as a Troika deal is 4 x 8 cards, an auction of about 4 bids, 32 cards played (plus the
trump call and 2 kitty discards with some options). Every step of an OpenSpiel deal is
``legal_actions()`` + the same random choice (the same `easy` player) + ``apply_action``: its
35 chance steps (tricks, dealer, 32 cards dealt one by one, the trump card; all uniform, so a
random legal chance action is a fair sample) are part of a random deal driven through its state
API, as Troika's shuffle is part of its ``apply``. One OpenSpiel game is one deal.

Instructions a deal (robust to a shared machine): ``--deals N --row TEXT`` plays whole games of
each row whose label contains TEXT (e.g. ``saskatchewan``, ``OpenSpiel 1``), untimed, until
they hold N deals or more, and prints the deals played; run it under ``valgrind
--tool=cachegrind --cache-sim=no`` for two values of N: the difference of the instruction counts
over the difference of the deals printed is a deal's.

The machine may be shared: configurations run interleaved, R rounds of N seconds each, and the
medians are printed with the load average before and after; the ratios to OpenSpiel (a Troika
row's deals/s over OpenSpiel's, per round, then the median) come from the same process and the
same minutes, which is what makes them comparable across runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.ai import make_player  # noqa: E402

#: A game that has not ended after this many actions is abandoned (and reported).
MAX_ACTIONS = 200_000

#: OpenSpiel's Oh Hell sized like a Troika deal (see the module docstring).
OH_HELL = "oh_hell"
OH_HELL_PARAMS = {"players": 4, "num_suits": 4, "num_cards_per_suit": 9, "num_tricks_fixed": 8}


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

    def per_second(self) -> tuple[float, float, float]:
        s = self.seconds
        return self.deals / s, self.games / s, self.actions / s


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


def oh_hell_player(outcomes: bool) -> Callable[[int, Tally], None] | None:
    """Plays one random Oh Hell deal through OpenSpiel's state API; None without OpenSpiel.

    ``outcomes``: chance steps pick among ``chance_outcomes()`` (pairs of action and
    probability, what a general driver must read) instead of ``legal_actions()``."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    oh_hell = pyspiel.load_game(OH_HELL, OH_HELL_PARAMS)

    def play(seed: int, tally: Tally) -> None:
        state = oh_hell.new_initial_state()
        choose = make_player(OH_HELL, "easy", seed).choose  # the same random player
        legal_actions, apply = state.legal_actions, state.apply_action
        is_chance, chance_outcomes = state.is_chance_node, state.chance_outcomes
        empty: dict[str, Any] = {}
        actions = 0
        while not state.is_terminal():
            if outcomes and is_chance():
                apply(choose(empty, chance_outcomes())[0])  # uniform: a plain choice is fair
            else:
                apply(choose(empty, legal_actions()))
            actions += 1
        tally.games += 1
        tally.deals += 1
        tally.actions += actions

    return play


def run(play: Callable[[int, Tally], None], seconds: float) -> Tally:
    tally = Tally()
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        play(seed, tally)
        seed += 1
    tally.seconds = time.process_time() - start
    return tally


def count(play: Callable[[int, Tally], None], deals: int) -> Tally:
    """Whole games from seed 0 until they hold ``deals`` deals or more."""
    tally = Tally()
    seed = 0
    while tally.deals < deals:
        play(seed, tally)
        seed += 1
    return tally


def load_average() -> str:
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per run")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved runs of each row")
    parser.add_argument("--only", help="run only this game's configurations")
    parser.add_argument("--deals", type=int, help="play this many deals a row, untimed")
    parser.add_argument("--row", default="", help="with --deals: the rows whose label has this")
    args = parser.parse_args(argv)
    rows: list[tuple[str, Callable[[int, Tally], None]]] = []
    references: list[str] = []
    params = " ".join(f"{k}={v}" for k, v in OH_HELL_PARAMS.items())
    for outcomes, how in ((False, "legal_actions"), (True, "chance_outcomes")):
        reference = oh_hell_player(outcomes)
        if reference is None:
            print("OpenSpiel is not installed (pip install open-spiel): no ratio to its Oh Hell")
            break
        label = f"OpenSpiel {len(references) + 1}: {OH_HELL}, chance by {how}"
        references.append(label)
        rows.append((label, reference))
    for config in configs():
        if not (args.only and config.game != args.only):
            rows.append((config.label, lambda seed, tally, c=config: play_one(c, seed, tally)))
    if args.deals:
        for label, play in rows:
            if args.row in label:
                tally = count(play, args.deals)
                print(f"{label}: {tally.deals} deals, {tally.actions} actions", flush=True)
        return 0
    print(
        f"load average {load_average()}; {args.rounds} interleaved rounds of "
        f"{args.seconds:g} CPU s per row; medians; per move: to_act, legal_actions, "
        "a random choice, apply"
    )
    if references:
        print(
            f"OpenSpiel {OH_HELL} {params}: a deal is 35 chance steps and 36 moves; a Troika "
            "row's ratio is its deals/s over each OpenSpiel row's (median of the rounds)"
        )
    tallies: dict[str, list[Tally]] = {label: [] for label, _ in rows}
    failed: dict[str, str] = {}
    for _ in range(args.rounds):
        for label, play in rows:
            if label in failed:
                continue
            try:
                tallies[label].append(run(play, args.seconds))
            except Exception as exc:  # a game still being written must not hide the others
                failed[label] = f"{type(exc).__name__}: {exc}"
    width = max(52, *(len(label) for label, _ in rows))
    heads = f"{'deals/s':>9} {'games/s':>9} {'actions/s':>10}"
    if references:
        heads += "  ratio to " + ", ".join(f"OpenSpiel {i + 1}" for i in range(len(references)))
    print(f"{'configuration':<{width}} {heads}")
    for label, _ in rows:
        if label in failed:
            print(f"{label:<{width}} failed: {failed[label]}", flush=True)
            continue
        runs = tallies[label]
        rates = [t.per_second() for t in runs]
        deals, games, actions = (statistics.median(x) for x in zip(*rates, strict=True))
        ratios = []
        # Troika is the game OpenSpiel's deal matches; a failed reference has no ratio.
        for reference in references if label.startswith("troika ") else []:
            if reference not in failed:
                pairs = zip(runs, tallies[reference], strict=True)
                each = [t.per_second()[0] / r.per_second()[0] for t, r in pairs]
                ratios.append(f"{statistics.median(each):.2f}x")
        note = sum(t.abandoned for t in runs)
        tail = f"  ({note} abandoned)" if note else ""
        print(
            f"{label:<{width}} {deals:>9.0f} {games:>9.1f} {actions:>10.0f}  "
            f"{' '.join(ratios)}{tail}",
            flush=True,
        )
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
