"""Shared pieces of every game's Discord components: Discord's limits, refusals, labels, colours and row layout.

Discord limits a message to 5 rows of components, a row to 5 buttons or one select, a select or an autocomplete to
25 options, button labels to 80 characters, and option labels, option values and custom ids to 100. Everything
built here stays within them.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from typing import Any, Final

import discord

from bot.storage import GameRow
from bot.text import t
from bot.text.catalogue import MESSAGES
from bot.text.i18n import language
from bot.text.limits import ATTACHMENT_DESCRIPTION
from bot.text.limits import BUTTON_LABEL as BUTTON_LABEL  # Discord's limits on text and the guard, named here too
from bot.text.limits import CONTENT as CONTENT
from bot.text.limits import LABEL as LABEL
from bot.text.limits import PLACEHOLDER as PLACEHOLDER
from bot.text.limits import clip as clip
from engine import RuleError

log = logging.getLogger("boardhost.components")

PAGE: Final = 25  # options in a select or an autocomplete
ROW_WIDTH: Final = 5  # buttons in a row
ROWS: Final = 5  # rows in a message
UPLOAD: Final = 10 * 1024 * 1024  # bytes in an upload where the server grants no more (and in DMs)


# Button colours by what they do: neutral, a choice, a good step forward, a loss or an ending.
GREY, BLUE, GREEN, RED = (
    discord.ButtonStyle.secondary,
    discord.ButtonStyle.primary,
    discord.ButtonStyle.success,
    discord.ButtonStyle.danger,
)


def names_of(row: GameRow) -> list[str]:
    """The seats' names, by seat."""
    return [s.name for s in row.seats]


def jump_url(row: GameRow) -> str:
    """The link to the game's latest turn message (its channel when no message is known)."""
    where = f"https://discord.com/channels/{row.guild_id or '@me'}/{row.channel_id}"
    return f"{where}/{row.message_id}" if row.message_id else where


def make_custom_id(prefix: str, game_id: int, version: int, op: str, arg: str = "") -> str:
    """``{prefix}:{game}:{version}:{op}[:{arg}]``: the game and version make stale clicks detectable."""
    value = f"{prefix}:{game_id}:{version}:{op}" + (f":{arg}" if arg else "")
    if len(value) > LABEL:
        raise ValueError(f"custom id too long: {value!r}")
    return value


def option(label: str, value: str, description: str | None = None) -> discord.SelectOption:
    return discord.SelectOption(
        label=clip(label), value=value[:LABEL], description=clip(description) if description else None
    )


_SEAT = re.compile(r"\bseat (\d+)(?:'s)?")


# English explains most refusals with the engine's own message (it names cells and cards); these few read better
# from the catalogue (a second discard form sent at once: "You owe no discard now.", as the Discard button says).
# Other languages always use the catalogue: ``rule.<code>``, else ``rule.generic``.
_ENGLISH_CATALOGUE = frozenset(
    {
        "not_your_turn",
        "roll_first",
        "already_rolled",
        "game_over",
        "unknown_intersection",
        "unknown_path",
        "no_discard_owed",
    }
)


def rule_reason(err: RuleError, names: Sequence[str] | None = None) -> str:
    """A rule refusal for a player: a catalogue sentence for common codes, else the engine's own explanation with
    seat numbers replaced by names."""
    key = f"rule.{err.code}"
    if language() != "en" or err.code in _ENGLISH_CATALOGUE:
        params = {k: v for k, v in err.params.items() if k != "code"}
        piece = params.get("piece")
        if f"{key}.{piece}" in MESSAGES:  # one sentence per piece where the language needs it
            key = f"{key}.{piece}"
        if key in MESSAGES:
            try:
                return t(key, **params)
            except (KeyError, IndexError):
                pass
        return t("rule.generic", code=err.code)
    if not names:
        return err.message

    def name(match: re.Match[str]) -> str:
        seat = int(match[1])
        if not 0 <= seat < len(names):
            return match[0]
        return names[seat] + ("'s" if match[0].endswith("'s") else "")

    return _SEAT.sub(name, err.message)


def upload_limit(channel: object) -> int:
    """The largest file the bot may upload in ``channel`` (a boosted server allows more)."""
    guild = getattr(channel, "guild", None)
    limit = getattr(guild, "filesize_limit", None)
    return limit if isinstance(limit, int) and limit > 0 else UPLOAD


def image_file(channel: object, png: bytes, filename: str, alt: str | None = None) -> discord.File | None:
    """The board image as an upload with its alt text (``bot.text.alt``), or None (logged) when it would exceed the
    channel's upload limit."""
    if len(png) > upload_limit(channel):
        log.warning("image %s (%d bytes) exceeds the upload limit; posting text only", filename, len(png))
        return None
    description = clip(alt, ATTACHMENT_DESCRIPTION) if alt else None
    return discord.File(io.BytesIO(png), filename=filename, description=description)


def controls() -> discord.ui.View:
    """An empty view for the bot's buttons and selects, which discord.py sends but does not keep. Every one of them
    is a ``Control`` (``bot.core.clicks``), found by its custom id alone, so nothing needs the view once it is sent;
    a view not stopped is kept, and on a private (ephemeral) answer given 15 minutes to live: a sleeping task and a
    timer each, every one waking in the end to be thrown away (1,595 of them alive in the bot process after the
    process bench's head start; at 25 private answers a second, 22,500 at any moment)."""
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


class Layout:
    """Components packed into at most five rows: a select takes a row, buttons fill rows of five."""

    def __init__(self) -> None:
        self.view = controls()
        self.rows: list[int] = []  # buttons in each used row; -1 for a select

    def select(self, item: discord.ui.Item[Any]) -> bool:
        if len(self.rows) >= ROWS:
            log.warning("dropped a select: no row left")
            return False
        item.row = len(self.rows)
        self.rows.append(-1)
        self.view.add_item(item)
        return True

    def button(self, item: discord.ui.Item[Any], *, new_row: bool = False) -> bool:
        if new_row or not self.rows or self.rows[-1] < 0 or self.rows[-1] >= ROW_WIDTH:
            if len(self.rows) >= ROWS:
                log.warning("dropped a button: no row left")
                return False
            self.rows.append(0)
        item.row = len(self.rows) - 1
        self.rows[-1] += 1
        self.view.add_item(item)
        return True

    def free_buttons(self) -> int:
        room = (ROWS - len(self.rows)) * ROW_WIDTH
        if self.rows and 0 <= self.rows[-1] < ROW_WIDTH:
            room += ROW_WIDTH - self.rows[-1]
        return room
