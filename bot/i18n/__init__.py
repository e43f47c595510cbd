"""Every word a player or admin reads, in his language: gettext catalogs and the current locale.

Mark a string where it is written and translate it where it is used:

- ``_("You bid {bid}.", bid=7)``: the current language's sentence, then ``str.format`` with the
  params (no params: no formatting, so a literal brace needs no doubling).
- ``_n("{n} card", "{n} cards", n)``: singular or plural by ``n`` (also a format param ``{n}``).
- ``_p("command name", "bid")``: the same English word translated apart by its context
  (a command's name is not its description's word).
- ``N_("Pass")``: marks a constant for extraction only; translate it later with ``_(constant)``.

The language is a context variable: each interaction's task sets the user's (``use_locale``), the
publisher sets the server's around public messages. Catalogs are ``bot/locale/<lang>/LC_MESSAGES/
messages.po`` and, for the strings only one game's presenter uses, the same files under that
game's ``bot/render/games/<game>/locale/`` (read together as one catalog), compiled to ``.mo`` by
``python -m bot.i18n compile`` (done on first use when the ``.mo`` is missing or older than its
``.po``). ``PSEUDO`` is a test language that wraps and
lengthens every marked string, so that a string nobody marked shows in a test's messages.
"""

from __future__ import annotations

from bot.i18n.core import (
    DEFAULT,
    LANGUAGES,
    N_,
    PSEUDO,
    _,
    _n,
    _p,
    current,
    language_of,
    use_locale,
)

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "PSEUDO",
    "_",
    "_n",
    "_p",
    "current",
    "language_of",
    "use_locale",
]
