"""Every way of typing a card is answered with the card as the engine understood it: ``k♦``,
``th`` and Troggu's roman ``XVIII`` get the same reply as the plain code (``You played K♦``),
never the typing echoed back."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from cog_world import World

from bot.render.presenter import presenter_for
from engine.cards import SUIT_SYMBOLS

ROMAN = {18: "XVIII", 17: "XVII", 16: "XVI", 15: "XV", 14: "XIV", 13: "XIII", 12: "XII",
         11: "XI", 10: "X", 9: "IX", 8: "VIII", 7: "VII", 6: "VI", 5: "V", 4: "IV", 3: "III",
         2: "II", 19: "XIX", 20: "XX", 21: "XXI", 1: "I"}  # fmt: skip


def _with_symbol(card: str) -> str | None:
    """``kd`` -> ``k♦`` (a French face card with its suit's symbol, its rank in lower case: a
    number with the bare symbol, ``10♠``, would be the start of the card as shown, ``10♠︎``,
    and an echo of the typing could not be told from the card)."""
    rank, suit = card[:-1], card[-1].upper()
    return rank + SUIT_SYMBOLS[suit] if suit in SUIT_SYMBOLS and rank.isalpha() else None


def _ten_as_t(card: str) -> str | None:
    """``10h`` -> ``th``."""
    return "t" + card[2:] if card.startswith("10") else None


def _roman(card: str) -> str | None:
    """Troggu's trump ``t18`` -> ``XVIII``."""
    found = re.fullmatch(r"t(\d+)", card)
    return ROMAN[int(found[1])] if found else None


CASES: list[tuple[str, dict[str, int], Callable[[str], str | None]]] = [
    ("troika", {"humans": 1, "ais": 3}, _with_symbol),
    ("troika", {"humans": 1, "ais": 3}, _ten_as_t),
    ("troggu", {"humans": 1, "ais": 3}, _roman),
]


@pytest.mark.parametrize(
    ("game", "seats", "typing"), CASES, ids=lambda c: getattr(c, "__name__", str(c))
)
async def test_a_card_typed_any_way_is_echoed_as_the_card(
    world: World, game: str, seats: dict[str, int], typing: Callable[[str], str | None]
) -> None:
    await world.open(game, **seats)
    rng = random.Random(11)

    def typable(world: World) -> bool:
        turn = world.human_to_act()
        return turn is not None and any(
            a.startswith("play ") and typing(a.split()[1]) for a in turn[1]
        )

    # Play at random until the human may play a card that can be typed this way.
    for _attempt in range(20):
        await world.play(rng=rng, stop=typable)
        if typable(world):
            break
    turn = world.human_to_act()
    assert turn is not None, "no card to type this way came up"
    member, legal = turn
    plain = next(a for a in legal if a.startswith("play ") and typing(a.split()[1]))
    typed = typing(plain.split()[1])
    assert typed is not None
    expected = presenter_for(game).you_did(plain)
    assert typed not in expected, (typed, expected)
    result = await world.slash(member, "play", card=typed)
    assert result.acknowledged and result.response is not None
    reply = result.response.content + " ".join(e.author.name or "" for e in result.response.embeds)
    assert expected in reply, (typed, reply)
