"""What each Catan button, select and form does. Every refusal becomes an ephemeral explanation.

Public ops live on the turn message and in the channel; the others appear in ephemeral menus and DMs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.catan.flows import act, hand_text
from bot.catan.ids import SELECT_OPS
from bot.catan.items import CatanSelect
from bot.catan.menus import afford, build_menu, button_for, card_menu, hand_view, trade_menu, victim_view
from bot.catan.modals import DiscardModal, OfferModal
from bot.catan.names import (
    bundle_text,
    hex_label,
    path_label,
    resource,
    resource_name,
)
from bot.catan.offer_messages import refuse_closed_offer
from bot.catan.seating import Seated, require_turn, seated
from bot.catan.turn import robber_options, turn_view
from bot.client import bot_of
from bot.components import BLUE, CONTENT, PAGE, Layout, option
from bot.host import HostError
from bot.items import Press
from bot.text import t
from bot.text.limits import MODAL_TITLE, Name, fitted
from engine import Action, RuleError
from engine.catan import (
    bank_trades,
    playable_cards,
    road_pairs,
    road_spots,
    robber_choices,
)
from engine.catan.board import RESOURCES
from engine.catan.trading import holds

if TYPE_CHECKING:
    pass


class Click:
    """One press on a Catan button or select, with what acting on its game needs."""

    def __init__(self, press: Press) -> None:
        self.interaction = press.interaction
        self.bot = bot_of(press.interaction)
        self.game_id = press.game_id
        self.version = press.version
        self.op = press.op
        self.arg = press.arg
        self.values = press.values

    async def seated(self, *, strict: bool) -> Seated:
        return await seated(self.bot, self.game_id, self.version if strict else None, self.interaction.user.id)

    async def act(self, action: Action, *, strict: bool = True) -> None:
        await act(self.bot, self.interaction, self.game_id, self.version if strict else None, action)

    async def private(self, content: str, view: discord.ui.View | None = None) -> None:
        kwargs: dict[str, Any] = {"content": content[:CONTENT], "ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        await self.interaction.followup.send(**kwargs)


Handler = Callable[[Click], Awaitable[None]]


async def _spot(click: Click) -> None:
    await click.act({"type": "settlement", "at": int(click.values[0])})


async def _spage(click: Click) -> None:
    found = await click.seated(strict=True)
    require_turn(found)
    await click.interaction.edit_original_response(view=turn_view(found.row, found.game, int(click.arg.split(",")[-1])))


async def _sroad(click: Click) -> None:
    await click.act({"type": "road", "at": click.arg})


async def _roll(click: Click) -> None:
    await click.act({"type": "roll"})


async def _end(click: Click) -> None:
    await click.act({"type": "end_turn"})


async def _buy(click: Click) -> None:
    found = await click.seated(strict=True)
    require_turn(found)
    if found.game.phase == "main":
        afford(found, "card")
    await click.act({"type": "buy"})


async def _build_menu(click: Click) -> None:
    found = await click.seated(strict=True)
    require_turn(found)
    kind, _, page = click.arg.partition(",")
    if found.game.phase == "main":
        afford(found, kind)
    elif found.game.phase in ("roll", "discard", "robber"):
        raise HostError("rule", reason=t("catan.not_now"))
    content, view = build_menu(found, kind, int(page or 0))
    if click.op == "bpage":
        await click.interaction.edit_original_response(content=content, view=view)
    else:
        await click.private(content, view)


async def _build(click: Click) -> None:
    kind = click.arg.split(",")[0]
    where: str | int = click.values[0] if kind == "road" else int(click.values[0])
    await click.act({"type": kind, "at": where})


async def _robber(click: Click) -> None:
    letter = click.values[0]
    mode = "k" if click.op == "khex" else "r"
    found = await click.seated(strict=True)
    require_turn(found)
    victims = robber_choices(found.game, found.seat).get(letter)
    if victims is None:
        raise HostError("rule", reason=t("catan.robber_stays"))
    if len(victims) > 1:
        text = t("catan.choose_victim", hex=hex_label(found.game.view(None), letter))
        await click.private(text, victim_view(found.row, mode, letter, victims))
        return
    await _rob(click, mode, letter, victims[0] if victims else None)


async def _victim(click: Click) -> None:
    mode, letter, victim = click.arg.split(",")
    await _rob(click, mode, letter, int(victim) if victim else None)


async def _rob(click: Click, mode: str, letter: str, victim: int | None) -> None:
    await click.act({"type": "knight" if mode == "k" else "robber", "hex": letter, "victim": victim})


async def _play_menu(click: Click) -> None:
    found = await click.seated(strict=False)
    require_turn(found)
    content, view = card_menu(found)
    await click.private(content, view)


async def _card(click: Click) -> None:
    found = await click.seated(strict=True)
    require_turn(found)
    card = click.arg
    if card not in playable_cards(found.game, found.seat):
        raise HostError("rule", reason=t("catan.no_playable"))
    row = found.row
    layout = Layout()
    if card == "knight":
        options = robber_options(row, found.game, found.seat)
        layout.select(CatanSelect(row.id, row.version, "khex", "", options, t("catan.robber_placeholder")))
        await click.private(t("catan.knight_prompt"), layout.view)
    elif card == "monopoly":
        for name in RESOURCES:
            layout.button(button_for(row, "mono", resource_name(name), BLUE, name))
        await click.private(t("catan.monopoly_prompt"), layout.view)
    elif card == "year_of_plenty":
        bank = found.game.bank
        options = []
        for a, b in combinations_with_replacement(range(5), 2):
            need = [0] * 5
            need[a] += 1
            need[b] += 1
            if holds(bank, need):
                label = bundle_text({RESOURCES[i]: n for i, n in enumerate(need) if n})
                options.append(option(label, f"{RESOURCES[a]}+{RESOURCES[b]}"))
        if not options:  # fewer than two cards in the bank: one card only
            options = [option(resource(r, 1), r) for i, r in enumerate(RESOURCES) if bank[i]]
        layout.select(CatanSelect(row.id, row.version, "yop", "", options, t("catan.yop_placeholder")))
        await click.private(t("catan.yop_prompt"), layout.view)
    else:
        # only roads buildable now: a pair's second road may be legal only once its first is built
        firsts = sorted(road_spots(found.game, found.seat))
        options = [option(path_label(p), p) for p in firsts[:PAGE]]
        layout.select(CatanSelect(row.id, row.version, "rb1", "", options, t("catan.rb_first")))
        await click.private(t("catan.rb_prompt"), layout.view)


async def _road_building_first(click: Click) -> None:
    found = await click.seated(strict=True)
    require_turn(found)
    first = click.values[0]
    seconds = sorted(
        {p[1] if p[0] == first else p[0] for p in road_pairs(found.game, found.seat) if first in p and len(p) == 2}
    )
    if not seconds:
        await click.act({"type": "road_building", "roads": [first]})
        return
    row = found.row
    layout = Layout()
    options = [option(path_label(p), p) for p in seconds[:PAGE]]
    layout.select(CatanSelect(row.id, row.version, "rb2", first, options, t("catan.rb_second")))
    await click.private(t("catan.rb_then", path=path_label(first)), layout.view)


async def _road_building_second(click: Click) -> None:
    await click.act({"type": "road_building", "roads": [click.arg, click.values[0]]})


async def _year_of_plenty(click: Click) -> None:
    take: dict[str, int] = {}
    for name in click.values[0].split("+"):
        take[name] = take.get(name, 0) + 1
    await click.act({"type": "year_of_plenty", "take": take})


async def _monopoly(click: Click) -> None:
    await click.act({"type": "monopoly", "resource": click.arg})


async def _bank_menu(click: Click) -> None:
    found = await click.seated(strict=True)
    require_turn(found)
    trades = bank_trades(found.game, found.seat)
    if not trades:
        raise HostError("rule", reason=t("catan.no_bank_trade"))
    options = []
    for trade in trades[:PAGE]:
        (give, n), (get, _) = next(iter(trade["give"].items())), next(iter(trade["get"].items()))
        label = t("catan.bank_option", give=resource(give, n), get=resource(get, 1))
        options.append(option(label, f"{give}>{get}"))
    layout = Layout()
    layout.select(CatanSelect(found.row.id, found.row.version, "bk", "", options, t("catan.bank_placeholder")))
    await click.private(t("catan.bank_prompt"), layout.view)


async def _bank(click: Click) -> None:
    found = await click.seated(strict=True)
    give, _, get = click.values[0].partition(">")
    if give not in RESOURCES or get not in RESOURCES:
        raise HostError("stale")
    rate = found.game.rates[found.seat][RESOURCES.index(give)]
    await click.act({"type": "bank_trade", "give": {give: rate}, "get": {get: 1}})


async def _trade_menu(click: Click) -> None:
    found = await click.seated(strict=False)
    if found.game.phase != "main":
        raise HostError("rule", reason=t("catan.trade_not_now"))
    content, view = trade_menu(found)
    await click.private(content, view)


async def _hand(click: Click) -> None:
    found = await click.seated(strict=False)
    await click.private(hand_text(found.row, found.game, found.seat), hand_view(found))


async def _reply(click: Click) -> None:
    kind = {"acc": "accept", "dec": "decline", "wd": "withdraw"}[click.op]
    await refuse_closed_offer(click.bot, click.interaction, click.game_id, int(click.arg))
    await click.act({"type": kind, "offer": int(click.arg)}, strict=False)


async def _confirm(click: Click) -> None:
    offer, _, seat = click.arg.partition(",")
    await refuse_closed_offer(click.bot, click.interaction, click.game_id, int(offer))
    await click.act({"type": "confirm", "offer": int(offer), "with": int(seat)}, strict=False)


# Ops answered with a modal: the modal must be the first response, so they are not deferred.
async def _discard_modal(click: Click) -> discord.ui.Modal:
    found = await click.seated(strict=False)
    owed = found.game.owed[found.seat]
    if not owed:
        raise HostError("rule", reason=t("catan.no_discard"))
    hand = found.game.view(found.seat)["players"][found.seat]["hand"]
    return DiscardModal(click.game_id, owed, hand)


async def _offer_modal(click: Click) -> discord.ui.Modal:
    found = await click.seated(strict=False)
    if found.game.phase != "main":
        raise HostError("rule", reason=t("catan.trade_not_now"))
    to = None if click.arg == "all" else int(click.arg)
    if to is None:
        title = t("catan.modal.offer_all_title")
    else:
        title = fitted(MODAL_TITLE, "catan.modal.offer_title", name=Name(found.row.seats[to].name))
    return OfferModal(click.game_id, to=to, counter=None, title=title)


async def _counter_modal(click: Click) -> discord.ui.Modal:
    await refuse_closed_offer(click.bot, click.interaction, click.game_id, int(click.arg))
    found = await click.seated(strict=False)
    offer = next((o for o in found.game.view(found.seat)["offers"] if o["id"] == int(click.arg)), None)
    if offer is None:
        raise RuleError("unknown_offer", t("catan.offer_gone", offer=click.arg))
    title = fitted(
        MODAL_TITLE, "catan.modal.counter_title", offer=offer["id"], name=Name(found.row.seats[offer["from"]].name)
    )
    return OfferModal(click.game_id, to=offer["from"], counter=offer["id"], title=title)


HANDLERS: Final[dict[str, Handler]] = {
    "spot": _spot,
    "spage": _spage,
    "sroad": _sroad,
    "roll": _roll,
    "end": _end,
    "buy": _buy,
    "b": _build_menu,
    "bpage": _build_menu,
    "bs": _build,
    "rob": _robber,
    "khex": _robber,
    "vic": _victim,
    "play": _play_menu,
    "card": _card,
    "rb1": _road_building_first,
    "rb2": _road_building_second,
    "yop": _year_of_plenty,
    "mono": _monopoly,
    "bank": _bank_menu,
    "bk": _bank,
    "trade": _trade_menu,
    "hand": _hand,
    "acc": _reply,
    "dec": _reply,
    "wd": _reply,
    "conf": _confirm,
}
MODALS: Final[dict[str, Callable[[Click], Awaitable[discord.ui.Modal]]]] = {
    "disc": _discard_modal,
    "offer": _offer_modal,
    "cnt": _counter_modal,
}
EDITS: Final = frozenset({"spage", "bpage"})


async def dispatch(press: Press) -> None:
    """Run a press's handler; a refusal is raised (the funnel answers it ephemerally) and changes nothing."""
    if press.op in SELECT_OPS and not press.values:
        raise HostError("stale")
    click = Click(press)
    interaction = click.interaction
    if click.op in MODALS:
        modal = await MODALS[click.op](click)
        await interaction.response.send_modal(modal)
        return
    handler = HANDLERS.get(click.op)
    if handler is None:
        raise HostError("stale")
    if click.op in EDITS:
        await interaction.response.defer()
    else:  # menus and results reach only the clicker; the channel hears through the turn message
        await interaction.response.defer(ephemeral=True, thinking=True)
    await handler(click)
