"""The player's other tables on the table page, in a real browser (Debian's chromium): the
folded list appears under the table, his turn flagged, the other table linking to its Discord
channel, no script error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.service import TableService
from bot.web.server import WebServer
from tests.bot.conftest import TEST_LIMITS
from tests.web.conftest import BOB, CAT, CH, DAN, HOST, ONE_HAND, SECRET

TIMEOUT = 10_000


async def test_the_page_lists_the_players_other_tables(browser: Any, tmp_path: Path) -> None:
    service = TableService(tmp_path / "t.db", ai_delay=0, limits=TEST_LIMITS)
    await service.start()
    web = WebServer(service, SECRET)
    await web.start()
    try:
        await service.open_table(CH, 99, HOST, "Ann", "troika", options=ONE_HAND, seed=21)
        for user, name in ((BOB, "Bob"), (CAT, "Cat"), (DAN, "Dan")):
            await service.join(CH, user, name)
        await service.start_game(CH, HOST)
        await service.open_table(778, 99, BOB, "Bob", "troeven", options={"timer": "24h"})
        await service.join(778, HOST, "Ann")
        await service.start_game(778, BOB)
        page = await browser.new_page(viewport={"width": 400, "height": 850})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(web.link(HOST, CH))
        await page.wait_for_selector("#mytables summary", timeout=TIMEOUT)
        await page.click("#mytables summary")
        texts = "els => els.map(e => e.textContent)"
        items = await page.eval_on_selector_all("#mytables li", texts)
        assert len(items) == 2, items
        links = await page.eval_on_selector_all("#mytables a", "els => els.map(e => e.href)")
        assert links == ["https://discord.com/channels/99/778"]
        other = service.get_table(778)
        assert other is not None
        if other.seat(other.to_act[0]).user_id == HOST:  # type: ignore[union-attr]
            assert "⏳" in next(i for i in items if "Troeven" in i)
        section = await page.query_selector("#mytables")
        await section.scroll_into_view_if_needed()
        assert await section.is_visible(), "reachable below the table"
        assert errors == []
    finally:
        await web.stop()
        await service.close()
