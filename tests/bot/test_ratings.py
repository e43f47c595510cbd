"""The pure rating rules (bot/leaderboard/rating.py): which games are rated, sides, ranks, and
that rating changes are exactly openskill's PlackettLuce."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.leaderboard.rating import Participant, Skill, decide, rate

GUILD = 1


def human(seat: int, user: int, score: int, winner: bool = False, team: int | None = None,
          left: bool = False) -> Participant:  # fmt: skip
    return Participant(seat, user, f"u{user}", "easy" if left else None, left, team, score, winner)


def ai(seat: int, score: int, winner: bool = False, team: int | None = None) -> Participant:
    return Participant(seat, None, "AI", "easy", False, team, score, winner)


def troika_seats(users: list[int | None], winner_team: int = 0) -> list[Participant]:
    scores = [52, 30] if winner_team == 0 else [30, 52]
    out = []
    for seat, user in enumerate(users):
        team, won = seat % 2, seat % 2 == winner_team
        if user is None:
            out.append(ai(seat, scores[team], won, team))
        else:
            out.append(human(seat, user, scores[team], won, team))
    return out


# -- which games are rated ----------------------------------------------------------------------
def test_abandoned_game_is_not_rated() -> None:
    players = [human(0, 1, 10, True), human(1, 2, 5)]
    decision = decide("troggu", "abandoned", GUILD, players)
    assert not decision.rated and decision.reason == "abandoned"


def test_game_outside_a_server_is_not_rated() -> None:
    decision = decide("troeven", "finished", None, [human(0, 1, 66, True), human(1, 2, 40)])
    assert not decision.rated


def test_a_human_who_left_makes_the_game_unrated() -> None:
    players = [human(0, 1, 10, True), human(1, 2, 5), human(2, 3, 1, left=True)]
    decision = decide("troggu", "finished", GUILD, players)
    assert not decision.rated and decision.reason == "a player left"


def test_one_human_against_ais_is_not_rated() -> None:
    decision = decide("troggu", "finished", GUILD, [human(0, 1, 10, True), ai(1, 5), ai(2, 1)])
    assert not decision.rated and decision.reason == "fewer than two human players"


def test_troika_two_humans_as_partners_against_ais_is_not_rated() -> None:
    decision = decide("troika", "finished", GUILD, troika_seats([1, None, 2, None]))
    assert not decision.rated and decision.reason == "no human opponents"


def test_a_game_with_hints_is_not_rated_and_says_so() -> None:
    players = [human(0, 1, 10, True), ai(1, 8), human(2, 2, 5)]
    decision = decide("troggu", "finished", GUILD, players, hinted=True)
    assert not decision.rated and decision.reason == "hints were on"
    assert rate(decision, {}) == {}
    # A reason it would not have been rated anyway comes first.
    alone = decide("troggu", "finished", GUILD, [human(0, 1, 10, True), ai(1, 5)], hinted=True)
    assert alone.reason == "fewer than two human players"


def test_two_humans_with_ais_are_rated_and_ais_are_not() -> None:
    players = [human(0, 1, 10, True), ai(1, 8), human(2, 2, 5)]
    decision = decide("troggu", "finished", GUILD, players)
    assert decision.rated
    assert decision.sides == ((1,), (2,))
    assert set(rate(decision, {})) == {1, 2}


# -- sides and ranks ----------------------------------------------------------------------------
def test_troika_sides_are_the_two_teams() -> None:
    decision = decide("troika", "finished", GUILD, troika_seats([1, 2, 3, 4], winner_team=1))
    assert decision.sides == ((1, 3), (2, 4))
    assert decision.ranks == (2, 1)


def test_troika_team_with_an_ai_partner_is_the_team_of_its_human() -> None:
    decision = decide("troika", "finished", GUILD, troika_seats([1, 2, None, 4]))
    assert decision.sides == ((1,), (2, 4))
    assert decision.ranks == (1, 2)


def test_free_for_all_ranks_winner_first_then_higher_scores() -> None:
    players = [human(0, 1, 20), human(1, 2, 57, True), human(2, 3, -10), human(3, 4, 5)]
    decision = decide("troggu", "finished", GUILD, players)
    assert decision.ranks == (2, 1, 4, 3)


def test_troikuntza_lowest_score_ranks_first() -> None:
    players = [human(0, 1, 0, True), human(1, 2, 120), human(2, 3, 45)]
    decision = decide("troikuntza", "finished", GUILD, players)
    assert decision.ranks == (1, 3, 2)


def test_equal_scores_share_a_rank() -> None:
    players = [human(0, 1, 30, True), human(1, 2, 12), human(2, 3, 12)]
    decision = decide("troggu", "finished", GUILD, players)
    assert decision.ranks == (1, 2, 2)


def test_an_ai_between_humans_does_not_count_in_the_ranks() -> None:
    players = [ai(0, 99, True), human(1, 1, 50), ai(2, 40), human(3, 2, 10)]
    decision = decide("troggu", "finished", GUILD, players)
    assert decision.sides == ((1,), (2,)) and decision.ranks == (1, 2)


def test_troeven_winner_ranks_first() -> None:
    decision = decide("troeven", "finished", GUILD, [human(0, 1, 3), human(1, 2, 7, True)])
    assert decision.ranks == (2, 1)


# -- rating changes -----------------------------------------------------------------------------
def test_team_rating_change_is_openskill_plackett_luce() -> None:
    decision = decide("troika", "finished", GUILD, troika_seats([1, 2, 3, 4], winner_team=0))
    current = {1: Skill(30.0, 6.0), 2: Skill(22.0, 7.0)}
    changes = rate(decision, current)
    model = PlackettLuce()
    expected = model.rate(
        [
            [model.rating(mu=30.0, sigma=6.0), model.rating()],
            [model.rating(mu=22.0, sigma=7.0), model.rating()],
        ],
        ranks=[1, 2],
    )
    for uid, rating in zip((1, 3, 2, 4), [*expected[0], *expected[1]], strict=True):
        assert changes[uid][1].mu == pytest.approx(rating.mu)
        assert changes[uid][1].sigma == pytest.approx(rating.sigma)
    assert changes[1][0] == Skill(30.0, 6.0)
    assert changes[1][1].mu > 30.0 and changes[2][1].mu < 22.0


def test_free_for_all_rating_change_is_openskill_plackett_luce() -> None:
    players = [human(0, 1, 10), human(1, 2, 40, True), human(2, 3, 25)]
    changes = rate(decide("troggu", "finished", GUILD, players), {})
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[3, 1, 2])
    for uid, team in zip((1, 2, 3), expected, strict=True):
        assert changes[uid][1].mu == pytest.approx(team[0].mu)
        assert changes[uid][1].sigma == pytest.approx(team[0].sigma)
    assert changes[2][1].mu > changes[3][1].mu > changes[1][1].mu


def test_a_human_with_an_ai_partner_gets_the_whole_team_update() -> None:
    changes = rate(decide("troika", "finished", GUILD, troika_seats([1, 2, None, 4])), {})
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating(), model.rating()]], ranks=[1, 2])
    assert changes[1][1].mu == pytest.approx(expected[0][0].mu)
    assert changes[2][1].mu == pytest.approx(expected[1][0].mu)


def test_unrated_decision_changes_nothing() -> None:
    assert rate(decide("troggu", "abandoned", GUILD, [human(0, 1, 1), human(1, 2, 2)]), {}) == {}


def test_conservative_rating_is_mu_minus_three_sigma() -> None:
    assert Skill(30.0, 2.0).conservative == pytest.approx(24.0)
    assert Skill().conservative == pytest.approx(0.0)
