"""What the bot does to answer faster (issue "Fast under a real bot's load") must never show an
out-of-date table: a seat's view is made once per state, the action buttons once per channel
and legal moves, a picture once; a pressed live panel is drawn by its answer, not twice."""

from __future__ import annotations

import asyncio

import pytest

from bench.fake_discord import FakeInteraction, Recorder
from bot.render import pictures
from bot.render.presenter import Picture, presenter_for
from bot.service import IllegalMove, TableEvent, TableService
from cogs.action_rows import shared_actions_view
from cogs.live_panels import Drawn, LivePanels

CH = 777
ANN, BOB = 1, 2


async def troeven_for_two(service: TableService) -> None:
    await service.open_table(CH, 99, ANN, "Ann", "troeven", options={"timer": "off"}, seed=3)
    await service.join(CH, BOB, "Bob")
    await service.start_game(CH, ANN)


def mover(service: TableService) -> int:
    return next(u for u in (ANN, BOB) if service.legal_actions(CH, u))


async def test_a_view_is_shared_within_a_state_and_new_after_each_move(
    service: TableService,
) -> None:
    await troeven_for_two(service)
    user = mover(service)
    first = service.view(CH, user)
    assert service.view(CH, user) is first  # the same state: made once
    other = BOB if user == ANN else ANN
    assert service.view(CH, other) is not first and service.view(CH, other).seat != first.seat
    await service.act(CH, user, first.legal[0])
    after = service.view(CH, user)
    assert after is not first
    assert after.table.move_number == first.table.move_number + 1
    assert after.legal == tuple(service.legal_actions(CH, user))
    assert after.game == service._tables[CH].game.view(first.seat)  # type: ignore[union-attr]


async def test_a_refused_move_leaves_the_view_as_it_was(service: TableService) -> None:
    await troeven_for_two(service)
    user = mover(service)
    before = service.view(CH, user)
    with pytest.raises(IllegalMove):
        await service.act(CH, user, "play nonsense")
    again = service.view(CH, user)
    assert again.game == before.game and again.legal == before.legal
    assert again.table.move_number == before.table.move_number


async def test_action_buttons_are_shared_per_channel_and_moves_only() -> None:
    here = 98_765_001  # a channel no other test draws buttons for
    view, left = shared_actions_view(here, "troika", ("play 5h", "pass"), "en")
    assert shared_actions_view(here, "troika", ("play 5h", "pass"), "en")[0] is view
    assert view.is_finished() and not view.is_dispatchable(), "never kept in discord.py's store"
    payload = view.to_components()
    assert all(type(c) is dict for row in payload for c in row["components"]), (
        "sealed: the payload only, no discord.ui objects for the collector to scan"
    )
    other, _ = shared_actions_view(here + 1, "troika", ("play 5h", "pass"), "en")
    assert other is not view
    ids = [c["custom_id"] for row in other.to_components() for c in row["components"]]
    assert ids and all(i.split(":")[2] == str(here + 1) for i in ids)
    assert shared_actions_view(here, "troika", ("pass",), "en")[0] is not view
    assert left == ()
    french, _ = shared_actions_view(here, "troika", ("play 5h", "pass"), "fr")
    assert french is not view, "the labels are the reader's words"


async def test_a_picture_is_ready_once_drawn_and_keyed_by_what_it_shows() -> None:
    presenter = presenter_for("troika")
    picture = presenter.hand_picture({"hand": ["AS", "KH", "7C"]}, None)  # type: ignore[arg-type]
    assert isinstance(picture, Picture)
    assert pictures.ready(picture) is None or pictures.ready(picture) == pictures.png(picture)
    drawn = await pictures.render(picture)
    assert drawn == pictures.png(picture) and pictures.ready(picture) == drawn
    smaller = Picture.of("hand_png", cards=["AS", "KH"])
    assert pictures.ready(smaller) != drawn


async def test_a_pressed_panel_is_drawn_by_its_answer_not_by_a_racing_redraw(
    service: TableService,
) -> None:
    await troeven_for_two(service)
    live = LivePanels(service)
    service.add_listener(live)
    drawn = {ANN: 0, BOB: 0}

    async def build(_: TableService, channel: int, user: int) -> Drawn:
        drawn[user] += 1
        return [], None, None

    recorder = Recorder()
    for user in (ANN, BOB):
        live.remember(FakeInteraction(recorder, CH, user), CH, build)  # type: ignore[arg-type]
    user = mover(service)
    other = BOB if user == ANN else ANN
    live.pause(CH, user)  # he pressed a move: its answer will draw his panel
    await service.act(CH, user, service.legal_actions(CH, user)[0])
    await settle()
    assert drawn == {user: 0, other: 1}
    live.resume(CH, user)  # ...but it was not drawn (say, the redraw failed): drawn now
    await settle()
    assert drawn == {user: 1, other: 1}
    # An answer drawn before a change, remembered after it, is redrawn at once.
    stale = live.key(CH, other)
    mover_now = mover(service)
    await service.act(CH, mover_now, service.legal_actions(CH, mover_now)[0])
    await settle()
    before = dict(drawn)
    live.remember(FakeInteraction(recorder, CH, other), CH, build, stale)  # type: ignore[arg-type]
    await settle()
    assert drawn[other] == before[other] + 1


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_live_panels_key_read_from_the_events_snapshot_is_the_services(
    service: TableService,
) -> None:
    """``LivePanels`` reads an event's key from its snapshot (no lookup through the service):
    at every event of a few moves it equals what the service's view gives, for both seats and
    a spectator, and the snapshot path is the one taken."""
    await troeven_for_two(service)
    live = LivePanels(service)
    compared: list[object] = []
    taken = 0

    class Check:
        async def on_table_event(self, event: TableEvent) -> None:
            check(event)

    def check(event: TableEvent) -> None:
        nonlocal taken
        state = event.snapshot
        if state is not None and state.current:
            taken += 1
        for user in (ANN, BOB, 55):
            from_event = live._key_at(state, CH, user)
            assert from_event == live.key(CH, user), (event, user)
            compared.append(from_event)

    service.add_listener(Check())
    for _ in range(6):
        user = mover(service)
        await service.act(CH, user, service.legal_actions(CH, user)[0])
    assert taken >= 6, "the events carried their current snapshot"
    assert len(set(map(repr, compared))) > 3, "the key changed along the moves"
