"""The private menus of a Catan turn (build spots, cards, bank, trades, victims) and the offer reply buttons."""

from __future__ import annotations

import discord

from bot.catan.ids import button, select
from bot.catan.names import (
    bundle_text,
    card_name,
    path_label,
)
from bot.catan.seating import Seated
from bot.catan.turn import spot_options
from bot.core.clicks import Control
from bot.core.components import BLUE, GREEN, GREY, PAGE, RED, Layout, option
from bot.host import HostError
from bot.storage import GameRow
from bot.text import t
from bot.text.limits import BUTTON_LABEL, Name, fitted
from engine.catan import (
    OfferView,
    city_spots,
    playable_cards,
    road_spots,
    settlement_spots,
)
from engine.catan.board import RESOURCES
from engine.catan.state import COSTS
from engine.catan.trading import holds


def button_for(row: GameRow, op: str, label: str, style: discord.ButtonStyle, arg: str = "") -> Control:
    return button(row.id, row.version, op, arg, label, style)


def offer_view(row: GameRow, offer: OfferView, *, public: bool, confirm: int | None = None) -> discord.ui.View:
    """Accept / Decline / Counter for an offer's recipients, or Confirm / Withdraw for its maker."""
    layout = Layout()
    ident = str(offer["id"])
    if confirm is not None:
        name = Name(row.seats[confirm].name)
        label = fitted(BUTTON_LABEL, "catan.button.confirm", name=name, offer=ident)
        layout.button(button_for(row, "conf", label, GREEN, f"{ident},{confirm}"))
        layout.button(button_for(row, "wd", t("catan.button.withdraw", offer=ident), GREY, ident))
        return layout.view
    layout.button(button_for(row, "acc", t("catan.button.accept", offer=ident), GREEN, ident))
    layout.button(button_for(row, "dec", t("catan.button.decline", offer=ident), RED, ident))
    layout.button(button_for(row, "cnt", t("catan.button.counter", offer=ident), BLUE, ident))
    return layout.view


def hand_view(found: Seated) -> discord.ui.View | None:
    """Reply buttons for the open offers the player may answer, confirm or withdraw (at most 25 buttons)."""
    layout = Layout()
    row, game, seat = found.row, found.game, found.seat
    for offer in game.view(seat)["offers"]:
        ident = str(offer["id"])
        if offer["from"] == seat:
            for other in offer["accepted"]:
                label = fitted(BUTTON_LABEL, "catan.button.confirm", name=Name(row.seats[other].name), offer=ident)
                layout.button(button_for(row, "conf", label, GREEN, f"{ident},{other}"))
            layout.button(button_for(row, "wd", t("catan.button.withdraw", offer=ident), GREY, ident))
        elif seat in game.awaiting_reply(next(o for o in game.offers if o["id"] == offer["id"])) or (
            seat == game.current and offer["to"] == seat
        ):
            layout.button(button_for(row, "acc", t("catan.button.accept", offer=ident), GREEN, ident))
            layout.button(button_for(row, "dec", t("catan.button.decline", offer=ident), RED, ident))
            layout.button(button_for(row, "cnt", t("catan.button.counter", offer=ident), BLUE, ident))
    return layout.view if layout.rows else None


def build_menu(found: Seated, kind: str, page: int = 0) -> tuple[str, discord.ui.View | None]:
    row, game, seat = found.row, found.game, found.seat
    if kind == "road":
        paths = road_spots(game, seat)
        if not paths:
            raise HostError("rule", reason=t("catan.no_spot.road"))
        pages = max(1, -(-len(paths) // PAGE))
        page = min(max(page, 0), pages - 1)
        chunk = paths[page * PAGE : (page + 1) * PAGE]
        options = [option(path_label(p), p) for p in chunk]
        total = len(paths)
    else:
        spots = settlement_spots(game, seat) if kind == "settlement" else city_spots(game, seat)
        if not spots:
            raise HostError("rule", reason=t(f"catan.no_spot.{kind}"))
        options, page, pages = spot_options(game, spots, page)
        total = len(spots)
    layout = Layout()
    first = page * PAGE + 1
    placeholder = (  # "Choose (1–1 of 1)" is no sentence: a single choice has its own
        t("catan.choose_spot_only")
        if total == 1
        else t("catan.choose_spot", first=first, last=first + len(options) - 1, count=total)
    )
    layout.select(select(row.id, row.version, "bs", f"{kind},{page}", options, placeholder))
    if page > 0:
        layout.button(button_for(row, "bpage", t("catan.page_prev"), GREY, f"{kind},{page - 1}"))
    if page < pages - 1:
        layout.button(button_for(row, "bpage", t("catan.page_next"), GREY, f"{kind},{page + 1}"))
    return t(f"catan.build_prompt.{kind}", count=total), layout.view


def afford(found: Seated, what: str) -> None:
    hand = found.game.hand[found.seat]
    cost = COSTS[what]
    if not holds(hand, cost):
        have = dict(zip(RESOURCES, hand, strict=True))
        need = dict(zip(RESOURCES, cost, strict=True))
        params = {"what": t(f"catan.cost.{what}"), "cost": bundle_text(need, case="accusative")}
        if any(have.values()):
            raise HostError("rule", reason=t("catan.cannot_afford", have=bundle_text(have), **params))
        raise HostError("rule", reason=t("catan.cannot_afford_nothing", **params))


def victim_view(row: GameRow, mode: str, letter: str, victims: list[int | None]) -> discord.ui.View:
    layout = Layout()
    for victim in victims:
        label = row.seats[victim].name if victim is not None else t("catan.steal_nobody")
        arg = f"{mode},{letter},{'' if victim is None else victim}"
        layout.button(button_for(row, "vic", fitted(BUTTON_LABEL, "catan.steal_from", name=Name(label)), BLUE, arg))
    return layout.view


def card_menu(found: Seated) -> tuple[str, discord.ui.View]:
    cards = playable_cards(found.game, found.seat)
    if not cards:
        raise HostError("rule", reason=t("catan.no_playable"))
    layout = Layout()
    for card in cards:
        layout.button(button_for(found.row, "card", card_name(card), BLUE, card))
    return t("catan.play_prompt"), layout.view


def trade_menu(found: Seated) -> tuple[str, discord.ui.View]:
    row, game, seat = found.row, found.game, found.seat
    layout = Layout()
    if seat == game.current:
        layout.button(button_for(row, "offer", t("catan.button.offer_all"), BLUE, "all"))
        for other, person in enumerate(row.seats):
            if other != seat:
                label = fitted(BUTTON_LABEL, "catan.button.offer_to", name=Name(person.name))
                layout.button(button_for(row, "offer", label, BLUE, str(other)))
    else:
        active = fitted(BUTTON_LABEL, "catan.button.offer_to", name=Name(row.seats[game.current].name))
        layout.button(button_for(row, "offer", active, BLUE, str(game.current)))
    return t("catan.trade_prompt"), layout.view
