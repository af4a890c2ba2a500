"""Every English text the images show, keyed by message id (a later issue swaps in translated catalogues).

Players' names are data and never pass through here.
"""

from __future__ import annotations

from typing import Final

ENGLISH: Final[dict[str, str]] = {
    "score": "{points} pts",
    "turn": "Turn {turn}",
    "to_move": "to move",
    "followers": "followers {count}",
    "towers": "tower pieces {count}",
    "prisoners": "holds {names}",
    "tiles_left": "{count} tiles left",
    "drawn": "Drawn tile",
    "choose_cell": "Choose a cell: reply with its number",
    "choose_spot": "Follower spots on the tile at ({x}, {y})",
    "no_spot": "No follower can be placed",
    "finished": "Game over",
    "winner": "Winner: {names}",
    "winners": "Winners (tie): {names}",
    "final_scores": "Final scores",
    "points": "points",
    "cards": "cards {count}",
    "dev_cards": "dev {count}",
    "knights": "knights {count}",
    "discard_owed": "discards {count}",
    "longest_road": "Longest road",
    "largest_army": "Largest army",
    "public_points": "{points} VP",
    "build_preview_settlement": "Reply with a number to build there",
    "build_preview_road": "Reply with a path to build there",
    "dice": "Rolled {a} + {b} = {total}",
    "setup": "Set-up",
    "cat_road": "Roads",
    "cat_city": "Cities",
    "cat_cloister": "Cloisters",
    "cat_farm": "Farms",
    "cat_ransom": "Ransom",
    "cat_settlement": "Settlements",
    "cat_longest_road": "Longest road",
    "cat_largest_army": "Largest army",
    "cat_victory_point": "VP cards",
    "harbor_generic": "3:1",
    "harbor_special": "2:1",
}

_catalogue: dict[str, str] = dict(ENGLISH)


def label(key: str, **params: object) -> str:
    """The text for message ``key`` with ``params`` filled in (the key itself if the catalogue lacks it)."""
    template = _catalogue.get(key, key)
    return template.format(**params) if params else template
