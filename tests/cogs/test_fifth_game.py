"""A fifth game, defined here and nowhere else, plays to the end through the table service and
through SimCord's slash commands: the bot learns everything about a game from what the game
declares (``GameSpec``) and from its presenter (a ``Presenter`` subclass), so adding one touches
no file outside its own two.

Toy Tricks: two or three players, three cards each from the top of A K Q J 10 9 of spades and
hearts; follow suit, the highest card of the led suit wins, the winner leads; one point a trick.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from cog_world import World, make_settings, run_world

import engine
from bot.render.presenter import PRESENTERS, Presenter, Seating, Section
from bot.service import TableService, TableStatus
from engine import Arg, Game, GameSpec, IllegalAction, Verb
from engine.ai import LEVELS, register_players
from engine.messages import add_templates
from engine.options import TIMER

NAME = "toytricks"
RANKS = ("A", "K", "Q", "J", "10", "9")
DECK = [rank + suit for suit in "SH" for rank in RANKS]


class FirstLegal:
    """The toy's AI at every level: the first legal card."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        return legal[0]


add_templates({"toytricks.you_may": "You may: {actions:list}."})


class ToyTricksGame(Game):
    spec = GameSpec(
        name=NAME,
        title="Toy Tricks",
        min_players=2,
        max_players=3,
        options=(TIMER,),
        summary="Three tricks; follow suit; the highest card of the led suit wins.",
        default_players=2,
        verbs=(Verb("play", "Play a card", (Arg("card", "The card to play, e.g. AH, 10S"),)),),
    )

    @classmethod
    def new(
        cls, players: int, options: dict[str, Any], seed: int, deck: list[str] | None = None
    ) -> ToyTricksGame:
        game = cls({"players": players, "options": dict(options), "seed": seed})
        cards = list(deck or DECK)
        if deck is None:
            game.rng().shuffle(cards)
        game.state.update(
            hands=[sorted(cards[3 * s : 3 * s + 3]) for s in range(players)],
            trick=[],
            leader=0,
            turn=0,
            scores=[0] * players,
            tricks=0,
        )
        return game

    def to_act(self) -> list[int]:
        return [] if self.is_over() else [self.state["turn"]]

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        hand, trick = self.state["hands"][seat], self.state["trick"]
        led = [c for c in hand if trick and c[-1] == trick[0]["card"][-1]]
        return [f"play {c.lower()}" for c in (led or hand)]

    def _apply(self, seat: int, action: str) -> list[dict[str, Any]]:
        if action not in self.legal_actions(seat):
            raise IllegalAction("toytricks.you_may", actions=self.legal_actions(seat))
        st = self.state
        card = action.split(" ")[1].upper()
        st["hands"][seat].remove(card)
        st["trick"].append({"seat": seat, "card": card})
        events: list[dict[str, Any]] = [{"type": "play", "seat": seat, "card": card}]
        if len(st["trick"]) < self.players:
            st["turn"] = (seat + 1) % self.players
            return events
        suit = st["trick"][0]["card"][-1]
        best = min(
            (p for p in st["trick"] if p["card"][-1] == suit),
            key=lambda p: RANKS.index(p["card"][:-1]),
        )
        winner = best["seat"]
        st["scores"][winner] += 1
        st["tricks"] += 1
        events.append({"type": "trick", "seat": winner, "cards": [p["card"] for p in st["trick"]]})
        st["trick"], st["leader"], st["turn"] = [], winner, winner
        if st["tricks"] == 3:
            events.append({"type": "hand_over", "hand_number": 1, "scores": list(st["scores"])})
            events.append({"type": "game_over", **self.result()})
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        st = self.state
        view = {
            "game": NAME,
            "seat": seat,
            "to_act": self.to_act(),
            "trick": [dict(p) for p in st["trick"]],
            "scores": list(st["scores"]),
            "hand_number": 1,
        }
        if seat is not None:
            view["hand"] = list(st["hands"][seat])
        return view

    def is_over(self) -> bool:
        return self.state["tricks"] == 3

    def result(self) -> dict[str, Any]:
        scores = self.state["scores"]
        best = max(scores)
        winners = [s for s, v in enumerate(scores) if v == best] if self.is_over() else []
        return {"scores": list(scores), "winners": winners}


