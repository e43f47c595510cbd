"""Where the time goes, from a py-spy profile in collapsed-stack form (``--format raw``).

    py-spy record -r 200 --format raw -o prof.txt -- python bench/load.py --tables 1000
    python bench/stacks.py prof.txt [--top 25]

Prints each category's share of the samples (a sample counts once, for the first category of
``CATEGORIES`` found anywhere in its stack, so the shares add up to 100%) and the functions of
the repository with the most samples *inclusive* (their own time plus their callees').
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

#: (category, pattern on a frame), the first match wins: what a sample was doing, most
#: specific first (the PNG encoder inside the hand picture counts as "png encode").
CATEGORIES: tuple[tuple[str, str], ...] = (
    ("idle (loop waiting: select)", r"\bselect \(selectors\.py|EpollSelector\.select"),
    # aiosqlite's thread waiting for work (its queue's get) is idle too.
    ("idle (db thread waiting)", r"_connection_worker_thread \(aiosqlite/core\.py:59\)$"),
    # A worker of a pool (pictures, hard AI) waiting for work.
    ("idle (pool worker waiting)", r"_worker \(concurrent/futures/thread\.py:\d+\)$"),
    ("db thread: sqlite", r"\(sqlite3|bot/storage/|aiosqlite"),
    ("png encode (quantize, save)", r"Image\.save|ImageFile\._save|\bquantize |;_png \(bot/render"),
    ("table picture (draw)", r"table_image|rows_image|layouts_image|melds_|table_png|rows_png"),
    ("hand picture (draw)", r"hand_image|hand_png|row_image|row_png"),
    ("other picture (draw)", r"bot/render/games/(images|faces)\.py|bot/render/fonts"),
    ("payload build (discord.py)", r"handle_message_parameters|to_dict|to_components"),
    ("AI decision", r"engine/ai|timers\.py:\d+\);decide|\bdecide \("),
    # Everything the web table adds in the bot's process: its frames (the presenter's labels
    # and the views they ask for first included), the JSON, the websocket writes.
    (
        "web table (frames, sockets)",
        r"bot/web/|bot/render/games/\w+/web/|aiohttp/(web_ws|_websocket|http_websocket)",
    ),
    ("embeds and panel (text)", r"bot/render/|cogs/panels\.py|actions_view"),
    ("game snapshot (to_json)", r"to_json|json/encoder"),
    ("game view / legal moves", r"\bview \(engine|legal_actions \(engine|build_view"),
    ("engine apply", r"\bapply \(engine"),
    ("service (other)", r"bot/service/"),
    ("publisher / live panels (other)", r"bot/app/|cogs/live_panels"),
    ("asyncio machinery", r"asyncio/"),
)
_LINE = re.compile(r"^(?P<stack>.*) (?P<count>\d+)$")
_FRAME = re.compile(r"^(?P<name>.+?) \((?P<where>[^():]+)(?::\d+)?\)$")


def summarize(lines: list[str], top: int) -> str:
    categories: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    patterns = [(name, re.compile(p)) for name, p in CATEGORIES]
    for line in lines:
        match = _LINE.match(line.rstrip("\n"))
        if match is None:
            continue
        stack, count = match["stack"], int(match["count"])
        total += count
        for name, pattern in patterns:
            if pattern.search(stack):
                categories[name] += count
                break
        else:
            categories["other"] += count
        seen = set()
        for frame in stack.split(";"):
            parsed = _FRAME.match(frame)
            if parsed is None:
                continue
            where = parsed["where"]
            if not where.startswith(("bot/", "cogs/", "engine/", "bench/")):
                continue
            key = f"{parsed['name']} ({where})"
            if key not in seen:
                seen.add(key)
                inclusive[key] += count
    if not total:
        return "no samples"
    busy = total - sum(n for name, n in categories.items() if name.startswith("idle")) or 1
    out = [f"{total:,} samples", "", "category (exclusive)                 share   of busy"]
    out += [
        f"{name:<36} {n / total:6.1%}" + ("" if name.startswith("idle") else f"  {n / busy:6.1%}")
        for name, n in categories.most_common()
    ]
    out += ["", f"top {top} functions of the repository (inclusive)"]
    out += [f"{n / total:6.1%}  {key}" for key, n in inclusive.most_common(top)]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("profile", type=Path)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)
    print(summarize(args.profile.read_text().splitlines(), args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
