"""Every English text the images show, keyed by message id.

The bot installs a translator (``set_translator``) that reads these texts from its message catalogues (keys
``image.<id>``) in the language of the current context; without one, images are in English.
Players' names are data and never pass through here.
"""

from __future__ import annotations

from collections.abc import Callable
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
Translator = Callable[[str, dict[str, object]], str | None]
_translator: list[Translator] = []


def set_translator(translator: Translator | None) -> None:
    """Translate every label with ``translator(key, params)`` (None: English); it returns None for unknown keys."""
    _translator[:] = [translator] if translator is not None else []


def label(key: str, **params: object) -> str:
    """The text for message ``key`` with ``params`` filled in (the key itself if the catalogue lacks it)."""
    if _translator:
        translated = _translator[0](key, params)
        if translated is not None:
            return translated
    template = _catalogue.get(key, key)
    return template.format(**params) if params else template
