"""What every kind of action shares: whose turn and which phase it is, paying, the start of a turn, winning.

The modules of each kind of action (``building``, ``dice``, ``cards``, ``offers``) build on these; ``game``
dispatches the actions to them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.catan.state import DISCARD, MAIN, OVER, RESOURCES, ROBBER, ROLL, VICTORY_POINT, State
from engine.catan.trading import bundle_json, describe, holds, prune_offers
from engine.errors import RuleError
from engine.game import Action, Event, not_your_turn


def own_turn(game: State, seat: int) -> None:
    if seat != game.current:
        raise not_your_turn(seat, game.current)


def main_phase(game: State, seat: int, what: str) -> None:
    """The active player after the roll with no discard or robber move outstanding."""
    own_turn(game, seat)
    phase = game.phase
    if phase == MAIN:
        return
    if phase == ROLL:
        raise RuleError("roll_first", f"roll the dice before {what}", action=what)
    if phase in (DISCARD, ROBBER):
        raise RuleError(
            "resolve_seven_first",
            f"the discards and the robber move come before {what}",
            action=what,
        )
    raise RuleError("wrong_phase", f"{what} is not possible during set-up", action=what, phase=phase)


def trade_phase(game: State, seat: int, what: str) -> None:
    if game.phase == MAIN and game.options.strict_phases and game.built:
        raise RuleError(
            "trading_after_building",
            "with strict_phases all trading comes before building: this turn's trading is over",
            action=what,
        )


def afford(game: State, seat: int, cost: Sequence[int], what: str) -> None:
    if not holds(game.hand[seat], cost):
        raise RuleError(
            "cannot_afford",
            f"{what} costs {describe(cost)}; seat {seat} has {describe(game.hand[seat]) or 'no cards'}",
            action=what,
            cost=bundle_json(cost),
        )


def bank_holds(game: State, bundle: Sequence[int]) -> None:
    """The bank can hand out ``bundle`` (a bank trade, year of plenty)."""
    for r in range(5):
        if bundle[r] > game.bank[r]:
            raise RuleError(
                "bank_empty",
                f"the bank holds only {game.bank[r]} {RESOURCES[r]}",
                resource=RESOURCES[r],
                count=game.bank[r],
            )


def pay(game: State, seat: int, cost: Sequence[int]) -> None:
    hand, bank = game.hand[seat], game.bank
    for r in range(5):
        if cost[r]:
            hand[r] -= cost[r]
            bank[r] += cost[r]


def start_turn(game: State, events: list[Event]) -> None:
    game.phase = ROLL
    game.dice = None
    game.turn += 1
    game.card_played = False
    game.built = False
    game.bought = [0] * 5
    game.offers_made = 0
    events.append({"type": "turn_started", "player": game.current, "turn": game.turn})
    check_win(game, events)


def check_win(game: State, events: list[Event]) -> None:
    seat = game.current
    if game.points(seat) >= game.options.points_to_win:
        game.phase = OVER
        game.winner = seat
        game.offers = []
        game.owed = [0] * game.n
        events.append(
            {
                "type": "game_over",
                "winner": seat,
                "scores": [game.points(s) for s in range(game.n)],
                "breakdown": [game.breakdown(s) for s in range(game.n)],
                "victory_point_cards": [game.dev[s][VICTORY_POINT] for s in range(game.n)],
            }
        )


def after_main_action(game: State, events: list[Event]) -> None:
    if game.offers:
        if game.options.strict_phases and game.built:
            game.offers = []
        else:
            prune_offers(game, events)
    check_win(game, events)


def end_turn(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    main_phase(game, seat, "ending the turn")
    game.offers = []
    game.current = (seat + 1) % game.n
    start_turn(game, events)
    return {"player": seat, "type": "end_turn"}
