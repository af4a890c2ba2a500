"""Plays engine-chosen Catan actions through the Discord UI, as a person would: buttons, selects, modals, /hand.

``perform(world, users, action)`` turns one engine action (from ``Catan.random_action``) into the clicks that make
it; tests then check that the stored game moved exactly as the engine says it should. Given an ``rng`` it also
takes the other ways a player has (``/build``, a public offer's buttons, a private offer's buttons in their DMs),
and given ``hands`` it clicks through them (the fuzzer's checked interactions, ``tests/bot/test_fuzz.py``).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

from simcord.results import ResponseMessage

from bot.catan.ids import SCOPE
from bot.catan.names import bundle_text, card_name, corner_name, resource_name, side_name
from bot.text import t
from tests.bot.conftest import World, flat, reply


class Hands:
    """How the driver clicks and types: straight through simcord's actors. The fuzzer passes its own, which checks
    every interaction; ``who`` is a member in the channel, or a user handle (``member.user``) in their DMs."""

    def __init__(self, world: World) -> None:
        self.world = world

    async def click(self, who: Any, message: Any, custom_id: str) -> Any:
        return await who.click(message, custom_id=custom_id)

    async def select(self, who: Any, message: Any, value: str, custom_id: str) -> Any:
        return await who.select(message, [value], custom_id=custom_id)

    async def slash(self, who: Any, name: str, **options: Any) -> Any:
        return await who.slash(self.world.channel, name, **options)

    async def submit(self, who: Any, shown: Any, values: dict[str, str]) -> Any:
        return await who.submit_modal(shown, values)


def find(message: Any, *, op: str | None = None, label: str | None = None, kind: int | None = None) -> dict[str, Any]:
    for component in flat(message):
        if kind is not None and component["type"] != kind:
            continue
        if op is not None and f":{op}" not in str(component.get("custom_id")):
            continue
        if label is not None and component.get("label") != label:
            continue
        return component
    shown = [c.get("label") or c.get("custom_id") for c in flat(message)]
    raise AssertionError(f"no component op={op} label={label} in {shown}")


async def choose(
    world: World, user: Any, message: Any, op: str, value: str, page_op: str, hands: Hands | None = None
) -> Any:
    """Pick ``value`` in the ``op`` select of ``message``, paging with ``page_op`` buttons until it shows (forward
    to the last page, then back: someone may have turned the pages of a shared message)."""
    hands = hands or Hands(world)
    label = t("catan.page_next")
    for _ in range(10):
        select = find(message, op=op, kind=3)
        if any(o["value"] == value for o in select["options"]):
            return await hands.select(user, message, value, select["custom_id"])
        pages = [c for c in flat(message) if f":{page_op}" in str(c.get("custom_id"))]
        if not any(c.get("label") == label for c in pages):
            label = t("catan.page_prev")
        await hands.click(user, message, find(message, op=page_op, label=label)["custom_id"])
        message = refreshed(world, message)
    raise AssertionError(f"{value} not offered in {op}")


def refreshed(world: World, message: Any) -> Any:
    """The current state of a message (an edited ephemeral reply or channel message)."""
    channel_id = message.channel_id if hasattr(message, "channel_id") else message.channel.id
    return ResponseMessage(world.env, world.env.backend.get_message(channel_id, message.id))


async def turn_message(world: World) -> Any:
    """The game's current turn message (news lines about offers and discards may have followed it)."""
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None and row.message_id is not None
    return ResponseMessage(world.env, world.env.backend.get_message(world.channel.id, row.message_id))


def offer_message(world: World, user: Any, game_id: int, op: str, offer: int, *, public: bool) -> Any | None:
    """The newest message with ``user``'s reply button ``op`` to ``offer`` of game ``game_id``: the public offer in
    the channel, or the offer (or, for its maker, the acceptance) in ``user``'s DMs. The game matters: offer numbers
    start again in every game, and one DM channel holds the offers of all the user's games."""
    channel = world.channel if public else user.user.dm_channel
    wanted = re.compile(rf"^bh:{SCOPE}:{game_id}:\d+:{op}:{offer}(?:,\d+)?$")
    for message in reversed(channel.history()):
        if any(wanted.search(str(c.get("custom_id"))) for c in flat(message)):
            return ResponseMessage(world.env, world.env.backend.get_message(channel.id, message.id))
    return None


