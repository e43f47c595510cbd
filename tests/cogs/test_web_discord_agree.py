"""A Discord member and the table page on the same table, move by move: moves alternate between
the Discord side (the hand panel's buttons and the slash commands, through SimCord) and the
pages (a real browser tapping), and after every move each player's page, the service and the
Discord table message agree: the same move number, hand, legal moves, trick, the same player
awaited and the same hand number; the move's line in the message's narration names its player.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from cog_world import World

from bot.web.server import WebServer
from tests.web.test_browser import TIMEOUT, agrees, shows_move

SECRET = b"agree-test-secret-agree-test-secret"


def message_says(world: World) -> tuple[str, int, list[str]]:
    """The Discord table message now: who it awaits (after ▶), the hand number (its footer),
    and its narration lines."""
    message = world.live_table_message()
    head, story = message.embeds[0], message.embeds[-1]
    awaited = re.search(r"▶ \*\*([^*]+)\*\*", head.description or "")
    hand = re.search(r"hand (\d+)", head.footer.text or "")
    assert awaited is not None and hand is not None, (head.description, head.footer.text)
    return awaited.group(1), int(hand.group(1)), (story.description or "").splitlines()


async def test_discord_and_the_page_agree_move_by_move(world: World, browser: Any) -> None:
    await world.open("troika", humans=4)
    web = WebServer(world.service, SECRET)
    world.bot.web = web
    await web.start()
    channel = world.channel.id
    try:
        members = world.members[:4]
        pages = {}
        for member in members:
            page = await browser.new_page(viewport={"width": 400, "height": 850})
            errors: list[str] = []
            page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
            page.errors = errors
            await page.goto(web.link(member.id, channel))
            await page.wait_for_selector("#table[data-move]", timeout=TIMEOUT)
            pages[member.id] = page
        sides = {"page": 0, "button": 0, "command": 0}
        for n in range(24):
            turn = world.human_to_act()
            assert turn is not None
            member, legal = turn
            table = world.table()
            assert table is not None
            move = table.move_number
            action = legal[n % len(legal)]
            side = "page" if n % 2 else ("button" if n % 4 == 0 else "command")
            if side == "page":
                page = pages[member.id]
                await shows_move(page, move)
                await page.locator(f'[data-action="{action}"]').click(position={"x": 8, "y": 30})
            elif side == "button":
                assert (await world.by_button(member, action)).acknowledged
            else:
                assert (await world.by_command(member, action)).acknowledged
            sides[side] += 1
            # The move is committed once, whichever side made it.
            for _ in range(TIMEOUT // 10):
                table = world.table()
                if table is not None and table.move_number > move:
                    break
                await asyncio.sleep(0.01)
            assert table is not None and table.move_number == move + 1, side
            view = world.service.view(channel, member.id).game or {}
            awaited_seat = table.to_act[0]
            awaited_name = table.seat(awaited_seat).name
            for _ in range(TIMEOUT // 10):  # the message is edited right after the commit
                said = message_says(world)
                if said[0] == awaited_name and any(member.name in line for line in said[2][-2:]):
                    break
                await asyncio.sleep(0.01)
            awaited, hand, story = said
            assert awaited == awaited_name, (side, action, awaited)
            assert hand == view["hand_number"]
            assert any(member.name in line for line in story[-2:]), (side, action, story)
            for other in members:
                page = pages[other.id]
                await shows_move(page, move + 1)
                await agrees(page, world.service, other.id, channel)
                # The page awaits the same player as the message.
                if other.id == table.seat(awaited_seat).user_id:
                    assert await page.get_attribute(".turn", "class") == "turn mine-now"
                else:
                    name = await page.text_content(".seat.to-act .name")
                    assert name is not None and name.startswith(awaited_name)
                shown = await page.text_content(".hand-no")
                assert shown is not None and shown.strip() == f"· #{hand}"
        assert sides["page"] == 12 and sides["button"] == 6 and sides["command"] == 6
        for page in pages.values():
            assert page.errors == []
    finally:
        await web.stop()
