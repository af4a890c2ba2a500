"""Catan: the base game for 3 or 4 players.

The bot's entry points:

- ``Catan.new(players, options, seed)``, ``apply(action, replay=False) -> Applied(action, events)``,
  ``actors()``, ``current_seat()``, ``pending()``, ``legal_actions(seat)``, ``random_action(rng)``,
  ``view(seat | None)``, ``result()``, ``replay_options()``, ``to_json()`` / ``Catan.from_json(data)``.
- For the host: ``undoable(action)``, ``replies_owed_to(seat)``, ``offer(number)``; ``MIN_PLAYERS`` /
  ``MAX_PLAYERS``.
- ``engine.catan.state``: the phases, card indices, piece limits, costs (``COSTS``), and the ``Offer`` and
  ``Decision`` types.
- ``public_events(events, seat | None)``: the events of one ``apply`` as one viewer may see them.
- Legal choices: ``settlement_spots``, ``road_spots``, ``city_spots``, ``robber_choices``, ``playable_cards``,
  ``bank_trades``, ``road_pairs`` (each ``(game, seat)``).
- Naming: ``parse_intersection("J-NE") -> 25``, ``parse_path("J-E") -> "25-31"``; ``stored_hexes(state_json)``:
  the board's hexes of a stored state, to name them without loading the game.

Actions are the replay format's plus live trade offers, which replays accept too:
``{"type": "offer", "to": SEAT|null, "give": B, "get": B}`` (``give``: what the proposer gives; a non-active
player's offer always goes to the active player), ``{"type": "accept"|"decline"|"withdraw", "offer": ID}``,
``{"type": "counter", "offer": ID, "give": B, "get": B}`` (a new offer from the counterer to the offer's maker)
and ``{"type": "confirm", "offer": ID, "with": SEAT}`` (active player). A ``confirm``, or the active player's
``accept`` of a proposal, is recorded as the replay format's ``trade``; a live ``trade`` action is refused.

A completed trade settles every open offer with the same terms between the same two players, so replaying the
recorded ``trade`` leaves the same offers open as the live game did.

Decisions in ``pending()``: ``setup_settlement``, ``setup_road`` (``touching``), ``roll_or_play``, ``discard``
(``count``; several seats at once), ``robber``, ``main``, ``trade_reply`` (``offer``).

Events (``type`` and facts): ``built`` {player, piece, at, free?}, ``start_resources`` {player, cards},
``turn_started`` {player, turn}, ``rolled`` {player, dice, total}, ``produced`` {total, gains: a bundle per
seat, shortage: resources nobody got}, ``must_discard`` {counts per seat}, ``discarded`` {player, cards},
``robber_moved`` {player, hex}, ``stolen`` {thief, victim, resource}, ``bought`` {player, card}, ``played``
{player, card}, ``monopoly`` {player, resource, taken per seat}, ``took`` {player, cards}, ``bank_traded``
{player, give, get}, ``traded`` {player, with, give, get}, ``offer_made`` / ``offer_void`` {offer, player, to,
give, get}, ``offer_accepted`` / ``offer_declined`` / ``offer_withdrawn`` {player, offer}, ``award`` {card,
from, to, length | knights}, ``game_over`` {winner, scores, breakdown, victory_point_cards}. An event with
``private`` (seats) hides its ``secret`` keys from everyone else (``"*"``: the whole event); use
``public_events``.
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
from engine.catan.state_json import stored_hexes
from engine.catan.view import BoardView, CatanView, HexView, OfferView, PieceView, PlayerView, RoadView, public_events

__all__ = [
    "BoardView",
    "Catan",
    "CatanView",
    "HexView",
    "OfferView",
    "PieceView",
    "PlayerView",
    "RoadView",
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
    "stored_hexes",
]
