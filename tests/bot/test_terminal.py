"""The terminal table: every game playable from typed words, saved between sessions."""

from __future__ import annotations

import asyncio
import io
import random
import re
from pathlib import Path

import pytest

import engine
from bot import terminal
from bot.i18n import use_locale


def run(argv: list[str], lines: list[str]) -> tuple[int, str]:
    """``main`` with ``lines`` as the typed input."""
    out = io.StringIO()
    feed = iter(lines)

    def read() -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    code = asyncio.run(terminal.play(terminal.parse_args(argv), read, out))
    return code, out.getvalue()


def autoplay(argv: list[str], limit: int = 3000) -> tuple[int, str]:
    """Plays the first legal move the terminal offers each time (as a player would type it)."""
    out = io.StringIO()
    count = 0

    def read() -> str:
        nonlocal count
        count += 1
        if count > limit:
            return "quit"
        offers = re.findall(r"^Type: (.*)$", out.getvalue(), re.MULTILINE)
        return offers[-1].split(", ")[0].removesuffix(" ...") if offers else "help"

    code = asyncio.run(terminal.play(terminal.parse_args(argv), read, out))
    return code, out.getvalue()


SHORT = {
    "troika": ["--option", "end=rounds", "--option", "rounds=1"],
    "troeven": [],
    "troggu": ["--preset", "quick"],
}


@pytest.mark.parametrize("game", sorted(SHORT))
def test_a_whole_game_can_be_played_in_the_terminal(tmp_path: Path, game: str) -> None:
    if game not in engine.GAMES:
        pytest.skip(f"{game} is not written yet")
    argv = [game, "--db", str(tmp_path / "t.db"), "--delay", "0", "--seed", "4", *SHORT[game]]
    code, text = autoplay(argv)
    assert code == 0
    assert "You are seat 1" in text and "The game is over." in text


def test_troikuntza_plays_in_the_terminal(tmp_path: Path) -> None:
    argv = ["troikuntza", "--db", str(tmp_path / "t.db"), "--delay", "0", "--seed", "2"]
    code, text = autoplay(argv, limit=40)
    assert code == 0 and "Saved." in text
    assert text.count("\nType: ") >= 10


def test_help_hand_and_table_words(tmp_path: Path) -> None:
    argv = ["troika", "--db", str(tmp_path / "t.db"), "--delay", "0", "--seed", "1"]
    code, text = run(argv, ["help", "hand", "table", "bid 99", "quit"])
    assert code == 0
    assert "Commands: hand, table, help, quit" in text
    hand = re.search(r"^Your hand:\n  (.+)$", text, re.MULTILINE)
    assert hand is not None
    assert len(re.findall(r"(?:10|[2-9AKQJ])[♠♥♦♣]", hand.group(1))) == 8  # eight cards
    assert "Troika — hand 1" in text and "Scores:" in text
    assert "Saved." in text


def test_an_illegal_move_is_explained_and_nothing_changes(tmp_path: Path) -> None:
    argv = ["troeven", "--db", str(tmp_path / "t.db"), "--delay", "0", "--seed", "1"]
    code, text = run(argv, ["play zz", "quit"])
    offers = re.findall(r"^Type: .+$", text, re.MULTILINE)
    # The reason alone after a refusal: the state is not printed again (it did not change).
    assert code == 0 and len(offers) == 1
    assert text.count("Your layout:") == 1 and "trump s" in text.split(offers[0])[1]


#: Discord's markup a terminal must never print.
MARKUP = re.compile(r"\*\*|`|<t:\d+|\|\||__")


@pytest.mark.parametrize("game", ["troika", "troggu", "troikuntza"])
def test_the_terminal_prints_plain_text(tmp_path: Path, game: str) -> None:
    argv = [game, "--db", str(tmp_path / "t.db"), "--delay", "0", "--seed", "2"]
    argv += ["--option", "timer=60"]  # deadlines on: the turn line has a time
    _, text = autoplay(argv, limit=40)
    _, table = run(argv, ["table", "help", "play zz", "quit"])
    assert not MARKUP.search(text + table), MARKUP.search(text + table)
    assert re.search(r"in \d+ s", table)  # the deadline as words


def test_the_moves_are_listed_once(tmp_path: Path) -> None:
    argv = ["troika", "--db", str(tmp_path / "t.db"), "--delay", "0", "--seed", "3"]
    _, text = run(argv, ["quit"])
    assert text.count("bid 6 no") == 1 and "Your move:" not in text


def test_a_whole_troika_hand_with_bare_card_words(tmp_path: Path) -> None:
    """Bid and trumps by their words, then every card typed alone (``as``, not ``play as``)."""
    argv = ["troika", "--db", str(tmp_path / "t.db"), "--delay", "0", "--seed", "4"]
    argv += ["--option", "end=rounds", "--option", "rounds=1", "--ai", "normal"]
    out = io.StringIO()
    typed: list[str] = []

    def read() -> str:
        offers = re.findall(r"^Type: (.*)$", out.getvalue(), re.MULTILINE)
        moves = offers[-1].split(", ") if offers else []
        cards = [m.removeprefix("play ") for m in moves if m.startswith("play ")]
        if len(typed) > 60:
            return "quit"
        word = cards[0] if cards else (moves[0] if moves else "help")
        typed.append(word)
        return word

    code = asyncio.run(terminal.play(terminal.parse_args(argv), read, out))
    text = out.getvalue()
    played = [w for w in typed if not w.startswith(("bid", "pass", "trump", "help", "discard"))]
    assert code == 0 and "The game is over." in text, text[-600:]
    assert len(played) == 8  # his eight cards, each typed alone
    assert "is not" not in text  # none refused


