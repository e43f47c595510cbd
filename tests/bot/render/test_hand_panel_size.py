"""The hand panel puts the cards on a phone's first screen: the text above the hand picture
(what to decide, then what he needs to decide it) stays within a bound per game, measured over
whole games at the most players; the hand is not written out beside its picture, and what the
table message shows is left to it.

Measured when the bounds were set (2026-11-25), worst panel over three games at the most
players, lines / characters: Troika 7 / 275 (14 / 326 before), Troeven 8 / 280 (13 / 393),
Troggu 12 / 487 (15 / 510), TroiKuntza 23 / 800 at 10 players laying off on every meld (29 /
855); each bound leaves a little room. Then TroiKuntza's melds went one line per player, two
players a line when many have melds: 16 / 885; Troggu's panel names the suits held: 13 / 513."""

from __future__ import annotations

import pytest

import engine
from bot.render import embeds
from engine.ai import make_player
from tests.bot.render.playing_table import playing_table as _table

#: Lines and characters of the text above the cards, at most.
BOUNDS = {"troika": (9, 320), "troeven": (10, 330), "troggu": (14, 540), "troikuntza": (16, 900)}


def panel_lines(embed) -> list[str]:  # noqa: ANN001 - a discord.Embed
    lines = (embed.description or "").splitlines()
    for field in embed.fields:
        lines += [field.name, *field.value.splitlines()]
    return lines


@pytest.mark.parametrize("game", sorted(BOUNDS))
def test_the_text_above_the_cards_stays_short(game: str) -> None:
    players = engine.GAMES[game].max_players
    table = _table(game, players)
    most_lines, most_chars = 0, 0
    for seed in range(3):
        g = engine.new_game(game, players, seed=seed)
        for step in range(600):
            if g.is_over():
                break
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            view = g.view(seat)
            panel = embeds.hand_embed(table, view, legal, image_name="hand.png")
            lines = panel_lines(panel)
            most_lines = max(most_lines, len(lines))
            most_chars = max(most_chars, sum(len(line) for line in lines))
            if legal:  # what to decide comes first
                assert (panel.description or "").startswith("**Your move:**")
            g.apply(seat, make_player(game, "normal", seed=step).choose(view, legal))
    lines_bound, chars_bound = BOUNDS[game]
    assert most_lines <= lines_bound and most_chars <= chars_bound, (most_lines, most_chars)


def test_the_hand_is_written_out_only_without_its_picture() -> None:
    g = engine.new_game("troika", 4, seed=1)
    table = _table("troika", 4)
    view, legal = g.view(0), g.legal_actions(0)
    with_picture = embeds.hand_embed(table, view, legal, image_name="hand.png")
    without = embeds.hand_embed(table, view, legal)
    assert "Your hand" not in [f.name for f in with_picture.fields]
    assert "Your hand" in [f.name for f in without.fields]
