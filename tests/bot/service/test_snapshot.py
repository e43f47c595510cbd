"""One snapshot per state of a table (``bot.service.snapshot``): each committed move yields one,
its views and legal moves are computed at most once and shared by every reader (the events, the
acting player's reply, the service's reads), and one the table moved on from says so."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import orjson
import pytest

from bot.service import ActionApplied, RecordingListener, TableService, TurnChanged
from bot.service.models import Table
from bot.service.snapshot import StaleSnapshot, TableSnapshot
from engine.game import Game

CH = 778
ANN, BOB = 1, 2


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "troika.db"


async def troeven_for_two(service: TableService) -> None:
    await service.open_table(CH, 99, ANN, "Ann", "troeven", options={"timer": "off"}, seed=3)
    await service.join(CH, BOB, "Bob")
    await service.start_game(CH, ANN)


def mover(service: TableService) -> tuple[int, int]:
    """The user whose move is awaited, and his seat (read from the table: no view made)."""
    table = service.get_table(CH)
    assert table is not None
    seat = table.to_act[0]
    user = table.seat(seat).user_id  # type: ignore[union-attr]
    assert user is not None
    return user, seat


@pytest.fixture
def engine_calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often any game computes a view or its legal moves."""
    calls: Counter[str] = Counter()
    for name in ("view", "_legal_actions"):
        for cls in {type(g) for g in _games()}:
            real = getattr(cls, name)

            def counted(self: Game, *args: Any, _real: Any = real, _name: str = name) -> Any:
                calls[_name] += 1
                return _real(self, *args)

            monkeypatch.setattr(cls, name, counted)
    return calls


def _games() -> list[Game]:
    import engine

    return [engine.new_game("troeven", 2, seed=1)]


async def test_a_move_yields_one_snapshot_that_its_events_and_reply_share(
    service: TableService,
) -> None:
    await troeven_for_two(service)
    recorder = RecordingListener()
    service.add_listener(recorder)
    before = service.snapshot(CH)
    assert before is not None and before.current
    user, seat = mover(service)
    result = await service.act(CH, user, service.legal_actions(CH, user)[0])
    after = result.snapshot
    assert after is not None and after is service.snapshot(CH)
    assert after.seq == before.seq + 1 == result.move_number
    assert not before.current and after.current
    moved = recorder.of_type(ActionApplied)[-1]
    turn = recorder.of_type(TurnChanged)[-1]
    assert moved.snapshot is after and turn.snapshot is after
    assert after.table is moved.table and after.table.to_act == turn.to_act


async def test_views_and_legal_moves_are_computed_once_per_state(
    service: TableService, engine_calls: Counter[str]
) -> None:
    await troeven_for_two(service)
    user, seat = mover(service)
    state = service.snapshot(CH)
    assert state is not None
    engine_calls.clear()
    for _ in range(3):  # the panel, its live redraw's key, the reply: one computation each
        assert service.view(CH, user) is state.table_view(seat)
        assert service.legal_actions(CH, user) == list(state.legal(seat))
        assert service.public_view(CH) == state.public_view
    assert engine_calls == Counter({"view": 2, "_legal_actions": 1})  # his view, the public one


async def test_a_snapshot_the_table_moved_on_from_keeps_what_it_read(
    service: TableService,
) -> None:
    await troeven_for_two(service)
    user, seat = mover(service)
    old = service.snapshot(CH)
    assert old is not None
    read = old.view(seat)
    await service.act(CH, user, old.legal(seat)[0])
    assert not old.current
    assert old.view(seat) is read  # computed while current: kept
    other = 1 - seat
    with pytest.raises(StaleSnapshot):
        old.view(other)  # never computed, and the game has moved since
    new = service.snapshot(CH)
    assert new is not None and new.current and new.view(other) is not None


async def test_a_lobby_snapshot_has_no_game(service: TableService) -> None:
    await service.open_table(CH, 99, ANN, "Ann", "troeven")
    state = service.snapshot(CH)
    assert state is not None and state.current
    assert state.public_view is None and state.view(0) is None and state.legal(0) == ()
    assert state.seq == 0 and service.snapshot(CH + 1) is None


def _dumped(view: Any) -> bytes:
    return orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS)


@pytest.mark.parametrize("game, players", [("troeven", 2), ("troggu", 4), ("troika", 4),
                                           ("troikuntza", 4)])  # fmt: skip
def test_views_share_what_they_repeat_and_read_as_the_engines(game: str, players: int) -> None:
    """Each seat's view holds the public view's own list where its own reads the same (one
    object for the collector instead of two), and reads exactly as the engine's."""
    import engine

    rng = random.Random(5)
    played = engine.new_game(game, players, seed=11)
    shared = 0
    for _ in range(40):
        if played.is_over() or not played.to_act():
            break
        state = TableSnapshot(cast(Table, SimpleNamespace(id=1, move_number=0)), played)
        public = state.public_view
        assert public is not None and _dumped(public) == _dumped(played.view(None))
        for seat in range(players):
            view = state.view(seat)
            assert view is not None and _dumped(view) == _dumped(played.view(seat))
            assert list(view) == list(played.view(seat))
            shared += sum(1 for k, v in view.items() if isinstance(v, list) and v is public.get(k))
        seat = played.to_act()[0]
        played.apply(seat, rng.choice(played.legal_actions(seat)))
    assert shared > 0


def test_a_view_keeps_its_own_value_where_only_equal_is_not_the_same() -> None:
    """``1 == True == 1.0`` and dicts are equal in any order: such values are not shared."""
    public = {"a": [1, 2], "b": {"x": 1, "y": 2}, "c": [[1]], "d": ["same"]}
    seat = {"a": [True, 2], "b": {"y": 2, "x": 1}, "c": [[1.0]], "d": ["same"]}

    class Fake:
        def view(self, who: int | None) -> dict[str, Any]:
            return dict(public if who is None else seat)

    state = TableSnapshot(cast(Table, SimpleNamespace(id=1, move_number=0)), cast(Game, Fake()))
    assert state.public_view is not None
    mine = state.view(0)
    assert mine is not None and _dumped(mine) == _dumped(seat)
    assert mine["a"] is seat["a"] and mine["b"] is seat["b"] and mine["c"] is seat["c"]
    assert mine["d"] is state.public_view["d"]
