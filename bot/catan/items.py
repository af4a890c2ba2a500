"""The Catan buttons and selects: dynamic items whose custom ids are ``bh:ct:{game}:{version}:{op}[:{arg}]``.

They keep working after a restart; what each op does is in ``bot/catan/handlers.py``.
"""

from __future__ import annotations

import re
from typing import Any, Final

import discord

from bot.catan.flows import explain
from bot.catan.turn import PREFIX, custom_id
from bot.components import BUTTON_LABEL, PAGE, Refusal, clip

SELECT_OPS: Final = ("spot", "bs", "rob", "khex", "rb1", "rb2", "yop", "bk")
BUTTON_OPS: Final = (
    "spage", "sroad", "roll", "end", "buy", "b", "bpage", "vic", "play", "card", "mono", "bank", "trade", "hand",
    "acc", "dec", "wd", "conf", "disc", "offer", "cnt",
)  # fmt: skip
_ID: Final = PREFIX + r":(?P<game>\d+):(?P<version>\d+):(?P<op>{ops})(?::(?P<arg>[^\s]*))?"
GREY, BLUE, GREEN, RED = (
    discord.ButtonStyle.secondary,
    discord.ButtonStyle.primary,
    discord.ButtonStyle.success,
    discord.ButtonStyle.danger,
)


class CatanButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_ID.format(ops="|".join(BUTTON_OPS))):
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
        from bot.catan.handlers import Click, dispatch

        await dispatch(Click(interaction, self.game_id, self.version, self.op, self.arg))


class CatanSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=_ID.format(ops="|".join(SELECT_OPS))):
    def __init__(
        self,
        game_id: int,
        version: int,
        op: str,
        arg: str = "",
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id(game_id, version, op, arg),
                options=(options or [])[:PAGE] or [discord.SelectOption(label="-", value="-")],
                placeholder=clip(placeholder, 150) if placeholder else None,
                min_values=1,
                max_values=1,
            )
        )
        self.game_id, self.version, self.op, self.arg = game_id, version, op, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CatanSelect:
        return cls(int(match["game"]), int(match["version"]), match["op"], match["arg"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.catan.handlers import Click, dispatch

        click = Click(interaction, self.game_id, self.version, self.op, self.arg)
        click.values = [str(v) for v in self.item.values]
        if not click.values:
            await explain(interaction, Refusal("stale"))
            return
        await dispatch(click)
