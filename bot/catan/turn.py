"""The Catan channel message of a turn: what happened, the board, whose decision it is, and the public buttons.

Everything here is built from the spectator view and ``public_events(events, None)``: nothing secret is posted.
Choices that depend on a player's hand (what to build, which card to play) open private menus instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import discord

import render
from bot.catan import ids
from bot.catan.names import (
    bundle_text,
    hex_label,
    intersection_description,
    intersection_inline,
    intersection_label,
    path_label,
)
from bot.catan.narration import narrate
from bot.core.components import BLUE, CONTENT, GREEN, GREY, PAGE, RED, Layout, names_of, option
from bot.core.rendering import Job
from bot.storage import GameRow
from bot.text import listing, t
from bot.text.limits import BUTTON_LABEL, LABEL, Name, Names, fitted
from bot.text.story import fit
from engine import Event, Game
from engine.catan import Catan, CatanView, OfferView, public_events, road_spots, robber_choices, settlement_spots
from render.catan import pictures

# Events that change nothing on the board: the turn message keeps its image and only refreshes its buttons.
LIGHT_EVENTS: Final = frozenset(
    {"offer_made", "offer_accepted", "offer_declined", "offer_withdrawn", "offer_void", "discarded"}
)


def is_light(game: Catan, events: Sequence[Event]) -> bool:
    """Only offers and replies, or a discard while others still owe theirs: no new board is needed."""
    if game.finished or not events:
        return False
    return all(e.get("type") in LIGHT_EVENTS for e in events) and game.phase in ("main", "discard")


def scores_line(view: CatanView) -> str:
    parts = [
        t("catan.score", name=p["name"], points=p["points"], cards=p["cards"], count=p["cards"])
        for p in view["players"]
    ]
    return listing(parts, style="enumeration")


def decision_line(row: GameRow, game: Catan) -> str:
    pending = game.pending()
    first = pending[0]
    seat, decision = first["seat"], first["decision"]
    who = row.mention(seat)
    if decision == "setup_settlement":
        return t("catan.turn.setup_settlement", mention=who)
    if decision == "setup_road":
        return t("catan.turn.setup_road", mention=who, at=intersection_inline(first["touching"]))
    if decision == "roll_or_play":
        return t("catan.turn.roll", mention=who, turn=game.turn)
    if decision == "discard":
        owing = listing(t("catan.turn.owes", mention=row.mention(p["seat"]), count=p["count"]) for p in pending)
        return t("catan.turn.discard", owing=owing)
    if decision == "robber":
        return t("catan.turn.robber", mention=who)
    return t("catan.turn.main", mention=who, turn=game.turn)


def awaiting(game: Game, seat: int) -> str:
    """What the game waits for from ``seat``, in a few words (``/game mine``): its first decision owed."""
    if not isinstance(game, Catan):
        raise TypeError("not a Catan game")
    pending = game.pending()
    first = next((d for d in pending if d["seat"] == seat), pending[0])
    return t(f"catan.waits.{first['decision']}", count=first.get("count", 1))


def turn_text(
    row: GameRow, game: Catan, events: Sequence[Event], *, opening: bool = False, notes: Sequence[str] = ()
) -> str:
    """The turn message's text: the news, whose turn it is, ``notes`` (who is away), the scores."""
    view = game.view(None)
    lines = narrate(public_events(events, None), names_of(row), view["board"]["hexes"])
    if game.finished:
        return fit([e for e in lines], t("catan.over", scores=scores_line(view)), CONTENT)
    if opening:
        lines.insert(0, t("catan.begins"))
    tail = "\n".join([decision_line(row, game), *notes, scores_line(view)])
    return fit(lines, tail, CONTENT)


def turn_image(game: Catan) -> Job:
    """The turn's picture as a render job: the spectator view and, in set-up, the legal spots."""
    view = game.view(None)
    if game.finished:
        return Job(render.end_png, view)
    decision = game.pending()[0]["decision"]
    if decision == "setup_settlement":
        return Job(pictures.preview_png, view, settlement_spots(game, game.current))
    if decision == "setup_road":
        return Job(pictures.preview_png, view, road_spots(game, game.current))
    return Job(render.board_png, view)


def button(
    row: GameRow, op: str, label: str, style: discord.ButtonStyle, arg: str = "", *, version: int | None = None
) -> discord.ui.Item[Any]:
    return ids.button(row.id, row.version if version is None else version, op, arg, label, style)


def select(
    row: GameRow, op: str, options: list[discord.SelectOption], placeholder: str, arg: str = ""
) -> discord.ui.Item[Any]:
    return ids.select(row.id, row.version, op, arg, options, placeholder)


