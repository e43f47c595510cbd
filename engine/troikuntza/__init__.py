"""TroiKuntza: contract rummy with "May I" (rules: docs/rules/troikuntza.md).

Layout (the file roles every game package shares): ``cards`` (the decks, hand order), ``spec``
(options, presets, player range), ``summary`` (the readable rules for ``/rules``), ``melds``
(Troikas, Runs, lay-offs, bumping, ``find_contracts``: every way a hand meets a contract),
``game`` (the state machine and the May I window; its docstring lists the actions and every
choice made where the rules are silent), ``views`` (``TroiKuntzaView``: every view key,
documented).

For the bot: ``TroiKuntzaGame.rules_summary(options)``; ``game.meld_suggestions(seat, limit)``
(complete ``meld ...`` actions for autocomplete); ``find_contracts(hand, contract, options)``.
The table service sends ``close`` for ``to_act()[0]`` when the May I timer runs out (see
``engine.troikuntza.game``).
"""

from engine.ai import register_players
from engine.messages import add_templates, add_words
from engine.troikuntza.ai import PLAYERS
from engine.troikuntza.game import TroiKuntzaGame
from engine.troikuntza.melds import (
    CONTRACTS,
    card_points,
    describe_contract,
    find_contracts,
    format_meld_action,
    is_valid_meld,
)
from engine.troikuntza.refusals import TEMPLATES

GAME_CLASS = TroiKuntzaGame
add_templates(TEMPLATES)
# The refusals' ``{x:contract}`` writes each round's contract in words (``2 Troikas and 1 Run``).
add_words("contract", {code: describe_contract(code) for code in CONTRACTS})
register_players(TroiKuntzaGame.spec.name, PLAYERS)

__all__ = [
    "CONTRACTS",
    "GAME_CLASS",
    "TroiKuntzaGame",
    "card_points",
    "describe_contract",
    "find_contracts",
    "format_meld_action",
    "is_valid_meld",
]