class ToyTricksPresenter(Presenter):
    game = NAME
    quiet = frozenset()

    def heading(self, view: Mapping[str, Any], seating: Seating) -> str:
        return f"trick {sum(view['scores']) + 1} of 3"

    def table_sections(self, view: Mapping[str, Any], seating: Seating) -> list[Section]:
        played = " ".join(f"{seating.name(p['seat'])} {p['card']}" for p in view["trick"])
        return [Section("On the table", played or "—"), self.scores(view, None, seating)]

    def hand_sections(
        self, view: Mapping[str, Any], legal: Sequence[str], seating: Seating
    ) -> list[Section]:
        return [Section("Your cards", " ".join(view["hand"]) or "—")]

    def tell(self, event: Mapping[str, Any], seating: Seating) -> str | None:
        if event["type"] == "play":
            return f"{seating.who(event['seat'])} played {event['card']}"
        if event["type"] == "trick":
            return f"{seating.who(event['seat'])} took the trick"
        raise self.unknown(event)

    def summary(self, event: Mapping[str, Any], seating: Seating) -> list[Section]:
        return [Section("Tricks taken", self._scores(event["scores"], seating))]

    def scores(
        self, view: Mapping[str, Any] | None, result: Mapping[str, Any] | None, seating: Seating
    ) -> Section:
        scores = (view or result or {}).get("scores") or []
        return Section("Scores", self._scores(scores, seating))

    @staticmethod
    def _scores(scores: Sequence[int], seating: Seating) -> str:
        return " · ".join(f"{seating.name(s)} {v}" for s, v in enumerate(scores))


@pytest.fixture
def toy_game() -> Iterator[None]:
    engine.register(ToyTricksGame)
    register_players(NAME, {level: FirstLegal for level in LEVELS})
    PRESENTERS[NAME] = ToyTricksPresenter
    try:
        yield
    finally:
        engine.unregister(NAME)
        PRESENTERS.pop(NAME, None)


@pytest.fixture
async def toy_world(toy_game: None, tmp_path: Path) -> AsyncIterator[World]:
    # Registered before the bot is built: /new and the move commands come from engine.GAMES.
    async with run_world(make_settings(tmp_path)) as running:
        yield running


async def test_the_service_plays_a_fifth_game_to_the_end(toy_game: None, tmp_path: Path) -> None:
    service = TableService(tmp_path / "toy.db")
    await service.start()
    try:
        await service.open_table(1, 9, 100, "ann", NAME, options={"timer": "off"})
        await service.add_ai(1, 100, "normal")
        await service.start_game(1, 100)
        moves = 0
        while service.get_table(1) is not None:
            await service.settle()
            legal = service.legal_actions(1, 100)
            if legal:
                await service.act(1, 100, legal[-1])
                moves += 1
        assert moves == 3, "ann plays one card a trick"
    finally:
        await service.close()
    # The finished game is on record, loadable like any other.
    reopened = TableService(tmp_path / "toy.db")
    await reopened.start()
    assert reopened.get_table(1) is None
    await reopened.close()


async def test_a_fifth_game_plays_to_the_end_through_slash_commands(toy_world: World) -> None:
    world = toy_world
    table = await world.open(NAME, humans=2)
    assert table.game == NAME and table.status is TableStatus.PLAYING
    # Its move command came from its declared verb; autocomplete offers its legal cards.
    member, legal = world.human_to_act() or (None, [])
    assert member is not None and legal
    moves = await world.play(via="command")
    assert moves == 6, "two players, three cards each"
    assert world.table() is None, "the game ended and freed the channel"
    final = world.table_messages()[-1].embeds[0]
    assert "game over" in (final.title or "")
    words = " ".join(f"{f.name} {f.value}" for f in final.fields)
    assert "won" in words and "Scores" in words
    # /help names it and its move, from its declaration.
    helped = await world.slash(world.members[0], "help")
    assert "Toy Tricks: `/play`" in (helped.response.embeds[0].description or "")


async def test_a_fifth_games_moves_are_refused_like_any_other(toy_world: World) -> None:
    world = toy_world
    await world.open(NAME, humans=2)
    member, _ = world.human_to_act() or (None, [])
    assert member is not None
    before = world.service.get_table(world.channel.id)
    refused = await world.slash(member, "play", card="zz")
    assert refused.ephemeral and "You may:" in refused.response.content
    assert world.service.get_table(world.channel.id) == before, "a refusal changes nothing"
