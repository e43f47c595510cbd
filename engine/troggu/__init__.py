"""Troggu, Swiss Tarot for 3 to 8 players (rules: docs/rules/troggu.md).

See ``engine.troggu.game`` for the rules choices.
"""

from engine.troggu.game import TrogguGame

GAME_CLASS = TrogguGame

__all__ = ["GAME_CLASS", "TrogguGame"]
