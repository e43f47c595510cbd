"""Words written now and read later, in another language.

The service writes some words outside any reader's language (the idle sweep's reason for closing
a lobby, a table's end reason) that the publisher shows later in the server's language.
``later("...")`` and ``later_n(...)`` return the English text (a ``str``: logs and stored reasons
stay English) that remembers its msgid and params, and ``said(text)`` writes it in the current
language (a plain string is looked up as a msgid: constants marked ``N_``).
"""

from __future__ import annotations

from typing import Any

from bot.i18n.core import DEFAULT, _, _n, use_locale


class Later(str):
    """English text that can say itself in the current language (``said``)."""

    msgid: str
    plural: str | None
    n: int | None
    params: dict[str, Any]

    def translated(self) -> str:
        if self.plural is not None and self.n is not None:
            return _n(self.msgid, self.plural, self.n, **self.params)
        return _(self.msgid, **self.params)


def _make(msgid: str, plural: str | None, n: int | None, params: dict[str, Any]) -> Later:
    with use_locale(DEFAULT):
        english = (
            _n(msgid, plural, n, **params)
            if plural is not None and n is not None
            else (_(msgid, **params))
        )
    text = Later(english)
    text.msgid, text.plural, text.n, text.params = msgid, plural, n, params
    return text


def later(msgid: str, /, **params: Any) -> Later:
    """``_(msgid, **params)`` to be said later (English until then)."""
    return _make(msgid, None, None, params)


def later_n(singular: str, plural: str, n: int, /, **params: Any) -> Later:
    """``_n(singular, plural, n, **params)`` to be said later (English until then)."""
    return _make(singular, plural, n, params)


def said(text: str) -> str:
    """``text`` in the current language: a ``Later`` says itself; any other string is a msgid
    (a constant marked ``N_``), shown as it is if the catalog does not have it."""
    if isinstance(text, Later):
        return text.translated()
    return _(text) if text else text