async def perform(
    world: World,
    users: list[Any],
    action: dict[str, Any],
    *,
    hands: Hands | None = None,
    rng: random.Random | None = None,
    ways: Counter[str] | None = None,
) -> list[Any]:
    """Make ``action`` through the UI; returns the interaction results (the last is the acting one).

    Without ``rng`` each action is made one way: the turn message's buttons and menus, replies through ``/hand``.
    With it, other ways too, chosen at random: ``/build`` (after asking its autocomplete), the reply buttons of a
    public offer's message, and a private offer's (or acceptance's) buttons in the player's DMs. ``ways`` counts
    the ways taken ("dm", "public_offer", "/build", "/hand", "menu").
    """
    hands = hands or Hands(world)
    user = users[action["player"]]
    kind = action["type"]
    message = await turn_message(world)
    results: list[Any] = []
    tally = ways if ways is not None else Counter[str]()

    def sometimes(chance: float) -> bool:
        return rng is not None and rng.random() < chance

    async def click(where: Any, label: str, who: Any = user) -> Any:
        result = await hands.click(who, where, find(where, label=label)["custom_id"])
        results.append(result)
        return result

    async def menu(where: Any, label: str) -> Any:
        shown = reply(await click(where, label))
        assert shown is not None and shown.ephemeral, label
        return shown

    async def select(where: Any, op: str, value: str, page_op: str = "bpage") -> Any:
        result = await choose(world, user, where, op, value, page_op, hands)
        results.append(result)
        return result

    async def robber(where: Any, op: str) -> None:
        result = await select(where, op, action["hex"])
        shown = reply(result)
        if shown is not None and any(":vic" in str(c.get("custom_id")) for c in flat(shown)):
            victim = action.get("victim")
            name = users[victim].name if victim is not None else t("catan.steal_nobody")
            await click(shown, t("catan.steal_from", name=name))

    async def hand() -> Any:
        result = await hands.slash(user, "hand")
        results.append(result)
        tally["/hand"] += 1
        return reply(result)

    async def modal(who: Any, where: Any, label: str, values: dict[str, str]) -> None:
        shown = await hands.click(who, where, find(where, label=label)["custom_id"])
        assert shown.modal is not None
        results.append(await hands.submit(who, shown, values))

    async def answer(op: str, label: str, values: dict[str, str] | None = None) -> None:
        """Click ``label`` (a reply to an offer) where a player would find it: a DM, the public offer, /hand."""
        offer = action["offer"]
        public = (await open_offer(world, offer) or {}).get("to", 0) is None
        row = await world.bot.games.open_in_channel(world.channel.id)
        assert row is not None
        game_id = row.id
        where, who = None, user
        if op in ("acc", "dec", "cnt") and public and sometimes(0.6):
            where, way = offer_message(world, user, game_id, op, offer, public=True), "public_offer"
        elif op == "conf" and public and sometimes(0.5):  # the turn message offers the active player each trade
            where, way = message, "turn_message"
        elif not public and sometimes(0.7):
            where, who, way = offer_message(world, user, game_id, op, offer, public=False), user.user, "dm"
        if where is None:
            where, who, way = await hand(), user, "/hand"
        else:
            tally[way] += 1
        if values is None:
            await click(where, label, who)
        else:
            await modal(who, where, label, values)

    if kind == "settlement" and "Set-up" in message.content:
        await select(message, "spot", str(action["at"]), "spage")
    elif kind == "road" and "Set-up" in message.content:
        result = await hands.click(user, message, find(message, op=f"sroad:{action['at']}")["custom_id"])
        results.append(result)
    elif kind in ("settlement", "city", "road") and sometimes(0.4):
        where = str(action["at"])
        typed = where[: rng.randint(0, len(where))] if rng is not None else where
        if hasattr(hands, "autocomplete"):
            await hands.autocomplete(user, "build", "where", typed, what=kind)
        if sometimes(0.5):  # by name: J-NE for an intersection, J-E for a path
            where = side_name(where) if kind == "road" else corner_name(int(where) - 1)
        results.append(await hands.slash(user, "build", what=kind, where=where))
        tally["/build"] += 1
    elif kind in ("settlement", "city", "road"):
        shown = await menu(message, t(f"catan.button.build_{kind}"))
        await select(shown, "bs", str(action["at"]))
        tally["menu"] += 1
    elif kind == "roll":
        await click(message, t("catan.button.roll"))
    elif kind == "end_turn":
        await click(message, t("catan.button.end"))
    elif kind == "buy":
        await click(message, t("catan.button.buy"))
    elif kind == "discard":
        values = {f"discard:{r}": str(n) for r, n in action["cards"].items() if n}
        await modal(user, message, t("catan.button.discard"), values)
    elif kind == "robber":
        await robber(message, "rob")
    elif kind in ("knight", "road_building", "year_of_plenty", "monopoly"):
        cards = await menu(message, t("catan.button.play"))
        shown = await menu(cards, card_name(kind))
        if kind == "knight":
            await robber(shown, "khex")
        elif kind == "monopoly":
            await click(shown, resource_name(action["resource"]))
        elif kind == "year_of_plenty":
            take = [r for r, n in action["take"].items() for _ in range(n)]
            await select(shown, "yop", "+".join(take) if len(take) == 2 else take[0])
        else:
            roads = action["roads"]
            second = reply(await select(shown, "rb1", roads[0]))
            if len(roads) == 2:
                await select(second, "rb2", roads[1])
    elif kind == "bank_trade":
        shown = await menu(message, t("catan.button.bank"))
        (give, _), (get, _) = next(iter(action["give"].items())), next(iter(action["get"].items()))
        await select(shown, "bk", f"{give}>{get}")
    elif kind == "offer":
        shown = await menu(message, t("catan.button.trade"))
        to = action.get("to")
        label = t("catan.button.offer_all") if to is None else t("catan.button.offer_to", name=users[to].name)
        await modal(user, shown, label, {"give": bundle_text(action["give"]), "get": bundle_text(action["get"])})
    elif kind in ("accept", "decline", "withdraw"):
        op = {"accept": "acc", "decline": "dec", "withdraw": "wd"}[kind]
        await answer(op, t(f"catan.button.{kind}", offer=action["offer"]))
    elif kind == "counter":
        values = {"give": bundle_text(action["give"]), "get": bundle_text(action["get"])}
        await answer("cnt", t("catan.button.counter", offer=action["offer"]), values)
    elif kind == "confirm":
        other = users[action["with"]].name
        label = t("catan.button.confirm", name=other, offer=action["offer"])
        await answer("conf", label)
    else:
        raise AssertionError(f"no UI for {action}")
    return results


