"""One bot process without Discord, for the multi-process tests (test_multiprocess.py): a real
``TableService`` on a database, serving some shards, driven by JSON lines.

    python -m tests.bot.service_process DATABASE [--shard-count N] [--shard-ids 0,1]
                                                 [--no-hold] [--ai-delay S] [--web-secret HEX]

It starts the service as the bot does (``hold_shards``: the shard locks are taken before any
table loads), then prints ``{"started": {"pid": ..., "tables": [...]}}``. A start the database
refuses (``StartupError``: a shard another process serves) prints its one line on stderr and
exits 1, as ``python -m bot`` does.

Then each line read on stdin is one command, answered by one line ``{"reply": ...}`` or
``{"error": "<exception class>", "message": "..."}``:

- ``{"op": "open", "channel": C, "guild": G, "user": U, "game": "troeven", "options": {...}}``
- ``{"op": "join", "channel": C, "user": U}``, ``{"op": "start", "channel": C, "user": U}``
- ``{"op": "act", "channel": C, "user": U}``: his first legal move (or ``"action"``)
- ``{"op": "link", "channel": C, "user": U}``: his link to the table (with ``--web-secret``, the
  process serves the web table on 127.0.0.1 at a free port, given as ``web_port`` when started)
- ``{"op": "tables"}``: every table loaded (channel, guild, status, move number, to act,
  deadlines); ``{"op": "quit"}``: close the service and exit 0.

Every move the service applies, whoever made it (a player, an AI, the timer), is also printed
as it happens: ``{"moved": {"channel": C, "seat": S, "source": "timeout", "move_number": M}}``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

from bot.service import ActionApplied, Limits, TableEvent, TableService
from bot.service.models import Table
from bot.shards import Shards, parse_shard_ids
from bot.storage.startup import StartupError
from bot.web.server import WebServer


def say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def described(table: Table) -> dict[str, Any]:
    return {
        "channel": table.channel_id,
        "guild": table.guild_id,
        "status": table.status.value,
        "move_number": table.move_number,
        "to_act": list(table.to_act),
        "deadlines": {str(seat): at for seat, at in table.deadlines.items()},
    }


class Moves:
    """Prints every applied move (the listener of the service)."""

    async def on_table_event(self, event: TableEvent) -> None:
        if isinstance(event, ActionApplied):
            say(
                {
                    "moved": {
                        "channel": event.table.channel_id,
                        "seat": event.seat,
                        "source": event.source.value,
                        "move_number": event.move_number,
                    }
                }
            )


async def obey(service: TableService, command: dict[str, Any], web: WebServer | None = None) -> Any:
    op = command.get("op")
    channel, user = command.get("channel"), command.get("user")
    if op == "open":
        table = await service.open_table(
            channel, command["guild"], user, f"P{user}", command.get("game", "troeven"),
            options=command.get("options"), seed=command.get("seed", 1),
        )  # fmt: skip
        return described(table)
    if op == "join":
        return described(await service.join(channel, user, f"P{user}"))
    if op == "start":
        return described(await service.start_game(channel, user))
    if op == "act":
        action = command.get("action") or service.legal_actions(channel, user)[0]
        result = await service.act(channel, user, action)
        return {"action": action, "move_number": result.move_number}
    if op == "link" and web is not None:
        return web.link(user, channel)
    if op == "tables":
        return [described(t) for t in sorted(service.tables(), key=lambda t: t.channel_id)]
    raise ValueError(f"unknown op {op!r}")


async def serve(args: argparse.Namespace) -> int:
    shards = Shards(args.shard_count, args.shard_ids)
    service = TableService(
        args.database,
        ai_delay=args.ai_delay,
        limits=Limits(open_cooldown_seconds=0),  # (one user opens the tests' every table)
        shards=shards,
        hold_shards=not args.no_hold,
    )
    service.add_listener(Moves())
    try:
        await service.start()
    except StartupError as error:
        print(error, file=sys.stderr)
        return 1
    loop = asyncio.get_running_loop()
    web = WebServer(service, bytes.fromhex(args.web_secret)) if args.web_secret else None
    try:
        tables = await obey(service, {"op": "tables"})
        web_port = await web.start() if web is not None else None
        say({"started": {"pid": os.getpid(), "tables": tables, "web_port": web_port}})
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:  # the test went away
                return 0
            command = json.loads(line)
            if command.get("op") == "quit":
                return 0
            try:
                say({"reply": await obey(service, command, web)})
            except Exception as error:  # the refusal is the answer; the process goes on
                say({"error": type(error).__name__, "message": str(error)})
    finally:
        if web is not None:
            await web.stop()
        await service.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("database", help="a postgresql:// URL or a SQLite file")
    parser.add_argument("--shard-count", type=int, default=1)
    parser.add_argument("--shard-ids", type=parse_shard_ids, default=None)
    parser.add_argument("--no-hold", action="store_true", help="take no shard lock (a rogue)")
    parser.add_argument("--ai-delay", type=float, default=0.0)
    parser.add_argument("--web-secret", default=None, help="serve the web table (hex secret)")
    return asyncio.run(serve(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
