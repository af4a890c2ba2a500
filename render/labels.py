"""Every English text the images show, keyed by message id.

The bot installs a translator (``set_translator``) that reads these texts from its message catalogues (keys
``image.<id>``) in the language of the current context; without one, images are in English.
Players' names are data and never pass through here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
    "choose_cell": "Choose a numbered cell in the menu below",
    "legend_last_tile": "Coloured frame: the tile each player placed last",
    "legend_since": "White outline: placed since your last turn",
    "choose_spot": "Follower spots on the tile in column {x}, row {y}",
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
    "build_preview_settlement": "Choose a numbered intersection in the menu below",
    "build_preview_road": "Choose a path in the menu below",
    "dice": "Rolled {a} + {b} = {total}",
    "setup": "Set-up",
    # the end chart's categories, one key per game (cat_<game>_<category>, render.chart.Scoring.legend): the
    # rulebooks' words differ (zh-TW: a Carcassonne city is 城堡, a Catan city 城市)
    "final_scores_catan": "Final victory points",
    "cat_carcassonne_road": "Roads",
    "cat_carcassonne_city": "Cities",
    "cat_carcassonne_cloister": "Cloisters",
    "cat_carcassonne_farm": "Farms",
    "cat_carcassonne_ransom": "Ransom",
    "cat_ransom_paid": "Ransom paid",
    "cat_catan_settlement": "Settlements",
    "cat_catan_city": "Cities",
    "cat_catan_longest_road": "Longest road",
    "cat_catan_largest_army": "Largest army",
    "cat_catan_victory_point": "VP cards",
    "harbor_generic": "3:1",
    "harbor_special": "2:1",
    "title_carcassonne": "Carcassonne",
    "title_catan": "Catan",
    # the story of a game (render/recap.py) and a player's rating history (render/rating_chart.py)
    "story_title": "{game}: the story of the game",
    "story_player": "{name} · {points}",
    "story_turns": "turn",
    "story_dice": "The dice: {count} rolls",
    "story_rolled": "Rolled",
    "story_expected": "Expected",
    "story_resources": "Resource cards",
    "story_gained": "Gained",
    "story_robbed": "Lost to the robber",
    "story_traded": "Traded away",
    "story_awards": "Longest road and largest army, turn by turn",
    "story_lead": "Scores, turn by turn",
    "story_features": "Points by feature",
    "rating_games": "games played",
    # follower spots of a Carcassonne tile (engine names "city:S", "field:Nw", "cloister"; see spot_label)
    "spot_city": "city ({side})",
    "spot_road": "road ({side})",
    "spot_field": "field ({side})",
    "spot_field_inner": "field (middle)",
    "spot_cloister": "cloister",
    "spot_tower": "tower",
    "side_N": "north",
    "side_E": "east",
    "side_S": "south",
    "side_W": "west",
    "half_Nw": "north, west half",
    "half_Ne": "north, east half",
    "half_En": "east, north half",
    "half_Es": "east, south half",
    "half_Se": "south, east half",
    "half_Sw": "south, west half",
    "half_Ws": "west, south half",
    "half_Wn": "west, north half",
}

_catalogue: dict[str, str] = dict(ENGLISH)
Translator = Callable[[str, dict[str, object]], str | None]
_translator: list[Translator] = []


Lister = Callable[[Sequence[str]], str]
_lister: list[Lister] = []


def set_lister(lister: Lister | None) -> None:
    """Join lists of names with ``lister`` (the bot's list format of the current language; None: commas)."""
    _lister[:] = [lister] if lister is not None else []


def names_list(names: Sequence[str]) -> str:
    """Players' names as one list, in the installed language's list format ("A, B and C", 「A、B和C」)."""
    return _lister[0](names) if _lister else ", ".join(names)


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


Lookup = Callable[..., str]


def spot_label(on: str, lookup: Lookup | None = None) -> str:
    """A Carcassonne follower spot in words: ``city:S`` -> "city (south)", ``field:Nw`` -> "field (north, west
    half)", ``cloister`` -> "cloister". ``lookup(key, **params)`` reads the texts (default: ``label``, the image's
    catalogue); a name it does not know is shown as it is."""
    read = lookup or label
    kind, _, where = on.partition(":")
    if not where:
        return read(f"spot_{kind}") if f"spot_{kind}" in ENGLISH else on
    if kind == "field" and where == "inner":
        return read("spot_field_inner")
    place = f"half_{where}" if kind == "field" else f"side_{where}"
    if f"spot_{kind}" not in ENGLISH or place not in ENGLISH:
        return on
    return read(f"spot_{kind}", side=read(place))
