"""A virtual guild around the real bot, and a driver that plays games through it.

Moves are chosen from the service's legal-action list for the member whose turn it is, then
issued the way a user would: as a slash command, or by pressing the buttons / select of the
private panel that "Show my hand" opens.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import discord
import simcord
from simcord import InteractionResult, MemberActor

from bot.app import TroikaBot
from bot.app.client import utc_clock
from bot.app.errors import player_message
from bot.leaderboard import GuildRules
from bot.service import Limits, Table, TableService, TableStatus
from bot.settings import Settings
from cogs.moves import declared_verbs

NAMES = ("ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal")

Chooser = Callable[[int, list[str]], str]


@dataclass
class World:
    env: simcord.Env
    settings: Settings
    factory: Callable[[Settings], TroikaBot]
    guild: Any
    channel: Any
    members: list[MemberActor]
    results: list[InteractionResult] = field(default_factory=list)

    @classmethod
    def create(
        cls, env: simcord.Env, settings: Settings, factory: Callable[[Settings], TroikaBot]
    ) -> World:
        guild = env.create_guild(name="Card Club")
        channel = guild.create_text_channel("cards")
        members = [guild.add_member(env.create_user(name)) for name in NAMES]
        return cls(env, settings, factory, guild, channel, members)

    # -- access -------------------------------------------------------------------------------
    @property
    def bot(self) -> TroikaBot:
        return self.env.bot  # type: ignore[return-value]

    @property
    def service(self) -> TableService:
        return self.bot.service

    def table(self) -> Table | None:
        return self.service.get_table(self.channel.id)

    def member_of(self, user_id: int) -> MemberActor:
        return next(m for m in self.members if m.id == user_id)

    async def slash(self, member: MemberActor, name: str, /, **options: Any) -> InteractionResult:
        result = await member.slash(self.channel, name, **options)
        self.results.append(result)
        return result

    def public_messages(self) -> list[discord.Message]:
        """What a member who is not addressed by any ephemeral message sees."""
        return self.channel.history()

    def table_messages(self) -> list[discord.Message]:
        me = self.bot.user
        return [
            m
            for m in self.public_messages()
            if me is not None
            and m.author.id == me.id
            and m.embeds
            # "Table #12 · hand 3" in any language: the part the bot finds its message by.
            and re.search(r"#\d+ · ", m.embeds[0].footer.text or "")
        ]

    def live_table_message(self) -> discord.Message:
        """The message that carries the Show my hand button now."""
        for message in reversed(self.table_messages()):
            if any("tt:hand:" in (c.custom_id or "") for row in message.components
                   for c in getattr(row, "children", [])):  # fmt: skip
                return message
        raise AssertionError("no live table message with a Show my hand button")

    def public_payloads(self, since: int = 0) -> list[str]:
        """Every public message body the bot sent or edited (REST log from ``since`` on):
        channel messages, and interaction responses without the ephemeral flag."""
        out = []
        for entry in self.env.http_requests[since:]:
            body = entry.json
            if (
                entry.method in {"POST", "PATCH"}
                and "/messages" in entry.path
                and (entry.path.startswith("/channels/"))
            ):
                out.append(json.dumps(body, ensure_ascii=False))
            elif entry.path.endswith("/callback") and isinstance(body, dict):
                data = body.get("data") or {}
                if body.get("type") == 4 and not int(data.get("flags") or 0) & 64:
                    out.append(json.dumps(data, ensure_ascii=False))
        return out

    def public_text(self) -> str:
        return "\n".join(self.public_payloads())

    async def restart(self) -> None:
        old = self.env.bot
        await self.env.restart_bot(self.factory(self.settings))
        # SimCord detaches the old bot without closing it. Stop its service (timers, database
        # thread) as the old process's death would, so it cannot touch the tables any more.
        assert self.env.bot is not old
        await old.service.close()

    # -- setting up -------------------------------------------------------------------------
    async def open(self, game: str, humans: int, ais: int = 0, **options: Any) -> Table:
        host = self.members[0]
        result = await self.slash(host, f"new {game}", **options)
        assert result.ephemeral, result
        for member in self.members[1:humans]:
            joined = await self.slash(member, "join")
            assert joined.ephemeral and "joined" in joined.response.content, joined
        for _ in range(ais):
            await self.slash(host, "addbot")
        started = await self.slash(host, "start")
        assert "started" in started.response.content, started.response.content
        table = self.table()
        assert table is not None and table.status is TableStatus.PLAYING
        return table

    # -- playing ------------------------------------------------------------------------------
    def human_to_act(self) -> tuple[MemberActor, list[str]] | None:
        table = self.table()
        if table is None or table.status is not TableStatus.PLAYING:
            return None
        for seat_index in table.to_act:
            seat = table.seat(seat_index)
            if seat is not None and seat.is_human and seat.user_id is not None:
                legal = self.service.legal_actions(self.channel.id, seat.user_id)
                if legal:
                    return self.member_of(seat.user_id), legal
        return None

    async def by_command(self, member: MemberActor, action: str) -> InteractionResult:
        """The action as the slash command a user types (generated from the games' verbs)."""
        verbs = declared_verbs()
        head = action.split(" ", 1)[0]
        verb = verbs.get(head) or next(v for v in verbs.values() if v.makes(action))
        words = verb.argument_of(action).split(" ") if verb.args else []
        count = len(verb.args)
        values = words[: count - 1] + [" ".join(words[count - 1 :])] if count else []
        options = {arg.name: value for arg, value in zip(verb.args, values, strict=True)}
        return await self.slash(member, verb.name, **options)

    async def by_button(self, member: MemberActor, action: str) -> InteractionResult:
        """Open the panel from the public message, then press the action's button / select."""
        # By its id, not its label: the label is in the server's language.
        hand = f"tt:hand:{self.channel.id}"
        panel = await member.click(self.live_table_message(), custom_id=hand)
        self.results.append(panel)
        assert panel.ephemeral and panel.response is not None, panel
        message = panel.response.message
        target = f"tt:act:{self.channel.id}:{action}"
        for row in message.components:
            for child in getattr(row, "children", []):
                if child.custom_id == target:
                    result = await member.click(message, custom_id=target)
                    self.results.append(result)
                    return result
                options = [o.value for o in getattr(child, "options", [])]
                if action in options:
                    result = await member.select(message, [action], custom_id=child.custom_id)
                    self.results.append(result)
                    return result
        raise AssertionError(f"no component for {action!r} in the panel")

    async def play(
        self,
        *,
        via: str = "command",
        choose: Chooser | None = None,
        stop: Callable[[World], bool] | None = None,
        max_moves: int = 3000,
        rng: random.Random | None = None,
    ) -> int:
        """Humans move until the game ends (or ``stop``); AI seats move by themselves."""
        rng = rng or random.Random(7)
        moves = 0
        while moves < max_moves:
            if stop is not None and stop(self):
                return moves
            turn = self.human_to_act()
            if turn is None:
                table = self.table()
                assert (
                    table is None
                    or table.status is not TableStatus.PLAYING
                    or not any(
                        table.seat(s) and table.seat(s).is_human
                        for s in table.to_act  # type: ignore[union-attr]
                    )
                ), "a human is awaited but has no legal action"
                return moves
            member, legal = turn
            action = choose(self.member_index(member), legal) if choose else rng.choice(legal)
            if via == "button" or (via == "mixed" and moves % 2):
                result = await self.by_button(member, action)
            else:
                result = await self.by_command(member, action)
            assert result.acknowledged, result
            moves += 1
        raise AssertionError("the game did not end")

    def member_index(self, member: MemberActor) -> int:
        return self.members.index(member)


@contextlib.contextmanager
def idle_waits_are_external(env: simcord.Env) -> Iterator[None]:
    """Declare bot tasks idling on an ``asyncio.Event`` as waiting for outside input.

    The service's database writer (and its driver bookkeeping) park on an Event between
    commits. SimCord only knows discord.py's own idle waits and otherwise reports "bot did not
    settle"; a task waiting for an Event is waiting for another task, which SimCord still
    waits for, so declaring it external loses nothing.
    """
    original = asyncio.Event.wait

    async def wait(event: asyncio.Event) -> Literal[True]:
        if event.is_set():
            return True
        try:
            return await env.external_wait(original(event), reason="asyncio.Event idle wait")
        except simcord.SetupError:  # not bot-owned work (the driver), or already declared
            return await original(event)

    asyncio.Event.wait = wait  # type: ignore[method-assign]
    try:
        yield
    finally:
        asyncio.Event.wait = original  # type: ignore[method-assign]


def make_settings(tmp_path: Path) -> Settings:
    return Settings(
        discord_token=None,
        dev_guild_id=None,
        database_path=tmp_path / "troika.db",
        ai_delay=0.0,
        log_level="INFO",
    )


def make_bot(
    settings: Settings, edit_interval: float = 0, env: list[simcord.Env] | None = None
) -> TroikaBot:
    """The production bot, with the service's timers on SimCord's virtual clock only.

    ``edit_interval`` 0: every change is rendered at once, so tests see it without advancing
    time. The service sleeps (turn deadlines, the May I window) are declared to SimCord as
    waits for outside input, so they fire only through ``env.advance_time`` -- never through
    the wall clock of a slow test run, which would make tests flaky.
    """

    async def sleep(seconds: float) -> None:
        if env and seconds > 0:
            try:
                await env[0].external_wait(asyncio.sleep(seconds), reason="service timer")
                return
            except simcord.SetupError:  # not bot-owned work, or inside another declared wait
                pass
        await asyncio.sleep(seconds)

    # No opening cooldown: SimCord's clock barely moves, and tests open table after table.
    service = TableService(
        settings.database_path,
        clock=utc_clock,
        sleep=sleep,
        ai_delay=settings.ai_delay,
        limits=Limits(open_cooldown_seconds=0),
    )
    return TroikaBot(settings, service=service, shard_count=1, edit_interval=edit_interval)


@contextlib.asynccontextmanager
async def run_world(
    settings: Settings, edit_interval: float = 0, tables_in: str | None = "channel"
) -> AsyncIterator[World]:
    """The bot running under SimCord in a fresh guild; bot errors other than refused moves
    fail the test. ``tables_in``: the guild's ``/admin defaults tables`` (``channel`` unless
    a test says otherwise: most tests play one table in ``world.channel``; None: the default,
    a thread per table; tests/cogs/test_table_threads.py)."""

    holder: list[simcord.Env] = []

    def factory(s: Settings) -> TroikaBot:
        return make_bot(s, edit_interval, holder)

    env = simcord.Env(factory(settings))
    holder.append(env)
    with idle_waits_are_external(env):
        await env.start()
        try:
            world = World.create(env, settings, factory)
            if tables_in is not None:
                await GuildRules(world.service.db).set_tables_in(world.guild.id, tables_in)
            yield world
        finally:
            await env.shutdown()
            bot = env.bot
            if isinstance(bot, TroikaBot):
                await bot.close()
        # A refused move (TableError) travels through the command tree's error handler, which
        # SimCord records; only other exceptions are bugs.
        # (A test that provokes errors on purpose acknowledges them by reading ``env.errors``.)
        fresh = env.errors_since(env._errors_acknowledged)
        unexpected = [e for e in fresh if player_message(e) is None]
        if unexpected:
            raise ExceptionGroup("the bot raised", unexpected)
