"""A table in the terminal: ``python -m bot local GAME`` (no Discord token needed).

It runs the same ``TableService`` on the same database as the bot: you sit at seat 0, the AI
takes the other seats, and you type the words of the slash commands (``bid 7 no``,
``play 5H``...; with ``--lang``, as Discord names them there: ``miser 7 no``, ``jouer DH``) plus
``hand``, ``table``, ``help`` and ``quit`` (``main``, ``aide``...). What it prints is what the
Discord table message and hand panel show: the game's presenter's sections, as plain text.
Everything is printed as plain text (``bot.render.plain``: no Discord markup, times as words).
A card alone (``as``) is the one move that takes a card now (``play as``). A refused move gets
its reason and nothing else: the hand is printed again only when it changed.
The game is saved after every move: ``quit`` and run the same command again to carry on
(``--new`` starts over). Terminal tables use negative channel ids, one per game, so they never
collide with Discord channels; the bot does not load them.

Options: ``--players N``, ``--preset NAME``, ``--option key=value`` (repeatable), ``--seed N``,
``--db PATH`` (default: DATABASE_PATH from the settings), ``--ai LEVEL``, ``--delay SECONDS``
(pause before each AI move, to follow the play), ``--name NAME``, ``--new``, ``--lang CODE``
(``en``, ``fr``, ``de``, ``nl``: the language the table speaks; default English), ``--web``
(the same table in the browser too: it prints the address; ``--web-port`` chooses the port).
The turn timer is off unless you pass ``--option timer=60``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import engine
from bot.i18n import LANGUAGES, _, _p
from bot.i18n.core import set_locale
from bot.i18n.later import said
from bot.render import embeds
from bot.render.games.cards import code_as_typed, typed_words
from bot.render.plain import plain
from bot.render.presenter import Seating, UnknownEvent
from bot.service import (
    ActionApplied,
    GameOver,
    HandEnded,
    Table,
    TableAbandoned,
    TableError,
    TableEvent,
    TableService,
    TableStatus,
    TurnChanged,
)
from bot.settings import Settings
from engine.ai import LEVELS

ME = -1  # the terminal player's user id
#: The table's own commands, by their English word (always understood).
COMMANDS = ("hand", "table", "help", "quit")


def command_words() -> dict[str, str]:
    """The table's commands as the reader types them -> their English word (the English ones
    too: a player may type either)."""
    words = {
        _p("terminal command", "hand"): "hand",
        _p("terminal command", "table"): "table",
        _p("terminal command", "help"): "help",
        _p("terminal command", "quit"): "quit",
    }
    return {**{word: word for word in COMMANDS}, "exit": "quit", "q": "quit", "?": "help", **words}


def move_words(verbs: Sequence[engine.Verb]) -> dict[str, str]:
    """The first words of a game's moves -> the reader's names for them: the move commands'
    translated names, as Discord shows them (``play`` -> ``jouer``)."""
    return {
        word: _p("command name", word).lower() for verb in verbs for word in (verb.name, *verb.also)
    }


def reading(words: Mapping[str, str]) -> dict[str, str]:
    """``move_words`` read back: the reader's word -> the engine's; the engine's own words are
    understood too, and win over a translation that is another move's English word."""
    return {**{mine: word for word, mine in words.items()}, **{word: word for word in words}}


def shown_move(
    action: str, words: Mapping[str, str], game_words: Mapping[str, str] | None = None
) -> str:
    """An action as the reader types it (``words``: ``move_words``): its first word in his
    language, its cards in his letters, the game's other words in his language (``game_words``:
    ``Presenter.move_words``; French ``play QH`` -> ``jouer DH``, ``bid 7 no`` -> ``miser 7
    sans``)."""
    head, *rest = action.split(" ")
    extra = game_words or {}
    shown = [extra.get(word, code_as_typed(word)) for word in rest]
    return " ".join([words.get(head, head), *shown])


def typed_move(
    line: str, read: Mapping[str, str] | None = None, game_words: Mapping[str, str] | None = None
) -> str:
    """A move as typed: its first word read in the reader's language (``read``: ``reading``),
    its cards in the reader's letters (``jouer dh`` is ``play QH``) and the game's words
    (``game_words``: ``Presenter.move_words``; ``miser 7 sans`` is ``bid 7 no``)."""
    verb, *rest = line.split()
    if read is not None:
        verb = read.get(verb.lower(), verb)
    return " ".join([verb, *typed_words(rest, game_words)]) if rest else verb


