"""Screenshots of the four games as Discord shows them: the real bot under SimCord, rendered by
SimCord's browser preview at phone width, in Discord's dark and light themes.

Run from the repository root (needs the Playwright package and a Chromium; see README.md here):

    PYTHONPATH=$PWD .venv/bin/python docs/screenshots/take.py [--chromium /usr/bin/chromium]
        [--lang fr|de|nl] [GAME ...]

For each game it opens a table of humans, plays seeded random legal moves until mid-game, then
captures the public table message and the private hand panel ("Show my hand") of the player to
act, each in both themes: ``<game>_table_<theme>.png`` and ``<game>_hand_<theme>.png``; with
``--refusals``, also the private replies to two bad moves of that player (a card he holds but
may not play, and a word that is no card): ``<game>_refused_<theme>.png``, ``<game>_nocard_...``.
With
``--lang``, every player's client and the server speak that language and the files are
``<game>_table_<theme>_<lang>.png`` (and so on).

With ``--phases``, each game is played on from its deal and shot at each of its moments
(``PHASES``: the auction, a trick being played, a trick just won, the end of the first hand with
its frozen summary, TroiKuntza's May I window): ``phases/<game>_<moment>_<what>_<theme>.png``
(``_<lang>`` added with ``--lang``), what being ``table``, ``hand`` (the panel of the player to
act) or ``summary`` (the hand's frozen message).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord
from PIL import Image
from simcord.preview import _capture

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "cogs"))  # the SimCord world the cog tests use

from cog_world import World, make_settings, run_world  # noqa: E402

from bot.render.pool import drawing_in_threads  # noqa: E402

OUT = Path(__file__).resolve().parent
WIDTH, HEIGHT = 400, 1400  # a phone's width; tall enough for the whole message
THEMES = ("dark", "light")
SEED = 16  # the deal (and, through it, every picture) is the same on every run

# Discord's light palette for the variables SimCord's preview.css defines for its dark theme,
# plus the few rules that hard-code a dark colour instead of using a variable.
LIGHT_CSS = """
:root {
  color-scheme: light; background: #ffffff; color: #313338;
  --discord-bg: #ffffff; --discord-surface: #f2f3f5; --discord-elevated: #e3e5e8;
  --discord-control: #ebedef; --discord-hover: #e8e9ec; --discord-text: #313338;
  --discord-muted: #5c5e66; --discord-subtle: #4e5058; --discord-border: #d4d7dc;
  --component-surface: #f2f3f5; --component-border: #e1e2e4; --modal-surface: #ffffff;
  --control-border: #d4d7dc; --chip-surface: #ebedef; --list-surface: #ffffff;
  --option-hover: #e8e9ec; --subtle-surface: #d4d7dc; --subtle-surface-text: #313338;
  --entity-text: #4e5058; --entity-dim: #5c5e66; --input-surface: #ebedef;
  --code-surface: #f2f3f5; --code-border: #e3e5e8; --code-text: #313338;
  --embed-field-name: #060607; --link-text: #006ce7; --button-secondary-surface: #6d6f78;
}
body, .preview-stage, .channel-message, .message-stage { background: #ffffff !important; }
.message-content { color: #313338; }
.button-style-2, .button-secondary, .button-style-5, .button-style-6 { background: #6d6f78; }
"""


@dataclass
class Game:
    name: str
    humans: int
    options: dict[str, str] = field(default_factory=dict)
    moves: int = 20
    prefer: tuple[str, ...] = ()  # verbs played whenever legal, so the picture has them


GAMES = (
    Game("troika", 4, moves=14),
    Game("troeven", 2, moves=13),
    Game("troggu", 4, moves=20),
    # Melds on the table: lay down and lay off whenever that is legal.
    Game("troikuntza", 4, moves=40, prefer=("meld", "layoff")),
)


def use_chromium(executable: str) -> None:
    """Make SimCord's capture launch the given Chromium (Playwright's own download is not
    needed), and give each page the theme ``ThemedBrowser.theme`` names."""

    async def ensure_browser(self: Any) -> Any:
        if self._browser is None:
            from playwright.async_api import async_playwright

            self._playwright = await async_playwright().start()
            self._browser = ThemedBrowser(
                await self._playwright.chromium.launch(
                    executable_path=executable,
                    args=[
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                        "--no-first-run",
                    ],
                )
            )
        return self._browser

    _capture.ManagedCapture._ensure_browser = ensure_browser  # type: ignore[method-assign]


class ThemedBrowser:
    """The Playwright browser, whose new contexts add the light stylesheet when asked to.

    SimCord's preview has only Discord's dark theme (its page CSS sets the colours through
    variables); the light theme is that page with ``LIGHT_CSS`` added once it has loaded."""

    theme = "dark"

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)

    async def new_context(self, **kwargs: Any) -> Any:
        light = ThemedBrowser.theme == "light"
        # The preview's Content-Security-Policy forbids inline styles; the light sheet is one.
        context = await self._browser.new_context(**kwargs, bypass_csp=light)
        if light:
            await context.add_init_script(
                "document.addEventListener('DOMContentLoaded', () => {"
                " const s = document.createElement('style');"
                f" s.textContent = {json.dumps(LIGHT_CSS)}; document.head.appendChild(s); }});"
            )
        return context


def shrink(path: Path) -> None:
    """256 colours without dithering: a Discord screenshot has few colours (flat surfaces,
    text, the card pictures), and the file shrinks to about a third."""
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT, dither=0)
    small.save(path, optimize=True)


async def open_seeded(world: World, game: Game, ais: int = 0) -> None:
    """``World.open`` with a fixed deal: the seed is set on the lobby before ``/start``;
    ``ais`` of the seats go to the AI."""
    host = world.members[0]
    await world.slash(host, f"new {game.name}", **game.options)
    for member in world.members[1 : game.humans - ais]:
        await world.slash(member, "join")
    for _seat in range(ais):
        await world.slash(host, "addbot")
    # The service's own lobby record (``world.table()`` is a frozen copy); a lobby has no seed
    # yet, and ``/start`` draws one only when none is set.
    world.service._tables[world.channel.id].seed = SEED
    started = await world.slash(host, "start")
    assert started.response.content, "the host started the game"


def speak(world: World, language: str) -> None:
    """Every member's client in ``language`` (SimCord sends en-US), the server too (as its
    admins would set it with ``/admin defaults language``)."""
    original = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        payload["locale"] = language
        return record, payload

    simcord.interactions.base_payload = base_payload  # type: ignore[assignment]
    world.bot.table_publisher.languages._chosen[world.channel.guild.id] = language


async def bad_moves(world: World, member: Any, legal: list[str]) -> list[tuple[str, Any]]:
    """The replies to ``/play`` of a card ``member`` holds but may not play now (when he has
    one) and of a word that is no card; both must be refused privately."""
    view = world.service.view(world.channel.id, member.id).game or {}
    playable = {a.split(" ", 1)[1].lower() for a in legal if a.startswith("play ")}
    held = [str(c) for c in view.get("hand", []) if str(c).lower() not in playable]
    replies = []
    for kind, card in (("refused", held[0] if held else None), ("nocard", "zz")):
        if card is None:
            continue
        reply = await world.slash(member, "play", card=card)
        assert reply.ephemeral, f"{kind}: the refusal is private"
        replies.append((kind, reply))
    return replies


async def shoot(
    world: World,
    game: Game,
    out: Path,
    language: str = "",
    ais: int = 0,
    refusals: bool = False,
    picks: Any = None,
) -> list[Path]:
    """The table message and the hand panel after ``game.moves`` moves, in each theme; with
    ``picks`` (``meld_pick``) the moves and shots it makes instead."""
    if language:
        speak(world, language)
    await open_seeded(world, game, ais)
    count = {"n": 0}

    def stop(w: World) -> bool:
        count["n"] += 1
        return count["n"] > game.moves

    rng = random.Random(SEED)

    def choose(_member: int, legal: list[str]) -> str:
        wanted = [a for a in legal if a.split(" ", 1)[0] in game.prefer]
        return rng.choice(wanted or legal)

    if picks is not None:
        shots = await picks(world, game)
        turn = world.human_to_act()
        assert turn is not None
        member, legal = turn
        shots = shots[1:]  # the pick only
    else:
        await world.play(stop=stop, choose=choose)
        turn = world.human_to_act()
        assert turn is not None, f"{game.name} ended within {game.moves} moves"
        member, legal = turn
        table_message = world.live_table_message()
        hand_button = next(
            c.custom_id
            for row in table_message.components
            for c in getattr(row, "children", [])
            if "tt:hand:" in (c.custom_id or "")
        )
        panel = await member.click(table_message, custom_id=hand_button)
        shots = [("table", table_message), ("hand", panel)]
    if refusals:
        shots += await bad_moves(world, member, legal)
    written = []
    async with world.env.preview(
        world.channel, viewers=[member], layout="message", display="fixed", width=WIDTH,
        height=HEIGHT,
    ) as preview:  # fmt: skip
        for theme in THEMES:
            ThemedBrowser.theme = theme
            for kind, target in shots:
                suffix = f"_{language}" if language else ""
                path = out / f"{game.name}_{kind}_{theme}{suffix}.png"
                report = await preview.screenshot(
                    path, viewer=member, target=target, mode="surface",
                    viewport=(WIDTH, HEIGHT), allow_incomplete=True,
                )  # fmt: skip
                if not report.complete:
                    print(f"{path.name}: incomplete rendering: {report.diagnostics}")
                shrink(path)
                print(f"{path.name}: {report.output_width}x{report.output_height} px, "
                      f"{path.stat().st_size // 1024} KB")  # fmt: skip
                written.append(path)
    return written


def _view(world: World) -> dict[str, Any]:
    return world.service.public_view(world.channel.id) or {}


def _bidding(world: World) -> bool:
    return _view(world).get("phase") in {"bidding", "trump"} and world.human_to_act() is not None


def _mid_trick(world: World) -> bool:
    view = _view(world)
    return view.get("phase") == "play" and len(view.get("trick") or []) >= 1


def _trick_won(world: World) -> bool:
    view = _view(world)
    return view.get("phase") == "play" and not view.get("trick") and bool(view.get("last_trick"))


def _hand_over(world: World) -> bool:
    return int(_view(world).get("hand_number") or 1) >= 2


def _may_i(world: World) -> bool:
    return bool((_view(world).get("mayi") or {}).get("open")) and world.human_to_act() is not None


def _rummy_turn(world: World) -> bool:
    turn = world.human_to_act()
    return turn is not None and any(a.startswith("discard ") for a in turn[1])


#: Each game's moments in the order they come, with what is shot at each.
PHASES: dict[str, tuple[tuple[str, Any, tuple[str, ...]], ...]] = {
    "troika": (
        ("auction", _bidding, ("table", "hand")),
        ("play", _mid_trick, ("table", "hand")),
        ("trick", _trick_won, ("table",)),
        ("handend", _hand_over, ("summary", "table")),
    ),
    "troeven": (
        ("auction", _bidding, ("table", "hand")),
        ("play", _mid_trick, ("table", "hand")),
        ("trick", _trick_won, ("table",)),
        ("handend", _hand_over, ("summary", "table")),
    ),
    "troggu": (
        ("auction", _bidding, ("table", "hand")),
        ("play", _mid_trick, ("table", "hand")),
        ("trick", _trick_won, ("table",)),
        ("handend", _hand_over, ("summary", "table")),
    ),
    "troikuntza": (
        ("play", _rummy_turn, ("table", "hand")),
        ("mayi", _may_i, ("table", "hand")),
        ("handend", _hand_over, ("summary", "table")),
    ),
}


async def capture(
    world: World, member: Any, shots: list[tuple[str, Any]], out: Path, language: str
) -> list[Path]:
    """Each of ``shots`` (name, message or interaction result) in both themes."""
    written = []
    async with world.env.preview(
        world.channel, viewers=[member], layout="message", display="fixed", width=WIDTH,
        height=HEIGHT,
    ) as preview:  # fmt: skip
        for theme in THEMES:
            ThemedBrowser.theme = theme
            for name, target in shots:
                suffix = f"_{language}" if language else ""
                path = out / f"{name}_{theme}{suffix}.png"
                report = await preview.screenshot(
                    path, viewer=member, target=target, mode="surface",
                    viewport=(WIDTH, HEIGHT), allow_incomplete=True,
                )  # fmt: skip
                if not report.complete:
                    print(f"{path.name}: incomplete rendering: {report.diagnostics}")
                shrink(path)
                print(f"{path.name}: {report.output_width}x{report.output_height} px, "
                      f"{path.stat().st_size // 1024} KB")  # fmt: skip
                written.append(path)
    return written


async def shoot_phases(world: World, game: Game, out: Path, language: str = "") -> list[Path]:
    """The game played on from its deal (seeded random legal moves, melds and lay-offs when
    legal), shot at each of its moments (``PHASES``)."""
    if language:
        speak(world, language)
    await open_seeded(world, game)
    rng = random.Random(SEED)

    def choose(_member: int, legal: list[str]) -> str:
        wanted = [a for a in legal if a.split(" ", 1)[0] in game.prefer]
        return rng.choice(wanted or legal)

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for moment, reached, kinds in PHASES[game.name]:
        await world.play(stop=reached, choose=choose)
        if not reached(world):
            print(f"{game.name}: the game ended before {moment}")
            break
        turn = world.human_to_act()
        member = turn[0] if turn is not None else world.members[0]
        shots: list[tuple[str, Any]] = []
        for kind in kinds:
            name = f"{game.name}_{moment}_{kind}"
            if kind == "table":
                shots.append((name, world.live_table_message()))
            elif kind == "summary":
                # The hand's message, frozen when the next hand's live message was posted.
                frozen = world.table_messages()[-2:-1]
                shots += [(name, message) for message in frozen]
            elif turn is not None:
                button = f"tt:hand:{world.channel.id}"
                panel = await member.click(world.live_table_message(), custom_id=button)
                shots.append((name, panel))
        written += await capture(world, member, shots, out, language)
    return written


def _may_meld(world: World) -> bool:
    turn = world.human_to_act()
    return turn is not None and any(a.startswith("meld ") for a in turn[1])


async def meld_pick(world: World, game: Game) -> list[tuple[str, Any]]:
    """TroiKuntza's pick of the player's own melds (``cogs.card_picks``): play on without
    melding until a player may come out, open his pick and choose the first meld the bot would
    propose, as he would (the rest is his to pick)."""
    rng = random.Random(SEED)

    def choose(_member: int, legal: list[str]) -> str:
        plain = [a for a in legal if not a.startswith(("meld ", "layoff "))]
        return "draw" if "draw" in legal else rng.choice(plain or legal)

    await world.play(stop=_may_meld, choose=choose)
    turn = world.human_to_act()
    assert turn is not None and _may_meld(world), "nobody may come out"
    member, legal = turn
    channel = world.channel.id
    panel = await member.click(world.live_table_message(), custom_id=f"tt:hand:{channel}")
    picker = await member.click(panel.response.message, custom_id=f"tt:cardsdo:{channel}:open:")
    first = next(a for a in legal if a.startswith("meld ")).split(" ", 1)[1].split("|")[0]
    values, copies = [], {}
    for card in first.split():
        values.append(f"{card}#{copies.get(card, 0)}")
        copies[card] = copies.get(card, 0) + 1
    message = picker.response.message
    select = next(
        c.custom_id
        for row in message.components
        for c in getattr(row, "children", [])
        if (c.custom_id or "").startswith(f"tt:cards:{channel}:0:")
    )
    picked = await member.select(message, values, custom_id=select)
    return [("hand", panel), ("melds", picked)]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--lang", default="", choices=["", "fr", "de", "nl"])
    parser.add_argument("--ais", type=int, default=0, help="seats the AI plays (the last ones)")
    parser.add_argument("--refusals", action="store_true", help="also two refused moves")
    parser.add_argument("--melds", action="store_true", help="TroiKuntza's meld pick only")
    parser.add_argument("--phases", action="store_true", help="each game at each moment")
    parser.add_argument("games", nargs="*", default=[g.name for g in GAMES])
    args = parser.parse_args()
    unknown = set(args.games) - {g.name for g in GAMES}
    if unknown:
        parser.error(f"unknown game(s): {', '.join(sorted(unknown))}")
    use_chromium(args.chromium)
    # As the cog tests' conftest does: poll the database thread every 0.5 ms, not SimCord's 50.
    original = simcord.Env._settle_internal

    async def settle(self: simcord.Env, **kwargs: Any) -> None:
        kwargs.setdefault("idle", 0.0005)
        await original(self, **kwargs)

    simcord.Env._settle_internal = settle  # type: ignore[method-assign]
    # Pictures in threads, as in the tests: SimCord freezes the clock a process start waits on.
    with drawing_in_threads():
        for game in GAMES:
            if game.name not in args.games:
                continue
            with tempfile.TemporaryDirectory() as tmp:
                async with run_world(make_settings(Path(tmp))) as world:
                    if args.phases:
                        await shoot_phases(world, game, args.out / "phases", args.lang)
                    elif args.melds and game.name == "troikuntza":
                        await shoot(world, game, args.out, args.lang, picks=meld_pick)
                    elif not args.melds:
                        await shoot(world, game, args.out, args.lang, args.ais, args.refusals)


if __name__ == "__main__":
    asyncio.run(main())
