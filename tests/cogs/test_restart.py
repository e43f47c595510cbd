"""The bot restarted in the middle of a game: the table, its message and its buttons carry on;
turn timers keep running across the restart."""

from __future__ import annotations

from cog_world import World

from bot.service import TableStatus


async def test_bot_restarted_mid_game_and_the_game_finished_after_it(world: World) -> None:
    await world.open("troika", humans=4, end="rounds", rounds=1)
    await world.play(via="mixed", stop=lambda w: len(w.results) > 20)
    before = world.table()
    message = world.live_table_message()
    old_bot = world.bot

    await world.restart()
    await old_bot.service.close()  # the old generation's database handle (a crash leaves it)

    assert world.bot is not old_bot
    after = world.table()
    assert after is not None and before is not None
    assert (after.move_number, after.to_act, after.status) == (
        before.move_number,
        before.to_act,
        TableStatus.PLAYING,
    )
    # The Show my hand button of the message posted before the restart still works.
    turn = world.human_to_act()
    assert turn is not None
    member, legal = turn
    panel = await member.click(message, label="Show my hand")
    assert panel.response is not None and panel.response.ephemeral
    assert panel.response.embeds[0].title.startswith("Your hand")
    pressed = await member.click(
        panel.response.message, custom_id=f"tt:act:{world.channel.id}:{legal[0]}"
    )
    assert pressed.response is not None and (
        pressed.response.embeds[0].author.name or ""
    ).startswith("You ")
    assert world.table().move_number == before.move_number + 1  # type: ignore[union-attr]
    # The same public message is still the one edited (found again after the restart).
    if (world.service.view(world.channel.id, 0).game or {}).get("hand_number") == 1:
        assert world.live_table_message().id == message.id

    await world.play(via="mixed")
    assert world.table() is None
    assert "game over" in world.public_text()


async def test_turn_timer_makes_the_move_and_the_table_is_told(world: World) -> None:
    await world.open("troika", humans=4, timer="15")
    table = world.table()
    assert table is not None and table.deadlines, "the awaited player has a deadline"
    (seat,) = table.to_act
    assert f"<t:{int(table.deadlines[seat])}:R>" in world.public_text(), "shown as a timestamp"
    await world.env.advance_time(16)
    after = world.table()
    assert after is not None and after.move_number == table.move_number + 1
    assert "ran out of time" in world.public_text()


async def test_a_deadline_is_rearmed_after_a_restart(world: World) -> None:
    await world.open("troika", humans=4, timer="15")
    table = world.table()
    assert table is not None
    old_bot = world.bot
    await world.restart()
    await old_bot.service.close()
    await world.env.advance_time(16)
    after = world.table()
    assert after is not None and after.move_number == table.move_number + 1


def _turn_line(world: World) -> str:
    return world.live_table_message().embeds[0].description or ""


async def _stale_after_a_move(world: World) -> str:
    """A move acknowledged while the publisher is stuck (as if the process died before its
    edit): the table message still names the previous player. Returns the awaited name now."""
    await world.open("troika", humans=4)
    before = world.table()
    assert before is not None
    shown_before = _turn_line(world)
    publisher = world.bot.table_publisher
    publisher._kick = lambda channel, state: None  # type: ignore[method-assign]
    member, legal = world.human_to_act() or (None, [])
    assert member is not None
    moved = await world.by_command(member, legal[0])
    assert moved.acknowledged
    after = world.table()
    assert after is not None and after.move_number == before.move_number + 1
    assert _turn_line(world) == shown_before, "the message lags behind the database"
    name = after.seat(after.to_act[0]).name  # type: ignore[union-attr]
    assert name not in shown_before
    return name


async def test_killed_right_after_a_move_the_restart_shows_the_right_turn(world: World) -> None:
    awaited = await _stale_after_a_move(world)
    await world.restart()  # killed: the old process never sends its edit
    assert awaited in _turn_line(world), "brought up to date at start-up"


async def test_stopped_gracefully_right_after_a_move_the_table_is_right(world: World) -> None:
    awaited = await _stale_after_a_move(world)
    old = world.bot
    await old.close()  # what SIGTERM does: pending edits sent, the database closed
    await world.restart()
    assert awaited in _turn_line(world)
