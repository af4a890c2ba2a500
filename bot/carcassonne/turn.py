"""The Carcassonne turn message: what happened, the board with the drawn tile's numbered cells (or the follower
spots), whose turn it is, and that player's choices; and the private rotation buttons of a chosen cell.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

import render
from bot.carcassonne.cells import cell_text
from bot.carcassonne.ids import button, cell_value, ordered_cells, select
from bot.carcassonne.narration import PLACES, narrate, spot_kind, spot_name, spot_side
from bot.core.components import BLUE, CONTENT, GREY, PAGE, RED, ROW_WIDTH, Layout, names_of, option
from bot.core.rendering import Job
from bot.storage import GameRow
from bot.text import listing, t
from bot.text.limits import BUTTON_LABEL, LABEL, Name, fitted
from bot.text.story import fit
from engine import Event, Game
from engine.carcassonne import Carcassonne, CarcassonneView
from render.carcassonne import pictures

log = logging.getLogger("boardhost.carcassonne")


# -- the turn message ------------------------------------------------------------------------------------------


def turn_text(
    row: GameRow,
    game: Carcassonne,
    events: Sequence[Event],
    *,
    opening: bool = False,
    view: CarcassonneView | None = None,
    story: Sequence[str] = (),
    notes: Sequence[str] = (),
) -> tuple[str, list[str]]:
    """The turn message's text, and its news lines (``story``, what the message told before, first); ``notes``
    (who is away) follow whose turn it is."""
    names = names_of(row)
    if view is None:
        view = game.view(None)
    scores = listing((t("carcassonne.score", name=p["name"], points=p["score"]) for p in view["players"]),
                     style="enumeration")  # fmt: skip
    if game.finished:
        winners = listing(names[s] for s in game.winners)
        key = "carcassonne.over_tie" if len(game.winners) > 1 else "carcassonne.over"
        tail = t(key, winners=winners, scores=scores)
        told = [*story, *narrate([e for e in events if e.get("type") != "game_over"], names)]
        return fit(told, tail, CONTENT), told
    lines = [*story, *narrate(events, names)]
    if opening:
        lines.insert(0, t("carcassonne.begins"))
    seat = game.current
    decision = game.decision()
    if decision == "place":
        turn = t(
            "carcassonne.turn_place",
            turn=game.turn,
            mention=row.mention(seat),
            tile=game.drawn,
            count=len(game.legal_placements()),
        )
    elif decision == "follower":
        x, y = placed_cell(view)
        turn = t("carcassonne.turn_follower", mention=row.mention(seat), x=x, y=y)
    else:
        turn = t("carcassonne.turn_other", turn=game.turn, mention=row.mention(seat))
    tail = "\n".join([turn, *notes, t("carcassonne.scores", scores=scores, left=view["tiles_left"])])
    return fit(lines, tail, CONTENT), lines


def awaiting(game: Game, seat: int) -> str:
    """What the game waits for from the player on turn, in a few words (``/game mine``)."""
    if not isinstance(game, Carcassonne):
        raise TypeError("not a Carcassonne game")
    return t(f"carcassonne.waits.{game.phase}")


def placed_cell(view: CarcassonneView) -> tuple[int, int]:
    """The cell of the tile placed this turn (the follower decision always has one)."""
    placed = view["placed"]
    if placed is None:
        raise ValueError("no tile was placed this turn")
    x, y = placed
    return x, y


def turn_image(game: Carcassonne, view: CarcassonneView | None = None) -> Job:
    """The turn's picture as a render job: the spectator view and what to mark on it."""
    if view is None:
        view = game.view(None)
    if game.finished:
        return Job(render.end_png, view)
    if game.decision() == "follower":
        x, y = placed_cell(view)
        return Job(pictures.spots_png, view, x, y, list(game.follower_spots()))
    if game.decision() == "place":
        return Job(pictures.preview_png, view, ordered_cells(game))
    return Job(render.board_png, view)