def test_quit_saves_and_the_same_command_resumes(tmp_path: Path) -> None:
    argv = ["troika", "--db", str(tmp_path / "t.db"), "--delay", "0", "--seed", "5"]
    _, first = autoplay(argv, limit=6)
    assert "Saved." in first
    code, second = run(argv, ["quit"])
    assert code == 0 and "Resuming your Troika game" in second
    _, third = run([*argv, "--new"], ["quit"])
    assert "Resuming" not in third and "You are seat 1" in third


def test_unknown_game_and_bad_option(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    assert run(["chess", "--db", db], [])[0] == 2
    code, text = run(["troika", "--db", db, "--option", "min_bid=3"], [])
    assert code == 2 and "min_bid" in text
    code, text = run(["troika", "--db", db, "--players", "3"], [])
    assert code == 2 and "4" in text


def test_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert terminal.main(["--help"]) == 0
    assert "python -m bot local" in capsys.readouterr().out


def test_terminal_channels_are_negative_and_distinct() -> None:
    ids = {terminal.channel_for(g) for g in engine.GAMES}
    assert len(ids) == len(engine.GAMES) and all(i < 0 for i in ids)


def test_the_table_speaks_the_language_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.i18n import core
    from bot.i18n.pseudo import CLOSE, OPEN

    # The French catalog is filled later: here French is the pseudo-language (⟦…⟧).
    monkeypatch.setitem(core._catalogs, "fr", core.PseudoTranslations())
    argv = ["troeven", "--db", str(tmp_path / "t.db"), "--delay", "0", "--seed", "1"]
    code, text = run([*argv, "--lang", "fr"], ["play zz", "quit"])
    lines = text.splitlines()
    refusal = next(line for line in lines if line.startswith("  ") and OPEN in line)
    assert code == 0 and refusal.strip().endswith(CLOSE), refusal
    assert lines[-1].startswith(OPEN) and "--new" in lines[-1], "Saved. … in French"
    _, english = run(argv, ["quit"])
    assert "Saved." in english and OPEN not in english.splitlines()[-1]


def test_in_french_the_commands_and_the_cards_are_typed_in_french(tmp_path: Path) -> None:
    """The shipped French catalog: ``aide``, ``main``, ``quitter``; a card with its French rank
    letter (``R`` for the King) is the engine's card."""
    argv = ["troika", "--db", str(tmp_path / "t.db"), "--delay", "0", "--seed", "1"]
    code, text = run([*argv, "--lang", "fr"], ["aide", "main", "quitter"])
    assert code == 0
    assert "Commandes : main, table, aide, quitter." in text
    assert text.count("Ta main") >= 2, "main showed the hand again"
    assert "Relance la même commande" in text.splitlines()[-1]
    assert terminal.typed_move("play rh") == "play rh", "in English, R is no rank"
    with use_locale("fr"):
        assert terminal.typed_move("play rh") == "play KH"
        assert terminal.typed_move("bid 7 no") == "bid 7 no"


@pytest.mark.parametrize("language", ["fr", "de", "nl"])
def test_every_move_offered_in_the_readers_words_is_the_engines_move(language: str) -> None:
    """The moves the terminal lists are typed in the reader's words (his command names, his rank
    letters) and read back as the engine's very action, in every game; seeded random games."""
    seen_translated = cards_translated = 0
    with use_locale(language):
        for name, spec in engine.GAMES.items():
            words = terminal.move_words(spec.verbs)
            read = terminal.reading(words)
            for seed in range(2):
                game = engine.new_game(name, spec.default_players, seed=seed)
                rng = random.Random(seed)
                for _ in range(400):
                    if game.is_over():
                        break
                    seat = rng.choice(game.to_act())
                    legal = game.legal_actions(seat)
                    for action in legal:
                        shown = terminal.shown_move(action, words)
                        seen_translated += shown.split(" ")[0] != action.split(" ")[0]
                        cards_translated += shown.split(" ")[1:] != action.split(" ")[1:]
                        typed = terminal.typed_move(shown, read)
                        assert typed.lower() == action.lower(), (name, shown)
                    # (the engine takes the move as typed back)
                    choice = rng.choice(legal)
                    game.apply(seat, terminal.typed_move(terminal.shown_move(choice, words), read))
    assert seen_translated > 0, "no move word was translated"
    assert cards_translated > 0, "no card was written in the reader's letters"


def test_in_french_a_move_is_typed_with_its_french_command_name(tmp_path: Path) -> None:
    argv = ["troika", "--db", str(tmp_path / "t.db"), "--delay", "0", "--seed", "1"]
    code, text = run([*argv, "--lang", "fr"], ["quitter"])
    assert code == 0 and "Tape aide." in text and "IA 1 (difficile)" in text.splitlines()[0]
    offered = next(line for line in text.splitlines() if line.startswith("Tape :"))
    assert "miser 7 sans" in offered and "bid" not in offered  # /miser: Discord's French name
    assert "miser 7 no" not in offered  # the word after the number in French too
