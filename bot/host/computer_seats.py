"""Computer players at the host: which seats a computer plays, at which level, and its decisions.

A computer seat is a lobby seat with a ``level`` (its user id is negative: it is nobody on Discord). With the
host's ``takeover`` rule, a person whose turn limit ran out is a *stand-in* seat: a computer plays it until the
person comes back (likewise a person who is away, with the ``computer`` away rule), at the level the host chose
(``stand_in_level``, by default the strongest the game has). Decisions go through ``engine.ai.decide``, which
shows the policy only the seat's view and legal actions (a searching level's in a worker process:
``bot.host.thinking``). The generator is seeded from the game's seed, the seat and the number of actions logged
so far, so nothing about the computer players needs storing and a decision can be reproduced.
"""

from __future__ import annotations

import random

from bot.storage import GameRow
from engine import Game
from engine.ai import SEARCHING, decide, levels, policy_seed, strongest
from engine.game import Action


def available(game: str, level: str) -> bool:
    """Whether ``game`` has a computer player at ``level`` (the engine's registry says which levels it has)."""
    return level in levels(game)


def stand_in_level(row: GameRow) -> str:
    """The level that plays for a person who timed out or is away: the host's choice, by default (and for a level
    the game no longer has) the strongest the game has."""
    chosen = row.stand_in_level
    return chosen if chosen is not None and available(row.game, chosen) else strongest(row.game)


def quick_level(game: str) -> str:
    """The strongest level of ``game`` that does not search (decided in a thread: what a failed search falls back
    to)."""
    quick = [level for level in levels(game) if level not in SEARCHING]
    return quick[-1] if quick else "random"


def controllers(row: GameRow) -> dict[int, str]:
    """The seats a computer plays now, with its level: computer seats and stand-ins for people who timed out."""
    found = {seat: str(s.level) for seat, s in enumerate(row.seats) if s.computer}
    for seat in row.stand_ins:
        if 0 <= seat < len(row.seats) and seat not in found:
            found[seat] = stand_in_level(row)
    return found


def computers_owing(row: GameRow, game: Game) -> list[int]:
    """The seats owing a decision now that a computer plays: replies and discards first, the player on turn last
    (a computer answers an offer before the player who made it moves on)."""
    if row.status != "active" or game.finished:
        return []
    played = controllers(row)
    on_turn = game.current_seat()
    return sorted((seat for seat in game.actors() if seat in played), key=lambda seat: seat == on_turn)


def people_owing_replies(row: GameRow, game: Game) -> list[int]:
    """People (not computer-played seats) who still owe an answer to a trade offer of the computer on turn."""
    on_turn = game.current_seat()
    if row.status != "active" or on_turn is None:
        return []
    played = controllers(row)
    if on_turn not in played:
        return []
    return [seat for seat in game.replies_owed_to(on_turn) if seat not in played]


def awaits_people(row: GameRow, game: Game) -> bool:
    """The next computer decision is the player on turn's, while people still owe answers to its offer."""
    owing = computers_owing(row, game)
    return bool(owing) and owing[0] == game.current_seat() and bool(people_owing_replies(row, game))


def choose(game: Game, seat: int, level: str, seed: int, step: int) -> Action:
    """The computer's decision for ``seat`` (pure: safe in a worker thread on a game nobody else mutates)."""
    return decide(game, seat, level, random.Random(policy_seed(seed, seat, step)))
