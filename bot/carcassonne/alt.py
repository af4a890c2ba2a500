"""Carcassonne's pictures in words: the board and its side panel, the drawn tile and the numbered cells of a turn's
preview, the follower spots of the tile just placed, and the tiles placed since a player's last turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from bot.carcassonne import recap
from bot.carcassonne.narration import spot_name
from bot.core.rendering import Job
from bot.text import listing, t
from bot.text.alt_words import View, name, names_of, seat, to_move
from engine.carcassonne.tiles import TILES
from render.carcassonne import pictures


def cell(x: object, y: object) -> str:
    return f"({x}, {y})"


def _sides(sides: Sequence[int], rotation: int) -> tuple[str, int]:
    """Sides of a tile (0 north .. 3 west, in the tile's own orientation) as they lie after ``rotation`` degrees
    clockwise, in words, and how many."""
    turned = sorted((side + rotation // 90) % 4 for side in sides)
    return listing(t(f"alt.carcassonne.side.{'NESW'[s]}") for s in turned), len(turned)


def tile_features(tile_id: str, rotation: int = 0) -> str:
    """What a tile shows, side by side: its cities (and pennants), roads, the river, a cloister, a tower
    foundation; a tile of fields alone says so. The tile's id means nothing to a player and is never told."""
    tile = TILES[tile_id]
    parts = []
    for segment in tile.segments:
        if segment.kind == "city":
            sides, count = _sides(segment.edges, rotation)
            key = "alt.carcassonne.tile.city_pennant" if segment.pennants else "alt.carcassonne.tile.city"
            parts.append(t(key, sides=sides, count=count))
    for segment in tile.segments:
        if segment.kind == "road":
            sides, count = _sides(segment.edges, rotation)
            parts.append(t("alt.carcassonne.tile.road", sides=sides, count=count))
    if tile.river:
        sides, count = _sides(tile.river, rotation)
        parts.append(t("alt.carcassonne.tile.river", sides=sides, count=count))
    if tile.cloister:
        parts.append(t("alt.carcassonne.tile.cloister"))
    if tile.tower:
        parts.append(t("alt.carcassonne.tile.tower"))
    return listing(parts, style="enumeration") if parts else t("alt.carcassonne.tile.fields")


def head(view: View) -> list[str]:
    """What the picture is: the board at which turn, and the tiles left (the panel's first line)."""
    if view.get("finished"):
        return [t("alt.carcassonne.board_over", game=t("game.carcassonne"), count=view["turn"])]
    return [
        t("alt.carcassonne.board", game=t("game.carcassonne"), turn=view["turn"]),
        t("alt.carcassonne.stack", count=view["tiles_left"]),
    ]


def players(view: View) -> list[str]:
    """Each player's line of the side panel: points, followers and tower pieces left."""
    tower = bool(view["options"].get("tower"))
    lines = []
    for player in view["players"]:
        number = int(player["seat"])
        params = {
            "seat": seat(view, number),
            "points": t("alt.points", count=player["score"]),
            "followers": t("alt.carcassonne.followers", count=player["followers"]),
        }
        if tower:
            towers = t("alt.carcassonne.tower_pieces", count=player["tower_pieces"])
            lines.append(t("alt.carcassonne.player_tower", towers=towers, **params))
        else:
            lines.append(t("alt.carcassonne.player", **params))
    return lines


def prisoners(view: View) -> list[str]:
    lines = []
    for player in view["players"]:
        for owner, count in enumerate(player.get("prisoners") or []):
            if count:
                holder = str(player["name"])
                lines.append(t("alt.carcassonne.prisoners", holder=holder, owner=name(view, owner), count=count))
    return lines


def last_placed(view: View) -> list[str]:
    tiles = [
        t("alt.carcassonne.last_tile", name=str(p["name"]), cell=cell(*p["last_placed"]))
        for p in view["players"]
        if p.get("last_placed")
    ]
    return [t("alt.carcassonne.last_placed", tiles=listing(tiles, style="enumeration"))] if tiles else []


def followers(view: View) -> list[str]:
    """Where each player's followers stand, player by player."""
    lines = []
    for number, player_name in enumerate(names_of(view)):
        placed = [
            t(f"alt.carcassonne.follower.{f['role']}", cell=cell(f["x"], f["y"]))
            for f in view["followers"]
            if f["player"] == number
        ]
        if placed:
            lines.append(t("alt.carcassonne.followers_of", name=player_name, places=listing(placed)))
    return lines


def towers(view: View) -> list[str]:
    built = [  # a foundation without a tower piece yet is only part of its tile
        t("alt.carcassonne.tower", height=w["height"], cell=cell(w["x"], w["y"])) for w in view["towers"] if w["height"]
    ]
    return [t("alt.carcassonne.towers", towers=listing(built, style="enumeration"))] if built else []


def details(view: View) -> list[str]:
    """What the board shows beyond the turn: the frames of the last tiles, the grid, followers and towers."""
    return [*last_placed(view), t("alt.carcassonne.axes"), *followers(view), *towers(view)]


class CarcassonneWords:
    """Carcassonne's part of the alt text (``bot.text.alt.GameWords``)."""

    def board(self, view: View) -> list[str]:
        return [*head(view), *to_move(view), *players(view), *prisoners(view), *details(view)]

    def since(self, view: View, placed: Mapping[str, Sequence[Any]]) -> list[str]:
        cells = [cell(x, y) for x, y in placed.get("tiles", [])]
        told = []
        if cells:
            told.append(t("alt.carcassonne.since", count=len(cells), cells=listing(cells, style="enumeration")))
        return [*told, *self.board(view)]

    def story(self, story: View) -> list[str]:
        return recap.words(story)

    def picture(self, job: Job) -> list[str] | None:
        if job.function is pictures.preview_png:
            view, cells = job.args
            return [*head(view), *to_move(view), *self.drawn(view, len(cells)), *players(view), *details(view)]
        if job.function is pictures.spots_png:
            view, x, y, spots = job.args
            return self.spots(view, x, y, list(spots))
        return None

    @staticmethod
    def drawn(view: View, cells: int) -> list[str]:
        told = []
        if view.get("drawn"):
            told.append(t("alt.carcassonne.drawn", features=tile_features(str(view["drawn"]))))
        if cells == 1:
            told.append(t("alt.carcassonne.cell_only"))
        elif cells:
            told.append(t("alt.carcassonne.cells", count=cells))
        return told

    @staticmethod
    def spots(view: View, x: int, y: int, spots: list[str]) -> list[str]:
        """The tile just placed, enlarged among its neighbours, with its follower spots labelled."""
        placed = next((tile for tile in view["tiles"] if tile["x"] == x and tile["y"] == y), None)
        current = view.get("current_player")
        told = [t("alt.carcassonne.spots_head", cell=cell(x, y), name=name(view, current))]
        if placed is not None:
            told.append(t("alt.carcassonne.tile_has", features=tile_features(placed["tile"], placed["rotation"])))
        if spots:
            names = listing((spot_name(on) for on in spots), style="enumeration")
            told.append(t("alt.carcassonne.spots", count=len(spots), spots=names))
        else:
            told.append(t("alt.carcassonne.no_spot"))
        return told


WORDS: Final = CarcassonneWords()
