"""Screenshots of a player's turn-based tables as Discord shows them: the ``/mytables`` answer
and the direct-message turn digest (``/notify``), at phone width in the dark and light themes
(the real bot under SimCord, its browser preview; see take.py).

    PYTHONPATH=$PWD .venv/bin/python docs/screenshots/turns.py [--chromium /usr/bin/chromium]

Ann plays four two-player tables with a 24 h clock in four channels: three wait for her, one
for Bob. She asks for direct messages; the digest arrives ten minutes later. Files:
``mytables_<theme>.png`` and ``digest_<theme>.png``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

import simcord

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "cogs"))  # the SimCord world the cog tests use
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cog_world import World, make_settings, run_world  # noqa: E402
from take import HEIGHT, THEMES, WIDTH, ThemedBrowser, shrink, use_chromium  # noqa: E402

from bot.render.pool import drawing_in_threads  # noqa: E402
from bot.service.digests import DIGEST_DELAY  # noqa: E402
from cogs.moves import declared_verbs  # noqa: E402

OUT = Path(__file__).resolve().parent


async def move(channel: Any, member: Any, action: str) -> None:
    verbs = declared_verbs()
    head = action.split(" ", 1)[0]
    verb = verbs.get(head) or next(v for v in verbs.values() if v.makes(action))
    words = verb.argument_of(action).split(" ") if verb.args else []
    count = len(verb.args)
    values = words[: count - 1] + [" ".join(words[count - 1 :])] if count else []
    options = {arg.name: value for arg, value in zip(verb.args, values, strict=True)}
    await member.slash(channel, verb.name, **options)


async def table(world: World, name: str, host: Any, guest: Any, waiting: Any) -> None:
    """A 24 h Troeven table of ``host`` and ``guest`` in a new channel, waiting for ``waiting``."""
    channel = world.guild.create_text_channel(name)
    await host.slash(channel, "new troeven", timer="24h")
    await guest.slash(channel, "join")
    await host.slash(channel, "start")
    for _ in range(40):
        shown = world.service.get_table(channel.id)
        assert shown is not None
        seat = shown.seat(shown.to_act[0])
        assert seat is not None
        if seat.user_id == waiting.id:
            return
        mover = world.member_of(seat.user_id)  # type: ignore[arg-type]
        await move(channel, mover, world.service.legal_actions(channel.id, mover.id)[0])
        await world.env.advance_time(2 * 3600)  # a turn-based pace: deadlines differ


async def shoot(world: World, out: Path) -> list[Path]:
    ann, bob = world.members[:2]
    for name in ("evening-game", "with-bob", "long-one"):
        await table(world, name, bob, ann, ann)
    await table(world, "bobs-turn", ann, bob, bob)
    answer = await world.slash(ann, "mytables")
    await world.slash(ann, "notify", dm="on")
    await world.env.advance_time(DIGEST_DELAY + 5)
    (digest,) = ann.user.dm_channel.history()
    written: list[Path] = []
    shots = [("mytables", world.channel, ann, answer), ("digest", ann.user.dm_channel, ann.user,
             digest)]  # fmt: skip
    for kind, channel, viewer, target in shots:
        async with world.env.preview(
            channel, viewers=[viewer], layout="message", display="fixed", width=WIDTH,
            height=HEIGHT,
        ) as preview:  # fmt: skip
            for theme in THEMES:
                ThemedBrowser.theme = theme
                path = out / f"{kind}_{theme}.png"
                report = await preview.screenshot(
                    path, viewer=viewer, target=target, mode="surface",
                    viewport=(WIDTH, HEIGHT), allow_incomplete=True,
                )  # fmt: skip
                if not report.complete:
                    print(f"{path.name}: incomplete rendering: {report.diagnostics}")
                shrink(path)
                print(f"{path.name}: {report.output_width}x{report.output_height} px")
                written.append(path)
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
        async with run_world(make_settings(Path(tmp))) as world:
            await shoot(world, args.out)


if __name__ == "__main__":
    asyncio.run(main())