async def open_offer(world: World, ident: int) -> dict[str, Any] | None:
    """The open offer numbered ``ident`` as its maker sees it, if any."""
    row = await world.bot.games.open_in_channel(world.channel.id)
    if row is None:
        return None
    game: Any = world.bot.rows.game(row)
    offer = game.offer(ident)
    return dict(offer) if offer is not None else None


def assert_within_discord_limits(message: Any) -> None:
    """Discord's limits, which the simulated Discord does not all enforce: 2000 characters, 5 rows of 5 buttons or
    one select of at most 25 options, labels of 80 (buttons) or 100 (options) characters, custom ids of 100."""
    assert len(message.content or "") <= 2000
    rows = message.components
    assert len(rows) <= 5
    for row in rows:
        children = row["components"] if isinstance(row, dict) else [c.to_dict() for c in row.children]
        selects = [c for c in children if c["type"] == 3]
        assert len(children) <= 5 and (not selects or len(children) == 1)
        for child in children:
            assert len(str(child.get("custom_id", ""))) <= 100
            assert len(str(child.get("label") or "")) <= 80
            assert len(child.get("options") or []) <= 25
            assert all(len(o["label"]) <= 100 and len(o["value"]) <= 100 for o in child.get("options") or [])
            assert all(len(o.get("description") or "") <= 100 for o in child.get("options") or [])
            assert len(str(child.get("placeholder") or "")) <= 150
