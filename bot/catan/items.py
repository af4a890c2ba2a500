"""The Catan buttons and selects: dynamic items whose custom ids are ``bh:ct:{game}:{version}:{op}[:{arg}]``.

They keep working after a restart; what each op does is in ``bot/catan/handlers.py``, bound at start-up.
"""

from __future__ import annotations

import re
from typing import Any, Final

import discord

from bot.catan.ids import BUTTON_OPS, ID_TEMPLATE, SELECT_OPS, custom_id
from bot.core.clicks import Press, Slot, single_select
from bot.core.components import BUTTON_LABEL, GREY, clip
from bot.core.funnel import guarded
from bot.core.owned import GameItem

DISPATCH: Final = Slot("catan")


class CatanButton(
    GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=ID_TEMPLATE.format(ops="|".join(BUTTON_OPS))
):
    def __init__(
        self, game_id: int, version: int, op: str, arg: str = "", label: str = "", style: discord.ButtonStyle = GREY
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label or op, BUTTON_LABEL), style=style, custom_id=custom_id(game_id, version, op, arg)
            )
        )
        self.game_id, self.version, self.op, self.arg = game_id, version, op, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CatanButton:
        return cls(int(match["game"]), int(match["version"]), match["op"], match["arg"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, self.game_id):
            await DISPATCH(Press(interaction, self.game_id, self.version, self.op, self.arg))


class CatanSelect(
    GameItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=ID_TEMPLATE.format(ops="|".join(SELECT_OPS))
):
    def __init__(
        self,
        game_id: int,
        version: int,
        op: str,
        arg: str = "",
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(single_select(custom_id(game_id, version, op, arg), options, placeholder))
        self.game_id, self.version, self.op, self.arg = game_id, version, op, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CatanSelect:
        return cls(int(match["game"]), int(match["version"]), match["op"], match["arg"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        values = [str(v) for v in self.item.values]
        async with guarded(interaction, self.game_id):
            await DISPATCH(Press(interaction, self.game_id, self.version, self.op, self.arg, values))
