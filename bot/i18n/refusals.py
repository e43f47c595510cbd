"""The engine's refusals in the reader's language.

An ``IllegalAction`` carries a key of ``engine.messages.TEMPLATES`` and its params; the English
template is the msgid (extracted by ``bot.i18n.sources``), and the styles of the template's
fields (``{x:suit}``, ``{x:code_or}``, ``{x:contract}``...; see ``engine.messages``) are written
in this language's words here: a suit's or a contract's English words (as the engine writes
them) are translated whole, in the context named after the style. In English the result is
exactly ``str(error)``.
"""

from __future__ import annotations

import logging
import string
from collections.abc import Iterator, Mapping
from typing import Any

from bot.i18n.core import N_, _, _p
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


def _as_typed(value: Any) -> Any:
    """A card code as the reader types it (``QH`` -> French ``DH``); anything else as it is."""
    # Imported here: the card faces speak through this package (``bot.i18n``) themselves.
    from bot.render.games.cards import code_as_typed

    return code_as_typed(value) if isinstance(value, str) and value else value


class _Localized(string.Formatter):
    """``str.format`` with the styles of ``engine.messages``, in the current language; cards in
    the reader's letters (the engine names them by its English codes)."""

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        value = super().get_value(key, args, kwargs)
        return _as_typed(value) if key in CARD_FIELDS else value

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec in messages.WORDS:
            # The styles whose values the engine writes as words (each game's package registers
            # its own), translated in a context of the style's name.
            # i18n: a suit's name ("hearts") or a contract's words inside a refusal
            return _p(format_spec, messages.styled(value, format_spec))
        if format_spec == "code_or":
            # i18n: choices the player may type, e.g. "`take` or `draw`"
            return _joined([f"`{v}`" for v in value], N_("{a} or {b}"))
        if format_spec == "seats":
            # i18n: a seat of the table by its number
            return ", ".join(_("seat {number}", number=v) for v in value)
        if format_spec in ("list", "space"):  # cards among them: in the reader's letters
            return messages.styled([_as_typed(v) for v in value], format_spec)
        if format_spec in ("code", "etc"):
            return messages.styled(value, format_spec)  # (punctuation and code only)
        return super().format_field(value, format_spec)


_FORMATTER = _Localized()


def render(key: str, params: Mapping[str, Any]) -> str:
    """Refusal ``key`` with ``params`` in the current language (in English if a translation
    does not format: a translator's slip must never hide the refusal)."""
    template = messages.TEMPLATES[key]
    # A value may be what the caller sent (an unknown option, a 100,000-character "move").
    params = {name: _bounded(value) for name, value in params.items()}
    try:
        text = _FORMATTER.vformat(_(template), (), params)
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
