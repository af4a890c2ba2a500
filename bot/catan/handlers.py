"""What each Catan button, select and form does: the game's click table (``TABLE``, at the end) and one handler per
op. A handler returns the move a click stands for, or a private menu, or a form; a refusal is raised (the funnel
explains it privately) and changes nothing.

Public ops live on the turn message and in the channel; the others appear in private menus and DMs.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Final

from bot.catan import forms
from bot.catan.flows import hand_text, refresh, tell_actor
from bot.catan.ids import SCOPE, select
from bot.catan.menus import afford, build_menu, button_for, card_menu, hand_view, trade_menu, victim_view
from bot.catan.names import (
    bundle_text,
    hex_inline,
    path_inline,
    path_label,
    resource,
    resource_name,
)
from bot.catan.offer_messages import refuse_closed_offer
from bot.catan.seating import Seated, require_turn, seated
from bot.catan.turn import robber_options, turn_view
from bot.core.clicks import Click, Form, Op, Reply, Table
from bot.core.components import BLUE, PAGE, Layout, option
from bot.host import HostError
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


async def _seated(click: Click, *, strict: bool = True) -> Seated:
    """The game and the clicker's seat; fresh (the clicked version) unless ``strict`` is off."""
    return await seated(click.host, click.game_id, click.version if strict else None, click.user_id)


async def _spot(click: Click) -> Action:
    return {"type": "settlement", "at": int(click.values[0])}


async def _spage(click: Click) -> Reply:
    found = await _seated(click, strict=True)
    require_turn(found)
    return Reply(view=turn_view(found.row, found.game, int(click.arg.split(",")[-1])))


async def _sroad(click: Click) -> Action:
    return {"type": "road", "at": click.arg}


async def _roll(click: Click) -> Action:
    return {"type": "roll"}


async def _end(click: Click) -> Action:
    return {"type": "end_turn"}


async def _buy(click: Click) -> Action:
    found = await _seated(click, strict=True)
    require_turn(found)
    if found.game.phase == "main":
        afford(found, "card")
    return {"type": "buy"}


async def _build_menu(click: Click) -> Reply:
    found = await _seated(click, strict=True)
    require_turn(found)
    kind, _, page = click.arg.partition(",")
    if found.game.phase == "main":
        afford(found, kind)
    elif found.game.phase in ("roll", "discard", "robber"):
        raise HostError("rule", reason=t("catan.not_now"))
    content, view = build_menu(found, kind, int(page or 0))
    return Reply(content, view)  # a menu of its own; its page buttons bring that menu up to date


async def _build(click: Click) -> Action:
    kind = click.arg.split(",")[0]
    where: str | int = click.values[0] if kind == "road" else int(click.values[0])
    return {"type": kind, "at": where}


async def _robber(click: Click) -> Action | Reply:
    letter = click.values[0]
    mode = "k" if click.press.op == "khex" else "r"
    found = await _seated(click, strict=True)
    require_turn(found)
    victims = robber_choices(found.game, found.seat).get(letter)
    if victims is None:
        raise HostError("rule", reason=t("catan.robber_stays"))
    if len(victims) > 1:
        text = t("catan.choose_victim", hex=hex_inline(letter, found.game.view(None)["board"]["hexes"]))
        return Reply(text, victim_view(found.row, mode, letter, victims))
    return _rob(mode, letter, victims[0] if victims else None)


async def _victim(click: Click) -> Action | Reply:
    mode, letter, victim = click.arg.split(",")
    return _rob(mode, letter, int(victim) if victim else None)


def _rob(mode: str, letter: str, victim: int | None) -> Action:
    return {"type": "knight" if mode == "k" else "robber", "hex": letter, "victim": victim}


async def _play_menu(click: Click) -> Reply:
    found = await _seated(click, strict=False)
    require_turn(found)
    content, view = card_menu(found)
    return Reply(content, view)


async def _card(click: Click) -> Reply:
    found = await _seated(click, strict=True)
    require_turn(found)
    card = click.arg
    if card not in playable_cards(found.game, found.seat):
        raise HostError("rule", reason=t("catan.no_playable"))
    row = found.row
    layout = Layout()
    if card == "knight":
        options = robber_options(row, found.game, found.seat)
        layout.select(select(row.id, row.version, "khex", "", options, t("catan.robber_placeholder")))
        return Reply(t("catan.knight_prompt"), layout.view)
    elif card == "monopoly":
        for name in RESOURCES:
            layout.button(button_for(row, "mono", resource_name(name), BLUE, name))
        return Reply(t("catan.monopoly_prompt"), layout.view)
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
        layout.select(select(row.id, row.version, "yop", "", options, t("catan.yop_placeholder")))
        return Reply(t("catan.yop_prompt"), layout.view)
    else:
        # only roads buildable now: a pair's second road may be legal only once its first is built
        firsts = sorted(road_spots(found.game, found.seat))
        options = [option(path_label(p), p) for p in firsts[:PAGE]]
        layout.select(select(row.id, row.version, "rb1", "", options, t("catan.rb_first")))
        return Reply(t("catan.rb_prompt"), layout.view)


async def _road_building_first(click: Click) -> Action | Reply:
    found = await _seated(click, strict=True)
    require_turn(found)
    first = click.values[0]
    seconds = sorted(
        {p[1] if p[0] == first else p[0] for p in road_pairs(found.game, found.seat) if first in p and len(p) == 2}
    )
    if not seconds:
        return {"type": "road_building", "roads": [first]}
    row = found.row
    layout = Layout()
    options = [option(path_label(p), p) for p in seconds[:PAGE]]
    layout.select(select(row.id, row.version, "rb2", first, options, t("catan.rb_second")))
    return Reply(t("catan.rb_then", path=path_inline(first)), layout.view)


