"""The frames of a Carcassonne timelapse, each drawn from the one before.

Every frame is ``board_image(view, extent=..., max_tile=..., turn_marked=False)`` of its turn, pixel for pixel (no
player's card marked as the one to move: the mark would jump from card to card every frame). A turn changes a few
cells (a tile placed, a follower set or returned, a player's "last tile" frame moved), so instead of drawing the
whole board again, a frame is drawn over the one before (when it has the same layout), and only the boxes of the
pieces that differ (``board.pieces``: what each draws, and where) are drawn again: the grid under them from a
picture of the empty grid, then every piece of the new turn that reaches into the box, in the board's drawing
order. A pixel outside those boxes is touched by the same pieces in the same order in both turns, so it is already
right. Of the scoreboard, only the parts that differ (its header, a player's card, its footer) are drawn again
(``panel.repaint_panel``). A frame of another layout (a taller scoreboard), or one where most of the board changed,
is drawn whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from PIL import Image, ImageDraw

from render.carcassonne.board import EMPTY, Box, Layout, Piece, board_panel, draw_grid, layout, pieces
from render.labels import label
from render.panel import Panel, paint_panel, panel_height, repaint_panel

View = Mapping[str, Any]
MOST: Final = 0.5  # beyond this share of the board changed, a frame is drawn from scratch


@dataclass(frozen=True)
class _Drawn:
    lay: Layout
    pieces: list[Piece]
    panel: Panel
    image: Image.Image


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _boxes(before: list[Piece], after: list[Piece], lay: Layout) -> list[Box] | None:
    """The boxes to draw again to turn the frame of ``before`` into that of ``after`` (overlapping ones merged), or
    None when the pieces both have are drawn in another order (then a pixel they share could differ)."""
    old = {p.key for p in before}
    new = {p.key for p in after}
    if [p.key for p in before if p.key in new] != [p.key for p in after if p.key in old]:
        return None
    boxes: list[Box] = []
    for piece in [*(p for p in before if p.key not in new), *(p for p in after if p.key not in old)]:
        box = (max(0, piece.box[0]), max(0, piece.box[1]), min(lay.board_width, piece.box[2]),
               min(lay.height, piece.box[3]))  # fmt: skip
        if box[0] >= box[2] or box[1] >= box[3]:
            continue
        merged = True
        while merged:
            merged = False
            for other in boxes:
                if _overlap(box, other):
                    boxes.remove(other)
                    box = _union(box, other)
                    merged = True
                    break
        boxes.append(box)
    return boxes


class FrameDrawer:
    """Draws the frames of one timelapse: ``drawer(view)`` is ``board_image(view, extent=extent, max_tile=max_tile,
    turn_marked=False)``. The picture returned may be drawn over by the next call (copy it to keep it): a frame is
    drawn over the one before instead of over a copy of it, which would cost as much as drawing the changes."""

    def __init__(self, extent: Sequence[tuple[int, int]], max_tile: int) -> None:
        self.extent = list(extent)
        self.max_tile = max_tile
        self.last: _Drawn | None = None
        self.grid: tuple[Layout, Image.Image, Image.Image] | None = None  # the empty grid, and a canvas to draw on
        # Where the picture last returned may differ from the one returned before it: the boxes drawn again and the
        # scoreboard (None: anywhere, a frame drawn whole). The timelapse's writer compares only there.
        self.changed: list[Box] | None = None

    def _grid(self, lay: Layout) -> tuple[Image.Image, Image.Image]:
        if self.grid is None or self.grid[0] != lay:
            empty = Image.new("RGB", (lay.width, lay.height), EMPTY)
            draw_grid(lay, empty)
            self.grid = (lay, empty, empty.copy())
        return self.grid[1], self.grid[2]

    def __call__(self, view: View) -> Image.Image:
        panel = board_panel(view, turn_marked=False)  # the mark would jump from card to card every frame
        caption = label("drawn")
        lay = layout(view, self.extent, panel_height(panel, None, caption), self.max_tile)
        empty, canvas = self._grid(lay)
        now = pieces(view, lay)
        last, self.last = self.last, None
        boxes = _boxes(last.pieces, now, lay) if last is not None and last.lay == lay else None
        if (
            last is None
            or boxes is None
            or sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes) > MOST * lay.board_width * lay.height
        ):
            # the first frame, another layout, or most of the board changed (the timelapse draws the final board
            # second, then the first turn): drawn whole
            img = empty.copy()
            d = ImageDraw.Draw(img)
            for piece in now:
                piece.draw(img, d)
            paint_panel(img, lay.board_width, panel, caption=caption)
            self.changed = None
        else:
            img = last.image
            d = ImageDraw.Draw(canvas)
            for box in boxes:
                # the canvas outside ``box`` may hold any earlier drawing: only ``box`` is copied out of it
                canvas.paste(empty.crop(box), box)
                for piece in now:
                    if _overlap(piece.box, box):
                        piece.draw(canvas, d)
                img.paste(canvas.crop(box), box)
            # the scoreboard's header, cards and footer that changed (a turn changes a card or two, and the count)
            self.changed = [*boxes, *repaint_panel(img, lay.board_width, panel, last.panel, caption=caption)]
        self.last = _Drawn(lay, now, panel, img)
        return img
