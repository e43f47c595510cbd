"""Every word of a refusal in the reader's language: refusals provoked in random games of every
game, rendered in French, German and Dutch, quote no English command word (``pass``,
``play js``) and no suit letter alone (``trump h``); French puts a space before its colons."""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterator

import pytest

import engine
from bot.i18n import _p, use_locale
from bot.i18n.refusals import refusal_text, render
from bot.render.presenter import reader_move_words
from engine import messages
from engine.errors import IllegalAction

LANGUAGES = ("fr", "de", "nl")
#: Words no move is made of, tried at every turn beside the moves of other moments.
JUNK = (
    "play", "play zz", "play 5h", "bid", "bid 99", "bid 7 xx", "trump", "trump x", "trump h",
    "meld", "meld 2h", "meld 2h 3h 4h", "layoff", "layoff 9h 99", "discard", "discard zz",
    "call", "call t21", "take", "draw", "mayi", "pass", "tapp", "xyz", "layoff jk 99 low",
)  # fmt: skip
#: The engine's words of a move that are neither a command nor a card (``bid 7 no``, ``call
#: none``, ``layoff jk 3 low``): every game's ``Presenter.move_words``, in English.
MOVE_WORDS = frozenset(reader_move_words())
QUOTED = re.compile(r"`([^`]+)`")


def _verbs() -> set[str]:
    return {verb.name for spec in engine.GAMES.values() for verb in spec.verbs}


def provoked(game: str, seed: int, moves: int = 200) -> Iterator[IllegalAction]:
    """The refusals of wrong moves tried at each turn of a random game (a refused move changes
    nothing, so the game goes on with a legal one)."""
    rng = random.Random(seed)
    spec = engine.GAMES[game]
    state = engine.new_game(game, spec.default_players, seed=seed)
    seen: set[str] = set()
    for _move in range(moves):
        if state.is_over():
            return
        seat = rng.choice(state.to_act())
        legal = state.legal_actions(seat)
        seen.update(legal)
        tries = rng.sample(sorted(seen), min(4, len(seen))) + rng.sample(JUNK, 4)
        played = False
        for action in tries:
            if action in legal:
                continue
            try:
                state.apply(seat, action)
            except IllegalAction as error:
                yield error
            else:  # a move the list left out (TroiKuntza lists a few melds): played
                played = True
                break
        if played or state.is_over() or seat not in state.to_act():
            continue
        for other in range(state.players):
            if other not in state.to_act():
                refusal = state.out_of_turn_refusal(other, rng.choice(JUNK))
                if refusal is not None:
                    yield refusal
        state.apply(seat, rng.choice(legal))


def english_words(text: str, language: str) -> list[str]:
    """The English command words and lone suit letters among the moves ``text`` quotes."""
    with use_locale(language):
        own = {verb for verb in _verbs() if _p("command name", verb) == verb}
    found = []
    for quoted in QUOTED.findall(text):
        words = quoted.split()
        if words and words[0] in _verbs() - own:
            found.append(words[0])
        found += [w for w in words[1:] if w.lower() in {"s", "h", "d", "c"} | MOVE_WORDS]
    # The English placeholders of a move (``<card>``) and suit letters listed (``S (spades)``).
    found += re.findall(r"<(?:card|meld)[^>]*>|\b[SHDC] \(", text)
    # A move named outside backticks too (a list of bids: ``pass, tapp, solo``).
    found += [w for w in re.findall(r"[\w-]+", QUOTED.sub("", text)) if w in _verbs() - own]
    return found


@pytest.mark.parametrize("game", sorted(engine.GAMES))
def test_refusals_quote_the_readers_words(game: str) -> None:
    keys: set[str] = set()
    for seed in range(3):
        for error in provoked(game, seed):
            keys.add(error.key)
            for language in LANGUAGES:
                with use_locale(language):
                    text = refusal_text(error)
                assert not english_words(text, language), (language, error.key, text)
                if language == "fr":
                    unquoted = QUOTED.sub("", text)
                    assert not re.search(r"\S[:;?!](\s|$)", unquoted), (error.key, text)
    assert len(keys) >= 5, f"too few refusals provoked in {game}: {sorted(keys)}"


def _sample_params(template: str) -> dict[str, object]:
    """Values for a template's fields: a list where its style lists, else a word."""
    listing = {"list", "space", "code", "code_or", "etc", "seats"}
    return {
        name: ["7"] if spec in listing else "7"
        for _text, name, spec, _conv in string.Formatter().parse(template)
        if name
    }


def test_every_refusal_quoting_a_games_word_quotes_it_in_the_readers_language() -> None:
    """The refusals that quote a move with a game's own word (``bid 7 no``, ``call none``,
    some provoked only at 7-8 players) write it in the reader's words: ``miser 7 sans``."""
    quoting = {
        key: template
        for key, template in messages.TEMPLATES.items()
        if any(set(q.split()[1:]) & MOVE_WORDS for q in QUOTED.findall(template))
    }
    assert {"troggu.call_how", "troggu.not_callable"} <= set(quoting), sorted(quoting)
    assert any(k.startswith("troika.") for k in quoting), sorted(quoting)
    for key, template in quoting.items():
        for language in LANGUAGES:
            with use_locale(language):
                text = render(key, _sample_params(template))
                his = set(reader_move_words().values())
            assert not english_words(text, language), (language, key, text)
            assert his & {w for q in QUOTED.findall(text) for w in q.split()}, (language, text)


def test_the_check_finds_english_moves() -> None:
    """The check above would see what the issue saw: ``pass``, ``play js``, ``trump h``."""
    assert english_words("Tu peux : `pass`, `play js`.", "fr") == ["pass", "play"]
    assert english_words("Choisis : `atout h`.", "fr") == ["h"]
    assert english_words("Tu peux annoncer : pass, tapp.", "fr") == ["pass"]
    assert english_words("Tape `défausser <card>`. Couleurs : S (pique).", "fr") == [
        "<card>",
        "S (",
    ]
    assert not english_words("Tu peux : `passer`, `jouer vp`, `atout ♥`, `mayi`.", "fr")
    assert english_words("Dis `miser 7 no` ou `appeler none`.", "fr") == ["no", "none"]
    assert not english_words("Dis `miser 7 sans` ou `appeler aucun`.", "fr")


@pytest.mark.parametrize("game", sorted(engine.GAMES))
def test_the_rules_quote_the_moves_in_the_readers_words(game: str) -> None:
    """``/rules`` quotes moves too (Troggu's ``call none``, Troika's ``no`` bids): as typed."""
    from cogs.info import rules_text

    for language in LANGUAGES:
        with use_locale(language):
            text = rules_text(game)
            own = {verb for verb in _verbs() if _p("command name", verb) == verb}
        for quoted in QUOTED.findall(text):
            head, *rest = quoted.split()
            assert head not in _verbs() - own, (language, quoted)
            assert not {w.lower() for w in [head, *rest]} & MOVE_WORDS, (language, quoted)
