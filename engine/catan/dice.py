"""The roll (rules section 5): production, and on a 7 the discards and the robber."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.catan.board import (
    HEX_NAMES,
    hex_index,
)
from engine.catan.flow import own_turn, pay
from engine.catan.state import (
    DISCARD,
    MAIN,
    RESOURCE_INDEX,
    RESOURCES,
    ROBBER,
    ROLL,
    State,
)
from engine.catan.trading import (
    bundle_json,
    describe,
    holds,
    parse_bundle,
)
from engine.errors import RuleError
from engine.game import Action, Event


def roll(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    own_turn(game, seat)
    if game.phase != ROLL:
        if game.phase == MAIN or game.phase in (DISCARD, ROBBER):
            raise RuleError("already_rolled", "the dice were already rolled this turn")
        raise RuleError("wrong_phase", "no dice during set-up", phase=game.phase)
    if "dice" in action:
        dice = action["dice"]
        if (
            not isinstance(dice, list)
            or len(dice) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
        ):
            raise RuleError("bad_dice", "dice must be two whole numbers from 1 to 6, such as [3, 4]")
        d1, d2 = dice
        # A recorded roll still uses up the generator's two draws, so a game rebuilt from its log equals
        # the live game, generator included.
        game.rng.random()
        game.rng.random()
    else:
        rand = game.rng.random
        d1 = int(rand() * 6) + 1
        d2 = int(rand() * 6) + 1
    total = d1 + d2
    game.dice = [d1, d2]
    events.append({"type": "rolled", "player": seat, "dice": [d1, d2], "total": total})
    if total == 7:
        owed = [sum(h) // 2 if sum(h) > 7 else 0 for h in game.hand]
        if any(owed):
            game.owed = owed
            game.phase = DISCARD
            # A copy: the discards count ``owed`` down in place, and the event must keep telling who owed what.
            events.append({"type": "must_discard", "counts": list(owed)})
        else:
            game.phase = ROBBER
    else:
        produce(game, total, events)
        game.phase = MAIN
    return {"player": seat, "type": "roll", "dice": [d1, d2]}


def produce(game: State, total: int, events: list[Event]) -> None:
    node_owner, node_city, robber, buildings = game.node_owner, game.node_city, game.robber, game.hex_buildings
    claims: dict[int, list[int]] = {}
    for h, res in game.producers[total]:
        if h == robber or not buildings[h]:
            continue
        per = claims.get(res)
        if per is None:
            per = claims[res] = [0] * game.n
        for c in buildings[h]:
            per[node_owner[c]] += 2 if node_city[c] else 1
    gains: list[dict[str, int]] = [{} for _ in range(game.n)]
    short: list[str] = []
    bank, hand = game.bank, game.hand
    for res, per in claims.items():
        name = RESOURCES[res]
        if sum(per) > bank[res]:
            claimants = [s for s in range(game.n) if per[s]]
            if len(claimants) > 1 or not bank[res]:
                short.append(name)
                continue
            per[claimants[0]] = bank[res]  # a sole claimant takes what is left
        for s in range(game.n):
            k = per[s]
            if k:
                hand[s][res] += k
                bank[res] -= k
                gains[s][name] = k
    events.append({"type": "produced", "total": total, "gains": gains, "shortage": short})


def discard(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    if game.phase != DISCARD or not game.owed[seat]:
        raise RuleError("no_discard_owed", f"seat {seat} has no cards to discard now", player=seat)
    cards = parse_bundle(action.get("cards"), "cards", "discard")
    owed = game.owed[seat]
    if sum(cards) != owed:
        raise RuleError(
            "discard_wrong_count",
            f"seat {seat} must discard exactly {owed} cards, not {sum(cards)}",
            player=seat,
            count=owed,
            given=sum(cards),
        )
    if not holds(game.hand[seat], cards):
        raise RuleError("cards_not_held", f"seat {seat} does not hold {describe(cards)}", player=seat)
    pay(game, seat, cards)
    game.owed[seat] = 0
    events.append({"type": "discarded", "player": seat, "cards": bundle_json(cards)})
    if not any(game.owed):
        game.phase = ROBBER
    return {"player": seat, "type": "discard", "cards": bundle_json(cards)}


def check_robber(game: State, seat: int, action: Mapping[str, Any], what: str) -> tuple[int, int | None, int | None]:
    """(hex, victim, stolen resource or None when drawn/none), all validated."""
    target = hex_index(action.get("hex"))
    if target == game.robber:
        raise RuleError(
            "robber_must_move",
            f"the robber must move to another hex than {HEX_NAMES[target]}",
            hex=HEX_NAMES[target],
        )
    candidates = game.robber_victims(seat, target)
    victim = action.get("victim")
    if victim is None:
        if any(sum(game.hand[c]) for c in candidates):
            raise RuleError(
                "victim_required",
                f"choose whom to steal from on {HEX_NAMES[target]}: seat(s) {_seats(candidates)}",
                hex=HEX_NAMES[target],
                seats=candidates,
            )
    elif not isinstance(victim, int) or isinstance(victim, bool) or victim not in candidates:
        raise RuleError(
            "victim_not_adjacent",
            f"seat {victim} has no building on {HEX_NAMES[target]} to steal from"
            + (f" (choose {_seats(candidates)})" if candidates else " (nobody can be robbed there)"),
            hex=HEX_NAMES[target],
            victim=str(victim),
            seats=candidates,
        )
    stolen: int | None = None
    if "stolen" in action:
        name = action["stolen"]
        empty = victim is None or not sum(game.hand[victim])
        if name is None:
            if not empty:
                raise RuleError("stolen_mismatch", f"{what}: the victim holds cards, so a card is stolen")
        else:
            index = RESOURCE_INDEX.get(name) if isinstance(name, str) else None
            if index is None or victim is None or not game.hand[victim][index]:
                raise RuleError("stolen_mismatch", f"{what}: the victim holds no {name} to steal", resource=str(name))
            stolen = index
    return target, victim, stolen


def move_robber(
    game: State, seat: int, target: int, victim: int | None, stolen: int | None, events: list[Event]
) -> str | None:
    game.robber = target
    events.append({"type": "robber_moved", "player": seat, "hex": HEX_NAMES[target]})
    if victim is None:
        return None
    hand = game.hand[victim]
    count = sum(hand)
    if not count:
        events.append({"type": "stolen", "thief": seat, "victim": victim, "resource": None})
        return None
    draw = game.rng.random()  # drawn even when the outcome is recorded: see _roll
    if stolen is None:
        pick = int(draw * count)
        stolen = 0
        while pick >= hand[stolen]:
            pick -= hand[stolen]
            stolen += 1
    hand[stolen] -= 1
    game.hand[seat][stolen] += 1
    name = RESOURCES[stolen]
    events.append(
        {
            "type": "stolen",
            "thief": seat,
            "victim": victim,
            "resource": name,
            "private": [seat, victim],
            "secret": ["resource"],
        }
    )
    return name


def robber(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    own_turn(game, seat)
    if game.phase != ROBBER:
        if game.phase == DISCARD:
            raise RuleError("discards_pending", "the robber moves once every discard is made")
        raise RuleError("wrong_phase", "the robber moves only after a 7 (or with a knight card)")
    target, victim, stolen = check_robber(game, seat, action, "robber")
    name = move_robber(game, seat, target, victim, stolen, events)
    game.phase = MAIN
    return {"player": seat, "type": "robber", "hex": HEX_NAMES[target], "victim": victim, "stolen": name}


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(str(s) for s in seats)