async def _road_building_second(click: Click) -> Action:
    return {"type": "road_building", "roads": [click.arg, click.values[0]]}


async def _year_of_plenty(click: Click) -> Action:
    take: dict[str, int] = {}
    for name in click.values[0].split("+"):
        take[name] = take.get(name, 0) + 1
    return {"type": "year_of_plenty", "take": take}


async def _monopoly(click: Click) -> Action:
    return {"type": "monopoly", "resource": click.arg}


async def _bank_menu(click: Click) -> Reply:
    found = await _seated(click, strict=True)
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
    layout.select(select(found.row.id, found.row.version, "bk", "", options, t("catan.bank_placeholder")))
    return Reply(t("catan.bank_prompt"), layout.view)


async def _bank(click: Click) -> Action:
    found = await _seated(click, strict=True)
    give, _, get = click.values[0].partition(">")
    if give not in RESOURCES or get not in RESOURCES:
        raise HostError("stale")
    rate = found.game.rates[found.seat][RESOURCES.index(give)]
    return {"type": "bank_trade", "give": {give: rate}, "get": {get: 1}}


async def _trade_menu(click: Click) -> Reply:
    found = await _seated(click, strict=False)
    if found.game.phase != "main":
        raise HostError("rule", reason=t("catan.trade_not_now"))
    content, view = trade_menu(found)
    return Reply(content, view)


async def _hand(click: Click) -> Reply:
    found = await _seated(click, strict=False)
    return Reply(hand_text(found.row, found.game, found.seat), hand_view(found))


async def _reply(click: Click) -> Action:
    kind = {"acc": "accept", "dec": "decline", "wd": "withdraw"}[click.press.op]
    await refuse_closed_offer(click.host, click.interaction, click.game_id, int(click.arg))
    return {"type": kind, "offer": int(click.arg)}


async def _confirm(click: Click) -> Action:
    offer, _, seat = click.arg.partition(",")
    await refuse_closed_offer(click.host, click.interaction, click.game_id, int(offer))
    return {"type": "confirm", "offer": int(offer), "with": int(seat)}


# Ops answered with a form: it must be the first response, so they are not deferred.
async def _discard_form(click: Click) -> Form:
    found = await _seated(click, strict=False)
    owed = found.game.owed[found.seat]
    if not owed:
        raise HostError("rule", reason=t("catan.no_discard"))
    hand = found.game.view(found.seat)["players"][found.seat]["hand"]
    return forms.discard_form(click, owed, hand)


async def _offer_form(click: Click) -> Form:
    found = await _seated(click, strict=False)
    if found.game.phase != "main":
        raise HostError("rule", reason=t("catan.trade_not_now"))
    to = None if click.arg == "all" else int(click.arg)
    if to is None:
        title = t("catan.modal.offer_all_title")
    else:
        title = fitted(MODAL_TITLE, "catan.modal.offer_title", name=Name(found.row.seats[to].name))
    return forms.offer_form(click, to=to, counter=None, title=title)


async def _counter_form(click: Click) -> Form:
    await refuse_closed_offer(click.host, click.interaction, click.game_id, int(click.arg))
    found = await _seated(click, strict=False)
    offer = next((o for o in found.game.view(found.seat)["offers"] if o["id"] == int(click.arg)), None)
    if offer is None:
        raise RuleError("unknown_offer", t("catan.offer_gone", offer=click.arg))
    title = fitted(
        MODAL_TITLE, "catan.modal.counter_title", offer=offer["id"], name=Name(found.row.seats[offer["from"]].name)
    )
    return forms.offer_form(click, to=offer["from"], counter=offer["id"], title=title)


TABLE: Final = Table(
    SCOPE,
    {
        # the turn message; what a click does reaches the clicker privately ("Done.", a bought card) and the
        # channel through the outbox
        "spot": Op(_spot, kind="select"),
        "spage": Op(_spage, answer="update"),
        "sroad": Op(_sroad),
        "roll": Op(_roll),
        "end": Op(_end),
        # building, cards, the robber: private menus, then the move
        "buy": Op(_buy),
        "b": Op(_build_menu),
        "bpage": Op(_build_menu, answer="update"),
        "bs": Op(_build, kind="select"),
        "rob": Op(_robber, kind="select"),
        "khex": Op(_robber, kind="select"),
        "vic": Op(_victim),
        "play": Op(_play_menu, strict=False),
        "card": Op(_card),
        "rb1": Op(_road_building_first, kind="select"),
        "rb2": Op(_road_building_second, kind="select"),
        "yop": Op(_year_of_plenty, kind="select"),
        "mono": Op(_monopoly),
        # trading and the hand: judged on the game as it is (several players answer one offer at once)
        "bank": Op(_bank_menu),
        "bk": Op(_bank, kind="select"),
        "trade": Op(_trade_menu, strict=False),
        "hand": Op(_hand, strict=False),
        "acc": Op(_reply, strict=False),
        "dec": Op(_reply, strict=False),
        "wd": Op(_reply, strict=False),
        "conf": Op(_confirm, strict=False),
        # forms: what a player types (a discard after a seven, an offer, a counter-offer)
        "disc": Op(_discard_form, answer="form", strict=False),
        "offer": Op(_offer_form, answer="form", strict=False),
        "cnt": Op(_counter_form, answer="form", strict=False),
        # what the forms make, once submitted
        forms.OFFERED: Op(forms.offered, kind="submit", strict=False),
        forms.COUNTERED: Op(forms.countered, kind="submit", strict=False),
        forms.DISCARDED: Op(forms.discarded, kind="submit", strict=False),
    },
    refresh=refresh,
    tell_actor=tell_actor,
)
