"""Trinket, a fifth game defined in the test tree (rules: docs/rules/trinket.md).

Laid out as any game's package: ``game`` (the state machine), ``views`` (``TrinketView``, every
view key), ``events`` (a ``TypedDict`` per kind, in ``EVENTS``), ``refusals`` (its refusal
templates) and ``ai/`` (a player per level).
``engine.registry`` finds it by ``GAME_CLASS`` once its folder is on ``engine.__path__``; this
``__init__`` registers its refusals and its AI players, as every game's does.
"""

from engine.ai import register_players
from engine.messages import add_templates
from engine.trinket.ai import PLAYERS
from engine.trinket.game import TrinketGame
from engine.trinket.refusals import TEMPLATES

GAME_CLASS = TrinketGame
add_templates(TEMPLATES)
register_players(TrinketGame.spec.name, PLAYERS)

__all__ = ["GAME_CLASS", "TrinketGame"]
