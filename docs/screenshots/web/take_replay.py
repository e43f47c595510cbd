"""Screenshots of the replay viewer (bot/web: ``/r/<token>``): a finished game of each given game
at one step mid-trick, every hand shown, at a phone's 400x850 and a desktop's 1280x800, in the
dark and the light theme.

Run from the repository root (needs the Playwright package and a Chromium):

    PYTHONPATH=$PWD .venv/bin/python docs/screenshots/web/take_replay.py
        [--chromium /usr/bin/chromium] [--lang fr|de|nl] [GAME ...]

For each game it plays a whole seeded game on a throwaway database (Ann at seat 1, moving as the
normal AI would, and normal AIs), opens its replay link at the first step past the tenth move
with cards on the trick, and captures it: ``replay_<game>_<phone|desktop>_<theme>.png`` here.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bot.records import build, finished_game  # noqa: E402
from bot.service import TableService  # noqa: E402
from bot.web import replay  # noqa: E402
from bot.web.server import WebServer  # noqa: E402
from engine.ai import make_player  # noqa: E402

OUT = Path(__file__).resolve().parent
SIZES = {"phone": (400, 850), "desktop": (1280, 800)}
THEMES = ("dark", "light")
CHANNEL, GUILD, ME, SEED = 4321, 99, 1, 5
PLAYERS = {"troika": 4, "troeven": 2, "troggu": 4, "troikuntza": 4}
#: The shortest whole game of each.
SHORT = {"troika": {"end": "rounds", "rounds": 1}, "troggu": {"deals": 1}}


async def play(service: TableService, game: str) -> int:
    """A whole game of Ann and normal AIs; its table id."""
    options = {**SHORT.get(game, {}), "timer": "off"}
    table = await service.open_table(CHANNEL, GUILD, ME, "Ann", game, options=options, seed=SEED)
    for _ in range(PLAYERS.get(game, engine.GAMES[game].min_players) - 1):
        await service.add_ai(CHANNEL, ME, "normal")
    await service.start_game(CHANNEL, ME)
    for turn in range(20_000):
        await service.settle()
        if service.get_table(CHANNEL) is None:
            return table.id
        seen = service.view(CHANNEL, ME)
        if seen.legal:
            player = make_player(game, "normal", seed=turn)
            await service.act(CHANNEL, ME, player.choose(dict(seen.game or {}), list(seen.legal)))
    raise RuntimeError("the game did not end")


def step_to_show(record: dict) -> int:
    """The first step past the tenth move with two cards or more on the trick (or the tenth)."""
    for step in range(10, replay.total(record)):
        if len(replay.step_frame(record, step, "en")["public"].get("trick") or ()) >= 2:
            return step
    return min(10, replay.total(record))


async def shoot(games: list[str], chromium: str, language: str | None) -> list[Path]:
    from playwright.async_api import async_playwright

    written: list[Path] = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
        )
        for game in games:
            with tempfile.TemporaryDirectory() as folder:
                service = TableService(Path(folder) / "shots.db", ai_delay=0, local=False)
                await service.start()
                web = WebServer(service, b"screenshots-only-secret-screenshots!")
                await web.start()
                try:
                    table_id = await play(service, game)
                    found = await service.db.run(
                        lambda c, table_id=table_id: finished_game(c, GUILD, table_id)
                    )
                    assert found is not None
                    step = step_to_show(build(found))
                    url = web.replay_link(GUILD, table_id, language or "en") + f"&step={step}"
                    for size, (width, height) in SIZES.items():
                        for theme in THEMES:
                            page = await browser.new_page(
                                viewport={"width": width, "height": height},
                                color_scheme=theme,  # type: ignore[arg-type]
                            )
                            await page.goto(url)
                            await page.wait_for_selector(f"#table[data-step='{step}']")
                            await page.wait_for_timeout(300)
                            suffix = f"_{language}" if language else ""
                            path = OUT / f"replay_{game}_{size}_{theme}{suffix}.png"
                            await page.screenshot(path=str(path))
                            await page.close()
                            written.append(path)
                finally:
                    await web.stop()
                    await service.close()
        await browser.close()
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(engine.GAMES))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--lang", default=None)
    args = parser.parse_args()
    for path in asyncio.run(shoot(args.games, args.chromium, args.lang)):
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
