"""/watch: a member who does not play follows the public table privately, kept up to date."""

from __future__ import annotations

from cog_world import World


async def test_watch_shows_the_public_table_and_keeps_it_up_to_date(world: World) -> None:
    await world.open("troika", humans=3, ais=1)
    watcher = world.members[5]
    watched = await world.slash(watcher, "watch")
    assert watched.ephemeral and watched.response is not None
    first = watched.response.embeds
    assert first and "Troika" in (first[0].title or ""), "the table's own message, privately"
    table = world.table()
    assert table is not None and watcher.id in table.spectators
    # Nothing private: no seat's hand is in it.
    text = " ".join(f"{e.title} {e.description} {[f.value for f in e.fields]}" for e in first)
    assert "Your hand" not in text
    before = text
    await world.play(stop=lambda w: (w.table() or table).move_number >= table.move_number + 2)
    after = watched.response
    assert after is not None
    now = " ".join(f"{e.title} {e.description} {[f.value for f in e.fields]}" for e in after.embeds)
    assert now != before, "the same ephemeral message was redrawn as the table changed"


async def test_a_player_cannot_watch_his_own_table(world: World) -> None:
    await world.open("troika", humans=4)
    refused = await world.slash(world.members[0], "watch")
    assert refused.ephemeral and "seat" in refused.response.content.lower()
