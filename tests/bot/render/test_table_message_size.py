"""The live table message reads at a glance on a phone: at most 16 lines at its median over
whole games at the most players (every line of text a reader sees: the title, whose turn, the
latest moves, each section's title and lines, the footer; the picture not counted).

Measured when the bound was set (2026-11-25), median / most lines over two games: Troika 15 / 16
(20 / 21 before), Troeven 13 / 13 (22 / 22), Troggu 15 / 16 (30 / 30), TroiKuntza 15 / 23 at
10 players (34 / 43). TroiKuntza's many melds then folded (each player's melds and cards held on
his line, two players a line, the May I on one line, the scores on one): 14 / 16. No message
is longer than 16 lines either."""

from __future__ import annotations

import statistics

import pytest

import engine
from bot.render import embeds
from engine.ai import make_player
from tests.bot.render.playing_table import playing_table as _table

MEDIAN_LINES = 16
#: And the longest message of a whole game (TroiKuntza's many melds at 10 players: 23 before).
MOST_LINES = 16


def message_lines(shown) -> list[str]:  # noqa: ANN001 - discord.Embeds
    lines: list[str] = []
    for embed in shown:
        lines += [embed.title] if embed.title else []
        lines += (embed.description or "").splitlines()
        for field in embed.fields:
            if field.name.strip("\u200b "):
                lines.append(field.name)
            lines += field.value.splitlines()
        if embed.footer.text:
            lines.append(embed.footer.text)
    return lines


def live_messages(game: str, seed: int):  # noqa: ANN201 - yields (view, discord.Embeds)
    """The table message after every move of a whole game, its latest lines narrated as the
    publisher does (public events only, a new list at each hand)."""
    players = engine.GAMES[game].max_players
    table = _table(game, players)
    presenter, seating = embeds.presenter_of(table), embeds.seating_of(table)
    g = engine.new_game(game, players, seed=seed)
    latest: list[str] = []
    for step in range(3000):
        if g.is_over():
            return
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        if legal:
            action = make_player(game, "normal", seed=step).choose(g.view(seat), legal)
        else:
            window = g.timed_window()
            assert window is not None
            action = window.action
        for event in g.apply(seat, action):
            if event.get("private_to") is not None or event.get("type") == "game_over":
                continue
            if event.get("type") == "hand_over":
                latest.clear()  # the hand's lines go to its frozen message
                continue
            line = presenter.narrate(event, seating)
            if line:
                latest.append(line)
        if not g.is_over():
            view = g.view(None)
            yield view, embeds.table_embeds(table, view, latest, image_name="table.png")


@pytest.mark.parametrize("game", sorted(engine.GAMES))
def test_the_live_message_is_short_at_its_median(game: str) -> None:
    counts = [
        len(message_lines(shown)) for seed in (0, 1) for _v, shown in live_messages(game, seed)
    ]
    assert statistics.median(counts) <= MEDIAN_LINES, (statistics.median(counts), max(counts))
    assert max(counts) <= MOST_LINES, (statistics.median(counts), max(counts))


def test_troika_answers_at_a_glance() -> None:
    """Who dealt, the contract, tricks per player, who took the last trick once the next one
    starts, and why the score changed at a new hand."""
    seen = {"dealt": False, "tricks": False, "took the last": False, "last hand": False}
    for view, shown in live_messages("troika", 0):
        text = "\n".join(message_lines(shown))
        contract = view.get("contract")
        if contract and view.get("phase") == "play":
            assert " dealt" in text
            assert "Trumps: " in text or "No trumps" in text
            seen["dealt"] = True
        if view.get("played_tricks"):
            assert "Tricks: " in text
            seen["tricks"] = True
            if view.get("trick"):
                winner = view["last_trick"]["winner"]
                assert "bid" in text and " took the last" in text, text
                assert f"{embeds.names_of(_table('troika', 4))[winner]} took the last" in text
                seen["took the last"] = True
        if view.get("history"):
            assert "Last hand: " in text
            seen["last hand"] = True
    assert all(seen.values()), seen
