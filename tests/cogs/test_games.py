"""Complete games through Discord: slash commands and the private panel's buttons."""

from __future__ import annotations

import random

import pytest
from cog_world import World

import engine


def _require(game: str) -> None:
    if game not in engine.GAMES:
        pytest.skip(f"engine/{game} has not landed in engine.GAMES yet")


def _final_message_text(world: World) -> str:
    texts = []
    for message in world.table_messages():
        for embed in message.embeds:
            texts.append(f"{embed.title}\n{embed.description or ''}")
            texts += [f"{field.name}\n{field.value}" for field in embed.fields]
    return "\n".join(texts)


async def _finish(world: World, via: str, seed: int = 1) -> None:
    moves = await world.play(via=via, rng=random.Random(seed))
    assert moves > 0
    assert world.table() is None, "the channel's table should be closed once the game is over"
    text = _final_message_text(world)
    assert "game over" in text and ("won" in text or " win" in text), text


@pytest.mark.parametrize("via", ["command", "button"])
async def test_troika_complete_game_by_four_members(world: World, via: str) -> None:
    _require("troika")
    # Two hands to a final score (rounds mode) keeps the test short; ties play on.
    await world.open("troika", humans=4, end="rounds", rounds=2)
    await _finish(world, via)
    finished = [r for r in world.results if r.response and "You " in (r.response.content or "")]
    assert finished, "the players' moves were acknowledged to them"
    assert all(r.response.ephemeral for r in finished)


async def test_troggu_game_with_a_solo(world: World) -> None:
    _require("troggu")
    await world.open("troggu", humans=4, deals="1")
    solo_seen = []

    def choose(member: int, legal: list[str]) -> str:
        if "solo" in legal:  # the first bidder declares a Solo: it ends the bidding at once
            solo_seen.append(member)
            return "solo"
        return random.Random(len(solo_seen) * 1000 + len(legal)).choice(legal)

    moves = await world.play(via="mixed", choose=choose)
    assert moves > 0 and solo_seen, "a Solo was bid"
    assert world.table() is None
    text = _final_message_text(world)
    assert "game over" in text
    assert "bids Solo" in world.public_text() or "plays a Solo" in world.public_text(), (
        "the public table message told the Solo"
    )


@pytest.mark.parametrize("version", ["layout", "stock"])
async def test_troeven_game_in_each_version(world: World, version: str) -> None:
    _require("troeven")
    # One member against the AI: every deal still goes through Discord, in half the moves.
    await world.open("troeven", humans=1, ais=1, version=version)
    await _finish(world, "mixed", seed=3)


def _prefer_melding(member: int, legal: list[str]) -> str:
    for verb in ("meld", "layoff"):
        found = [a for a in legal if a.startswith(verb + " ")]
        if found:
            return found[0]
    if "pass" in legal and "mayi" in legal:
        return "pass"
    if "draw" in legal:
        return "draw"
    return random.Random(len(legal)).choice(legal)


async def test_troikuntza_round_with_a_may_i_race_of_three_callers(world: World) -> None:
    _require("troikuntza")
    # Dealer seat 4 (typed 3): seat 1 (ann, the host) plays first; bob, cid, dee may call.
    await world.open("troikuntza", humans=4, first_dealer="3")
    ann, bob, cid, dee = world.members[:4]
    channel = world.channel.id
    before = world.service.view(channel, ann.id).game
    assert before is not None and before["current"] == 0 and before["mayi"]["open"]
    upcard = before["discard_top"]
    # The race: dee calls first, then cid, then bob -- the nearest to ann's left wins anyway.
    for caller in (dee, cid, bob):
        result = await world.slash(caller, "mayi")
        assert result.ephemeral and "You called May I" in result.response.content, result.response
    drawn = await world.slash(ann, "draw")
    assert drawn.ephemeral
    after = world.service.view(channel, bob.id).game
    assert after is not None
    assert after["mayi"]["used"] == [0, 1, 0, 0], "only bob's May I counts"
    assert after["hand_sizes"][1] == 13, "bob took the upcard and a penalty card"
    assert after["hand_sizes"][2] == after["hand_sizes"][3] == 11, "the other calls are void"
    assert upcard in after["hand"]
    # ann chooses again (the newly exposed discard or the stock) and the round goes on.
    await world.play(via="mixed", choose=_prefer_melding,
                     stop=lambda w: (w.service.view(channel, ann.id).game or {}).get(
                         "hand_number", 1) > 1)  # fmt: skip
    over = [
        m for m in world.public_messages() for e in m.embeds if "hand 1 over" in (e.title or "")
    ]
    assert over, "round 1 ended with its own frozen table message"
