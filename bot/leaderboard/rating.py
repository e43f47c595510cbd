"""Which finished games are rated, and how ratings move: pure openskill logic, no storage.

A game is rated when (see ``decide``):
- it finished (an abandoned game is recorded but never rated);
- it was played in a server (ratings are per guild);
- at least two humans played it and none of them left (a human who left handed his seat to
  the AI: his result would be the AI's, so the whole game is unrated);
- at least two sides of humans compete (two partners on the same team against two AIs have no
  human opponent).
- hints were never on (``/hint`` shows the hard AI's move: such a game is not rated).

AI seats are never rated. Free-for-all games rank the humans among themselves: an AI finishing
between them does not count. Games with fixed partnerships (``GameSpec.teams``) are rated by
teams; a team with an AI partner is rated as the team of its human alone (the AI's share of the
result is ignored, the human gets the team's whole update), which is the choice the brief asked
for.

Ranks: winners (the engine's ``winners``) come first; the others follow by score, higher is
better except in games that declare that the lowest score wins (``GameSpec.lowest_wins``).
Equal sides share a rank (openskill treats them as a draw between them).

The leaderboard shows the conservative rating ``mu - 3 * sigma`` (openskill's ``ordinal()``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from engine import GAMES

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    """One player's openskill rating."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def conservative(self) -> float:
        """What the board shows and sorts by: ``mu - 3 sigma`` (99.7% sure he is this good)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Participant:
    """One seat of a recorded game, as ``result_players`` holds it."""

    seat: int
    user_id: int | None
    name: str
    ai_level: str | None = None
    left: bool = False
    team: int | None = None
    score: int | None = None
    winner: bool = False

    @property
    def is_human(self) -> bool:
        """A member sat here (whether or not he stayed to the end)."""
        return self.user_id is not None and (self.ai_level is None or self.left)


@dataclass(frozen=True)
class Decision:
    """Whether a game is rated and, if so, the sides (lists of user ids) and their ranks."""

    rated: bool
    reason: str
    sides: tuple[tuple[int, ...], ...] = ()
    ranks: tuple[int, ...] = ()


def decide(
    game: str,
    status: str,
    guild_id: int | None,
    players: Sequence[Participant],
    *,
    hinted: bool = False,
) -> Decision:
    """Decide whether the game is rated (the rules are in the module docstring)."""
    if status != "finished":
        return Decision(False, "abandoned")
    if guild_id is None:
        return Decision(False, "not played in a server")
    humans = [p for p in players if p.is_human]
    if any(p.left for p in humans):
        return Decision(False, "a player left")
    if len(humans) < 2:
        return Decision(False, "fewer than two human players")
    spec = GAMES.get(game)
    if spec is not None and spec.teams:
        grouped: dict[int, list[Participant]] = {}
        for p in humans:
            grouped.setdefault(p.team if p.team is not None else p.seat, []).append(p)
        groups = [grouped[key] for key in sorted(grouped)]
    else:
        groups = [[p] for p in sorted(humans, key=lambda p: p.seat)]
    if len(groups) < 2:
        return Decision(False, "no human opponents")
    if hinted:  # (last: a game that was never to be rated keeps the reason it would have had)
        return Decision(False, "hints were on")
    keys = [_standing(game, group) for group in groups]
    ranks = tuple(1 + sum(1 for other in keys if other < key) for key in keys)
    sides = tuple(tuple(p.user_id for p in group if p.user_id is not None) for group in groups)
    return Decision(True, "rated", sides, ranks)


def _standing(game: str, group: Sequence[Participant]) -> tuple[int, float]:
    """Sort key of a side (smaller is better): winners first, then by score."""
    winner = any(p.winner for p in group)
    scores = [p.score for p in group if p.score is not None]
    score = float(scores[0]) if scores else 0.0  # a team's seats carry the team's score
    spec = GAMES.get(game)
    lowest_wins = spec is not None and spec.lowest_wins
    return (0 if winner else 1, score if lowest_wins else -score)


def rate(decision: Decision, current: Mapping[int, Skill]) -> dict[int, tuple[Skill, Skill]]:
    """New skills of every rated player: ``{user_id: (before, after)}``.

    ``current`` holds the players' skills so far (a player missing from it starts fresh).
    """
    if not decision.rated:
        return {}
    before = {uid: current.get(uid, Skill()) for side in decision.sides for uid in side}
    teams = [
        [MODEL.rating(mu=before[uid].mu, sigma=before[uid].sigma) for uid in side]
        for side in decision.sides
    ]
    updated = MODEL.rate(teams, ranks=list(decision.ranks))
    out: dict[int, tuple[Skill, Skill]] = {}
    for side, team in zip(decision.sides, updated, strict=True):
        for uid, rating in zip(side, team, strict=True):
            out[uid] = (before[uid], Skill(float(rating.mu), float(rating.sigma)))
    return out
