"""Forms typed into: a trade offer or counter-offer (``2 brick, ore``) and a discard (how many of each).

A form is shown by a click and its submit is an op of Catan's table (``bot.core.clicks.Form``): read from the
submit's own data, so a form open when the bot restarts is still taken. Submitted, a form is one move, not bound to a
version, since several players discard after a seven, or answer one offer, at the same moment; the engine judges it.
"""

from __future__ import annotations

import discord

from bot.catan.names import parse_bundle_text, resource
from bot.catan.typed_input import read_count
from bot.core.clicks import Click, Form
from bot.core.components import clip
from bot.host import HostError
from bot.text import t
from bot.text.limits import INPUT_LABEL, INPUT_PLACEHOLDER
from engine import Action
from engine.catan.board import RESOURCES

OFFERED = "offered"  # the offer form's submit; its argument: "all", or the seat the offer is made to
COUNTERED = "countered"  # the counter-offer form's submit; its argument: the offer countered
DISCARDED = "discarded"  # the discard form's submit
GIVE, GET = "give", "get"  # the offer form's fields
DISCARD = "discard:"  # a discard form's field, before the resource


def offer_form(click: Click, *, to: int | None, counter: int | None, title: str) -> Form:
    """What you give and what you want, in words (``2 brick, ore``); a new offer (to everyone, or to ``to``) or a
    counter-offer to offer ``counter``."""
    if counter is not None:
        form = Form(click, COUNTERED, str(counter), title=title)
    else:
        form = Form(click, OFFERED, "all" if to is None else str(to), title=title)
    for field, name, example in (
        (GIVE, "catan.modal.give", "catan.bundle_example"),
        (GET, "catan.modal.get", "catan.modal.get_example"),
    ):
        form.add_item(
            discord.ui.TextInput(
                custom_id=field,
                label=clip(t(name), INPUT_LABEL),
                placeholder=clip(t(example), INPUT_PLACEHOLDER),
                max_length=100,
            )
        )
    return form


def discard_form(click: Click, owed: int, hand: dict[str, int]) -> Form:
    """How many of each resource to discard (one field per resource the player holds)."""
    form = Form(click, DISCARDED, title=t("catan.modal.discard_title", count=owed))
    for name in RESOURCES:
        if hand.get(name):
            form.add_item(
                discord.ui.TextInput(
                    custom_id=f"{DISCARD}{name}",
                    label=clip(t("catan.modal.discard_field", resource=resource(name, hand[name])), INPUT_LABEL),
                    placeholder="0",
                    required=False,
                    max_length=2,
                )
            )
    return form


async def offered(click: Click) -> Action:
    """The offer form, submitted: the offer it describes (refusals raised)."""
    give, get = parse_bundle_text(click.typed(GIVE)), parse_bundle_text(click.typed(GET))
    return {"type": "offer", "to": None if click.arg == "all" else int(click.arg), "give": give, "get": get}


async def countered(click: Click) -> Action:
    give, get = parse_bundle_text(click.typed(GIVE)), parse_bundle_text(click.typed(GET))
    return {"type": "counter", "offer": int(click.arg), "give": give, "get": get}


async def discarded(click: Click) -> Action:
    """The discard form, submitted: the cards named, a field left empty counting none."""
    cards: dict[str, int] = {}
    for name in RESOURCES:
        text = click.typed(f"{DISCARD}{name}").strip()
        if not text:
            continue
        count = read_count(text)  # 2, ２, 两, 2张; never ² (isdigit() passes it, int() refuses it)
        if count is None:
            raise HostError("rule", reason=t("catan.discard_number", text=text))
        if count:
            cards[name] = count
    return {"type": "discard", "cards": cards}
