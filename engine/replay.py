"""Replay files (docs/replays.md): validate, play back, export."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import RuleError
from engine.game import Action, Game
from engine.registry import game_class

FORMAT = "boardhost-replay"
VERSION = 1


class ReplayError(Exception):
    """A replay that cannot be played: not a replay, bad set-up, or an illegal action (``index`` set)."""

    def __init__(self, reason: str, index: int | None = None, action_type: str | None = None) -> None:
        self.reason = reason
        self.index = index
        self.action_type = action_type
        if index is None:
            super().__init__(reason)
        else:
            super().__init__(f"action {index} ({action_type}): {reason}")


def start(data: Any) -> tuple[Game, list[Any]]:
    """Check the replay header and create its game; returns the game and the (unchecked) action list."""
    if not isinstance(data, Mapping):
        raise ReplayError("not a replay: the file must hold a JSON object")
    if data.get("format") != FORMAT:
        raise ReplayError(f'not a replay: "format" must be "{FORMAT}"')
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise ReplayError(f"unsupported replay version {data.get('version')!r} (supported: {VERSION})")
    try:
        cls = game_class(str(data.get("game")))
    except RuleError as err:
        raise ReplayError(err.message) from None
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ReplayError('"players" must be a list of names')
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ReplayError('"seed" must be an integer')
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise ReplayError('"options" must be an object')
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError('"actions" must be a list')
    try:
        game = cls.new(players, options, seed)
    except RuleError as err:
        raise ReplayError(err.message) from None
    return game, actions


def play(data: Any, limit: int | None = None) -> Game:
    """Play a replay (its first ``limit`` actions if given) and return the game; raises ReplayError."""
    game, actions = start(data)
    for index, action in enumerate(actions[:limit] if limit is not None else actions):
        kind = action.get("type") if isinstance(action, Mapping) else None
        if not isinstance(action, Mapping):
            raise ReplayError("an action must be a JSON object", index, str(kind))
        try:
            game.apply(action, replay=True)
        except RuleError as err:
            raise ReplayError(err.message, index, str(kind)) from None
    return game


def export(game: Game, seed: int, actions: Sequence[Action]) -> dict[str, Any]:
    """The replay file of ``game`` given the recorded actions that produced it.

    Live-only actions (Catan trade offers and replies that led to no trade) are left out: the format records only
    trades that happened, and the engine settles offers so that the rest replays the same.
    """
    live_only: frozenset[str] = getattr(game, "LIVE_ONLY", frozenset())
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.GAME,
        "players": list(game.players),
        "seed": seed,
        "options": game.replay_options(),
        "actions": [dict(a) for a in actions if a.get("type") not in live_only],
    }
