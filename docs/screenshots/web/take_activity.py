"""Screenshots of the table as a Discord Activity (docs/activity.md): Troika mid-hand in
Discord's Activity frame at a phone's 400x720 and the desktop client's 1024x640, dark and light;
a watcher's page with its Take a seat button; a page whose client never answers.

Run from the repository root (needs the Playwright package and a Chromium):

    PYTHONPATH=$PWD .venv/bin/python docs/screenshots/web/take_activity.py [--chromium PATH]

The page signs in exactly as in the tests: a stand-in for Discord's client frames it under
/.proxy/ and speaks the SDK's frame protocol (tests/web/discord_client.py), a loopback fake of
Discord's API answers the bot (tests/web/fake_discord.py). Writes ``activity_*.png`` here.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from aiohttp.test_utils import TestServer  # noqa: E402
from take import CHANNEL, ME, set_up  # noqa: E402

from bot.service import TableService  # noqa: E402
from bot.web.activity import ActivityConfig  # noqa: E402
from bot.web.server import WebServer  # noqa: E402
from tests.web.discord_client import DiscordClient  # noqa: E402
from tests.web.fake_discord import APP_ID, BOT_TOKEN, CLIENT_SECRET, FakeDiscord  # noqa: E402

OUT = Path(__file__).resolve().parent
SIZES = {"mobile": (400, 720), "desktop": (1024, 640)}
THEMES = ("dark", "light")
WATCHER = 2


async def shoot(chromium: str) -> list[Path]:
    from playwright.async_api import async_playwright

    written: list[Path] = []
    fake = FakeDiscord(users={ME: "You", WATCHER: "Sam"})
    api = TestServer(fake.app())
    await api.start_server()
    with tempfile.TemporaryDirectory() as folder:
        service = TableService(Path(folder) / "shots.db", ai_delay=0, local=False)
        await service.start()
        config = ActivityConfig(
            APP_ID, CLIENT_SECRET, BOT_TOKEN, f"http://{api.host}:{api.port}/api"
        )
        web = WebServer(service, b"screenshots-only-secret-screenshots!", activity_config=config)
        await web.start()
        front = TestServer(DiscordClient(fake, f"http://127.0.0.1:{web.port}").app())
        await front.start_server()
        base = f"http://{front.host}:{front.port}"
        try:
            await set_up(service, "troika")
            instance = fake.open_instance(CHANNEL, [ME, WATCHER])
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
                )
                shots = [
                    (f"activity_{size}_{theme}.png", ME, size, theme, "", "#table[data-move]")
                    for size in SIZES
                    for theme in THEMES
                ]
                shots.append(("activity_watcher_mobile_dark.png", WATCHER, "mobile", "dark", "",
                              '[data-seat="join"]'))  # fmt: skip
                shots.append(("activity_no_discord_mobile_dark.png", ME, "mobile", "dark",
                              "&silent=1", "#table[data-refused]"))  # fmt: skip
                for name, user, size, theme, extra, ready in shots:
                    width, height = SIZES[size]
                    page = await browser.new_page(
                        viewport={"width": width, "height": height},
                        color_scheme=theme,  # type: ignore[arg-type]
                    )
                    await page.goto(
                        f"{base}/client/{user}?instance={instance}&platform={size}"
                        f"&w={width}&h={height}{extra}"
                    )
                    frame = await (await page.wait_for_selector("iframe")).content_frame()
                    assert frame is not None
                    await frame.wait_for_selector(ready, timeout=30_000)
                    await page.wait_for_timeout(300)
                    path = OUT / name
                    await page.screenshot(path=str(path))
                    await page.close()
                    written.append(path)
                await browser.close()
        finally:
            await front.close()
            await web.stop()
            await service.close()
            await api.close()
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    for path in asyncio.run(shoot(args.chromium)):
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
