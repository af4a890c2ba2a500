"""A position set out by hand (``state_json.position``): what a computer player's guess at the hidden cards and the
catanatron bridge build. Set out from a game played to, it is that game, and it goes on exactly like it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.catan import Catan
from engine.catan.state_json import position
from engine.errors import RuleError

KEPT = ("players", "seed", "options", "layout", "first_player", "rng", "offers", "schema", "game")


def played(seed: int, steps: int) -> Catan:
    """A three-player game on an explicit board, past the set-up, between turns (no offer open, nothing built)."""
    game = Catan.new(["Анна", "Bob", "陈"], {"setup": "snake", "first_player": 0}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        game.apply(chosen(game, rng))
    while game.phase != "roll" or game.automatic_action() is not None:
        game.apply(chosen(game, rng))
    return game


def chosen(game: Catan, rng: random.Random, *, offers: bool = True) -> Any:
    """The automatic action if there is one, else any legal action of the first seat that owes one (``offers``:
    trade offers among them)."""
    auto = game.automatic_action()
    if auto is not None:
        return auto
    legal = game.legal_actions(game.actors()[0])
    return rng.choice(legal if offers else [a for a in legal if a["type"] != "offer"] or legal)


def set_out(data: dict[str, Any]) -> dict[str, Any]:
    hexes, harbors = data["layout"]["hexes"], data["layout"]["harbors"]
    rng = random.Random()
    version, internal, gauss = data["rng"]
    rng.setstate((version, tuple(internal), gauss))
    rest = {k: v for k, v in data.items() if k not in KEPT and k not in ("built", "next_offer", "winner")}
    return position(
        data["players"],
        ([tuple(h) for h in hexes], harbors),
        rng=rng,
        seed=data["seed"],
        setup=data["options"]["setup"],
        strict_phases=data["options"]["strict_phases"],
        points_to_win=data["options"]["points_to_win"],
        **rest,
    )


@pytest.mark.parametrize("seed", [3, 11])
def test_a_position_set_out_from_a_game_goes_on_exactly_like_it(seed: int) -> None:
    game = played(seed, 120)
    data = game.to_json()
    assert data["first_player"] == 0 and not data["offers"] and not data["built"]  # what a position fixes
    copy = Catan.from_json(set_out(data))
    rng = random.Random(seed)
    # The same dice, the same cards drawn, the same choices open. No offers: a position numbers its offers from 1
    # again (which offers a game made before is not part of it).
    for _ in range(60):
        if game.finished:
            break
        assert copy.view(None) == game.view(None)
        seat = game.actors()[0]
        assert sorted(map(str, copy.legal_actions(seat))) == sorted(map(str, game.legal_actions(seat)))
        action = chosen(game, rng, offers=False)
        game.apply(action)
        copy.apply(action)
    assert copy.to_json()["hand"] == game.to_json()["hand"]


def test_a_position_without_every_field_is_refused_naming_what_is_missing() -> None:
    data = played(3, 40).to_json()
    whole = set_out(data)
    assert Catan.from_json(whole).to_json()["turn"] == data["turn"]
    rest = {k: v for k, v in data.items() if k not in KEPT and k not in ("built", "next_offer", "winner", "deck")}
    with pytest.raises(ValueError, match=r"missing \['deck'\]"):
        position(
            data["players"],
            ([tuple(h) for h in data["layout"]["hexes"]], data["layout"]["harbors"]),
            rng=random.Random(0),
            seed=0,
            setup="snake",
            strict_phases=False,
            points_to_win=10,
            **rest,
        )
    with pytest.raises(RuleError):  # the schema's own check still guards the result
        Catan.from_json({**whole, "schema": 99})
