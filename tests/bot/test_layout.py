"""Discord's component limits hold however crowded a Carcassonne decision gets."""

from __future__ import annotations

import discord

from bot.carcassonne.ids import select
from bot.core.components import Layout, image_file, upload_limit


def test_a_crowded_turn_fits_five_rows_of_five_with_selects_alone() -> None:
    layout = Layout()
    for i in range(7):
        layout.button(discord.ui.Button(label=f"spot {i}", custom_id=f"a{i}"))
    options = [discord.SelectOption(label=f"tower {i}", value=str(i)) for i in range(40)]
    assert layout.select(select(1, 2, "tower", "", options, "towers"))
    added = [layout.button(discord.ui.Button(label=f"more {i}", custom_id=f"b{i}")) for i in range(20)]
    rows = layout.view.to_components()
    assert len(rows) <= 5
    assert all(len(row["components"]) <= 5 for row in rows)
    selects = [row for row in rows if row["components"][0]["type"] == 3]
    assert len(selects) == 1 and len(selects[0]["components"]) == 1
    assert len(selects[0]["components"][0]["options"]) <= 25
    assert not all(added), "what does not fit is dropped, never sent"
    assert layout.free_buttons() == 0


def test_an_image_over_the_upload_limit_is_not_attached() -> None:
    class Guild:
        filesize_limit = 1000

    class Channel:
        guild = Guild()

    assert upload_limit(Channel()) == 1000 and upload_limit(object()) == 10 * 1024 * 1024
    assert image_file(Channel(), b"x" * 1000, "board.png") is not None
    assert image_file(Channel(), b"x" * 1001, "board.png") is None
