"""Scoring a finished hand: the declarers first, then the defenders, then the end check.

Kept apart from the state machine so each rule can be tested with plain numbers.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class HandScore(NamedTuple):  # a tuple: made once a hand, and by the AI for each bid it weighs
    made: bool
    changes: tuple[int, int]  # per team
    target: int
    cut_off: int | str
    raised: bool  # this hand's made no-trump contract raised target and cut-off


#: ``HandScore``'s tuple made in C: the class call goes through the Python ``__new__`` that
#: ``NamedTuple`` writes, half of ``score_hand``'s cost.
_new_score = tuple.__new__


def score_hand(
    declarer_team: int,
    bid_number: int,
    no_trump: bool,
    points: list[int],
    scores: list[int],
    target: int,
    cut_off: int | str,
    increased: bool,
    options: dict[str, Any],
) -> HandScore:
    """How a hand changes the two team scores.

    ``points`` are the hand points per team (they sum to 10); ``scores`` are the team scores
    before the hand; ``increased`` says whether the no-trump increase already happened. The
    game passes them by position (once a hand: a call by keywords matches each name).
    """
    factor = 2 if no_trump else 1
    taken = points[declarer_team]
    made = taken >= bid_number
    if made:
        declarer_change = taken * factor
    elif options["set_penalty"] == "points":
        # "A negative hand is a loss of its size too": took -3, loses 3.
        declarer_change = -abs(taken) * factor
    else:
        declarer_change = -bid_number * factor

    raised = made and no_trump and options["no_trump_increase"] and not increased
    if raised:
        target += 10
        if cut_off != "off":
            cut_off = int(cut_off) + 10

    defenders = 1 - declarer_team
    defended = points[defenders]
    if cut_off == "off" or scores[defenders] < int(cut_off):
        defender_change = defended
    else:
        defender_change = min(defended, 0)  # at the cut-off: only losses still count

    if declarer_team:
        changes = (defender_change, declarer_change)
    else:
        changes = (declarer_change, defender_change)
    return _new_score(HandScore, (made, changes, target, cut_off, raised))


def points_winner(declarer_team: int, scores: list[int], target: int) -> int | None:
    """Team that wins on points after a hand: the declarers are counted first."""
    if scores[declarer_team] >= target:
        return declarer_team
    if scores[1 - declarer_team] >= target:
        return 1 - declarer_team
    return None


def rounds_winner(scores: list[int], hands_played: int, rounds: int) -> int | None:
    """Team that wins on rounds: the higher score once enough hands are played; ties play on."""
    if hands_played < rounds or scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1
