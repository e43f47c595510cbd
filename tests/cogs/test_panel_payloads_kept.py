"""Every seat's hand panel, as discord.py sends it, is the same as before the panel's text was
made cheaper (shared per state and language, helpers memoised): seeded games of the four games
are played with all seats human and, at every state, every seat's panel is drawn in English and
in French; the payloads (the embed, the components, the hand picture's arguments) are hashed per
game and language and compared with the hashes recorded on main before the change.

A wording change (a catalog, a presenter's sentence) changes a hash on purpose: then check that
the change is the intended one and record the new hashes (``--record`` prints them: run
``python tests/cogs/test_panel_payloads_kept.py`` from the repository's root).
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import re
import sys
from pathlib import Path

import orjson
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.i18n.core import use_locale  # noqa: E402
from bot.service import Limits, TableService  # noqa: E402
from cogs.panels import draw_panel  # noqa: E402

#: (game, players, seed, moves): each game at a common count, TroiKuntza also at six (melds of
#: many players, May I windows).
GAMES = (
    ("troeven", 2, 3, 90),
    ("troggu", 4, 5, 90),
    ("troika", 4, 7, 90),
    ("troikuntza", 4, 11, 150),
    ("troikuntza", 6, 13, 150),
)
LANGUAGES = ("en", "fr")

#: Recorded on main (8e4a697) with ``--record``.
KEPT = {
    "troeven/2/en": "da0afbfa3e397a27",
    "troeven/2/fr": "b1a3d36c614cb10b",
    "troggu/4/en": "bd2ac95dcc488ba3",
    "troggu/4/fr": "112d210cd2ed91e2",
    "troika/4/en": "57d942eeb77b2c23",
    "troika/4/fr": "227b50a56bcaa885",
    "troikuntza/4/en": "e9b6f0caf029065d",
    "troikuntza/4/fr": "2cc7259e960432fd",
    "troikuntza/6/en": "8a18e0a18d69d392",
    "troikuntza/6/fr": "3a698dd2ec029e79",
}


#: A Discord timestamp (a May I window's end: the clock's time when it opened).
_WHEN = re.compile(rb"<t:\d+:R>")


def _payload(service: TableService, channel: int, user: int) -> bytes:
    panel = draw_panel(service, channel, user)
    picture = None if panel.picture is None else [panel.picture.draw, repr(panel.picture.args)]
    sent = [panel.embed.to_dict(), panel.components.to_components(), picture]
    return _WHEN.sub(b"<t:when:R>", orjson.dumps(sent, option=orjson.OPT_SORT_KEYS))


async def panel_hashes(folder: Path) -> dict[str, str]:
    """The hash of every seat's panel at every state, per game, players and language."""
    digests = {f"{g}/{n}/{lang}": hashlib.sha256() for g, n, _s, _m in GAMES for lang in LANGUAGES}
    service = TableService(folder / "panels.db", ai_delay=0, limits=Limits.none())
    await service.start()
    try:
        for number, (game, players, seed, moves) in enumerate(GAMES):
            channel = 5000 + number
            users = [channel * 10 + i for i in range(players)]
            await service.open_table(channel, 1, users[0], "Ann", game,
                                     options={"timer": "off"}, seed=seed)  # fmt: skip
            for i, user in enumerate(users[1:], 1):
                await service.join(channel, user, f"Player {i}")
            await service.start_game(channel, users[0])
            rng = random.Random(seed)
            for _move in range(moves):
                table = service.get_table(channel)
                if table is None or table.status.value != "playing":
                    break
                for language in LANGUAGES:
                    with use_locale(language):
                        for user in users:
                            digest = digests[f"{game}/{players}/{language}"]
                            digest.update(_payload(service, channel, user))
                movers = [u for u in users if service.legal_actions(channel, u)]
                if not movers:
                    break
                mover = rng.choice(movers)
                await service.act(channel, mover, rng.choice(service.legal_actions(channel, mover)))
    finally:
        await service.close()
    return {key: digest.hexdigest()[:16] for key, digest in digests.items()}


async def test_every_seats_panel_is_drawn_as_before(tmp_path: Path) -> None:
    assert await panel_hashes(tmp_path) == KEPT


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_panel_drawn_twice_is_the_same(tmp_path: Path, language: str) -> None:
    """What is shared per state and language is not changed by the panel that reads it: the
    same seat's panel drawn again, after the other seats', is the same."""
    service = TableService(tmp_path / "again.db", ai_delay=0, limits=Limits.none())
    await service.start()
    try:
        users = [71, 72, 73, 74]
        await service.open_table(7, 1, users[0], "Ann", "troika", options={"timer": "off"}, seed=1)
        for i, user in enumerate(users[1:], 1):
            await service.join(7, user, f"Player {i}")
        await service.start_game(7, users[0])
        with use_locale(language):
            first = [_payload(service, 7, user) for user in users]
            assert [_payload(service, 7, user) for user in reversed(users)] == first[::-1]
    finally:
        await service.close()


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as where:
        for key, value in asyncio.run(panel_hashes(Path(where))).items():
            print(f'    "{key}": "{value}",')