def channel_for(game: str) -> int:
    """The terminal's own channel id for ``game``: negative (never a Discord channel) and fixed
    by the game's name, so a saved game is found again whatever games exist."""
    return -1 - zlib.crc32(game.encode()) % 1_000_000_007


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot local", description="Play a table in the terminal against the AI."
    )
    parser.add_argument("game", help=f"one of: {', '.join(engine.GAMES)}")
    parser.add_argument("--players", type=int, help="number of players (you + AIs)")
    parser.add_argument("--preset", help="a preset of the game")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a table option"
    )
    parser.add_argument("--seed", type=int, help="seed of the deal (replayable games)")
    parser.add_argument("--db", type=Path, help="database file (default: DATABASE_PATH)")
    parser.add_argument("--ai", default=LEVELS[-1], help=f"AI level: {', '.join(LEVELS)}")
    parser.add_argument("--delay", type=float, default=0.4, help="seconds before an AI move")
    parser.add_argument("--name", default=None, help="your name at the table (default: You)")
    parser.add_argument("--new", action="store_true", help="abandon a saved game and start over")
    parser.add_argument(
        "--lang", default="en", choices=list(LANGUAGES), help="the language the table speaks"
    )
    parser.add_argument(
        "--web", action="store_true", help="also open the table in the browser (prints the address)"
    )
    parser.add_argument("--web-port", type=int, default=0, help="the browser table's port")
    return parser.parse_args(list(argv))


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option wants KEY=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


class Printer:
    """Tells the events as they happen, from seat 0's point of view."""

    def __init__(self, channel: int, out: Any) -> None:
        self.channel = channel
        self.out = out
        self.table: Table | None = None
        #: The hand's public events: its summary names the contract from them.
        self.hand_events: list[Mapping[str, Any]] = []

    def say(self, text: str) -> None:
        print(plain(text), file=self.out, flush=True)

    async def on_table_event(self, event: TableEvent) -> None:
        if event.table.channel_id != self.channel:
            return
        self.table = event.table
        if isinstance(event, ActionApplied):
            seating = embeds.seating_of(event.table, 0)
            lines = [self.tell(e.data, seating) for e in event.events if e.visible_to(0)]
            lines = [line for line in lines if line]
            if event.source.value == "timeout":
                lines.append(_("{who}: time was up, the AI moved.", who=seating.who(event.seat)))
            for line in lines:
                self.say("  " + line)
        elif isinstance(event, GameOver):
            presenter = embeds.presenter_of(event.table)
            final = presenter.final(event.result, embeds.seating_of(event.table, 0))
            for line in embeds.sections_text(final):
                self.say(line)
        elif isinstance(event, HandEnded | TurnChanged):
            return  # told by the engine's own events above
        elif isinstance(event, TableAbandoned):
            self.say(_("The table was abandoned ({reason}).", reason=said(event.reason)))

    def tell(self, event: Mapping[str, Any], seating: Seating) -> str | None:
        assert self.table is not None
        kind = event.get("type")
        presenter = embeds.presenter_of(self.table)
        try:
            if kind == "hand_over":
                told = {**event, "hand_events": tuple(self.hand_events)}
                self.hand_events.clear()
                return "\n  ".join(embeds.sections_text(presenter.summary(told, seating)))
            if event.get("private_to") is None:
                self.hand_events.append(event)
            if kind == "game_over":
                return None  # the result follows when the table closes
            text = presenter.narrate(event, seating)
        except UnknownEvent:
            return None
        if text and event.get("private_to") is not None:
            text += "  " + _("(only you see this)")
        return text


def show_table(table: Table, view: Mapping[str, Any]) -> list[str]:
    """The public table message, as plain text (the same sections as in Discord)."""
    presenter, seating = embeds.presenter_of(table), embeds.seating_of(table)
    lines = [embeds.heading(table, view)]
    lines.append(embeds.turn_line(table, seating.names, table.to_act))
    lines.extend(embeds.sections_text(presenter.table_sections(view, seating)))
    return [plain(line) for line in lines if line]


def show_hand(table: Table, view: Mapping[str, Any], legal: list[str]) -> list[str]:
    """The private hand panel, as plain text, without its list of moves: the terminal lists them
    once, as they are typed (``loop``)."""
    presenter = embeds.presenter_of(table)
    seating = embeds.seating_of(table, view.get("seat"))
    sections = [s for s in presenter.hand_sections(view, legal, seating) if s.role != "move"]
    return [plain(line) for line in embeds.sections_text(sections)]


def bare_card(line: str, legal: Sequence[str], verbs: Sequence[engine.Verb]) -> str | None:
    """``line`` as the one move it can mean when it is a card alone (``as`` -> ``play as``):
    the legal moves now are of a single command taking one word; else None."""
    if len(line.split()) != 1:
        return None
    heads = {action.split(" ", 1)[0] for action in legal}
    takers = [v.name for v in verbs if v.name in heads and len(v.args) == 1]
    if len(takers) != 1 or any(not action.startswith(takers[0] + " ") for action in legal):
        return None
    return f"{takers[0]} {line.strip()}"


