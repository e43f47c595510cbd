"""``/deck``: a player's four-colour deck in his own hand pictures, kept across a restart; the
public table message keeps the default."""

from __future__ import annotations

import io

from cog_world import World
from PIL import Image

from bot.render.games.faces import BLUE, GREEN

CHANNEL_HAND = "tt:hand:{channel}"


def _inked(png: bytes, ink: tuple[int, int, int]) -> int:
    """How many pixels of ``png`` are close to ``ink`` (a suit's colour)."""
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(
        1
        for pixel in picture.get_flattened_data()
        if sum(abs(a - b) for a, b in zip(pixel, ink, strict=True)) < 40
    )


async def _hand_png(world: World, member: object) -> bytes:
    panel = await member.click(  # type: ignore[attr-defined]
        world.live_table_message(), custom_id=CHANNEL_HAND.format(channel=world.channel.id)
    )
    (attachment,) = panel.response.attachments
    return bytes(await attachment.read())


async def test_a_player_chooses_four_colours_for_his_own_hand_pictures(world: World) -> None:
    await world.open("troika", humans=4)

    # A player holding diamonds and clubs: blue and green show only in the four-colour deck.
    def suits(member: object) -> set[str]:
        view = world.service.view(world.channel.id, member.id)  # type: ignore[attr-defined]
        return {str(card)[-1] for card in (view.game or {})["hand"]}

    member = next(m for m in world.members[:4] if {"D", "C"} <= suits(m))
    other = next(m for m in world.members[:4] if m is not member)
    two = await _hand_png(world, member)
    assert _inked(two, BLUE) == 0 and _inked(two, GREEN) == 0

    chosen = await world.slash(member, "deck", colours="four")
    assert chosen.ephemeral and "four colours" in chosen.response.content
    four = await _hand_png(world, member)
    assert _inked(four, BLUE) > 50 and _inked(four, GREEN) > 50

    # His choice is his: another player's pictures and the public table message keep two.
    assert _inked(await _hand_png(world, other), BLUE) == 0
    for attachment in world.live_table_message().attachments:
        assert _inked(bytes(await attachment.read()), BLUE) == 0

    # Kept in the database: the restarted bot draws his hand in four colours still.
    await world.restart()
    assert _inked(await _hand_png(world, member), BLUE) > 50
    shown = await world.slash(member, "deck")
    assert "four colours" in shown.response.content

    back = await world.slash(member, "deck", colours="two")
    assert "two colours" in back.response.content
    assert _inked(await _hand_png(world, member), BLUE) == 0
