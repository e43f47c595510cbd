"""The engine's refusals in the reader's language.

An ``IllegalAction`` carries a key of ``engine.messages.TEMPLATES`` and its params; the English
template is the msgid (extracted by ``bot.i18n.sources``), and the styles of the template's
fields (``{x:suit}``, ``{x:code_or}``, ``{x:contract}``...; see ``engine.messages``) are written
in this language's words here: a suit's or a contract's English words (as the engine writes
them) are translated whole, in the context named after the style. In English the result is
exactly ``str(error)``.

The moves a refusal quotes (in backticks: ``pass``, ``play 5h``, ``bid 7``, whether written in
the template or listed in its values) are written as the reader types them in another language:
the command's translated name (``passer``, ``jouer``), his card letters (French ``dh`` for
``QH``), a suit alone as its symbol (``h`` -> ``♥``: every language types it); the English words
of the engine never stand inside a French, German or Dutch sentence.
"""

from __future__ import annotations

import functools
import logging
import re
import string
from collections.abc import Iterator, Mapping
from typing import Any

from bot.i18n.core import DEFAULT, N_, _, _p, current
from engine import messages
from engine.errors import IllegalAction

log = logging.getLogger(__name__)

#: The longest piece of a caller's own text (a name, an option, a move he typed) a refusal
#: repeats: an excerpt, then an ellipsis. For every caller (the terminal, the web table), not
#: only Discord's, whose layer cuts its answers too (``bot.app.limits``).
QUOTE_LIMIT = 40
#: A bound on a whole refusal of the engine, however many values it lists (a backstop: the
#: engine's own lists, such as the legal moves, stay well under it).
REFUSAL_LIMIT = 1500


