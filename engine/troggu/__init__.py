"""Troggu, Swiss Tarot for 3 to 8 players (rules: docs/rules/troggu.md).

See ``engine.troggu.game`` for the rules choices.

Layout (the file roles every game package shares): ``cards`` (card ints and tables), ``spec``
(options, presets, deal sizes), ``summary`` (the readable rules for ``/rules``), ``tricks`` (what
may be played, who wins a trick, the Fool held back), ``game`` (the state machine), ``views``
(``TrogguView``: every view key, documented); and Troggu's own ``scoring`` (card points,
payments).
"""

from engine.troggu.game import TrogguGame

GAME_CLASS = TrogguGame

__all__ = ["GAME_CLASS", "TrogguGame"]
