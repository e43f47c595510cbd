"""``/history``: a player checks privately what was played in the hand so far; a non-player
sees public facts only."""

from __future__ import annotations

from cog_world import World

from bot.render.games.cards import pretty


def embed_text(result: object) -> str:
    embeds = result.response.embeds  # type: ignore[attr-defined]
    return "\n".join(
        f"{e.title}\n{e.description or ''}\n" + "\n".join(f"{f.name}\n{f.value}" for f in e.fields)
        for e in embeds
    )


def two_tricks_and_a_lead(world: World) -> bool:
    view = world.service.public_view(world.channel.id) or {}
    return len(view.get("played_tricks") or []) >= 2 and bool(view.get("trick"))


async def test_history_shows_a_player_the_tricks_played_privately(world: World) -> None:
    await world.open("troika", humans=4)
    await world.play(stop=two_tricks_and_a_lead)
    view = world.service.public_view(world.channel.id) or {}
    played = [c["card"] for t in view["played_tricks"] for c in t["cards"]]
    on_table = [c["card"] for c in view["trick"]]
    since = len(world.env.http_requests)

    result = await world.slash(world.members[0], "history")

    assert result.ephemeral
    text = embed_text(result)
    for number in range(1, len(view["played_tricks"]) + 2):
        assert f"**{number}.**" in text
    assert all(pretty(card) in text for card in played + on_table), text
    assert "(on the table)" in text
    # Private: nothing of it went to the channel.
    assert not any(pretty(played[0]) in body for body in world.public_payloads(since))


async def test_history_by_a_non_player_shows_public_facts_only(world: World) -> None:
    await world.open("troika", humans=4)
    await world.play(stop=two_tricks_and_a_lead)
    table = world.table()
    assert table is not None
    held = {
        card
        for seat in table.seats
        if seat.user_id is not None
        for card in world.service.view(world.channel.id, seat.user_id).game["hand"]
    }
    outsider = world.members[5]
    assert outsider.id not in {s.user_id for s in table.seats}

    result = await world.slash(outsider, "history")

    assert result.ephemeral
    text = embed_text(result)
    played = [c["card"] for t in world.service.public_view(world.channel.id)["played_tricks"]
              for c in t["cards"]]  # fmt: skip
    assert all(pretty(card) in text for card in played)  # the tricks are public
    assert not [card for card in held if f" {pretty(card)}" in text], "a hand card shown"
