"""/hint in the service: the hard AI's move for a player at his turn, refused to spectators,
out of turn and when the table's ``hints`` setting is off; a game with hints is not rated."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.leaderboard import store
from bot.render.presenter import presenter_for
from bot.service import (
    BadSetting,
    NotAtTable,
    NotYourTurn,
    TableService,
    TableStatus,
    WrongPhase,
)
from tests.bot.databases import connect

CH = 81
GUILD = 99


async def _troggu(service: TableService, *, hints: bool) -> None:
    """Ann (host) and Bob with an AI at Troggu (quick), in a server, started."""
    await service.open_table(CH, GUILD, 1, "Ann", "troggu", preset="quick", seed=3)
    await service.join(CH, 2, "Bob")
    await service.add_ai(CH, 1, "easy")
    if hints:
        await service.set_settings(CH, 1, hints="on")
    await service.start_game(CH, 1)
    await service.settle()


def _turn(service: TableService) -> tuple[int, int]:
    """(the human whose turn it is, the other one)."""
    for uid, other in ((1, 2), (2, 1)):
        if service.legal_actions(CH, uid):
            return uid, other
    raise AssertionError("no human to act")


async def _play_out(service: TableService) -> None:
    rng = random.Random(5)
    for _ in range(2000):
        await service.settle()
        if service.get_table(CH) is None:
            return
        for uid in (1, 2):
            legal = service.legal_actions(CH, uid)
            if legal:
                await service.act(CH, uid, rng.choice(legal))
                break
    raise AssertionError("the game did not end")


def _rated(db_path: Path) -> list[tuple[bool, str]]:
    conn = connect(db_path)
    try:
        return [(g.rated, g.reason) for g in store.catch_up(conn, 2_000_000_000.0)]
    finally:
        conn.close()


async def test_hint_is_a_legal_move_of_the_player_at_his_turn(service: TableService) -> None:
    await _troggu(service, hints=True)
    mover, _ = _turn(service)
    before = service.get_table(CH)
    hint = await service.hint(CH, mover)
    assert hint.action in service.legal_actions(CH, mover)
    after = service.get_table(CH)
    assert before is not None and after is not None
    assert after.move_number == before.move_number  # a hint changes nothing
    line = presenter_for("troggu").hint(hint.view, hint.action)
    assert line.startswith("The hard AI would play **")


async def test_hint_is_refused_to_a_spectator_and_out_of_turn(service: TableService) -> None:
    await _troggu(service, hints=True)
    await service.spectate(CH, 7)
    with pytest.raises(NotAtTable):
        await service.hint(CH, 7)
    _, waiting = _turn(service)
    with pytest.raises(NotYourTurn):
        await service.hint(CH, waiting)


async def test_hint_is_refused_when_hints_are_off(service: TableService) -> None:
    await _troggu(service, hints=False)
    mover, _ = _turn(service)
    with pytest.raises(WrongPhase, match="Hints are off"):
        await service.hint(CH, mover)


async def test_only_the_host_sets_hints_and_bad_values_change_nothing(
    service: TableService,
) -> None:
    await _troggu(service, hints=False)
    with pytest.raises(BadSetting):
        await service.set_settings(CH, 1, hints="maybe")
    table = service.get_table(CH)
    assert table is not None and "hints" not in table.settings


async def test_a_game_with_hints_is_not_rated(service: TableService, db_path: Path) -> None:
    await _troggu(service, hints=False)
    await service.set_settings(CH, 1, hints="on")
    await service.set_settings(CH, 1, hints="off")  # turned off again: still hinted
    table = service.get_table(CH)
    assert table is not None and table.settings.get("hinted") is True
    await _play_out(service)
    assert _rated(db_path) == [(False, "hints were on")]


async def test_a_game_without_hints_is_rated(service: TableService, db_path: Path) -> None:
    await _troggu(service, hints=False)
    await _play_out(service)
    assert _rated(db_path) == [(True, "rated")]


async def test_a_rematch_of_a_hinted_game_is_not_hinted_by_itself(
    service: TableService,
) -> None:
    await _troggu(service, hints=True)
    await service.set_settings(CH, 1, hints="off")
    await _play_out(service)
    lobby = await service.rematch(CH, 1, "Ann")
    assert lobby.status is TableStatus.LOBBY and "hinted" not in lobby.settings
