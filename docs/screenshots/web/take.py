"""Screenshots of the table in the browser (bot/web): each game's page, mid-hand, at a phone's
400x850 and a desktop's 1280x800, in the dark and the light theme.

Run from the repository root (needs the Playwright package and a Chromium):

    PYTHONPATH=$PWD .venv/bin/python docs/screenshots/web/take.py [--chromium /usr/bin/chromium]
        [--lang fr|de|nl] [GAME ...]

For each game it opens a table on a throwaway database: you at seat 1, easy AIs elsewhere,
plays seeded moves (yours: a card when you have one, else your first move) until mid-hand with
cards on the trick, then captures your page: ``<game>_<phone|desktop>_<theme>.png`` here.
Scenes of one moment more (name them as games; the others pass, you bid Tapp):
``troggu-tapp``, your Tapp exchange at five players with two cards picked; ``troggu-call``, your
partner call at seven (``troggu_tapp_...png``, ``troggu_call_...png``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bot.service import TableService  # noqa: E402
from bot.web.server import WebServer  # noqa: E402

OUT = Path(__file__).resolve().parent
SIZES = {"phone": (400, 850), "desktop": (1280, 800)}
THEMES = ("dark", "light")
CHANNEL = 4321
ME = 1
SEED = 16
#: Players per game (Troggu at 5: the Fool held back is a 5-player deal's).
PLAYERS = {"troika": 4, "troeven": 2, "troggu": 5, "troikuntza": 4}
#: Moves made before the shot, per game: far enough into the hand to show play.
MOVES = {"troika": 4, "troeven": 5, "troggu": 4, "troikuntza": 6}


async def set_up(service: TableService, game: str) -> None:
    """A table of you and easy AIs, played until mid-hand."""
    players = PLAYERS.get(game, engine.GAMES[game].min_players)
    await service.open_table(CHANNEL, None, ME, "You", game, options={"timer": "off"}, seed=SEED)
    for _ in range(players - 1):
        await service.add_ai(CHANNEL, ME, "easy")
    await service.start_game(CHANNEL, ME)
    rng = random.Random(SEED)
    mine = 0
    while mine < 40:
        await service.settle()
        legal = service.legal_actions(CHANNEL, ME)
        if not legal:
            await asyncio.sleep(0.05)
            continue
        view = service.view(CHANNEL, ME).game or {}
        playing = any(a.startswith("play ") for a in legal)
        if mine >= MOVES.get(game, 4) and (playing and view.get("trick") or "trick" not in view):
            break  # the reader is to play to a trick in progress (or, rummy, to move)
        cards = [a for a in legal if a.startswith("play ")]
        await service.act(CHANNEL, ME, rng.choice(cards) if cards else legal[0])
        mine += 1


#: Scenes: (game, players, the phase you are shown in, cards picked on the page first).
SCENES = {"troggu-tapp": ("troggu", 5, "discard", 2), "troggu-call": ("troggu", 7, "call", 0)}


#: The other players of a scene (seated as people: the script passes for them).
OTHERS = ("Bea", "Cal", "Dia", "Eli", "Fay", "Gus")


async def set_up_scene(service: TableService, scene: str) -> int:
    """A Troggu deal where you bid Tapp and the others pass, stopped at the scene's phase
    (your discards made for you on the way to the call). Returns the table's channel."""
    game, players, phase, _ = SCENES[scene]
    options = {"timer": "off"}
    await service.open_table(CHANNEL, None, ME, "You", game, options=options, seed=SEED)
    for n, name in enumerate(OTHERS[: players - 1], start=2):
        await service.join(CHANNEL, n, name)
    await service.start_game(CHANNEL, ME)
    while True:
        table = service.get_table(CHANNEL)
        assert table is not None and table.to_act
        user = next(s.user_id for s in table.seats if s.index == table.to_act[0])
        assert user is not None
        view = service.view(CHANNEL, user).game or {}
        if user == ME and view["phase"] == phase:
            return CHANNEL
        legal = service.legal_actions(CHANNEL, user)
        move = "tapp" if user == ME and "tapp" in legal else "pass" if "pass" in legal else legal[0]
        await service.act(CHANNEL, user, move)


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
                    channel = CHANNEL
                    if game in SCENES:
                        channel = await set_up_scene(service, game)
                    else:
                        await set_up(service, game)
                    url = web.link(ME, channel, language)
                    picks = SCENES[game][3] if game in SCENES else 0
                    for size, (width, height) in SIZES.items():
                        for theme in THEMES:
                            page = await browser.new_page(
                                viewport={"width": width, "height": height},
                                color_scheme=theme,  # type: ignore[arg-type]
                            )
                            await page.goto(url)
                            await page.wait_for_selector("#table[data-move]")
                            for _ in range(picks):  # (each pick redraws the hand)
                                card = page.locator(".hand .card.pick:not(.picked)").first
                                await card.click(position={"x": 8, "y": 30})
                            await page.wait_for_timeout(300)
                            suffix = f"_{language}" if language else ""
                            name = game.replace("-", "_")
                            path = OUT / f"{name}_{size}_{theme}{suffix}.png"
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
    parser.add_argument("games", nargs="*", default=[*engine.GAMES, *SCENES])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--lang", default=None)
    args = parser.parse_args()
    for path in asyncio.run(shoot(args.games, args.chromium, args.lang)):
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
