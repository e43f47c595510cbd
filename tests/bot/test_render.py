"""Rendering: card text, the embeds built from real engine views through the games' presenters
(the public one never shows a hand; every message within Discord's limits), the pictures."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engine
from bot.render import embeds
from bot.render.games import cards, images
from tests.bot.render.playing_table import playing_table as _table

NAMES = ["ann", "bob", "cid", "dee"]


@pytest.mark.parametrize(
    ("code", "shown"),
    [("10H", "10♥︎"), ("5h", "5♥︎"), ("3S", "3♠︎"), ("AC", "A♣︎"), ("QD", "Q♦︎"), ("JK", "🃏Joker"),
     ("K-CU", "K🏆"), ("1-CO", "1🪙"), ("N-SW", "N⚔️"), ("10-BA", "10🪄"), ("T21", "T21"),
     ("FOOL", "Fool")],
)  # fmt: skip
def test_cards_are_shown_with_symbols(code: str, shown: str) -> None:
    assert cards.pretty(code) == shown


def test_actions_are_shown_with_card_symbols() -> None:
    assert cards.pretty_action("play 10h") == "play 10♥︎"
    assert cards.pretty_action("bid 7 no") == "bid 7 no"
    assert cards.pretty_action("meld 7h 7s 7c | qh qd jk") == "meld 7♥︎ 7♠︎ 7♣︎ | Q♥︎ Q♦︎ 🃏Joker"


def _embed_text(*shown) -> str:  # noqa: ANN002 - discord.Embeds
    parts = []
    for embed in shown:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


def _size(embed) -> int:  # noqa: ANN001 - a discord.Embed
    return len(embed)


GAMES_AND_COUNTS = [(name, spec.max_players) for name, spec in sorted(engine.GAMES.items())]


@pytest.mark.parametrize(("game", "players"), GAMES_AND_COUNTS)
def test_public_embed_of_a_real_view_shows_no_hand(game: str, players: int) -> None:
    g = engine.new_game(game, players, seed=5)
    for _ in range(3):  # a few moves in, so there is something on the table
        seat = g.to_act()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    table = _table(game, players)
    public = g.view(None)
    text = _embed_text(*embeds.table_embeds(table, public, ["ann plays"]))
    assert "▶ **" in text and "<t:1800000000:R>" in text
    visible = _strings(public)  # a TroiKuntza duplicate of a public card may be held too
    for seat in range(players):
        for card in g.view(seat).get("hand", []):
            if card in visible:
                continue
            assert cards.pretty(card) not in text.split(), f"{card} shown"
    mine = g.view(0)
    hand_text = _embed_text(embeds.hand_embed(table, mine, g.legal_actions(0)))
    for card in mine.get("hand", []):
        assert cards.pretty(card) in hand_text


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def test_table_picture_is_a_png_with_every_card() -> None:
    png = images.table_png(NAMES, [(1, "5H"), (2, "3S"), (3, "K-CU"), (0, "FOOL")], viewer=0)
    picture = Image.open(io.BytesIO(png))
    assert picture.format == "PNG" and picture.size == (560, 400)
    # Each card is drawn: near every seat's card centre the felt gives way to a white card.
    for x, y in images.seat_positions(4, 0, 560, 400):
        assert picture.getpixel((int(x), int(y) - 45)) != images.FELT


def test_hand_picture_grows_with_the_hand() -> None:
    small = Image.open(io.BytesIO(images.hand_png(["AS", "KH"])))
    row = Image.open(io.BytesIO(images.hand_png(["AS"] * 9)))
    large = Image.open(io.BytesIO(images.hand_png(["AS"] * 12)))
    # Wider up to a full row, then a second row: taller, never a thin strip.
    assert row.size[0] > small.size[0] and small.size[1] == row.size[1]
    assert large.size[1] > row.size[1] and large.size[0] <= row.size[0]


@pytest.mark.parametrize(("game", "players"), GAMES_AND_COUNTS)
def test_every_message_stays_within_discords_limits(game: str, players: int) -> None:
    """Long games at the most players: every table message and hand panel fits."""
    g = engine.new_game(game, players, seed=11)
    table = _table(game, players)
    lines = ["x" * 300] * 20
    for step in range(400):
        if g.is_over():
            break
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        if not legal:
            window = g.timed_window()
            assert window is not None
            g.apply(seat, window.action)
            continue
        g.apply(seat, legal[step % len(legal)])
        if step % 25:
            continue
        shown = embeds.table_embeds(table, g.view(None), lines)
        assert sum(_size(e) for e in shown) <= 6000
        assert all(len(e.fields) <= 25 for e in shown)
        for e in shown:
            assert all(len(f.value) <= 1024 and len(f.name) <= 256 for f in e.fields)
        panel = embeds.hand_embed(table, g.view(seat), g.legal_actions(seat))
        assert _size(panel) <= 6000 and len(panel.fields) <= 25


@pytest.mark.parametrize(("game", "players"), GAMES_AND_COUNTS)
def test_a_panel_leaves_out_what_it_hides_without_building_it(game: str, players: int) -> None:
    """``hand_sections(..., hidden)`` gives the sections it gives without, less those roles (a
    panel asks for them hidden rather than dropping them after they were built)."""
    g = engine.new_game(game, players, seed=7)
    table = _table(game, players)
    presenter = embeds.presenter_of(table)
    checked = 0
    for step in range(120):
        if g.is_over():
            break
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        if not legal:
            g.apply(seat, g.timed_window().action)
            continue
        if step % 10 == 0:
            view, seating = g.view(seat), embeds.seating_of(table, seat)
            everything = presenter.hand_sections(view, legal, seating)
            for hidden in (embeds.HIDDEN, embeds.HIDDEN_UNDER_PICTURE):
                shown = presenter.hand_sections(view, legal, seating, hidden)
                assert shown == [s for s in everything if s.role not in hidden]
                checked += 1
        g.apply(seat, legal[step % len(legal)])
    assert checked >= 6


def test_a_message_over_its_limits_keeps_the_players_move() -> None:
    """Sections too many and too long for one message give way from the end, but the player's
    move stays: it is what his panel is for."""
    from bot.render.games._words import MESSAGE_SECTIONS, MESSAGE_TEXT, within_limits
    from bot.render.presenter import Section

    melds = [Section(f"Meld {n}", "x" * 900, role="table") for n in range(30)]
    move = Section("Your move", "lay off 5h on meld 3", role="move")
    out = within_limits([*melds, move])
    assert out[-1] == move
    assert "more sections not shown" in out[-2].text
    assert len(out) <= MESSAGE_SECTIONS
    assert sum(len(s.title) + len(s.text) for s in out) <= MESSAGE_TEXT


def test_a_card_copied_from_a_message_with_its_form_mark_is_read() -> None:
    from engine.cards import parse_card

    for shown in ("10♥︎", "K♠︎", "Q♦️", "A♣︎"):
        (typed,) = cards.typed_words([shown])
        assert parse_card(typed) == parse_card(shown.rstrip("\ufe0e\ufe0f"))
    assert cards.typed_words(["10♥︎ K♠️"]) == ["10♥ K♠"]


def test_players_awaited_until_the_same_moment_share_one_timer() -> None:
    from dataclasses import replace

    from bot.render.embeds import turn_line
    from tests.bot.render.playing_table import playing_table

    names = ["ann", "bob", "cid", "dee"]
    table = replace(
        playing_table("troikuntza", 4),
        deadlines={1: 1_800_000_010.0, 2: 1_800_000_010.4, 3: 1_800_000_050.0},
    )
    line = turn_line(table, names, [1, 2, 3, 0])
    assert line == (
        "▶ **bob**, **cid** ⏳ <t:1800000010:R>, **dee** ⏳ <t:1800000050:R>, **ann**"
    ), line
