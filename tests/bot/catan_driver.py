"""Plays engine-chosen Catan actions through the Discord UI, as a person would: buttons, selects, modals, /hand.

``perform(world, users, action)`` turns one engine action (from ``Catan.random_action``) into the clicks that make
it; tests then check that the stored game moved exactly as the engine says it should.
"""

from __future__ import annotations

from typing import Any

from simcord.results import ResponseMessage

from bot.catan.names import bundle_text, card_name, resource_name
from bot.text import t
from tests.bot.conftest import World, flat, reply


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


async def choose(world: World, user: Any, message: Any, op: str, value: str, page_op: str) -> Any:
    """Pick ``value`` in the ``op`` select of ``message``, paging with ``page_op`` buttons until it shows."""
    for _ in range(5):
        select = find(message, op=op, kind=3)
        if any(o["value"] == value for o in select["options"]):
            return await user.select(message, [value], custom_id=select["custom_id"])
        await user.click(message, custom_id=find(message, op=page_op, label=t("catan.page_next"))["custom_id"])
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


async def perform(world: World, users: list[Any], action: dict[str, Any]) -> list[Any]:
    """Make ``action`` through the UI; returns the interaction results (the last is the acting one)."""
    user = users[action["player"]]
    kind = action["type"]
    message = await turn_message(world)
    results: list[Any] = []

    async def click(where: Any, label: str) -> Any:
        result = await user.click(where, custom_id=find(where, label=label)["custom_id"])
        results.append(result)
        return result

    async def menu(where: Any, label: str) -> Any:
        shown = reply(await click(where, label))
        assert shown is not None and shown.ephemeral, label
        return shown

    async def select(where: Any, op: str, value: str, page_op: str = "bpage") -> Any:
        result = await choose(world, user, where, op, value, page_op)
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
        result = await user.slash(world.channel, "hand")
        results.append(result)
        return reply(result)

    if kind == "settlement" and "Set-up" in message.content:
        await select(message, "spot", str(action["at"]), "spage")
    elif kind == "road" and "Set-up" in message.content:
        await user.click(message, custom_id=find(message, op=f"sroad:{action['at']}")["custom_id"])
    elif kind in ("settlement", "city", "road"):
        shown = await menu(message, t(f"catan.button.build_{kind}"))
        await select(shown, "bs", str(action["at"]))
    elif kind == "roll":
        await click(message, t("catan.button.roll"))
    elif kind == "end_turn":
        await click(message, t("catan.button.end"))
    elif kind == "buy":
        await click(message, t("catan.button.buy"))
    elif kind == "discard":
        shown = await user.click(message, custom_id=find(message, label=t("catan.button.discard"))["custom_id"])
        assert shown.modal is not None
        values = {f"discard:{r}": str(n) for r, n in action["cards"].items() if n}
        results.append(await user.submit_modal(shown, values))
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
        modal = await user.click(shown, custom_id=find(shown, label=label)["custom_id"])
        assert modal.modal is not None
        give, get = bundle_text(action["give"]), bundle_text(action["get"])
        results.append(await user.submit_modal(modal, {"give": give, "get": get}))
    elif kind in ("accept", "decline", "withdraw", "counter"):
        mine = await hand()
        offer = action["offer"]
        label = t(f"catan.button.{kind}", offer=offer)
        if kind == "counter":
            modal = await user.click(mine, custom_id=find(mine, label=label)["custom_id"])
            assert modal.modal is not None
            give, get = bundle_text(action["give"]), bundle_text(action["get"])
            results.append(await user.submit_modal(modal, {"give": give, "get": get}))
        else:
            await click(mine, label)
    elif kind == "confirm":
        mine = await hand()
        other = users[action["with"]].name
        await click(mine, t("catan.button.confirm", name=other, offer=action["offer"]))
    else:
        raise AssertionError(f"no UI for {action}")
    return results


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
