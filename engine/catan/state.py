"""What a Catan game is made of: the constants of the rules, an open trade offer, and the state with its queries.

The rules (``game`` and the modules of each kind of action) change this state; the policy, the view and the
computer players read it. Everything here is data: nothing changes the state.
"""

from __future__ import annotations

from typing import Final, TypedDict

from engine.catan.board import RESOURCE_INDEX as RESOURCE_INDEX
from engine.catan.board import RESOURCES as RESOURCES

# Phases of a game (the state's ``phase``).
SETUP: Final = "setup"
ROLL: Final = "roll"  # before the roll: roll or play a development card
DISCARD: Final = "discard"
ROBBER: Final = "robber"
MAIN: Final = "main"
OVER: Final = "over"

# Development cards, in the order of every per-card list.
CARDS: Final = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")
CARD_INDEX: Final = {name: i for i, name in enumerate(CARDS)}
KNIGHT, VICTORY_POINT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY = range(5)
DECK_COUNTS: Final = (14, 5, 2, 2, 2)

# Pieces in each player's supply, cards of each resource in the bank.
SETTLEMENTS: Final = 5
CITIES: Final = 4
ROADS: Final = 15
BANK_SIZE: Final = 19
LARGEST_ARMY: Final = 3  # knights played to claim the largest army

# Building costs, counts indexed like RESOURCES (brick, lumber, wool, grain, ore).
ROAD_COST: Final = (1, 1, 0, 0, 0)
SETTLEMENT_COST: Final = (1, 1, 1, 1, 0)
CITY_COST: Final = (0, 0, 0, 2, 3)
CARD_COST: Final = (0, 0, 1, 1, 1)
COSTS: Final[dict[str, tuple[int, ...]]] = {
    "road": ROAD_COST,
    "settlement": SETTLEMENT_COST,
    "city": CITY_COST,
    "card": CARD_COST,
}

# An open domestic trade offer, as kept in the state and its JSON. ``give`` is what the maker gives, ``get`` what
# it wants (counts indexed like RESOURCES); ``to`` is None for an offer to everyone; ``waiting`` are the
# recipients who have not answered yet (never the active player).
Offer = TypedDict(
    "Offer",
    {
        "id": int,
        "from": int,
        "to": int | None,
        "give": list[int],
        "get": list[int],
        "accepted": list[int],
        "declined": list[int],
        "waiting": list[int],
    },
)
