"""Every engine refusal is keyed: a key of ``engine.messages.TEMPLATES`` and its params.

Static: every ``IllegalAction(...)`` built in ``engine/`` names a known key (a literal, or a
variable set only from literals) and passes exactly that template's fields, and every template is
used. Dynamic: refusals provoked in seeded random games of every game and player count (see
``refusal_scenarios``) carry JSON-safe params that rebuild the same refusal, and their English
rendering leaves no field unfilled.
"""

from __future__ import annotations

import ast
import importlib
import json
import pickle
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from refusal_scenarios import provoke

import engine
from engine import IllegalAction
from engine.messages import (
    FIELDS,
    TEMPLATES,
    WORDS,
    add_templates,
    add_words,
    named_values,
    render,
    styled,
)

ENGINE = Path(engine.__file__).parent


def _string_values(node: ast.expr) -> list[str] | None:
    """The strings an expression can be, if it is built only from string literals."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _string_values(node.body), _string_values(node.orelse)
        return None if body is None or orelse is None else body + orelse
    return None


def _key_choices(function: ast.AST, name: str, line: int) -> list[str] | None:
    """The keys a local variable ``name`` may hold at ``line``: its last assignment before
    that line must be built from literals."""
    assignments = [
        node
        for node in ast.walk(function)
        if isinstance(node, ast.Assign)
        and node.lineno < line
        and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    ]
    if not assignments:
        return None
    return _string_values(max(assignments, key=lambda a: a.lineno).value)


def _raise_sites() -> Iterator[tuple[str, ast.Call, list[str] | None]]:
    """Each ``IllegalAction(...)`` call in engine/, with the keys it may pass (None: unknown)."""
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name == "errors.py":  # the class itself, rebuilding a refusal from its data
            continue
        tree = ast.parse(path.read_text(), str(path))
        scope: dict[ast.AST, ast.AST] = {}  # each node -> its innermost function (or module)
        for parent in ast.walk(tree):
            for child in ast.iter_child_nodes(parent):
                is_function = isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef)
                scope[child] = parent if is_function else scope.get(parent, tree)
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "IllegalAction"
            ):
                continue
            where = f"{path.relative_to(ENGINE.parent)}:{node.lineno}"
            keys = _string_values(node.args[0]) if node.args else None
            if keys is None and node.args and isinstance(node.args[0], ast.Name):
                keys = _key_choices(scope[node], node.args[0].id, node.lineno)
            yield where, node, keys


SITES = [(where, (call, keys)) for where, call, keys in _raise_sites()]


def test_the_engine_builds_refusals_in_many_places() -> None:
    assert len(SITES) >= 70


@pytest.mark.parametrize(("where", "site"), SITES, ids=[w for w, _ in SITES])
def test_every_raise_site_names_a_known_key_with_its_fields(
    where: str, site: tuple[ast.Call, list[str] | None]
) -> None:
    call, keys = site
    assert keys, f"{where}: the key is not a literal (or a variable set from literals)"
    assert len(call.args) == 1, f"{where}: a refusal takes its key, then named params only"
    named = {k.arg for k in call.keywords if k.arg is not None}
    spread = any(k.arg is None for k in call.keywords)  # ``**params``: checked at run time
    for key in keys:
        assert key in TEMPLATES, f"{where}: no template {key!r}"
        if spread:
            assert named <= FIELDS[key], f"{where}: {key!r} has no field {named - FIELDS[key]}"
        else:
            assert named == FIELDS[key], f"{where}: {key!r} takes {sorted(FIELDS[key])}"


def test_every_template_is_used_by_the_engine() -> None:
    used = {key for _, (_, keys) in SITES for key in keys or ()}
    engine_keys = {key for key in TEMPLATES if not key.startswith("toytricks.")}
    assert engine_keys - used == set()


def test_no_sentence_is_raised_without_a_key() -> None:
    """The old form ``IllegalAction("You may ...")`` is gone: it now fails at once."""
    with pytest.raises(ValueError, match="no refusal template"):
        IllegalAction("You must follow suit.")
    for where, (call, _) in SITES:
        first = call.args[0] if call.args else None
        assert not isinstance(first, ast.JoinedStr), f"{where}: an f-string is not a key"


def test_a_refusal_carries_its_key_and_params_and_says_the_english_sentence() -> None:
    error = IllegalAction("card.not_a_card", text="zz")
    assert str(error) == (
        "`zz` is not a card. Type rank then suit, for example `AS`, `10H`, `5H`, `3S`."
    )
    assert (error.key, error.params) == ("card.not_a_card", {"text": "zz"})
    assert error.to_dict() == {"key": "card.not_a_card", "params": {"text": "zz"}}
    again = pickle.loads(pickle.dumps(error))
    assert (again.key, again.params, str(again)) == (error.key, error.params, str(error))


def test_a_refusal_with_wrong_params_is_a_bug_caught_at_once() -> None:
    with pytest.raises(ValueError, match="takes"):
        IllegalAction("card.not_a_card")
    with pytest.raises(ValueError, match="takes"):
        IllegalAction("card.not_a_card", text="zz", extra=1)
    with pytest.raises(ValueError, match="not strings"):
        IllegalAction("card.not_a_card", text={"no": "dicts"})  # type: ignore[arg-type]


def test_the_styles_render_as_the_docstring_says() -> None:
    assert render("turn.not_yours", {"seats": [1, 3]}) == (
        "It is not your turn: waiting for seat 1, seat 3."
    )
    assert render("troikuntza.start_turn", {"actions": ["take", "draw"]}) == (
        "Start your turn: `take` or `draw`."
    )
    assert render("troika.now_bid", {"actions": ["pass", "bid 7"], "more": 3}) == (
        "Now you must bid or pass. You may: `pass`, `bid 7`, ...."
    )
    assert render("troika.now_bid", {"actions": ["pass"], "more": 0}) == (
        "Now you must bid or pass. You may: `pass`."
    )
    assert render("trick.follow_suit", {"suit": "CU", "cards": ["k-cu", "1-cu"]}) == (
        "You must follow suit: you hold cups. Play one of: k-cu, 1-cu."
    )
    assert render("troeven.must_trump", {"suit": "H", "trump": "S", "cards": ["AS"]}) == (
        "You have no hearts, so you must play a trump (spades). Play one of: AS."
    )
    assert render("troikuntza.meld_count", {"contract": "RRT", "count": 3}) == (
        "This round's contract is 2 Runs and 1 Troika: exactly 3 melds separated by `|`."
    )
    assert render("troikuntza.layoff_no_fit", {"card": "9H", "number": 2, "cards": ["7S", "7H"]})
    assert render(
        "deck.stacked_missing_twice", {"game": "X", "count": 2, "missing": ["AS"], "twice": ["KS"]}
    ) == ("A stacked X deck must hold each of the 2 cards once; missing: AS; twice: KS.")


def test_a_game_defined_elsewhere_adds_its_own_refusals() -> None:
    add_templates({"toytricks.you_may": "You may: {actions:list}."})
    add_templates({"toytricks.you_may": "You may: {actions:list}."})  # the same again: fine
    assert str(IllegalAction("toytricks.you_may", actions=["play as"])) == "You may: play as."
    with pytest.raises(ValueError, match="another template"):
        add_templates({"card.not_a_card": "Nope."})
    assert TEMPLATES["card.not_a_card"].startswith("`{text}` is not a card")


@pytest.mark.parametrize("name", sorted(engine.GAMES))
def test_each_game_registers_its_own_refusals_and_words(name: str) -> None:
    """A game's refusals live in its package (``engine/<game>/refusals.py``), which registers
    them: every key under ``<game>.`` comes from there, and the shared module lists none."""
    own = importlib.import_module(f"engine.{name}.refusals").TEMPLATES
    assert own and all(key.startswith(f"{name}.") for key in own)
    assert {key for key in TEMPLATES if key.startswith(f"{name}.")} == set(own)
    shared = ast.parse((ENGINE / "messages.py").read_text())
    listed = {
        node.value
        for node in ast.walk(shared)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    assert not {key for key in listed if key.startswith(f"{name}.")}


def test_the_words_of_a_game_come_with_its_package() -> None:
    # Troggu's suits and TroiKuntza's contracts, written in words by the ``suit`` and
    # ``contract`` styles, are registered by their packages beside the shared French suits.
    assert styled("CU", "suit") == "cups" and styled("H", "suit") == "hearts"
    assert styled("TTR", "contract") == "2 Troikas and 1 Run"
    assert set(named_values()["contract"]) == set(WORDS["contract"])
    add_words("suit", {"H": "hearts"})  # the same words again: fine
    with pytest.raises(ValueError, match="already reads"):
        add_words("suit", {"H": "cups"})
    assert styled("H", "suit") == "hearts"


def test_provoked_refusals_are_keyed_complete_and_rebuild_from_their_data() -> None:
    """Garbage, other seats' moves, cards not held or not allowed, bad seats, bad options and
    decks, in random games of every game and player count: every refusal is keyed."""
    keys: Counter[str] = Counter()
    for label, error in provoke(range(1), steps=8):
        if error is None:
            continue
        keys[error.key] += 1
        text = str(error)
        assert "{" not in text and "}" not in text, f"{label}: unfilled field in {text!r}"
        data = json.loads(json.dumps(error.to_dict()))
        assert str(IllegalAction(data["key"], **data["params"])) == text, label
    # The rest need rare states (a dealer stuck after three passes, a Troggu partner call):
    # each game's own tests reach them with stacked decks.
    assert len(keys) >= 0.7 * len(TEMPLATES), f"only {sorted(keys)} provoked"
