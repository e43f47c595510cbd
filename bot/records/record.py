"""A game record: build one from a finished game, check one read from outside, replay one.

The record is plain JSON (``docs/records.md``). The game is dealt again from its seed and
options; a game dealt some other way (a stacked deck) carries its dealt state as ``dealt``.
Replaying applies every action in order through the engine, exactly as the table did, so a
record that replays gives the very events the players saw.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import engine
from bot.records.store import FinishedGame
from engine import Event, Game, IllegalAction

FORMAT = "troika-table/game-record"
VERSION = 1
#: A record read from outside is refused past these sizes (the longest games, with 10
#: players, are a few thousand actions).
MAX_ACTIONS = 100_000
MAX_TEXT = 200


class RecordError(ValueError):
    """A record that cannot be replayed: malformed, of another format, or whose actions the
    rules refuse or whose end differs from its result. The message says which, briefly."""


def _plain(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists, keys as text): what a record holds."""
    return json.loads(json.dumps(value))


def build(finished: FinishedGame) -> dict[str, Any]:
    """The record of a finished game."""
    if finished.dealt is None:
        raise RecordError("the game has no dealt state: it cannot be replayed")
    dealt = engine.load(finished.dealt)
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "id": finished.table_id,
        "game": finished.game,
        "players": dealt.players,
        "options": _plain(dealt.options),
        "seed": dealt.seed,
        "started_at": finished.started_at,
        "ended_at": finished.ended_at,
        "seats": [_plain(seat) for seat in finished.seats],
        "actions": [
            {"seat": row.seat, "action": row.action, "source": row.source, "at": row.at}
            for row in finished.actions
        ],
        "result": _plain(finished.result),
    }
    if deal(record).to_json() != dealt.to_json():
        record["dealt"] = finished.dealt  # dealt otherwise than from its seed: kept whole
    return record


def deal(record: Mapping[str, Any]) -> Game:
    """The game as dealt: from ``dealt`` when the record has it, else from the seed."""
    dealt = record.get("dealt")
    if dealt is not None:
        if not isinstance(dealt, str):
            raise RecordError("'dealt' must be the dealt game's JSON text")
        try:
            game = engine.load(dealt)
        except (ValueError, KeyError, TypeError, IllegalAction) as exc:
            raise RecordError(f"'dealt' is not a game: {str(exc)[:MAX_TEXT]}") from None
        if game.name != record["game"] or game.players != record["players"]:
            raise RecordError("'dealt' is another game than the record's")
        return game
    try:
        return engine.new_game(
            record["game"], record["players"], options=record["options"], seed=record["seed"]
        )
    except IllegalAction as exc:
        raise RecordError(str(exc)[:MAX_TEXT]) from None


def check(record: Any) -> dict[str, Any]:
    """``record`` if it has a record's shape (read from outside: anything may come), else
    RecordError naming the first thing wrong."""
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if record.get("format") != FORMAT or record.get("version") != VERSION:
        raise RecordError(f"not a {FORMAT} record of version {VERSION}")
    if not isinstance(record.get("game"), str) or record["game"] not in engine.GAMES:
        raise RecordError("'game' must name a game of this bot")
    for key in ("players", "seed"):
        if not isinstance(record.get(key), int) or isinstance(record[key], bool):
            raise RecordError(f"'{key}' must be a whole number")
    if not isinstance(record.get("options"), dict):
        raise RecordError("'options' must be an object")
    actions = record.get("actions")
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise RecordError(f"'actions' must be a list of at most {MAX_ACTIONS} moves")
    for number, move in enumerate(actions, 1):
        if not (
            isinstance(move, dict)
            and isinstance(move.get("seat"), int)
            and isinstance(move.get("action"), str)
            and len(move["action"]) <= MAX_TEXT
        ):
            raise RecordError(f"move {number} must have a seat (number) and an action (text)")
    return record


def steps(record: Mapping[str, Any]) -> Iterator[tuple[Mapping[str, Any], list[Event], Game]]:
    """Each move of ``record`` with the engine's events for it and the game after it."""
    game = deal(record)
    for number, move in enumerate(record["actions"], 1):
        try:
            events = game.apply(move["seat"], move["action"])
        except IllegalAction as exc:
            raise RecordError(f"move {number} is refused: {str(exc)[:MAX_TEXT]}") from None
        yield move, events, game


def replay(record: Any) -> list[list[Event]]:
    """The engine's events of every move of ``record``, in order; RecordError if the record
    is malformed, a move is refused, or the game does not end with the record's result."""
    record = check(record)
    events: list[list[Event]] = []
    game: Game | None = None
    for _, move_events, after in steps(record):
        events.append(move_events)
        game = after
    if game is None or not game.is_over():
        raise RecordError("the moves do not finish the game")
    if record.get("result") is not None and _plain(game.result()) != record["result"]:
        raise RecordError("the game ends otherwise than the record's result")
    return events


def played(
    name: str, players: int, options: Mapping[str, Any] | None = None, seed: int = 0
) -> dict[str, Any]:
    """The record of a game the normal AI plays out in every seat (no table, no database):
    what the benches, the screenshots and the tests replay."""
    from engine.ai import make_player  # only here: the bot replays records without the AI

    game = engine.new_game(name, players, options=dict(options or {}), seed=seed)
    actions: list[dict[str, Any]] = []
    while not game.is_over():
        seat = game.to_act()[0]
        player = make_player(name, "normal", seed=len(actions))
        move = player.choose(game.view(seat), game.legal_actions(seat))
        game.apply(seat, move)
        actions.append({"seat": seat, "action": move, "source": "ai"})
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": name,
        "players": players,
        "options": _plain(game.options),
        "seed": game.seed,
        "seats": [
            {"seat": s, "name": f"P{s + 1}", "user_id": None, "ai_level": "normal", "team": None}
            for s in range(players)
        ],  # fmt: skip
        "actions": actions,
        "result": _plain(game.result()),
    }


def final_game(record: Any) -> Game:
    """The game as the record's moves leave it (its score sheet, its result)."""
    game = deal(check(record))
    for _move, _events, after in steps(record):
        game = after
    return game