async def play(args: argparse.Namespace, read: Any, out: Any) -> int:
    # The whole session speaks the chosen language (the service's tasks start from this one).
    set_locale(getattr(args, "lang", None))
    game = args.game.strip().lower()
    if game not in engine.GAMES:
        print(_("There is no game {game!r}. Games: {games}.", game=args.game,
                games=", ".join(engine.GAMES)), file=out)  # fmt: skip
        return 2
    spec = engine.GAMES[game]
    options: dict[str, Any] = {"timer": "off"}
    try:
        options.update(parse_options(args.option))
    except ValueError as exc:
        print(exc, file=out)
        return 2
    players = args.players or spec.default_players or spec.min_players
    db = args.db or Settings.load().database
    channel = channel_for(game)
    service = TableService(db, ai_delay=max(0.0, args.delay), local=True)
    printer = Printer(channel, out)
    service.add_listener(printer)
    await service.start()
    try:
        table = service.get_table(channel)
        if table is not None and args.new:
            await service.abandon(channel, table.host_id)
            table = None
        if table is not None and table.status is TableStatus.PLAYING:
            print(_("Resuming your {game} game (move {move}).", game=_(table.title),
                    move=table.move_number), file=out)  # fmt: skip
        else:
            if table is not None:  # a lobby left over from an interrupted start
                await service.abandon(channel, table.host_id)
            name = args.name or _p("sentence start", "You")
            try:
                await service.open_table(
                    channel, None, ME, name, game, args.preset, options, seed=args.seed
                )
                for _seat in range(players - 1):
                    await service.add_ai(channel, ME, args.ai)
                table = await service.start_game(channel, ME)
            except TableError as exc:
                print(exc, file=out)
                if service.get_table(channel) is not None:
                    await service.abandon(channel, ME)
                return 2
            seating = embeds.seating_of(table, None)
            names = ", ".join(seating.name(seat) for seat in range(len(table.seats)))
            print(plain(_("{game}: {names}. You are seat 1. Type `{help}`.", game=_(spec.title),
                          names=names, help=_p("terminal command", "help"))), file=out)  # fmt: skip
        printer.table = service.get_table(channel)
        web = await open_web(service, channel, args, out) if getattr(args, "web", False) else None
        try:
            return await loop(service, channel, read, out)
        finally:
            if web is not None:
                await web.stop()
    finally:
        await service.close()


async def open_web(service: TableService, channel: int, args: argparse.Namespace, out: Any) -> Any:
    """The same table in the browser, on this machine only; prints the player's link. A secret
    of this session signs it: no token, no Discord, nothing stored."""
    import secrets

    from bot.web.server import WebServer

    web = WebServer(service, secrets.token_bytes(32), port=getattr(args, "web_port", 0) or 0)
    await web.start()
    print(
        _("The table in your browser: {url}", url=web.link(ME, channel, args.lang)),
        file=out,
        flush=True,
    )
    return web


async def loop(service: TableService, channel: int, read: Any, out: Any) -> int:
    shown: tuple[int, tuple[str, ...]] | None = None
    first = service.get_table(channel)
    verbs = engine.GAMES[first.game].verbs if first is not None else ()
    words = move_words(verbs)
    understood = reading(words)
    game_words = embeds.presenter_of(first).move_words() if first is not None else {}
    while True:
        await service.settle()
        table = service.get_table(channel)
        if table is None:
            print(_("The game is over."), file=out, flush=True)
            return 0
        legal = service.legal_actions(channel, ME)
        if not legal:
            await asyncio.sleep(0.05)  # a timed window or the AI is on its way
            continue
        typed = [shown_move(action, words, game_words) for action in legal]  # as he types them
        state = (table.move_number, tuple(legal))
        if state != shown:
            view = service.view(channel, ME).game or {}
            print("\n".join(show_hand(table, view, legal)), file=out)
            moves = ", ".join(typed[:20]) + (" ..." if len(typed) > 20 else "")
            print(_("Type: {moves}", moves=moves), file=out)
            shown = state
        try:
            line = await asyncio.get_running_loop().run_in_executor(None, read)
        except EOFError:
            line = "quit"
        word = " ".join(line.split()).lower()
        if not word:
            continue
        word = command_words().get(word, word)
        if word == "quit":
            print(plain(_("Saved. Run the same command to carry on (or add `--new`).")), file=out)
            return 0
        if word == "help":
            listed = ", ".join(_p("terminal command", c) for c in COMMANDS)
            print(_("Commands: {commands}. Or a move: {moves}", commands=listed,
                    moves=", ".join(typed)), file=out)  # fmt: skip
            continue
        if word in {"hand", "table"}:
            if word == "hand":
                view = service.view(channel, ME).game or {}
                print("\n".join(show_hand(table, view, legal)), file=out)
            else:
                print("\n".join(show_table(table, service.public_view(channel) or {})), file=out)
            continue
        move = typed_move(line, understood, game_words)
        if move.split(" ", 1)[0] not in understood:  # no move's word: a card alone?
            move = bare_card(move, legal, verbs) or move
        try:
            await service.act(channel, ME, move)
        except TableError as exc:
            # The reason alone: the hand and the moves are still on the screen above.
            print("  " + plain(str(exc)), file=out)


def main(argv: list[str]) -> int:
    """``python -m bot local GAME [options]``; returns the exit status."""
    try:
        args = parse_args(argv)
    except SystemExit as exc:  # --help or a usage error
        return int(exc.code or 0)

    def read() -> str:
        return input("> ")

    return asyncio.run(play(args, read, sys.stdout))
