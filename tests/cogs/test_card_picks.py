"""TroiKuntza's melds of the player's own cards, picked on his private panel through SimCord:
one select of his cards per meld of the contract, then Lay down."""

from __future__ import annotations

import itertools
import random
from typing import Any

from cog_world import World
from simcord import MemberActor

from engine.troikuntza.melds import readings


def _no_meld(rng: random.Random) -> Any:
    """Draw and discard at random, never melding: play until someone may come out."""

    def choose(member: int, legal: list[str]) -> str:
        for word in ("pass", "draw"):
            if word in legal:
                return word
        plain = [a for a in legal if not a.startswith(("meld ", "layoff "))]
        return rng.choice(plain or legal)

    return choose


def _may_meld(world: World) -> bool:
    turn = world.human_to_act()
    return turn is not None and any(a.startswith("meld ") for a in turn[1])


async def _picker(world: World, member: MemberActor) -> Any:
    """Open the hand panel, then the pick of his own melds; the picker's message."""
    panel = await world.member_of(member.id).click(
        world.live_table_message(), custom_id=f"tt:hand:{world.channel.id}"
    )
    opened = await member.click(
        panel.response.message, custom_id=f"tt:cardsdo:{world.channel.id}:open:"
    )
    assert opened.acknowledged and opened.response is not None
    return opened.response.message


def _components(message: Any) -> list[Any]:
    return [child for row in message.components for child in getattr(row, "children", [])]


async def _pick(member: MemberActor, message: Any, groups: list[list[str]]) -> Any:
    """Choose each group's cards in its select (by option value ``code#copy``)."""
    for index, cards in enumerate(groups):
        select = next(
            c
            for c in _components(message)
            if c.custom_id.split(":")[:4][-1] == str(index) and c.custom_id.startswith("tt:cards:")
        )
        copies: dict[str, int] = {}
        values = []
        for card in cards:
            values.append(f"{card}#{copies.get(card, 0)}")
            copies[card] = copies.get(card, 0) + 1
        result = await member.select(message, values, custom_id=select.custom_id)
        assert result.acknowledged, result
        message = result.response.message
    return message


def _kind_of(cards: list[str], seat: int) -> str:
    """``T`` or ``R``: what the engine reads ``cards`` as."""
    return "T" if readings([c.upper() for c in cards], seat)[0]["kind"] == "troika" else "R"


async def _to_meld(world: World) -> tuple[MemberActor, list[str]]:
    await world.open("troikuntza", humans=4)
    await world.play(choose=_no_meld(random.Random(5)), stop=_may_meld)
    turn = world.human_to_act()
    assert turn is not None
    member, legal = turn
    return member, legal


async def test_a_meld_of_his_own_cards_is_laid_down(world: World) -> None:
    member, legal = await _to_meld(world)
    proposed = next(a for a in legal if a.startswith("meld "))
    seat = world.member_index(member)
    contract = (world.service.view(world.channel.id, member.id).game or {})["contract"]
    # His own way: each meld's cards in another order than the bot's proposal, each under the
    # select of its kind (the proposal may list a Run before a Troika).
    proposal = [list(reversed(g.split())) for g in proposed.removeprefix("meld ").split("|")]
    groups = []
    for kind in contract:
        fits = next(g for g in proposal if _kind_of(g, seat) == kind)
        proposal.remove(fits)
        groups.append(fits)
    message = await _pick(member, await _picker(world, member), groups)
    go = next(c for c in _components(message) if c.custom_id.startswith("tt:cardsdo:"))
    assert not go.disabled
    done = await member.click(message, custom_id=go.custom_id)
    assert done.acknowledged and done.response is not None
    laid = done.response.message.embeds[0].author.name
    assert laid.startswith("You laid down"), laid
    view = world.service.view(world.channel.id, member.id).game
    assert view is not None and view["out"][world.member_index(member)]
    laid_down = view["melds"][-len(groups) :]  # after any other player's
    assert sorted(c for m in laid_down for c in m["cards"]) == sorted(
        c.upper() for g in groups for c in g
    )


async def test_a_meld_the_rules_refuse_is_refused_privately_and_changes_nothing(
    world: World,
) -> None:
    member, legal = await _to_meld(world)
    seat = world.member_index(member)
    before = world.service.view(world.channel.id, member.id).game
    assert before is not None
    hand = [str(c).lower() for c in before["hand"]]
    least = 3 if before["contract"][0] == "T" else 4
    # The first meld: cards that make no meld at all (of as many cards as its select asks).
    odd = next(
        list(cards)
        for cards in itertools.combinations([c for c in hand if c != "jk"], least)
        if not readings([c.upper() for c in cards], seat)
    )
    rest = [c for c in hand if c not in odd]
    groups = [odd] + [rest[:4] for _kind in before["contract"][1:]]
    message = await _pick(member, await _picker(world, member), groups)
    go = next(c for c in _components(message) if c.custom_id.startswith("tt:cardsdo:"))
    public = len(world.public_payloads())
    refused = await member.click(message, custom_id=go.custom_id)
    assert refused.ephemeral and refused.response is not None
    assert "is not a meld" in refused.response.content, refused.response.content
    after = world.service.view(world.channel.id, member.id).game
    assert after == before, "a refused meld changes nothing"
    assert len(world.public_payloads()) == public, "and says nothing in public"
