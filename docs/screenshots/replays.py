"""The /replay pictures of the gallery: one hand of each game, as the bot posts it.

    python docs/screenshots/replays.py [--out DIR]

For each game at a typical table (Troika 4, Troeven 2, Troggu 5, TroiKuntza 4), a seeded game
played by the normal AI, its first hand drawn by ``bot.render.replay`` into ``replay_<game>.gif``
and one still from the middle of it into ``replay_<game>_still.png`` (to read on a page that
does not animate). Written into this folder unless ``--out`` says otherwise.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PIL import Image  # noqa: E402

from bot.records.record import played  # noqa: E402
from bot.render import replay  # noqa: E402

TABLES = {"troika": 4, "troeven": 2, "troggu": 5, "troikuntza": 4}
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    args = parser.parse_args()
    for name, players in TABLES.items():
        record = played(name, players, seed=4)
        stills = replay.frames(record, 1, NAMES[:players])
        gif = replay.draw(tuple(stills))
        (args.out / f"replay_{name}.gif").write_bytes(gif)
        image = Image.open(io.BytesIO(gif))
        image.seek(len(stills) // 2)
        image.convert("RGB").save(args.out / f"replay_{name}_still.png")
        print(f"replay_{name}.gif: {len(stills)} frames, {len(gif) // 1024} KiB")


if __name__ == "__main__":
    main()
