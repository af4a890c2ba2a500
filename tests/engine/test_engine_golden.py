"""Both engines play exactly as they did when these digests were taken: random games byte for byte.

Each table entry is the SHA-256 of everything a game of that kind showed while it was played: the state JSON, the
spectator's view, what is awaited and from whom, the legal and timeout actions, each action as recorded and its
events, and the code of the refusal of a seat that owes nothing. A refactor of the rules (the Carcassonne split,
the shared dispatch of both games) must leave every digest as it is. A deliberate change of play regenerates them:
``PYTHONPATH=$PWD python -m tests.engine.test_engine_golden`` prints the new table.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any, Final

import pytest

from engine.errors import RuleError
from engine.game import Game
from engine.registry import game_class

SEEDS: Final = 40  # per Carcassonne table entry
CATAN_SEEDS: Final = 8
CATAN_STEPS: Final = 700  # random Catan games can run long: the first actions say enough

# name -> (game, players, options, seeds)
KINDS: Final[dict[str, tuple[str, int, dict[str, Any], int]]] = {
    "carcassonne base, 2 players": ("carcassonne", 2, {"river": False}, SEEDS),
    "carcassonne river, 3 players": ("carcassonne", 3, {}, SEEDS),
    "carcassonne river and tower, 4 players": ("carcassonne", 4, {"tower": True}, SEEDS),
    "carcassonne 5p tower, old farms, small cities": (
        "carcassonne",
        5,
        {"river": False, "tower": True, "farm_scoring": "first_edition", "small_city": True},
        SEEDS,
    ),
    "carcassonne 6p tower, 2 pieces, seat 3 first": (
        "carcassonne",
        6,
        {"tower": True, "tower_pieces": 2, "first_player": 3},
        SEEDS,
    ),
    "carcassonne 2p tower, old farms, seat 1 first": (
        "carcassonne",
        2,
        {"river": False, "tower": True, "farm_scoring": "first_edition", "first_player": 1},
        SEEDS,
    ),
    "catan random board, 3 players": ("catan", 3, {}, CATAN_SEEDS),
    "catan beginner, strict phases, 4 players": (
        "catan",
        4,
        {"board": "beginner", "setup": "beginner", "strict_phases": True},
        CATAN_SEEDS,
    ),
}

GOLDEN: Final[dict[str, str]] = {
    "carcassonne base, 2 players": "954e50a4f9e2f8602167d1757562d8d873c131b14af16320beed34d7485909a1",
    "carcassonne river, 3 players": "e4b185e3b739864a7d384a1d100170d6187c90025ba8c0aa289b8922b33556bf",
    "carcassonne river and tower, 4 players": "5f2ed22843acc3a273239ee547705c42bd66d4b83380d2d61caa2cb5234a20ba",
    "carcassonne 5p tower, old farms, small cities": "67e93fd756cae28d1f341c7c90d7209f23ff77d72d6ef77b3b2054d0140f58f0",
    "carcassonne 6p tower, 2 pieces, seat 3 first": "de59eb59c546feb553f3e97e1b91d56b283cf9c64c1bddf0c35b263ba5bd0f77",
    "carcassonne 2p tower, old farms, seat 1 first": "041dce4f77823411e6a1c1eff5f65922fa32832dd5d08f5c7e648003fe5002aa",
    "catan random board, 3 players": "7bcfd5750e5a425118070667ff499255718a2c61007e08fe4bcce0d5273499aa",
    "catan beginner, strict phases, 4 players": "fac64a2d4acff5d1fe2353686b7806499f7cbc5d060ad47b436561b4c90bc6b6",
}

# Actions without fields that a seat owing nothing is refused (the refusal's code is part of the digest).
_PROBES: Final = {"carcassonne": ("pass", "place", "ransom"), "catan": ("roll", "end_turn", "withdraw")}


def _line(digest: Any, *parts: object) -> None:
    for part in parts:
        digest.update(json.dumps(part).encode())
        digest.update(b"\n")


def _refusal(game: Game, action: dict[str, Any]) -> str:
    try:
        game.apply(action)
    except RuleError as err:
        return err.code
    raise AssertionError(f"{action} was accepted from a seat that owes nothing")


def play(name: str, players: int, options: dict[str, Any], seed: int, steps: int) -> str:
    """The digest of one random game: ``seed`` makes the board, the stack or the deck, and every choice."""
    digest = hashlib.sha256()
    game: Any = game_class(name).new([f"P{i}" for i in range(players)], options, seed)
    rng = random.Random(seed * 7919 + players)
    carcassonne = name == "carcassonne"
    _line(digest, game.to_json())
    step = 0
    while not game.finished and step < steps:
        actors = game.actors()
        _line(digest, actors, game.public_actors(), game.current_seat(), game.progress())
        if carcassonne:
            _line(digest, game.legal_actions(actors[0]), game.pending())
        else:
            _line(digest, game.pending())
        for seat in range(players):
            if seat not in actors:
                _line(digest, [_refusal(game, {"player": seat, "type": kind}) for kind in _PROBES[name]])
        automatic = game.automatic_action()
        timeout = game.timeout_action(actors[0])
        _line(digest, automatic, timeout)
        roll = rng.random()
        if automatic is not None:
            action = automatic
        elif roll < 0.1:
            action = timeout
        else:
            action = game.random_action(rng)
        applied = game.apply(action)
        _line(digest, applied.action, applied.events, game.undoable(applied.action))
        _line(digest, game.to_json(), game.view(None))
        step += 1
        # The host works on copies and reloads stored states: both must go on exactly like the original.
        if step % 11 == 0:
            game = game.copy()
        elif step % 17 == 0:
            game = type(game).from_json(json.loads(json.dumps(game.to_json())))
    _line(digest, game.result(), game.replay_options())
    return digest.hexdigest()


def kind_digest(kind: str) -> str:
    name, players, options, seeds = KINDS[kind]
    steps = CATAN_STEPS if name == "catan" else 10_000
    whole = hashlib.sha256()
    for seed in range(seeds):
        whole.update(play(name, players, options, seed, steps).encode())
    return whole.hexdigest()


@pytest.mark.parametrize("kind", list(KINDS))
def test_random_games_play_as_they_did(kind: str) -> None:
    assert kind_digest(kind) == GOLDEN[kind]


if __name__ == "__main__":
    print("GOLDEN: Final[dict[str, str]] = {")
    for kind in KINDS:
        print(f"    {kind!r}: {kind_digest(kind)!r},")
    print("}")
