"""The one exception the engine raises for a move a player may not make."""

from __future__ import annotations

from typing import Any

from engine import messages


class IllegalAction(Exception):
    """An illegal or malformed action.

    It carries a key of ``engine.messages.TEMPLATES`` and the values of that template's fields
    (``key``, ``params``: JSON-safe), so the bot can say it in any language; ``str(error)`` is
    the English sentence, written for the player: it says what is wrong and what he may do
    ("You must follow suit: you hold hearts. Play one of: 2H, 9H."). The game is always left
    exactly as it was.
    """

    def __init__(self, key: str, /, **params: messages.Param) -> None:
        messages.check(key, params)
        super().__init__(key, params)
        self.key = key
        self.params: dict[str, messages.Param] = params
        self._text: str | None = None

    def __str__(self) -> str:
        # Rendered when first read: the rules also build refusals only to test for one.
        if self._text is None:
            self._text = messages.render(self.key, self.params)
        return self._text

    def to_dict(self) -> dict[str, Any]:
        """``{"key": ..., "params": {...}}``: the refusal as JSON data."""
        return {"key": self.key, "params": dict(self.params)}

    def __reduce__(self) -> tuple[Any, ...]:
        # Exception pickles its args (the English sentence), which is not a key.
        return (_rebuild, (self.key, self.params))


def _rebuild(key: str, params: dict[str, Any]) -> IllegalAction:
    return IllegalAction(key, **params)
