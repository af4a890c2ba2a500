"""Cells of the Carcassonne table in running text, named the way the board image labels them: by the column number
printed along its top and the row number printed down its left ("column 2, row -7"), never as a coordinate pair.

Menus, commands and replay files keep the compact ``(2, -7)`` that players type (``docs/naming.md``); a sentence
names one cell with ``cell_text`` and the tiles of a feature with ``cells_text``: the columns and rows they span.
Both are in the form the catalogue's sentences put after "in" (Russian: the prepositional, «в столбце 2, строке -7»).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.text import t


def cell_text(x: int, y: int) -> str:
    """One cell: "column 2, row -7", «столбце 2, строке -7», 「第-7行第2列」."""
    return t("carcassonne.cell", x=x, y=y)


def cells_text(cells: Iterable[Sequence[int]]) -> str:
    """The cells a feature covers as one phrase: its cell, or the column and the rows it runs along, or the row and
    the columns, or else the columns and rows it spans ("columns 1 to 3, rows -1 and 0"). A feature is connected,
    so the tiles of one in a single column (or row) lie next to each other."""
    xs = sorted({int(cell[0]) for cell in cells})
    ys = sorted({int(cell[1]) for cell in cells if len(cell) > 1})
    if not xs or not ys:
        return ""
    if len(xs) == 1 and len(ys) == 1:
        return cell_text(xs[0], ys[0])
    if len(xs) == 1:
        return t("carcassonne.cells_column", x=xs[0], rows=_numbers(ys))
    if len(ys) == 1:
        return t("carcassonne.cells_row", y=ys[0], columns=_numbers(xs))
    return t("carcassonne.cells_area", columns=_numbers(xs), rows=_numbers(ys))


def _numbers(values: Sequence[int]) -> str:
    """The rows (or columns) from the first to the last: "-7 and -6", "1 to 3"."""
    first, last = values[0], values[-1]
    return t("carcassonne.numbers_two" if last == first + 1 else "carcassonne.numbers_run", first=first, last=last)
