"""Forms typed into: a trade offer or counter-offer (``2 brick, ore``) and a discard (how many of each).

Submitted, a form is one move, acted on like a click (``bot.core.clicks.Form``): not bound to a version, since
several players discard after a seven, or answer one offer, at the same moment; the engine judges it.
"""

from __future__ import annotations

import discord

from bot.catan.names import parse_bundle_text, resource
from bot.catan.typed_input import read_count
from bot.core.clicks import Form, Table
from bot.core.components import clip
from bot.host import HostError
from bot.text import t
from bot.text.limits import INPUT_LABEL, INPUT_PLACEHOLDER
from engine import Action
from engine.catan.board import RESOURCES


class OfferForm(Form):
    """What you give and what you want, in words (``2 brick, ore``); a new offer or a counter-offer."""

    def __init__(self, table: Table, game_id: int, *, to: int | None, counter: int | None, title: str) -> None:
        super().__init__(table, game_id, title=title, read=self.action)
        self.to = to
        self.counter = counter
        self.give: discord.ui.TextInput[OfferForm] = discord.ui.TextInput(
            custom_id="give",
            label=clip(t("catan.modal.give"), INPUT_LABEL),
            placeholder=clip(t("catan.bundle_example"), INPUT_PLACEHOLDER),
            max_length=100,
        )
        self.get: discord.ui.TextInput[OfferForm] = discord.ui.TextInput(
            custom_id="get",
            label=clip(t("catan.modal.get"), INPUT_LABEL),
            placeholder=clip(t("catan.modal.get_example"), INPUT_PLACEHOLDER),
            max_length=100,
        )
        self.add_item(self.give)
        self.add_item(self.get)

    def action(self) -> Action:
        give = parse_bundle_text(self.give.value)
        get = parse_bundle_text(self.get.value)
        if self.counter is not None:
            return {"type": "counter", "offer": self.counter, "give": give, "get": get}
        return {"type": "offer", "to": self.to, "give": give, "get": get}


class DiscardForm(Form):
    """How many of each resource to discard (one field per resource the player holds)."""

    def __init__(self, table: Table, game_id: int, owed: int, hand: dict[str, int]) -> None:
        super().__init__(table, game_id, title=t("catan.modal.discard_title", count=owed), read=self.action)
        self.fields: dict[str, discord.ui.TextInput[DiscardForm]] = {}
        for name in RESOURCES:
            if hand.get(name):
                field: discord.ui.TextInput[DiscardForm] = discord.ui.TextInput(
                    custom_id=f"discard:{name}",
                    label=clip(t("catan.modal.discard_field", resource=resource(name, hand[name])), INPUT_LABEL),
                    placeholder="0",
                    required=False,
                    max_length=2,
                )
                self.fields[name] = field
                self.add_item(field)

    def action(self) -> Action:
        cards: dict[str, int] = {}
        for name, field in self.fields.items():
            text = field.value.strip()
            if not text:
                continue
            count = read_count(text)  # 2, ２, 两, 2张; never ² (isdigit() passes it, int() refuses it)
            if count is None:
                raise HostError("rule", reason=t("catan.discard_number", text=text))
            if count:
                cards[name] = count
        return {"type": "discard", "cards": cards}
