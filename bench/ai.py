"""AI strength and speed: duplicate matches between levels, decision time per level.

    python bench/ai.py [--games troika,troeven,...] [--players 3,8] [--seeds N]
                       [--first-seed S] [--pairs normal:easy,hard:normal,hard:oldhard]
                       [--history] [--no-budget]

Duplicate matches: each seed's deals are played twice (or once per seat), the levels swapping
places, so luck of the cards cancels out.

- Troika (teams): level A on seats 0+2 vs B on 1+3, then B on 0+2 vs A on 1+3, same seed.
  A "wins" a game when its team wins it.
- Troeven (2 players): A on seat 0 vs B on seat 1, then swapped.
- Troggu and TroiKuntza (free-for-all): one seat plays level A, every other seat level B; the
  same seed is played once with A in each seat, and once with B everywhere. A "wins" a game
  when its seat scores better than B did in the same seat with the same cards (the all-B
  game); equal counts half (issue 19's measure). Also shown: the "field" share, A's seat
  beating the average of the B seats at its table, which mixes play with the seat's role
  (every Troggu defender pays alike, a won contract lifts the average above every defender).

Every line has the same form: A's win share over the games (ties half) with its 95% interval
(each seed's duplicate set one sample: mean +- 1.96 standard errors), wins/ties/losses, and A's
mean score edge per game (teams and 2 players: A's final score minus B's; free-for-all: A's
score minus B's in the same seat; signs turned where the lower score is better).

Decision times (p50, p99 per level) are measured on every AI move, one process on one core; the
load average is printed because other work on the machine slows the figures.

The views list every completed trick under ``played_tricks``; ``--history`` rebuilds that list
from the events instead (a check of the views' list). Level ``oldhard`` is Troika's frozen hard
player from before issue 19 (``bench/baseline_troika.py``).

Every game of ``engine.GAMES`` is measured (``--games`` picks some): at the table sizes and
options below where the published figures were taken so, else at every table size its defaults
allow; teams come from ``GameSpec.teams``, and which score is better from ``lowest_wins``.

``--no-budget`` lifts the hard players' wall-clock safety net (their ``budget``): every decision
then does all the work its counts allow (samples, rollouts, solver nodes), so the strength
figures do not depend on the machine's load (a loaded machine otherwise cuts the deeper search
first). The decision times are then those of the full work, measured under whatever load.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from bench.baseline_troika import TroikaHard as BaselineTroikaHard  # noqa: E402
from engine.ai import Player, make_player  # noqa: E402

MAX_ACTIONS = 100_000


@dataclass(frozen=True)
class Setup:
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        extra = " ".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.game} x{self.players} {extra}".strip()


#: The setups the published figures were measured on, where a game wants other ones than
#: ``default_setups`` (a shorter Troika, both Troeven versions, TroiKuntza's 3-player option).
SETUPS: dict[str, tuple[Setup, ...]] = {
    "troika": (Setup("troika", 4, {"end": "rounds", "rounds": 6}),),
    "troeven": (
        Setup("troeven", 2, {"version": "layout"}),
        Setup("troeven", 2, {"version": "stock"}),
    ),
    "troikuntza": (
        Setup("troikuntza", 3, {"allow_three": True}),
        *(Setup("troikuntza", n) for n in range(4, 11)),
    ),
}


def default_setups(name: str) -> tuple[Setup, ...]:
    """Every table size the game allows with its default options (``--players`` picks some),
    each game as the table plays it by default (Troggu: as many deals as players); ``--deals``
    shortens them."""
    spec = engine.GAMES[name]
    low, high = spec.min_players, spec.max_players
    if spec.player_range is not None:
        low, high = spec.player_range(spec.defaults())
    return tuple(Setup(name, n) for n in range(low, high + 1))


def setups(name: str) -> tuple[Setup, ...]:
    return SETUPS.get(name) or default_setups(name)


#: The project's targets: (level A, level B, game) -> A's win share.
TARGETS: dict[tuple[str, str, str], float] = {
    **{("normal", "easy", g): 0.75 for g in engine.GAMES},
    **{("hard", "normal", g): 0.60 for g in engine.GAMES},
    ("hard", "oldhard", "troika"): 0.60,
}
#: Decision time targets per level (p99, seconds).
TIME_TARGETS = {"normal": 0.020, "hard": 1.0}

TIMES: dict[str, list[float]] = {}


def baseline_player(game: str, seed: int) -> Player:
    """Level ``oldhard``: the frozen hard player from before issue 19 (Troika only)."""
    if game != "troika":
        raise SystemExit(f"oldhard exists for troika only, not {game}")
    return BaselineTroikaHard(seed)


#: ``--no-budget``: lift the hard players' time budget (strength by counts only).
NO_BUDGET = False


def new_player(game: str, level: str, seed: int) -> Player:
    player = baseline_player(game, seed) if level == "oldhard" else make_player(game, level, seed)
    if NO_BUDGET and hasattr(player, "budget"):
        player.budget = math.inf  # type: ignore[attr-defined]
    return player


def play(setup: Setup, levels: list[str], seed: int, history: bool) -> dict[str, Any]:
    """One game with ``levels[seat]`` in each seat; returns ``game.result()``."""
    game = engine.new_game(setup.game, setup.players, options=dict(setup.options), seed=seed)
    played: list[list[dict[str, Any]]] = []
    trick: list[dict[str, Any]] = []
    for move in range(MAX_ACTIONS):
        if game.is_over():
            return game.result()
        waiting = game.to_act()
        seat = waiting[0]
        legal = game.legal_actions(seat)
        view = game.view(seat)
        if history:
            view["played_tricks"] = [{"cards": t} for t in played]
        player = new_player(setup.game, levels[seat], seed * 1_000_003 + move)
        start = time.perf_counter()
        action = player.choose(view, legal)
        TIMES.setdefault(f"{setup.game}/{levels[seat]}", []).append(time.perf_counter() - start)
        for event in game.apply(seat, action):
            kind = event.get("type")
            if kind == "play":
                trick.append({"seat": event["seat"], "card": event["card"]})
                if len(trick) == setup.players:
                    played.append(trick)
                    trick = []
            elif kind in ("deal", "hand_over", "misdeal", "thrown_in"):
                played, trick = [], []
    raise RuntimeError(f"{setup.label} seed {seed}: no end after {MAX_ACTIONS} actions")


def free_for_all(setup: Setup) -> bool:
    """Every player for himself at a table of three or more (no teams, not two players)."""
    return not engine.GAMES[setup.game].teams and setup.players > 2


def team_score(setup: Setup, result: dict[str, Any], a_seats: list[int]) -> float:
    """Team / 2-player games: 1 if level A won, 0 if it lost, 0.5 when both or neither won."""
    winners = set(result["winners"])
    a_won = any(s in winners for s in a_seats)
    b_won = any(s not in a_seats for s in winners)
    return 0.5 if a_won == b_won else float(a_won)


def sign(game: str) -> int:
    """+1 when a higher score is better in ``game``, -1 when a lower one is (``lowest_wins``:
    TroiKuntza's lowest total wins, Troeven's players count down to 0)."""
    return -1 if engine.GAMES[game].lowest_wins else 1


def team_margin(setup: Setup, result: dict[str, Any], a_seats: list[int]) -> float:
    """Team / 2-player games: level A's final score minus level B's (a finer figure than the
    win: a game is decided by a few points, the margin shows by how much)."""
    scores = result["scores"]
    b_seat = next(s for s in range(setup.players) if s not in a_seats)
    return sign(setup.game) * (scores[a_seats[0]] - scores[b_seat])


def seat_gain(setup: Setup, result: dict[str, Any], baseline: dict[str, Any], seat: int) -> float:
    """Free-for-all: what level A in ``seat`` scored beyond level B in the same seat with the
    same cards (positive = better; TroiKuntza's lowest total wins, so its sign is turned)."""
    return sign(setup.game) * (result["scores"][seat] - baseline["scores"][seat])


def seatings(setup: Setup) -> list[list[int]]:
    """The seats level A takes in each game of a duplicate set."""
    teams = engine.GAMES[setup.game].teams
    if teams:  # a team's seats together (seat % teams), as the game seats them
        return [[s for s in range(setup.players) if s % teams == t] for t in range(teams)]
    return [[s] for s in range(setup.players)]


@dataclass
class Outcome:
    """A match's figures (see the module docstring)."""

    mean: float  # A's win share, ties half (teams / 2 players: the game; FFA: the same seat)
    half: float  # its 95% half-width over the duplicate sets
    games: int  # games played (FFA: the all-B games included)
    wtl: list[int]  # A's wins / ties / losses
    edge: float  # A's mean score edge per game (see the module docstring)
    field: float | None = None  # FFA: A's seat beating its table's B average, ties half


def field_score(setup: Setup, result: dict[str, Any], seat: int) -> float:
    """Free-for-all: 1 if ``seat`` did better than the others' average, 0.5 if equal."""
    scores = result["scores"]
    others = [scores[s] for s in range(setup.players) if s != seat]
    mine, rest = sign(setup.game) * scores[seat], sign(setup.game) * sum(others) / len(others)
    return 0.5 if mine == rest else float(mine > rest)


def match(setup: Setup, a: str, b: str, seeds: int, history: bool, first_seed: int = 0) -> Outcome:
    per_seed: list[float] = []
    edges: list[float] = []
    fields: list[float] = []
    wtl = [0, 0, 0]
    games = 0
    for seed in range(first_seed, first_seed + seeds):
        outcomes = []
        baseline = None
        if free_for_all(setup):
            baseline = play(setup, [b] * setup.players, seed, history)
            games += 1
        for a_seats in seatings(setup):
            levels = [a if s in a_seats else b for s in range(setup.players)]
            result = play(setup, levels, seed, history)
            games += 1
            if baseline is None:
                outcome = team_score(setup, result, a_seats)
                edges.append(team_margin(setup, result, a_seats))
            else:
                fields.append(field_score(setup, result, a_seats[0]))
                edges.append(seat_gain(setup, result, baseline, a_seats[0]))
                outcome = 1.0 if edges[-1] > 0 else 0.5 if edges[-1] == 0 else 0.0
            outcomes.append(outcome)
            wtl[0 if outcome == 1 else 1 if outcome == 0.5 else 2] += 1
        per_seed.append(sum(outcomes) / len(outcomes))
    mean = sum(per_seed) / len(per_seed)
    var = sum((x - mean) ** 2 for x in per_seed) / max(1, len(per_seed) - 1)
    half = 1.96 * math.sqrt(var / len(per_seed))
    field_share = sum(fields) / len(fields) if fields else None
    return Outcome(mean, half, games, wtl, sum(edges) / len(edges), field_share)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(engine.GAMES))
    parser.add_argument("--seeds", type=int, default=20, help="duplicate sets per match")
    parser.add_argument("--first-seed", type=int, default=0, help="seeds run from here")
    parser.add_argument("--pairs", default="normal:easy,hard:normal")
    parser.add_argument("--history", action="store_true", help="add played_tricks to views")
    parser.add_argument("--players", default="", help="table sizes to run (e.g. 4,8; default all)")
    parser.add_argument(
        "--deals", type=int, default=0, help="deals a game where the game has that option"
    )
    parser.add_argument(
        "--no-budget",
        action="store_true",
        help="lift the hard players' time budget: strength bound by counts only, not by load",
    )
    args = parser.parse_args()
    global NO_BUDGET
    NO_BUDGET = args.no_budget
    budget = "no time budget (counts only)" if NO_BUDGET else "time budgets on"
    print(f"load average {os.getloadavg()}, cpus {os.cpu_count()}; one process; {budget}")
    print(
        "win = level A's share of games, ties half, 95% interval over seeds (Troika: A's team "
        "wins; Troeven: A wins; Troggu/TroiKuntza: A's seat scores better than B in the same "
        "seat with the same cards); W/T/L; edge = A's mean score edge a game; field (FFA) = "
        "A's seat beats the average of its table's B seats."
    )
    sizes = {int(n) for n in args.players.split(",") if n}
    for name in args.games.split(","):
        if name not in engine.GAMES:
            print(f"{name}: not registered, skipped")
            continue
        for setup in setups(name):
            if sizes and setup.players not in sizes:
                continue
            if args.deals and "deals" in engine.GAMES[name].defaults():
                setup = Setup(name, setup.players, {**setup.options, "deals": args.deals})
            for pair in args.pairs.split(","):
                a, b = pair.split(":")
                start = time.perf_counter()
                out = match(setup, a, b, args.seeds, args.history, args.first_seed)
                took = time.perf_counter() - start
                w, t, lost = out.wtl
                extra = f"  W/T/L {w}/{t}/{lost}  edge {out.edge:+.1f}"
                if out.field is not None:
                    extra += f"  field {out.field:.0%}"
                target = TARGETS.get((a, b, name))
                if target is not None:
                    # normal:easy's target was set on the field share (an earlier issue).
                    share = out.field if out.field is not None and b == "easy" else out.mean
                    extra += f"  target {target:.0%}: " + ("met" if share >= target else "MISSED")
                print(
                    f"{setup.label:31} {a:>6} vs {b:<6} win {out.mean:6.1%} +- {out.half:5.1%} "
                    f"({out.games} games, {took:.0f}s){extra}",
                    flush=True,
                )
    print("decision time per move (ms):")
    for key, values in sorted(TIMES.items()):
        p99 = percentile(values, 0.99)
        limit = TIME_TARGETS.get(key.split("/")[1])
        verdict = (
            ""
            if limit is None
            else f"  target p99 {limit * 1e3:.0f}: " + ("met" if p99 <= limit else "MISSED")
        )
        print(
            f"  {key:22} moves {len(values):7}  p50 {percentile(values, 0.5) * 1e3:7.2f}  "
            f"p99 {p99 * 1e3:7.2f}  max {max(values) * 1e3:7.2f}{verdict}"
        )
    print(f"load average after {os.getloadavg()}")


if __name__ == "__main__":
    main()
