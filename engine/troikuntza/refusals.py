"""TroiKuntza's refusals: the English template of each key under ``troikuntza.``.

Registered by ``engine.troikuntza`` with ``engine.messages.add_templates``; ``engine.messages``
says what the fields and styles mean.
"""

from __future__ import annotations

TEMPLATES: dict[str, str] = {
    "troikuntza.decks_too_few": (
        "{decks} decks are too few for {players} players: use `decks` auto or more."
    ),
    "troikuntza.first_dealer": "`first_dealer` must be a seat from 0 to {last}.",
    "troikuntza.stacked_foreign": "The stacked deck holds cards that are not in the decks.",
    "troikuntza.your_turn": "It is your turn: `take` the discard or `draw` from the stock.",
    "troikuntza.start_turn": "Start your turn: {actions:code_or}.",
    "troikuntza.window_open": "The May I window is open: say `mayi` for the discard, or `pass`.",
    "troikuntza.now_layoff": "Now `layoff <card> <meld number>` or `discard <card>`.",
    "troikuntza.now_discard": "Now `discard <card>` (you came out this turn).",
    "troikuntza.now_meld": "Now `meld` your contract ({contract:contract}) or `discard <card>`.",
    "troikuntza.discard_empty": "The discard pile is empty: `draw` from the stock.",
    "troikuntza.no_window": "No May I window is open.",
    "troikuntza.already_out": (
        "You have already come out this round: lay off with `layoff <card> <meld>`."
    ),
    "troikuntza.meld_how": (
        "Type your whole contract ({contract:contract}) with `|` between melds, e.g. "
        "`meld 7h 7s 7c | qh qd jk`."
    ),
    "troikuntza.not_held_enough": "You don't hold {cards:list} (enough times).",
    "troikuntza.meld_count": (
        "This round's contract is {contract:contract}: exactly {count} melds separated by `|`."
    ),
    "troikuntza.not_a_meld": (
        "`{cards:space}` is not a meld: a Troika is 3+ cards of one rank, a Run 4+ cards in "
        "sequence in one suit (jokers wild, at least one natural card)."
    ),
    "troikuntza.melds_wrong_majority": (
        "These melds don't make {contract:contract} with at least as many natural cards as "
        "jokers in each (two runs of one suit must not overlap)."
    ),
    "troikuntza.melds_wrong": (
        "These melds don't make {contract:contract} (two runs of one suit must not overlap)."
    ),
    "troikuntza.keep_discard": (
        "After coming out you must still discard a card (not the one you just took): keep one back."
    ),
    "troikuntza.come_out_first": (
        "You must come out first: `meld` your contract ({contract:contract})."
    ),
    "troikuntza.layoff_next_turn": (
        "You came out this turn: lay-offs wait for your next turn. Discard."
    ),
    "troikuntza.layoff_how": "Type `layoff <card> <meld number>`, e.g. `layoff 9h 2`.",
    "troikuntza.no_such_meld": "There is no meld {meld}: melds are 1 to {count}.",
    "troikuntza.not_held": "You don't hold {card}.",
    "troikuntza.low_high": "`low`/`high` only says where a joker goes on a run.",
    "troikuntza.layoff_no_fit": "{card} does not fit meld {number} ({cards:space}).",
    "troikuntza.layoff_final_discard": (
        "You can't lay off {card}: you must keep a card to discard (going out needs a final "
        "discard)."
    ),
    "troikuntza.layoff_no_discard": (
        "You can't lay off {card}: you would keep no card you may discard."
    ),
    "troikuntza.layoff_only_taken": (
        "You can't lay off {card}: you would keep only {taken}, which you took this turn: "
        "it may not be discarded and fits no meld."
    ),
    "troikuntza.discard_how": "Type `discard <card>`, e.g. `discard 5c`.",
    "troikuntza.discard_taken": (
        "You took {card} from the discard pile this turn: discard another card."
    ),
    "troikuntza.mayi_off": "May I is off at this table.",
    "troikuntza.mayi_used_one": "You have used your {limit} May I this round.",
    "troikuntza.mayi_used": "You have used your {limit} May Is this round.",
    "troikuntza.mayi_after_out": (
        "You have come out this round: at this table May I is then over for you."
    ),
    "troikuntza.mayi_own_discard": "Nobody may May I his own discard.",
}
