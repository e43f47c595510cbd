"""What every AI level shares: seeded choice, the public trick history a view offers.

An AI sees only ``view(seat)`` and ``legal_actions(seat)``. The service builds a fresh player for
every decision (``make_player(...).choose(view, legal)``), so an AI keeps no memory between moves:
all it knows of earlier tricks is in the view. The trick-taking games' views list every
completed trick of the hand under ``played_tricks`` (each shaped like ``last_trick``:
``{"cards": [{"seat", "card"}...], "winner"}``), so the AI counts every card and infers voids;
a view without it (an older snapshot) leaves only the last trick to read.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

View = dict[str, Any]
Deal = TypeVar("Deal")


def completed_tricks(view: View) -> tuple[list[list[tuple[int, str]]], bool]:
    """The completed tricks of this hand the view shows, as ``[(seat, code), ...]`` lists, and
    whether that is the whole history (True) or only the last trick (False)."""
    full = view.get("played_tricks")
    if isinstance(full, list):
        return [[(c["seat"], c["card"]) for c in t["cards"]] for t in full], True
    last = view.get("last_trick")
    if last and last.get("cards") and view.get("tricks_played", 1) != 0:
        return [[(c["seat"], c["card"]) for c in last["cards"]]], False
    return [], False


def current_trick(view: View) -> list[tuple[int, str]]:
    return [(c["seat"], c["card"]) for c in view.get("trick") or []]


def action_card(action: str) -> str:
    """``"play 10h"`` -> ``"10H"`` (the code in the engines' upper-case spelling)."""
    return action.split(" ", 1)[1].upper()


class SeededPlayer:
    """Base of the AI players: one ``random.Random`` from the seed, used only to break ties
    and to sample hidden cards, so a seed, view and legal list always give the same move."""

    def __init__(self, game: str, seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        #: Why a decision fell back to a random legal move (tests assert it stays empty).
        self.failures: list[str] = []

    def choose(self, view: View, legal: list[str]) -> str:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        # A bot that breaks must never stall a table: a view shape the AI does not know, or a
        # bug, gives a random legal move instead (recorded in ``failures``).
        try:
            action = self.decide(view, legal)
        except Exception as exc:  # noqa: BLE001 - any failure falls back, see above
            self.failures.append(f"{type(exc).__name__}: {exc}")
            return self.rng.choice(legal)
        if action not in legal:
            self.failures.append(f"chose {action!r}, not legal")
            return self.rng.choice(legal)
        return action

    def decide(self, view: View, legal: list[str]) -> str:  # pragma: no cover - abstract
        raise NotImplementedError


def sample_loop(
    draw: Callable[[], Deal | None],
    use: Callable[[Deal], bool],
    samples: int,
    deadline: float,
    tries: int = 1,
) -> int:
    """The hard AIs' search over hidden cards: up to ``samples`` deals from ``draw`` each given
    to ``use``; returns how many were used.

    ``draw`` may fail (None: no deal fits what the seat knows, e.g. its voids) and ``use`` may
    refuse a deal (False: its search ran out of time): ``tries`` times ``samples`` draws at the
    most. The deal count bounds the work so a seed always gives the same move; ``deadline``
    (``time.perf_counter()``) is a safety net that stops sampling, never before the first deal.
    """
    done = drawn = 0
    while done < samples and drawn < samples * tries:
        if done and time.perf_counter() > deadline:
            break
        drawn += 1
        deal = draw()
        if deal is None or not use(deal):
            continue
        done += 1
    return done


def confident_gain(gains: list[float], caution: float = 1.0) -> float:
    """What an alternative gains over the default choice, paired deal by deal, believed only
    past ``caution`` standard errors (0 when not): picking the best of a few noisy means
    otherwise picks noise."""
    n = len(gains)
    if n < 2:
        return 0.0
    mean = sum(gains) / n
    var = sum((g - mean) ** 2 for g in gains) / (n - 1)
    return max(0.0, mean - caution * math.sqrt(var / n))


def copy_state(state: Any) -> Any:
    """A deep copy of a game's plain-JSON state (cheaper than a JSON round trip), for the
    playouts of a game rebuilt from a view."""
    if isinstance(state, dict):
        return {k: copy_state(v) for k, v in state.items()}
    if isinstance(state, list):
        return [copy_state(v) for v in state]
    return state
