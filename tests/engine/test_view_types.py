"""Each game's view is declared as a TypedDict (``CarcassonneView``, ``CatanView``) that the bot's code is
type-checked against: what ``view()`` builds must have exactly the declared keys, with values of the declared
types, for every viewer, at every stage of a game."""

from __future__ import annotations

import random
import types
from typing import Any, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from engine.carcassonne import Carcassonne, CarcassonneView
from engine.catan import Catan, CatanView
from engine.game import Game


def mismatches(value: object, declared: Any, where: str) -> list[str]:
    """How ``value`` differs from the type ``declared`` (TypedDicts, lists, dicts, unions, None, plain classes)."""
    if is_typeddict(declared):
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        # Annotations are strings here (``from __future__ import annotations``), which hides NotRequired from
        # ``__required_keys__``: read it from the evaluated hints instead.
        hints = get_type_hints(declared, include_extras=True)
        required = {key for key, hint in hints.items() if get_origin(hint) is not NotRequired}
        problems = [f"{where}: key {key!r} is missing" for key in sorted(required - value.keys())]
        problems += [f"{where}: key {key!r} is not declared" for key in sorted(value.keys() - hints.keys())]
        for key in sorted(value.keys() & hints.keys()):
            problems += mismatches(value[key], hints[key], f"{where}.{key}")
        return problems
    origin = get_origin(declared)
    if origin is NotRequired:
        return mismatches(value, get_args(declared)[0], where)
    if origin in (Union, types.UnionType):
        options = [mismatches(value, option, where) for option in get_args(declared)]
        return [] if any(not found for found in options) else [f"{where}: {value!r} is not a {declared}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        (item,) = get_args(declared)
        return [problem for i, entry in enumerate(value) for problem in mismatches(entry, item, f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        key_type, value_type = get_args(declared)
        problems = [f"{where}: key {k!r} is not a {key_type}" for k in value if not isinstance(k, key_type)]
        return problems + [p for k, v in value.items() for p in mismatches(v, value_type, f"{where}[{k!r}]")]
    if declared is None or declared is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if declared is int and isinstance(value, bool):
        return [f"{where}: {value!r} is a bool, not an int"]
    return [] if isinstance(value, declared) else [f"{where}: {value!r} is not a {declared.__name__}"]


def test_the_checker_finds_a_missing_key_an_extra_key_and_a_wrong_type() -> None:
    game = Catan.new(["A", "B", "C"], {}, 1)
    view: dict[str, Any] = dict(game.view(0))
    view["players"] = [dict(p) for p in view["players"]]
    del view["deck_size"]
    view["stack"] = []
    view["players"][0]["cards"] = "3"
    assert mismatches(view, CatanView, "view") == [
        "view: key 'deck_size' is missing",
        "view: key 'stack' is not declared",
        "view.players[0].cards: '3' is not a int",
    ]


def every_view(game: Game, seed: int, steps: int) -> list[tuple[str, object]]:
    """The views of every viewer, every few actions of a random game, and at its end."""
    moves = random.Random(seed)
    views: list[tuple[str, object]] = []
    for step in range(steps):
        if game.finished:
            break
        if step % 5 == 0:
            views += [(f"step {step} seat {s}", game.view(s)) for s in [None, *range(len(game.players))]]
        game.apply(game.random_action(moves))
    views += [(f"last, seat {s}", game.view(s)) for s in [None, *range(len(game.players))]]
    return views


@pytest.mark.parametrize("options", [{}, {"river": True, "tower": True, "tower_pieces": 3, "first_player": 1}])
def test_carcassonne_views_have_the_declared_shape(options: dict[str, object]) -> None:
    game = Carcassonne.new(["A", "B", "C"], options, 4)
    for where, view in every_view(game, 4, 600):
        assert mismatches(view, CarcassonneView, where) == []
    assert game.finished  # the end's view (winners, final scores) was checked too


def test_catan_views_have_the_declared_shape() -> None:
    game = Catan.new(["A", "B", "C", "D"], {}, 2)
    for where, view in every_view(game, 2, 3000):
        assert mismatches(view, CatanView, where) == []
    assert game.finished  # victory point cards are shown at the end: checked too
