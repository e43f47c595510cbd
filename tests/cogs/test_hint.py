"""/hint: the hard AI's move, privately, to the player at his turn when the table allows hints;
refused (ephemeral, changing nothing) otherwise."""

from __future__ import annotations

from cog_world import World


async def test_hint_is_refused_until_the_host_turns_hints_on(world: World) -> None:
    await world.open("troeven", humans=2)
    at_turn = world.human_to_act()
    assert at_turn is not None
    member, legal = at_turn
    off = await world.slash(member, "hint")
    assert off.ephemeral and "Hints are off" in off.response.content

    ann, bob = world.members[0], world.members[1]
    not_host = await world.slash(bob, "tablesettings", hints="on")
    assert not_host.ephemeral and "Only the host" in not_host.response.content
    on = await world.slash(ann, "tablesettings", hints="on")
    assert "hints: **on** (this game is not rated)" in on.response.content

    moves = world.table().move_number  # type: ignore[union-attr]
    hinted = await world.slash(member, "hint")
    assert hinted.ephemeral and "The hard AI would play **" in hinted.response.content
    assert world.table().move_number == moves  # type: ignore[union-attr]
    other = bob if member is ann else ann
    waiting = await world.slash(other, "hint")
    assert waiting.ephemeral and "not your turn" in waiting.response.content
    watcher = await world.slash(world.members[4], "hint")
    assert watcher.ephemeral and "Only a player" in watcher.response.content
    assert "The hard AI" not in world.public_text(), "a hint is never public"
