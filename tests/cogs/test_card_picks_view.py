"""The pick of a player's own cards as components: within Discord's limits, the picks so far in
the custom ids and chosen in the selects (copies of one card told apart)."""

from __future__ import annotations

import discord

from bot.app import custom_ids
from bot.render.presenter import CardGroups
from cogs import card_picks

CHANNEL = 1234567890123456789
SPEC = CardGroups("meld", "Choose", "Pick", (("Meld 1", 3), ("Meld 2", 3), ("Meld 3", 4)))


def test_picks_round_trip_through_a_custom_id() -> None:
    groups = [["7h", "7s", "jk"], [], ["9c", "10c", "jc", "qc"]]
    text = card_picks.text(groups)
    assert card_picks.parse(text, 3) == groups
    assert card_picks.parse("", 3) == [[], [], []]
    assert card_picks.parse(text, 2) == groups[:2], "a forged id with more groups is cut"
    assert card_picks.action(SPEC, groups) == "meld 7h 7s jk |  | 9c 10c jc qc"


def test_the_selects_show_the_picks_and_keep_copies_apart() -> None:
    hand = ["7H", "7H", "7S", "JK", "9C", "10C", "JC", "QC", "KD", "2D", "3D", "4D", "5D"]
    groups = [["7h", "7h", "jk"], [], ["9c", "10c", "jc", "qc"]]
    view = card_picks.picker(CHANNEL, hand, SPEC, groups)
    selects = [i for i in view.children if isinstance(i, discord.ui.Select)]
    buttons = [i for i in view.children if isinstance(i, discord.ui.Button)]
    assert len(selects) == 3 and {s.row for s in selects} == {0, 1, 2}
    first = selects[0]
    assert [o.value for o in first.options if o.default] == ["7h#0", "7h#1", "jk#0"]
    assert first.min_values == 3 and first.max_values == len(hand) <= 25
    assert selects[2].min_values == 4
    go = next(b for b in buttons if b.custom_id.startswith("tt:cardsdo:"))
    assert go.disabled, "the second meld has no cards yet"
    assert card_picks.values_as_cards(["7h#0", "7h#1"]) == ["7h", "7h"]
    for item in view.children:
        assert len(item.custom_id or "") <= custom_ids.MAX_LENGTH


def test_a_pick_too_long_for_a_custom_id_is_caught() -> None:
    many = [["10h"] * 12, ["10s"] * 12, ["10c"] * 12]
    assert not card_picks.fits(CHANNEL, many)
    assert card_picks.fits(CHANNEL, [["7h", "7s", "7c"], ["qh", "qd", "jk"], []])