def turn_view(row: GameRow, game: Carcassonne, page: int = 0) -> discord.ui.View | None:
    """The current player's choices (anyone may click; the callbacks refuse everyone else)."""
    if game.finished:
        return None
    layout = Layout()
    gid, version = row.id, row.version
    decision = game.decision()
    if decision == "place":
        cells = ordered_cells(game)
        pages = max(1, -(-len(cells) // PAGE))
        page = min(max(page, 0), pages - 1)
        first = page * PAGE
        chunk = cells[first : first + PAGE]
        if chunk:
            options = [
                option(t("carcassonne.cell_option", number=first + i + 1, x=x, y=y), cell_value(x, y))
                for i, (x, y) in enumerate(chunk)
            ]
            placeholder = (  # a single cell has its own words, not "1–1 of 1"
                t("carcassonne.cell_placeholder_only")
                if len(cells) == 1
                else t("carcassonne.cell_placeholder", first=first + 1, last=first + len(chunk), count=len(cells))
            )
            layout.select(select(gid, version, "cell", str(page), options, placeholder))
        if pages > 1:
            if page > 0:
                label = _page_label("prev", (page - 1) * PAGE + 1, page * PAGE)
                layout.button(button(gid, version, "page", str(page - 1), label, GREY))
            if page < pages - 1:
                last = min((page + 2) * PAGE, len(cells))
                label = _page_label("next", (page + 1) * PAGE + 1, last)
                layout.button(button(gid, version, "page", str(page + 1), label, GREY))
    elif decision == "follower":
        _follower_choices(layout, row, game)
    for i, holder in enumerate(game.ransom_options()):
        label = fitted(BUTTON_LABEL, "carcassonne.ransom", name=Name(row.seats[holder].name))
        layout.button(
            button(gid, version, "ransom", str(holder), label, RED), new_row=i == 0 and decision == "follower"
        )
    return layout.view


def _page_label(way: str, first: int, last: int) -> str:
    """The paging button: "Cells 26–50 ▶", or "Cell 26 ▶" when the page holds one cell."""
    if first == last:
        return t(f"carcassonne.page_{way}_one", number=first)
    return t(f"carcassonne.page_{way}", first=first, last=last)


def _follower_choices(layout: Layout, row: GameRow, game: Carcassonne) -> None:
    gid, version = row.id, row.version
    names = names_of(row)
    towers: list[discord.SelectOption] = []
    for tower in game.tower_options():
        x, y = tower["x"], tower["y"]
        towers.append(option(t("carcassonne.tower_option", x=x, y=y, height=tower["height"] + 1), f"{x},{y}"))
        for cap in tower["captures"]:
            own = "_own" if cap["player"] == game.current else ""  # taking back one's own follower reads differently
            label = fitted(
                LABEL,
                f"carcassonne.tower_capture{own}.{spot_kind(cap['on'], (*PLACES, 'tower'))}",
                x=x,
                y=y,
                owner=Name(names[cap["player"]]),
                side=spot_side(cap["on"]),
                tx=cap["x"],
                ty=cap["y"],
            )
            towers.append(option(label, f"{x},{y},{cap['x']},{cap['y']},{cap['on']}"))
    if len(towers) > PAGE:
        log.warning("tower options cut to %d of %d", PAGE, len(towers))
        towers = towers[:PAGE]
    if towers:
        layout.select(select(gid, version, "tower", "", towers, t("carcassonne.tower_placeholder")))
    spots = list(game.follower_spots())
    tops = list(game.tower_top_options())
    ransoms = len(game.ransom_options())
    # buttons needed after the spots: No follower, tower tops and ransoms (ransoms start their own row)
    if len(spots) + 1 + len(tops) + ransoms + ROW_WIDTH > layout.free_buttons() and spots:
        options = [option(spot_name(on), on) for on in spots[:PAGE]]
        layout.select(select(gid, version, "spots", "", options, t("carcassonne.spot_placeholder")))
        spots = []
    for on in spots:
        layout.button(button(gid, version, "spot", on, spot_name(on), BLUE))
    layout.button(
        button(gid, version, "pass", "", t("carcassonne.no_follower"), GREY),
        new_row=bool(spots) and len(spots) % ROW_WIDTH == 0,
    )
    for x, y in tops:
        layout.button(button(gid, version, "top", f"{x},{y}", t("carcassonne.tower_top", x=x, y=y), BLUE))


def step_of(game: Carcassonne) -> tuple[int, int] | None:
    """Which player's turn, and which turn, a message shows (None once the game is over)."""
    return None if game.finished else (game.turn, game.current)


def rotation_message(row: GameRow, game: Carcassonne, cell: tuple[int, int]) -> dict[str, Any]:
    x, y = cell
    number = ordered_cells(game).index(cell) + 1
    layout = Layout()
    for rotation in game.legal_placements()[cell]:
        layout.button(
            button(
                row.id,
                row.version,
                "rot",
                f"{x},{y},{rotation}",
                t("carcassonne.rotation", degrees=rotation),
                BLUE,
            )
        )
    content = t("carcassonne.choose_rotation", number=number, cell=cell_text(x, y))
    return {"content": content, "view": layout.view}
