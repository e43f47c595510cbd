"""Fuzz: any text of up to 6,000 characters in any string option of the slash commands gets a
private reply within Discord's limits (or Discord itself refuses it: an option's
``max_length``), and changes nothing at the table."""

from __future__ import annotations

from typing import Any

import simcord
from cog_world import World
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs.moves import declared_verbs

#: Text as abusive users type it: any characters (markdown, mentions, emoji, control
#: characters), short or up to 6,000 long, and the long plain kind.
TEXTS = st.one_of(
    st.text(max_size=60),
    st.text(min_size=1, max_size=6000),
    st.builds(lambda c, n: c * n, st.sampled_from(["a", "`", "*", "@", "🃏", "10h "]),
              st.integers(1, 6000)),
)  # fmt: skip


def generated(count: int) -> list[str]:
    """``count`` texts drawn by Hypothesis (its generator favours the awkward ones)."""
    out: list[str] = []

    @settings(max_examples=count, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(TEXTS)
    def draw(text: str) -> None:
        out.append(text)

    draw()
    return [t for t in out if t.strip()] or ["x"]


def within_limits(result: simcord.InteractionResult) -> None:
    assert result.acknowledged, result
    assert result.ephemeral, "a refusal is private"
    response = result.response
    assert response is not None
    assert len(response.content) <= 2000
    total = 0
    for embed in response.embeds:
        assert len(embed.fields) <= 25
        total += len(embed)
    assert total <= 6000


def state_of(world: World) -> Any:
    table = world.table()
    assert table is not None
    return (table.move_number, table.to_act, table.status, table.seats)


async def test_any_text_in_any_move_option_is_refused_within_limits(world: World) -> None:
    await world.open("troika", humans=4)
    texts = generated(40)
    member = world.members[0]
    verbs = [v for v in declared_verbs().values() if v.args]
    for i, text in enumerate(texts):
        verb = verbs[i % len(verbs)]
        options = {arg.name: text for arg in verb.args}
        before = state_of(world)
        try:
            result = await world.slash(member, verb.name, **options)
        except simcord.OptionError:
            assert len(text) > 200 or not text.strip(), "Discord refuses only what is too long"
            continue
        if world.table() is not None and state_of(world) != before:
            # A fuzzed word happened to be this player's legal move: a real move, not abuse.
            continue
        within_limits(result)
        assert state_of(world) == before, f"/{verb.name} {text[:40]!r} changed the table"


async def test_any_text_in_new_and_rules_is_refused_within_limits(world: World) -> None:
    texts = generated(20)
    member = world.members[1]
    for text in texts:
        try:
            result = await world.slash(member, "rules", game=text)
        except simcord.OptionError:
            assert len(text) > 40
            continue
        within_limits(result)
        try:
            opened = await world.slash(member, "new troggu", deals=text)
        except simcord.OptionError:
            continue
        within_limits(opened)
        assert world.table() is None, "no table opened with a nonsense option"
