"""What the hard AIs share: the sampling loop, the paired-gain test, the state copy."""

from __future__ import annotations

import time

from engine.ai.common import confident_gain, copy_state, sample_loop


def test_sample_loop_uses_the_sample_count_and_skips_failed_draws() -> None:
    draws = iter([1, None, 2, 3, None, 4, 5])
    used: list[int] = []
    done = sample_loop(lambda: next(draws), lambda d: used.append(d) or True, 3, 1e18, tries=3)
    assert (done, used) == (3, [1, 2, 3])


def test_sample_loop_counts_only_deals_the_search_accepts() -> None:
    used: list[int] = []
    done = sample_loop(lambda: 7, lambda d: used.append(d) or len(used) % 2 == 0, 2, 1e18, tries=2)
    assert done == 2 and len(used) == 4


def test_sample_loop_stops_at_the_deadline_but_never_before_one_deal() -> None:
    used: list[int] = []
    done = sample_loop(lambda: 1, lambda d: used.append(d) or True, 50, time.perf_counter() - 1)
    assert done == 1 and used == [1]


def test_confident_gain_believes_a_steady_gain_not_noise() -> None:
    assert confident_gain([2.0, 2.1, 1.9, 2.0]) > 1.5
    assert confident_gain([10.0, -9.0, 8.0, -10.0]) == 0.0
    assert confident_gain([5.0]) == 0.0


def test_copy_state_is_deep() -> None:
    state = {"hands": [[1, 2], [3]], "seed": 4}
    twin = copy_state(state)
    twin["hands"][0].append(9)
    assert twin != state and state["hands"][0] == [1, 2]
