"""Rendering: card text, narration of each event kind, embeds from real engine views (the public
one never shows a hand), and the Pillow pictures."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engine
from bot.render import cards, embeds, images, narrate
from bot.service import Seat, Table, TableStatus

NAMES = ["ann", "bob", "cid", "dee"]


@pytest.mark.parametrize(
    ("code", "shown"),
    [("10H", "10♥"), ("5h", "5♥"), ("3S", "3♠"), ("AC", "A♣"), ("QD", "Q♦"), ("JK", "🃏"),
     ("K-CU", "K🏆"), ("1-CO", "1🪙"), ("N-SW", "N⚔"), ("10-BA", "10🪄"), ("T21", "T21"),
     ("FOOL", "Fool")],
)  # fmt: skip
def test_cards_are_shown_with_symbols(code: str, shown: str) -> None:
    assert cards.pretty(code) == shown


def test_actions_are_shown_with_card_symbols() -> None:
    assert cards.pretty_action("play 10h") == "play 10♥"
    assert cards.pretty_action("bid 7 no") == "bid 7 no"
    assert cards.pretty_action("meld 7h 7s 7c | qh qd jk") == "meld 7♥ 7♠ 7♣ | Q♥ Q♦ 🃏"


@pytest.mark.parametrize(
    ("event", "line"),
    [
        ({"type": "bid", "seat": 1, "bid": "7 no"}, "bob bids 7 no"),
        ({"type": "bid", "seat": 1, "bid": "pass"}, "bob passes"),
        ({"type": "pass", "seat": 2}, "cid passes"),
        ({"type": "play", "seat": 0, "card": "5H"}, "ann plays 5♥"),
        ({"type": "trump", "seat": 3, "suit": "S"}, "dee names trumps: ♠ spades"),
        ({"type": "trick", "seat": 2, "cards": ["5H", "3S"]}, "cid wins the trick (5♥ 3♠)"),
        ({"type": "mayi_call", "seat": 1}, "bob calls May I"),
        ({"type": "mayi", "seat": 1, "card": "KD"}, "bob gets K♦ by May I"),
        ({"type": "layoff", "seat": 2, "card": "9H", "meld": 2}, "cid lays off 9♥ on meld 2"),
        ({"type": "deal", "dealer": 3}, "dee deals"),
        ({"type": "draw", "seat": 1, "stock_size": 9}, "bob draws from the stock"),
    ],
)
def test_each_event_kind_is_told_in_plain_words(event: dict, line: str) -> None:
    assert narrate.narrate(event, NAMES) == line


def test_private_events_are_never_narrated() -> None:
    event = {"type": "draw", "seat": 1, "card": "AS", "private_to": 1}
    assert narrate.narrate(event, NAMES) is None


def test_unknown_events_are_told_generically() -> None:
    text = narrate.narrate({"type": "target_raised", "target": 62}, NAMES)
    assert text == "Target raised (target 62)"


def test_hand_and_game_over_name_the_teams() -> None:
    view = {"scores": [30, 12], "teams": [[0, 2], [1, 3]]}
    labels = narrate.score_labels(view, NAMES)
    assert labels == ["ann & cid", "bob & dee"]
    over = narrate.narrate({"type": "game_over", "scores": [55, 12], "winners": [0, 2]}, NAMES,
                           labels)  # fmt: skip
    assert "ann, cid won" in over and "ann & cid 55" in over


def _table(game: str, players: int) -> Table:
    seats = tuple(
        Seat(index=i, name=NAMES[i % 4] + str(i), user_id=100 + i) for i in range(players)
    )
    spec = engine.GAMES[game]
    return Table(
        id=1, channel_id=5, guild_id=None, game=game, title=spec.title, preset=None,
        options=spec.defaults(), overrides={}, host_id=100, status=TableStatus.PLAYING,
        seats=seats, to_act=(0,), deadlines={0: 1_800_000_000.0},
    )  # fmt: skip


def _embed_text(embed) -> str:  # noqa: ANN001 - a discord.Embed
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


@pytest.mark.parametrize(("game", "players"), [("troika", 4), ("troeven", 2), ("troggu", 4),
                                               ("troikuntza", 4)])  # fmt: skip
def test_public_embed_of_a_real_view_shows_no_hand(game: str, players: int) -> None:
    if game not in engine.GAMES:
        pytest.skip(f"engine/{game} has not landed yet")
    g = engine.new_game(game, players, seed=5)
    for _ in range(3):  # a few moves in, so there is something on the table
        seat = g.to_act()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    table = _table(game, players)
    public = g.view(None)
    text = _embed_text(embeds.table_embed(table, public, ["ann plays"]))
    assert "Waiting for **" in text and "<t:1800000000:R>" in text
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


def test_trick_shapes_become_seat_card_pairs() -> None:
    assert embeds.trick_cards([{"seat": 2, "card": "5H"}]) == [(2, "5H")]
    assert embeds.trick_cards({"cards": [[1, "AS"]], "winner": 1}) == [(1, "AS")]
    assert embeds.trick_cards(["AS", "KS"], leader=3, players=4) == [(3, "AS"), (0, "KS")]


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


def _troeven_in_play() -> engine.Game:
    g = engine.new_game("troeven", 2, options={"version": "layout"}, seed=4)
    while g.view(None)["phase"] != "play" or g.view(None)["tricks_played"] < 2:
        seat = g.to_act()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    return g


def test_troeven_layouts_are_shown_to_both_players_and_the_table() -> None:
    g = _troeven_in_play()
    table = _table("troeven", 2)
    public = g.view(None)
    ups = [[p["up"] for p in places] for places in public["layout"]]
    assert all(any(row) for row in ups), "both players have face-up cards"
    for embed in (embeds.table_embed(table, public), embeds.hand_embed(table, g.view(1), [])):
        field = next(f.value for f in embed.fields if f.name == "Layouts")
        lines = field.splitlines()
        for seat, row in enumerate(ups):
            line = next(x for x in lines if x.startswith(f"{NAMES[seat]}{seat}:"))
            for card in row:
                if card:
                    assert cards.pretty(card) in line, f"{card} missing from seat {seat}'s layout"


def test_points_taken_this_hand_are_shown_with_the_scores() -> None:
    g = _troeven_in_play()
    public = g.view(None)
    scores = next(
        f.value for f in embeds.table_embed(_table("troeven", 2), public).fields
        if f.name == "Scores"
    )  # fmt: skip
    a, b = public["hand_points"]
    assert f"This hand: {NAMES[0]}0 {a}, {NAMES[1]}1 {b}" in scores


def test_counts_agree_with_their_number() -> None:
    view = {"tricks_won": [1, 2], "hand_sizes": [1, 0], "to_act": [0]}
    text = embeds.players_block(view, ["ann", "bob"])
    assert "ann — 1 trick, 1 card" in text and "bob — 2 tricks, 0 cards" in text
