"""Catan custom ids: ``bh:ct:{game}:{version}:{op}[:{arg}]``, and which ops are buttons and which selects."""

from __future__ import annotations

from typing import Final

from bot.core.components import make_custom_id

PREFIX: Final = "bh:ct"
SELECT_OPS: Final = ("spot", "bs", "rob", "khex", "rb1", "rb2", "yop", "bk")
BUTTON_OPS: Final = (
    "spage", "sroad", "roll", "end", "buy", "b", "bpage", "vic", "play", "card", "mono", "bank", "trade", "hand",
    "acc", "dec", "wd", "conf", "disc", "offer", "cnt",
)  # fmt: skip
ID_TEMPLATE: Final = PREFIX + r":(?P<game>\d+):(?P<version>\d+):(?P<op>{ops})(?::(?P<arg>[^\s]*))?"


def custom_id(game_id: int, version: int, op: str, arg: str = "") -> str:
    return make_custom_id(PREFIX, game_id, version, op, arg)
