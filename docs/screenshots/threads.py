"""Screenshots of tables in their own threads: the lobby posts in the channel and a table's
message in its thread, at 400 px, in Discord's dark and light themes (take.py's helpers).

Run from the repository root, as take.py:

    PYTHONPATH=$PWD .venv/bin/python docs/screenshots/threads.py [--chromium /usr/bin/chromium]

Three tables in one channel (the server's default: a thread per table): ann's Troggu being
played, dee's Troika waiting for players, and fay's Troeven lobby, closed by its host.
It writes ``threads_channel_<theme>.png`` (the channel: its lobby posts),
``threads_post_<theme>.png`` (the playing table's lobby post) and ``threads_table_<theme>.png``
(the playing table's message in its thread).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from pathlib import Path
from typing import Any

import simcord
from take import (
    HEIGHT,
    OUT,
    SEED,
    THEMES,
    WIDTH,
    ThemedBrowser,
    World,
    drawing_in_threads,
    make_settings,
    run_world,
    shrink,
    use_chromium,
)

#: The channel's view: its lobby posts, as a phone shows them.
CHANNEL_HEIGHT = 900


async def _new(world: World, host: Any, game: str, **options: Any) -> Any:
    parent = world.channel
    before = {t.id for t in parent.threads}
    await host.slash(parent, f"new {game}", **options)
    (thread,) = [t for t in parent.threads if t.id not in before]
    return thread


async def stage(world: World) -> tuple[Any, Any]:
    """The three tables; returns (the channel, the playing table's thread)."""
    ann, bob, cid, dee = world.members[:4]
    parent = world.channel
    playing = await _new(world, ann, "troggu", preset="quick")
    world.channel = playing
    await world.slash(bob, "join")
    await world.slash(cid, "join")
    world.service._tables[playing.id].seed = SEED
    await world.slash(ann, "start")
    rng = random.Random(SEED)
    count = {"n": 0}

    def stop(_w: World) -> bool:
        count["n"] += 1
        return count["n"] > 6

    await world.play(stop=stop, choose=lambda _m, legal: rng.choice(legal))
    world.channel = parent
    waiting = await _new(world, dee, "troika")
    world.channel = waiting
    await world.slash(world.members[4], "join")
    world.channel = parent
    closed = await _new(world, world.members[5], "troeven")
    world.channel = closed
    await world.slash(world.members[5], "abandon")
    world.channel = parent
    return parent, playing


async def shoot(world: World, out: Path) -> list[Path]:
    parent, playing = await stage(world)
    viewer = world.members[-1]  # (hal: he typed nothing, so no private answer shows)
    written = []
    post = next(m for m in parent.history() if m.id == playing.id)  # (its thread's id)
    async with world.env.preview(
        parent, viewers=[viewer], layout="channel", display="fixed", width=WIDTH, height=HEIGHT
    ) as preview:
        for theme in THEMES:
            ThemedBrowser.theme = theme
            shots = [
                (f"threads_channel_{theme}.png", None, "viewport", (WIDTH, CHANNEL_HEIGHT)),
                (f"threads_post_{theme}.png", post, "surface", (WIDTH, HEIGHT)),
            ]
            for name, target, mode, size in shots:
                path = out / name
                report = await preview.screenshot(
                    path, viewer=viewer, target=target, mode=mode, viewport=size,
                    allow_incomplete=True,
                )  # fmt: skip
                if not report.complete:
                    print(f"{path.name}: incomplete rendering: {report.diagnostics}")
                shrink(path)
                written.append(path)
    world.channel = playing
    message = world.live_table_message()
    async with world.env.preview(
        playing, viewers=[viewer], layout="message", display="fixed", width=WIDTH, height=HEIGHT
    ) as preview:
        for theme in THEMES:
            ThemedBrowser.theme = theme
            path = out / f"threads_table_{theme}.png"
            report = await preview.screenshot(
                path, viewer=viewer, target=message, mode="surface",
                viewport=(WIDTH, HEIGHT), allow_incomplete=True,
            )  # fmt: skip
            if not report.complete:
                print(f"{path.name}: incomplete rendering: {report.diagnostics}")
            shrink(path)
            written.append(path)
    for path in written:
        print(f"{path.name}: {path.stat().st_size // 1024} KB")
    return written


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    use_chromium(args.chromium)
    original = simcord.Env._settle_internal

    async def settle(self: simcord.Env, **kwargs: Any) -> None:
        kwargs.setdefault("idle", 0.0005)
        await original(self, **kwargs)

    simcord.Env._settle_internal = settle  # type: ignore[method-assign]
    with drawing_in_threads(), tempfile.TemporaryDirectory() as tmp:
        async with run_world(make_settings(Path(tmp)), tables_in=None) as world:
            await shoot(world, args.out)


if __name__ == "__main__":
    asyncio.run(main())