def spot_options(game: Catan, spots: Sequence[int], page: int) -> tuple[list[discord.SelectOption], int, int]:
    """One page of intersection options: (options, page, pages)."""
    view = game.view(None)
    pages = max(1, -(-len(spots) // PAGE))
    page = min(max(page, 0), pages - 1)
    chunk = spots[page * PAGE : (page + 1) * PAGE]
    options = [option(intersection_label(n), str(n), intersection_description(view, n)) for n in chunk]
    return options, page, pages


def paged_select(
    layout: Layout, row: GameRow, op: str, page_op: str, options: list[discord.SelectOption],
    page: int, pages: int, total: int, kind: str = "",
) -> None:  # fmt: skip
    """A select of one page of choices, with buttons to the neighbouring pages."""
    first = page * PAGE + 1
    placeholder = (  # "Choose (1–1 of 1)" is no sentence: a single choice has its own
        t("catan.choose_spot_only")
        if total == 1
        else t("catan.choose_spot", first=first, last=first + len(options) - 1, count=total)
    )
    prefix = f"{kind}," if kind else ""
    layout.select(select(row, op, options, placeholder, f"{prefix}{page}"))
    if page > 0:
        layout.button(button(row, page_op, t("catan.page_prev"), GREY, f"{prefix}{page - 1}"))
    if page < pages - 1:
        layout.button(button(row, page_op, t("catan.page_next"), GREY, f"{prefix}{page + 1}"))


def turn_view(row: GameRow, game: Catan, page: int = 0) -> discord.ui.View | None:
    """The public buttons of the decision now (anyone may click; the callbacks refuse everyone else)."""
    if game.finished:
        return None
    layout = Layout()
    decision = game.pending()[0]["decision"]
    seat = game.current
    if decision == "setup_settlement":
        spots = settlement_spots(game, seat)
        options, page, pages = spot_options(game, spots, page)
        paged_select(layout, row, "spot", "spage", options, page, pages, len(spots))
    elif decision == "setup_road":
        for path in road_spots(game, seat):
            layout.button(button(row, "sroad", path_label(path), BLUE, path))
    elif decision == "roll_or_play":
        layout.button(button(row, "roll", t("catan.button.roll"), GREEN))
        layout.button(button(row, "play", t("catan.button.play"), BLUE))
    elif decision == "discard":
        layout.button(button(row, "disc", t("catan.button.discard"), RED))
    elif decision == "robber":
        layout.select(select(row, "rob", robber_options(row, game, seat), t("catan.robber_placeholder")))
    else:
        for kind in ("road", "settlement", "city"):
            layout.button(button(row, "b", t(f"catan.button.build_{kind}"), BLUE, kind))
        layout.button(button(row, "buy", t("catan.button.buy"), BLUE))
        layout.button(button(row, "play", t("catan.button.play"), BLUE))
        layout.button(button(row, "bank", t("catan.button.bank"), GREY))
        layout.button(button(row, "trade", t("catan.button.trade"), GREY))
        layout.button(button(row, "end", t("catan.button.end"), RED))
    layout.button(button(row, "hand", t("catan.button.hand"), GREY))
    if decision == "main":
        confirm_buttons(layout, row, game)
    return layout.view


def confirm_buttons(layout: Layout, row: GameRow, game: Catan) -> None:
    """For every acceptance of a public offer, the active player's button to complete that trade."""
    first = True
    for offer in game.view(None)["offers"]:
        if offer["to"] is not None:
            continue
        for seat in offer["accepted"]:
            label = fitted(BUTTON_LABEL, "catan.button.confirm", name=Name(row.seats[seat].name), offer=offer["id"])
            item = button(row, "conf", label, GREEN, f"{offer['id']},{seat}")
            layout.button(item, new_row=first)
            first = False


def robber_options(row: GameRow, game: Catan, seat: int) -> list[discord.SelectOption]:
    view = game.view(None)
    names = names_of(row)
    out = []
    for letter, victims in robber_choices(game, seat).items():
        who = [names[v] for v in victims if v is not None]
        description = (
            fitted(LABEL, "catan.robber_victims", names=Names(tuple(who), "or")) if who else t("catan.robber_nobody")
        )
        out.append(option(hex_label(view, letter), letter, description))
    return out


def offer_text(row: GameRow, offer: OfferView) -> str:
    names = names_of(row)
    key = "catan.offer.to_all" if offer["to"] is None else "catan.offer.to_one"
    return t(
        key,
        offer=offer["id"],
        name=names[offer["from"]],
        to=names[offer["to"]] if offer["to"] is not None else "",
        give=bundle_text(offer["give"], case="accusative"),
        get=bundle_text(offer["get"], case="accusative"),
    )
