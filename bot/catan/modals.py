"""Forms typed into: a trade offer or counter-offer (``2 brick, ore``) and a discard (how many of each)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.catan.flows import act
from bot.catan.names import (
    parse_bundle_text,
    resource,
)
from bot.catan.typed import read_count
from bot.client import bot_of
from bot.components import clip
from bot.funnel import guarded, handle
from bot.host import HostError
from bot.text import t
from bot.text.limits import INPUT_LABEL, INPUT_PLACEHOLDER, MODAL_TITLE
from engine import Action
from engine.catan.board import RESOURCES

if TYPE_CHECKING:
    pass


class OfferModal(discord.ui.Modal):
    """What you give and what you want, in words (``2 brick, ore``); a new offer or a counter-offer."""

    def __init__(self, game_id: int, *, to: int | None, counter: int | None, title: str) -> None:
        super().__init__(title=clip(title, MODAL_TITLE), timeout=900)
        self.game_id = game_id
        self.to = to
        self.counter = counter
        self.give: discord.ui.TextInput[OfferModal] = discord.ui.TextInput(
            custom_id="give",
            label=clip(t("catan.modal.give"), INPUT_LABEL),
            placeholder=clip(t("catan.bundle_example"), INPUT_PLACEHOLDER),
            max_length=100,
        )
        self.get: discord.ui.TextInput[OfferModal] = discord.ui.TextInput(
            custom_id="get",
            label=clip(t("catan.modal.get"), INPUT_LABEL),
            placeholder=clip(t("catan.modal.get_example"), INPUT_PLACEHOLDER),
            max_length=100,
        )
        self.add_item(self.give)
        self.add_item(self.get)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, self.game_id):
            await self._submit(interaction)

    async def on_error(self, interaction: discord.Interaction, error: Exception, /, *_: Any) -> None:
        await handle(interaction, error, self.game_id)

    async def _submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = bot_of(interaction)
        give = parse_bundle_text(self.give.value)
        get = parse_bundle_text(self.get.value)
        action: Action
        if self.counter is not None:
            action = {"type": "counter", "offer": self.counter, "give": give, "get": get}
        else:
            action = {"type": "offer", "to": self.to, "give": give, "get": get}
        await act(bot, interaction, self.game_id, None, action)


class DiscardModal(discord.ui.Modal):
    """How many of each resource to discard (one field per resource the player holds)."""

    def __init__(self, game_id: int, owed: int, hand: dict[str, int]) -> None:
        super().__init__(title=clip(t("catan.modal.discard_title", count=owed), MODAL_TITLE), timeout=900)
        self.game_id = game_id
        self.fields: dict[str, discord.ui.TextInput[DiscardModal]] = {}
        for name in RESOURCES:
            if hand.get(name):
                field: discord.ui.TextInput[DiscardModal] = discord.ui.TextInput(
                    custom_id=f"discard:{name}",
                    label=clip(t("catan.modal.discard_field", resource=resource(name, hand[name])), INPUT_LABEL),
                    placeholder="0",
                    required=False,
                    max_length=2,
                )
                self.fields[name] = field
                self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, self.game_id):
            await self._submit(interaction)

    async def on_error(self, interaction: discord.Interaction, error: Exception, /, *_: Any) -> None:
        await handle(interaction, error, self.game_id)

    async def _submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = bot_of(interaction)
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
        await act(bot, interaction, self.game_id, None, {"type": "discard", "cards": cards})