def excerpt(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as text, cut to ``limit`` characters (the last one an ellipsis)."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _bounded(value: Any) -> Any:
    """A refusal's value with each text in it cut to an excerpt (numbers stay as they are)."""
    if isinstance(value, str):
        return excerpt(value)
    if isinstance(value, list | tuple):
        return [excerpt(v) if isinstance(v, str) else v for v in value]
    return value


def _joined(items: list[str], pair: str) -> str:
    """``a or b or c`` in this language's words (``pair`` is a template of ``{a}`` and ``{b}``)."""
    text = items[0] if items else ""
    for item in items[1:]:
        text = _(pair, a=text, b=item)
    return text


#: The plain fields that hold one card (the lists of cards are the ``list`` and ``space`` styles).
CARD_FIELDS = ("card", "example")
#: The plain fields that hold a bid as the engine writes it (``7 no``): its words are the game's
#: (``Presenter.move_words``), written in the reader's (``7 sans``).
BID_FIELDS = ("bid", "next", "high")


def _as_typed(value: Any) -> Any:
    """A card code as the reader types it (``QH`` -> French ``DH``); anything else as it is."""
    # Imported here: the card faces speak through this package (``bot.i18n``) themselves.
    from bot.render.games.cards import code_as_typed

    return code_as_typed(value) if isinstance(value, str) and value else value


#: A suit typed alone as a move's word (``h``), written as its symbol.
_SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
#: Backticked text in a refusal: what the player types.
_QUOTED = re.compile(r"`([^`]+)`")


@functools.cache
def _verbs() -> dict[str, Any]:
    """Every game's verbs by command name (``engine.verbs.Verb``), as the slash commands are."""
    import engine  # the games, at first use: this package is imported by the presenters
    from engine.verbs import merge_verbs

    specs = engine.GAMES.items()
    return merge_verbs((name, verb) for name, spec in specs for verb in spec.verbs)


def _move_word(word: str) -> str:
    """A word of a move after its command, as the reader types it: a card in his letters, a
    suit alone as its symbol, a game's word in his language (``no`` -> French ``sans``); a
    field (``{bid}``) or anything else as it is."""
    if "{" in word:
        return word
    symbol = _SUIT_SYMBOLS.get(word.lower())
    if symbol is not None:
        return symbol
    # Imported here, as ``_as_typed`` does: the presenters speak through this package.
    from bot.render.presenter import reader_move_words

    his = reader_move_words().get(word.lower())
    return his if his is not None else str(_as_typed(word))


def typed_move(action: str) -> str:
    """An engine move (``play qh``, or a word another command makes: ``pass``) as the reader
    types it: the translated command that makes it, then its words (``jouer dh``). Text that
    is no move (an option's name, ``|``, what the player typed: ``{text}``) as it is; in
    English as the engine wrote it (``str(error)``)."""
    if current() == DEFAULT:
        return action
    words = action.split(" ")
    verbs = _verbs()
    verb = verbs.get(words[0]) or next((v for v in verbs.values() if v.makes(action)), None)
    if verb is None or not words[0].isidentifier():
        return action
    rest = verb.argument_of(action)
    typed = " ".join(_move_word(w) for w in rest.split(" ")) if rest else ""
    return f"{_p('command name', verb.name)} {typed}".rstrip()


def _typed_command(action: str) -> str:
    """``action`` as typed (``typed_move``) when its first word is a command's name (``pass``
    -> ``passer``); a word another command makes (a bid's name) as it is."""
    return typed_move(action) if action.split(" ")[0] in _verbs() else action


def _typed_quotes(text: str) -> str:
    """The moves quoted in ``text`` (in backticks) as the reader types them."""
    return _QUOTED.sub(lambda m: f"`{typed_move(m[1])}`", text)


def typed_quotes(text: str) -> str:
    """The moves quoted in a text written for the reader (``/rules``): each command's name and
    each game word (``call none`` -> French ``appeler aucun``, a ```no``` bid alone ->
    ```sans```) as he types them. Every other word as it is: a rule's example may name cards
    by letters (``a b c | d e f``) that are no suit."""
    if current() == DEFAULT:
        return text
    from bot.render.presenter import reader_move_words

    words = reader_move_words()
    verbs = _verbs()

    def typed(quoted: str) -> str:
        head, *rest = quoted.split(" ")
        if not rest:
            return words.get(head.lower(), head) if head not in verbs else typed_move(head)
        if head not in verbs:
            return quoted
        return " ".join([_p("command name", head), *(words.get(w.lower(), w) for w in rest)])

    return _QUOTED.sub(lambda m: f"`{typed(m[1])}`", text)


class _Localized(string.Formatter):
    """``str.format`` with the styles of ``engine.messages``, in the current language; cards in
    the reader's letters (the engine names them by its English codes)."""

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        value = super().get_value(key, args, kwargs)
        if key in CARD_FIELDS and isinstance(value, str):  # a card, or a move (``example``)
            return _as_typed(typed_move(value))
        if key in BID_FIELDS and isinstance(value, str):
            return " ".join(_move_word(word) for word in value.split(" "))
        if key == "bids" and isinstance(value, list):  # ``pass`` among a list of bids
            return [_typed_command(str(v)) for v in value]
        return value

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec in messages.WORDS:
            # The styles whose values the engine writes as words (each game's package registers
            # its own), translated in a context of the style's name.
            # i18n: a suit's name ("hearts") or a contract's words inside a refusal
            return _p(format_spec, messages.styled(value, format_spec))
        if format_spec == "code_or":
            # i18n: choices the player may type, e.g. "`take` or `draw`"
            return _joined([f"`{typed_move(str(v))}`" for v in value], N_("{a} or {b}"))
        if format_spec == "code":
            return messages.styled([typed_move(str(v)) for v in value], format_spec)
        if format_spec == "seats":
            # i18n: a seat of the table by its number
            return ", ".join(_("seat {number}", number=v) for v in value)
        if format_spec in ("list", "space"):  # cards among them: in the reader's letters
            return messages.styled([_as_typed(v) for v in value], format_spec)
        if format_spec == "etc":
            return messages.styled(value, format_spec)  # (punctuation and code only)
        return super().format_field(value, format_spec)


_FORMATTER = _Localized()


def render(key: str, params: Mapping[str, Any]) -> str:
    """Refusal ``key`` with ``params`` in the current language (in English if a translation
    does not format: a translator's slip must never hide the refusal)."""
    template = messages.TEMPLATES[key]
    # A value may be what the caller sent (an unknown option, a 100,000-character "move").
    params = {name: _bounded(value) for name, value in params.items()}
    translated = _(template)
    if current() != DEFAULT:  # (in English the moves are the engine's own words already)
        translated = _typed_quotes(translated)
    try:
        text = _FORMATTER.vformat(translated, (), params)
    except (KeyError, IndexError, ValueError, TypeError):
        log.warning("refusal %r: its translation does not format; shown in English", key)
        text = messages.render(key, params)
    return excerpt(text, REFUSAL_LIMIT)


def refusal_text(error: IllegalAction) -> str:
    """What the player reads for the engine's refusal ``error``."""
    return render(error.key, error.params)


def catalog_strings() -> Iterator[tuple[str | None, str]]:
    """Every refusal template and every suit's and contract's words (for the catalogs)."""
    for template in messages.TEMPLATES.values():
        yield None, template
    for style, values in messages.named_values().items():
        for value in values:
            yield style, messages.styled(value, style)
