"""The pseudo-language of the tests: a marked string comes out wrapped in ⟦ ⟧, its letters
accented and 40% longer; what the code must keep as it is (``{fields}``, ``code``, Discord's
``<t:…>``/``<@…>`` tokens, links) is kept. A message showing English words outside ⟦ ⟧ therefore
holds a string nobody marked; one over a Discord limit shows where a longer language would break.
"""

from __future__ import annotations

import math
import re

OPEN, CLOSE = "⟦", "⟧"
#: Kept verbatim: format fields, inline code, Discord tokens, links.
_KEEP = re.compile(r"\{[^{}]*\}|`[^`]*`|<[^<>\s]+>|https?://\S+")
_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒğĥíĵķĺɱñóƥʠŕšŧúṽŵẋýžÁƁÇĐÉƑĞĤÍĴĶĹṀÑÓƤɊŔŠŦÚṼŴẊÝŽ",
)


def pseudo(text: str) -> str:
    """``text`` in the pseudo-language (empty stays empty)."""
    if not text:
        return text
    parts: list[str] = []
    letters = 0
    last = 0
    for match in _KEEP.finditer(text):
        plain = text[last : match.start()]
        letters += sum(c.isalpha() for c in plain)
        parts.append(plain.translate(_ACCENTED))
        parts.append(match.group())
        last = match.end()
    plain = text[last:]
    letters += sum(c.isalpha() for c in plain)
    parts.append(plain.translate(_ACCENTED))
    padding = "·" * math.ceil(0.4 * letters)
    return f"{OPEN}{''.join(parts)}{padding}{CLOSE}"


def strip_pseudo(text: str) -> str:
    """``text`` without its pseudo-language spans: what is left was not translated (names,
    numbers, cards, and any string nobody marked)."""
    innermost = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
    while True:  # a translated string may hold another in a field: strip from the inside
        text, count = innermost.subn(" ", text)
        if not count:
            return text
