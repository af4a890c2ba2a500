"""Carcassonne images from a view (``game.view(seat)``): the board, the turn preview and the follower spots.

Geometry is public so that tests can probe pixels: :func:`layout` maps cells to pixels and
:func:`segment_pixel` gives where a follower on a named segment stands.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache, partial
from typing import Any, Final, NamedTuple

from PIL import Image, ImageDraw

from engine.carcassonne.tiles import ORIENTED
from render import fonts
from render.badge import badge
from render.carcassonne.shapes import anchor, reference_anchors, rotate_point, tile_shapes
from render.carcassonne.sprites import meeple, tile_sprite, tower_sprite
from render.labels import label, names_list, spot_label
from render.lookup import Lookup
from render.palette import INK, PAPER, RGB, marks, player_colour, text_on
from render.panel import BG, MUTED, TEXT, WIDTH, Panel, PlayerCard, paint_panel, panel_height
from render.pasting import fill, paste
from render.rounded import rounded_rectangle

View = Mapping[str, Any]
MAX_SIDE: Final = 2048
MAX_TILE: Final = 100
MIN_TILE: Final = 10
PIXEL_BUDGET: Final = 1_600_000  # board area; keeps a 100-tile board fast to encode and still sharp on a phone
BOARD_BG: Final = (30, 34, 40)
EMPTY: Final = (40, 45, 53)
GRID: Final = (50, 56, 66)
PREVIEW: Final = (255, 214, 80)
OUTLINE: Final = (255, 255, 255)  # tiles placed since a player's last turn


@dataclass(frozen=True)
class Layout:
    """Where the board grid sits in the image: cell (x, y) has its top-left corner at :meth:`cell_origin`."""

    tile: int
    min_x: int
    min_y: int
    cols: int
    rows: int
    left: int
    top: int
    board_width: int
    board_height: int
    width: int
    height: int

    def cell_origin(self, x: int, y: int) -> tuple[int, int]:
        return (self.left + (x - self.min_x) * self.tile, self.top + (y - self.min_y) * self.tile)

    def point(self, x: int, y: int, unit: tuple[float, float]) -> tuple[int, int]:
        ox, oy = self.cell_origin(x, y)
        return (ox + round(unit[0] * self.tile), oy + round(unit[1] * self.tile))


def _bounds(view: View, extra: Sequence[tuple[int, int]]) -> tuple[int, int, int, int]:
    cells = [(t["x"], t["y"]) for t in view["tiles"]] + list(extra)
    if not cells:
        cells = [(0, 0)]
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    return min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1


def coord_size(tile: int) -> int:
    return max(11, min(18, tile // 4))


def layout(view: View, extra: Sequence[tuple[int, int]] = (), panel_h: int = 0, max_tile: int = MAX_TILE) -> Layout:
    """The layout of the board image of ``view`` (``extra`` cells are also kept in view, e.g. legal cells, or every
    cell of a later board for the frames of a timelapse); tiles at most ``max_tile`` pixels."""
    x0, y0, x1, y1 = _bounds(view, extra)
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    margin_guess = 40
    tile = min(
        max_tile,
        math.isqrt(PIXEL_BUDGET // (cols * rows)),
        (MAX_SIDE - WIDTH - margin_guess - 12) // cols,
        (MAX_SIDE - margin_guess - 12) // rows,
    )
    # a few sizes only, so that the sprite caches stay small and warm as the board grows
    tile = max(MIN_TILE, tile - tile % 8 if tile >= 24 else tile - tile % 2)
    margin = coord_size(tile) * 2 + 6
    left, top = margin, margin
    board_w = left + cols * tile + 12
    board_h = top + rows * tile + 12
    width = board_w + WIDTH
    height = max(board_h, panel_h)
    return Layout(tile, x0, y0, cols, rows, left, top, board_w, board_h, width, height)


def tile_sizes() -> list[int]:
    """Every tile size in pixels that ``layout`` may choose."""
    return [*range(MIN_TILE, 24, 2), *range(24, MAX_TILE + 1, 8)]


def warm_sprites() -> None:
    """Draw every tile in every rotation at every size once, and find where followers stand on
    each (20-40 ms a tile, the first time a follower is drawn on it): 1-2 s, so that no turn pays for it."""
    for tile_id in ORIENTED:
        reference_anchors(tile_id)
    for size in tile_sizes():
        for tile_id in ORIENTED:
            for quarter in range(4):
                tile_sprite(tile_id, quarter * 90, size)


def tower_point(tile_id: str, rotation: int) -> tuple[float, float]:
    shapes = tile_shapes(tile_id)
    assert shapes.tower is not None
    return rotate_point(shapes.tower.centre, rotation // 90 % 4)


def segment_pixel(view: View, lay: Layout, x: int, y: int, on: str) -> tuple[int, int]:
    """The pixel where a follower on segment ``on`` (or ``"tower"``) of the tile at (x, y) is drawn."""
    placed = next(t for t in view["tiles"] if t["x"] == x and t["y"] == y)
    if on == "tower":
        tx, ty = tower_point(placed["tile"], placed["rotation"])
        return lay.point(x, y, (tx, ty - 0.08))
    return lay.point(x, y, anchor(placed["tile"], placed["rotation"], on))


def follower_size(tile: int) -> int:
    return max(9, round(tile * 0.36))


def _names(view: View) -> list[str]:
    return [str(p["name"]) for p in view["players"]]


def board_panel(view: View, outlined: bool = False, *, turn_marked: bool = True) -> Panel:
    """The scoreboard beside the board (``turn_marked``: the card of the player to move stands out; a timelapse's
    frames mark nobody, or the mark would jump from card to card every frame)."""
    names = _names(view)
    mk = marks(names)
    tower = bool(view.get("options", {}).get("tower"))
    cards = []
    finished = bool(view.get("finished"))
    winners = set(view.get("winners") or [])
    for p in view["players"]:
        seat = int(p["seat"])
        details = [label("followers", count=p["followers"])]
        if tower:
            details[0] += "  ·  " + label("towers", count=p["tower_pieces"])
        held = [f"{names[o]} ×{n}" for o, n in enumerate(p.get("prisoners") or []) if n]
        if held:
            details.append(label("prisoners", names=names_list(held)))
        cards.append(
            PlayerCard(
                name=names[seat],
                colour=player_colour(seat),
                mark=mk[seat],
                score=str(p["score"]),
                details=tuple(details),
                active=turn_marked and not finished and view.get("current_player") == seat,
                winner=finished and seat in winners,
            )
        )
    if finished:
        subtitle = label("finished")
    else:
        subtitle = label("turn", turn=view["turn"]) + "  ·  " + label("tiles_left", count=view["tiles_left"])
    # the frames drawn around each player's latest tile (or around the tiles placed since) need saying once
    if outlined:
        footer: tuple[str, ...] = (label("legend_since"),)
    elif any(p.get("last_placed") for p in view["players"]):
        footer = (label("legend_last_tile"),)
    else:
        footer = ()
    return Panel(title=label("title_carcassonne"), subtitle=subtitle, cards=tuple(cards), footer=footer)


def draw_grid(lay: Layout, img: Image.Image) -> None:
    """The margins, the grid and its coordinates: what a board picture shows before its first tile."""
    d = ImageDraw.Draw(img)
    t = lay.tile
    gx0, gy0 = lay.left, lay.top
    gx1, gy1 = gx0 + lay.cols * t, gy0 + lay.rows * t
    # ``img`` was made in the empty cells' colour, most of a board picture's pixels: only the margins are painted
    # (the caller paints the scoreboard's side), so that no pixel of the grid is written twice before its tile
    for box in ((0, 0, lay.board_width, gy0), (0, gy0, gx0, gy1), (gx1, gy0, lay.board_width, gy1)):
        fill(img, BOARD_BG, box)
    fill(img, BOARD_BG, (0, gy1, lay.board_width, lay.height))
    # the grid's lines, one pixel wide: each the box of its pixels, as ``d.line`` draws them
    for i in range(lay.cols + 1):
        fill(img, GRID, (gx0 + i * t, gy0, gx0 + i * t + 1, gy1))
    for j in range(lay.rows + 1):
        fill(img, GRID, (gx0, gy0 + j * t, gx1, gy0 + j * t + 1))
    # coordinates in the margins (x along the top, y down the left), the engine's own numbers
    cs = coord_size(t)
    step = 1 if t >= cs * 2 else 2
    for i in range(lay.cols):
        x = lay.min_x + i
        if x % step == 0:
            fonts.draw_text(d, (gx0 + i * t + t / 2, gy0 - cs * 0.6), str(x), cs, MUTED, anchor="mm")
    for j in range(lay.rows):
        y = lay.min_y + j
        if y % step == 0:
            fonts.draw_text(d, (gx0 - 6, gy0 + j * t + t / 2), str(y), cs, MUTED, anchor="rm")


Box = tuple[int, int, int, int]


class Piece(NamedTuple):
    """One thing drawn over the grid of a board picture: what it is (``key``: equal keys draw equal pixels at the
    same place), every pixel it may touch (inside ``box``), and how to draw it. (A named tuple: a board has a
    hundred, made for every picture.)"""

    key: tuple[object, ...]
    box: Box
    draw: Callable[[Image.Image, ImageDraw.ImageDraw], None]


def _paste(sprite: Image.Image, at: tuple[int, int], masked: bool, img: Image.Image, d: ImageDraw.ImageDraw) -> None:
    paste(img, sprite, at, sprite if masked else None)


def _sprite_piece(key: tuple[object, ...], sprite: Image.Image, at: tuple[int, int], masked: bool) -> Piece:
    width, height = sprite.size
    return Piece(key, (at[0], at[1], at[0] + width, at[1] + height), partial(_paste, sprite, at, masked))


def _frame(
    box: Box, colour: RGB, width: int, tag: tuple[str, int] | None, img: Image.Image, d: ImageDraw.ImageDraw
) -> None:
    """A cell framed in ``colour`` (with the player's ``tag``: mark and its size, in a corner)."""
    ox, oy, ox1, oy1 = box
    d.rectangle([ox, oy, ox1 - 1, oy1 - 1], outline=INK, width=width + 2)
    d.rectangle([ox + 1, oy + 1, ox1 - 2, oy1 - 2], outline=colour, width=width)
    if tag is not None:
        mark, size = tag
        side = _tag_side(ox1 - ox)
        d.rectangle([ox, oy, ox + side, oy + side], fill=colour, outline=INK)
        room = side * 0.95
        at = (ox + side / 2 + 0.5, oy + side / 2)
        fonts.draw_text(d, at, mark, size, text_on(colour), bold=True, anchor="mm", room=room)


def _tag_side(t: int) -> int:
    return max(10, round(t * 0.26))


def pieces(view: View, lay: Layout, outlined: Sequence[tuple[int, int]] = ()) -> list[Piece]:
    """What is drawn over the grid of ``view``'s board, in drawing order: tiles, towers, frames, followers."""
    t = lay.tile
    out: list[Piece] = []
    rotation_of: dict[tuple[int, int], tuple[str, int]] = {}
    for placed in view["tiles"]:
        x, y, tile_id, rotation = placed["x"], placed["y"], placed["tile"], placed["rotation"]
        rotation_of[(x, y)] = (tile_id, rotation)
        ox, oy = lay.cell_origin(x, y)
        draw = partial(_paste, tile_sprite(tile_id, rotation, t), (ox, oy), False)
        out.append(Piece(("tile", x, y, tile_id, rotation), (ox, oy, ox + t, oy + t), draw))
    for tower in view.get("towers") or []:
        if tower["height"] < 1:
            continue
        x, y = tower["x"], tower["y"]
        tile_id, rot = rotation_of[(x, y)]
        px, py = lay.point(x, y, tower_point(tile_id, rot))
        spr = tower_sprite(tower["height"], max(10, round(t * 0.42)))
        at = (px - spr.width // 2, py - spr.height // 2 - round(t * 0.04))
        out.append(_sprite_piece(("tower", x, y, tower["height"], tile_id, rot), spr, at, True))
    names = _names(view)
    mk = marks(names)
    lw = max(3, t // 14)
    for x, y in outlined:
        ox, oy = lay.cell_origin(x, y)
        box = (ox, oy, ox + t, oy + t)
        out.append(Piece(("outlined", x, y), box, partial(_frame, box, OUTLINE, lw, None)))
    for p in view["players"]:
        last = p.get("last_placed")
        if not last or outlined:  # the outlines say what is new instead
            continue
        seat = int(p["seat"])
        ox, oy = lay.cell_origin(last[0], last[1])
        cell = (ox, oy, ox + t, oy + t)
        tag = _tag_side(t)
        size = fonts.fit_line(mk[seat], max(8, round(tag * 0.72)), tag * 0.95, bold=True, smallest=7)
        # the tag's square and its mark, which may be wider than the square, are inside this box
        reach = max(tag + 1, fonts.text_width(mk[seat], size, True) // 2 + size) + 2
        box = (ox - reach, oy - reach, max(ox + t, ox + tag + reach), max(oy + t, oy + tag + reach))
        draw = partial(_frame, cell, player_colour(seat), lw, (mk[seat], size))
        out.append(Piece(("last", seat, last[0], last[1], mk[seat]), box, draw))
    size = follower_size(t)
    for f in view["followers"]:
        seat = int(f["player"])
        lying = f["role"] == "farmer"
        spr = meeple(player_colour(seat), mk[seat], size, lying)
        px, py = segment_pixel(view, lay, f["x"], f["y"], f["on"])
        key = ("follower", seat, mk[seat], f["x"], f["y"], f["on"], lying)
        out.append(_sprite_piece(key, spr, (px - spr.width // 2, py - spr.height // 2), True))
    return out


def _draw_board(view: View, lay: Layout, img: Image.Image, outlined: Sequence[tuple[int, int]] = ()) -> None:
    draw_grid(lay, img)
    d = ImageDraw.Draw(img)
    for piece in pieces(view, lay, outlined):
        piece.draw(img, d)


def board_image(
    view: View,
    cells: Sequence[tuple[int, int]] = (),
    *,
    outlined: Sequence[tuple[int, int]] = (),
    extent: Sequence[tuple[int, int]] = (),
    max_tile: int = MAX_TILE,
    turn_marked: bool = True,
) -> Image.Image:
    """The public board (``cells`` numbered 1..n for a turn preview; ``outlined`` cells framed in white, the tiles
    placed since a player's last turn; ``extent`` cells kept in the picture, so that the frames of a timelapse
    share one grid; tiles at most ``max_tile`` pixels; ``turn_marked``: as ``board_panel``)."""
    panel = board_panel(view, bool(outlined), turn_marked=turn_marked)
    if cells:
        panel = replace(panel, footer=(label("choose_cell"), *panel.footer))
    picture = None
    if cells and view.get("drawn"):
        picture = tile_sprite(view["drawn"], 0, 150)
    caption = label("drawn")  # the tile's picture says which it is; its id means nothing to players
    lay = layout(view, [*cells, *extent], panel_height(panel, picture, caption), max_tile)
    img = Image.new("RGB", (lay.width, lay.height), EMPTY)
    _draw_board(view, lay, img, outlined)
    if cells:
        d = ImageDraw.Draw(img)
        t = lay.tile
        bsize = max(12, min(44, round(t * 0.62)))
        for n, (x, y) in enumerate(cells, start=1):
            ox, oy = lay.cell_origin(x, y)
            d.rectangle([ox + 2, oy + 2, ox + t - 3, oy + t - 3], outline=PREVIEW, width=max(2, t // 24))
            b = badge(str(n), bsize, PREVIEW, INK)
            paste(img, b, (ox + (t - b.width) // 2, oy + (t - b.height) // 2), b)
    paint_panel(img, lay.board_width, panel, picture=picture, caption=caption)
    return img


SPOT_TILE: Final = 220
SHADE: Final = 150  # how much of the board's background covers the neighbours in the follower spots picture


@cache
def shade_table() -> list[int]:
    """For ``Image.point``: each channel's value after ``SHADE``/255 of the board's background is blended over it,
    read back from Pillow's own blend so that it is exact."""
    ramp = Image.frombytes("RGB", (256, 1), bytes(v for v in range(256) for _ in range(3)))
    ramp.paste(Image.new("RGB", ramp.size, BOARD_BG), (0, 0), Image.new("L", ramp.size, SHADE))
    return [value for band in ramp.split() for value in band.tobytes()]


@cache
def shade() -> Lookup:
    """``shade_table`` as the neighbours of the follower spots picture are dimmed with it (``sprite.point``)."""
    return Lookup(shade_table())


def shaded(colour: RGB) -> RGB:
    table = shade_table()
    return (table[colour[0]], table[256 + colour[1]], table[512 + colour[2]])


@lru_cache(maxsize=48)  # about 190 KB each: one game's follower decisions show the same neighbours again and again
def shaded_tile(tile_id: str, rotation: int) -> Image.Image:
    """A neighbour in the follower spots picture: the tile at ``SPOT_TILE`` pixels, dimmed (never mutate it)."""
    return tile_sprite(tile_id, rotation, SPOT_TILE).point(shade())


def spots_image(view: View, x: int, y: int, spots: Sequence[str]) -> Image.Image:
    """The tile at (x, y) enlarged inside its 3x3 neighbourhood, each follower spot labelled by its name."""
    t = SPOT_TILE
    pad = 16
    width = 3 * t + 2 * pad
    title = fonts.fit(
        label("choose_spot", x=x, y=y) if spots else label("no_spot"),
        24,
        width - 2 * pad,
        bold=True,
        lines=1,
        smallest=18,
    )
    step = round(title.size * 1.3)
    head = 56 + step * (len(title.lines) - 1)
    img = Image.new("RGB", (width, 3 * t + head + pad), BOARD_BG)
    d = ImageDraw.Draw(img)
    for i, line in enumerate(title.lines):
        fonts.draw_text(d, (pad, 38 + i * step), line, title.size, TEXT, bold=True, room=width - 2 * pad)
    lay = Layout(t, x - 1, y - 1, 3, 3, pad, head, img.width, img.height, img.width, img.height)
    # the neighbours are dimmed so the tile in question stands out: each cell is pasted already dimmed (a colour
    # table per channel, the same pixels as blending the board's background over the whole 3x3 and then leaving
    # the middle out, at a fraction of the cost; each tile dimmed once, ``shaded_tile``)
    fill(img, shaded(EMPTY), (pad, head, pad + 3 * t, head + 3 * t))
    ox, oy = lay.cell_origin(x, y)
    fill(img, EMPTY, (ox, oy, ox + t, oy + t))
    for placed in view["tiles"]:
        px, py = placed["x"], placed["y"]
        if abs(px - x) <= 1 and abs(py - y) <= 1:
            if (px, py) == (x, y):
                sprite = tile_sprite(placed["tile"], placed["rotation"], t)
            else:
                sprite = shaded_tile(placed["tile"], placed["rotation"])
            paste(img, sprite, lay.cell_origin(px, py))
    mk = marks(_names(view))
    for f in view["followers"]:
        if abs(f["x"] - x) <= 1 and abs(f["y"] - y) <= 1:
            seat = int(f["player"])
            spr = meeple(player_colour(seat), mk[seat], follower_size(t), f["role"] == "farmer")
            px, py = segment_pixel(view, lay, f["x"], f["y"], f["on"])
            paste(img, spr, (px - spr.width // 2, py - spr.height // 2), spr)
    d = ImageDraw.Draw(img)
    d.rectangle([ox, oy, ox + t - 1, oy + t - 1], outline=PREVIEW, width=4)
    placed = next((p for p in view["tiles"] if p["x"] == x and p["y"] == y), None)
    if placed is not None:
        o = ORIENTED[placed["tile"]][placed["rotation"] // 90 % 4]
        points = [
            (name, lay.point(x, y, anchor(placed["tile"], placed["rotation"], name)))
            for name in spots
            if name in o.lookup
        ]
        for _, (px, py) in points:
            d.ellipse([px - 6, py - 6, px + 6, py + 6], fill=PREVIEW, outline=INK, width=2)
        taken: list[tuple[int, int, int, int]] = [(px - 7, py - 7, px + 7, py + 7) for _, (px, py) in points]
        for name, (px, py) in points:
            _spot_label(d, px, py, spot_label(name), taken, img.width)
    return img


LABEL_SIZE: Final = 17
LABEL_H: Final = 26


def _spot_label(
    d: ImageDraw.ImageDraw, px: int, py: int, text: str, taken: list[tuple[int, int, int, int]], width: int
) -> None:
    """A name tag for the spot at (px, py): below it, or the first nearby place that overlaps no other tag; always
    inside the picture (``width`` pixels wide), the text smaller if it is wider than the picture."""
    size = fonts.fit_line(text, LABEL_SIZE, width - 30, bold=True, smallest=12)
    w = fonts.text_width(text, size, True) + 14
    h = LABEL_H
    candidates = [(px - w // 2, py + 9), (px - w // 2, py - 9 - h), (px + 10, py - h // 2), (px - 10 - w, py - h // 2)]
    candidates += [(px - w // 2, py + 9 + k * (h + 2)) for k in (1, 2)] + [
        (px - w // 2, py - 9 - h - k * (h + 2)) for k in (1, 2)
    ]
    candidates = [(min(max(cx, 4), width - 4 - w), cy) for cx, cy in candidates]

    def free(box: tuple[int, int, int, int]) -> bool:
        return all(box[2] < t[0] or box[0] > t[2] or box[3] < t[1] or box[1] > t[3] for t in taken)

    bx, by = next(((cx, cy) for cx, cy in candidates if free((cx, cy, cx + w, cy + h))), candidates[0])
    box = (bx, by, bx + w, by + h)
    taken.append(box)
    if (bx, by) != candidates[0]:
        d.line([(px, py), (bx + w // 2, by + h // 2)], fill=INK, width=2)
    rounded_rectangle(d, box, radius=8, fill=PAPER, outline=INK, width=2)
    fonts.draw_text(d, (bx + w / 2, by + h / 2), text, size, INK, bold=True, anchor="mm", room=w - 10)


def colour_of(seat: int) -> RGB:
    return player_colour(seat)


__all__ = ["BG", "Layout", "board_image", "colour_of", "layout", "segment_pixel", "spots_image"]
