"""Troggu, Swiss Tarot for 3 to 8 players (rules: docs/rules/troggu.md).

See ``engine.troggu.game`` for the rules choices.

Layout (the file roles every game package shares): ``cards`` (card ints and tables), ``spec``
(options, presets, deal sizes), ``summary`` (the readable rules for ``/rules``), ``tricks`` (what
may be played, who wins a trick, the Fool held back), ``game`` (the state machine), ``views``
(``TrogguView``: every view key, documented); and Troggu's own ``scoring`` (card points,
payments).
"""

from engine.ai import register_players
from engine.messages import add_templates, add_words
from engine.troggu.ai import PLAYERS
from engine.troggu.cards import SUIT_NAMES, SUITS
from engine.troggu.game import TrogguGame
from engine.troggu.refusals import TEMPLATES

GAME_CLASS = TrogguGame
add_templates(TEMPLATES)
# The refusals' ``{x:suit}`` writes Troggu's suits (CU, CO, SW, BA) with their names.
add_words("suit", dict(zip(SUITS, SUIT_NAMES, strict=False)))
register_players(TrogguGame.spec.name, PLAYERS)

__all__ = ["GAME_CLASS", "TrogguGame"]
