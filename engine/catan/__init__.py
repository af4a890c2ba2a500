"""Catan: the base game for 3 or 4 players (``shared/rules/catan.md``, ``shared/replay-format.md``).

The bot's entry points:

- ``Catan.new(players, options, seed)``, ``apply(action, replay=False) -> Applied(action, events)``,
  ``actors()``, ``pending()``, ``legal_actions(seat)``, ``random_action(rng)``, ``view(seat | None)``,
  ``result()``, ``replay_options()``, ``to_json()`` / ``Catan.from_json(data)``.
- ``public_events(events, seat | None)``: the events of one ``apply`` as one viewer may see them.
- Legal choices: ``settlement_spots``, ``road_spots``, ``city_spots``, ``robber_choices``, ``playable_cards``,
  ``bank_trades``, ``road_pairs`` (each ``(game, seat)``).
- Naming: ``parse_intersection("J-NE") -> 25``, ``parse_path("J-E") -> "25-31"``.

Actions are the replay format's plus live trade offers, which replays accept too:
``{"type": "offer", "to": SEAT|null, "give": B, "get": B}`` (``give``: what the proposer gives; a non-active
player's offer always goes to the active player), ``{"type": "accept"|"decline"|"withdraw", "offer": ID}``,
``{"type": "counter", "offer": ID, "give": B, "get": B}`` (a new offer from the counterer to the offer's maker)
and ``{"type": "confirm", "offer": ID, "with": SEAT}`` (active player). A ``confirm``, or the active player's
``accept`` of a proposal, is recorded as the replay format's ``trade``; a live ``trade`` action is refused.

Decisions in ``pending()``: ``setup_settlement``, ``setup_road`` (``touching``), ``roll_or_play``, ``discard``
(``count``; several seats at once), ``robber``, ``main``, ``trade_reply`` (``offer``).
"""

from engine.catan.board import parse_intersection, parse_path
from engine.catan.game import Catan
from engine.catan.policy import (
    bank_trades,
    city_spots,
    playable_cards,
    road_pairs,
    road_spots,
    robber_choices,
    settlement_spots,
)
from engine.catan.view import public_events

__all__ = [
    "Catan",
    "bank_trades",
    "city_spots",
    "parse_intersection",
    "parse_path",
    "playable_cards",
    "public_events",
    "road_pairs",
    "road_spots",
    "robber_choices",
    "settlement_spots",
]
