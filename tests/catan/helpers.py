"""Building Catan positions for scenario tests.

Positions start from the beginner map and set-up (rules section 3 and 4) with seat 0 first, and go on with
replay-mode actions whose chance outcomes are written in (dice, cards, stolen resources). ``grant`` moves cards
from the bank to a hand so a test can set up what a player holds without playing many turns; the bank and the
hands still always add up to 19 of each resource.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.catan import Catan
from engine.catan.board import RESOURCE_INDEX
from engine.catan.maps import BEGINNER_HEXES, layout_json
from engine.errors import RuleError
from engine.game import Applied

PLAYERS4 = ["Red", "Blue", "White", "Orange"]
PLAYERS3 = ["Blue", "White", "Orange"]


def beginner(players: int = 4, **options: Any) -> Catan:
    """The beginner map and set-up; seat 0 starts. Seat 0 is red with 4 players, blue with 3."""
    opts = {"board": "beginner", "setup": "beginner", "first_player": 0, **options}
    return Catan.new(PLAYERS4 if players == 4 else PLAYERS3, opts, seed=1)


def act(game: Catan, player: int, kind: str, **fields: Any) -> Applied:
    """One action in replay mode (outcomes as written)."""
    return game.apply({"player": player, "type": kind, **fields}, replay=True)


def live(game: Catan, player: int, kind: str, **fields: Any) -> Applied:
    """One action in live mode (the engine draws outcomes)."""
    return game.apply({"player": player, "type": kind, **fields})


def rejects(game: Catan, player: int, kind: str, code: str, *, replay: bool = True, **fields: Any) -> RuleError:
    """The action is refused with ``code`` and the state is exactly as before."""
    before = json.dumps(game.to_json(), sort_keys=True)
    with pytest.raises(RuleError) as info:
        game.apply({"player": player, "type": kind, **fields}, replay=replay)
    assert info.value.code == code, (info.value.code, info.value.message)
    assert json.dumps(game.to_json(), sort_keys=True) == before
    return info.value


def grant(game: Catan, seat: int, **cards: int) -> None:
    """Move cards from the bank to ``seat``'s hand (test set-up)."""
    for name, count in cards.items():
        r = RESOURCE_INDEX[name]
        assert game.bank[r] >= count
        game.bank[r] -= count
        game.hand[seat][r] += count


def empty_hands(game: Catan) -> None:
    """Return every card to the bank."""
    for hand in game.hand:
        for r in range(5):
            game.bank[r] += hand[r]
            hand[r] = 0


def hand(game: Catan, seat: int) -> dict[str, int]:
    return {r: game.hand[seat][i] for r, i in RESOURCE_INDEX.items() if game.hand[seat][i]}


def to_main(game: Catan, dice: tuple[int, int] = (6, 6)) -> None:
    """The current player rolls (12 by default: fields D pays White 1 grain, nothing else)."""
    act(game, game.current, "roll", dice=list(dice))


def end_turn(game: Catan) -> None:
    act(game, game.current, "end_turn")


def next_turn(game: Catan, dice: tuple[int, int] = (1, 1)) -> None:
    """End the turn, and the next player rolls ``dice`` (2 = pasture B, next to red's 9 only)."""
    end_turn(game)
    act(game, game.current, "roll", dice=list(dice))


def beginner_layout_json() -> dict[str, Any]:
    return layout_json((list(BEGINNER_HEXES), ["3:1", "grain", "ore", "3:1", "wool", "3:1", "3:1", "brick", "lumber"]))


def check_bank(game: Catan) -> None:
    for r in range(5):
        assert game.bank[r] + sum(h[r] for h in game.hand) == 19
