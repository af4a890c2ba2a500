"""The people at the table: each is a Discord user of the loopback, with the language of their Discord client.

A person's client language is the ``locale`` of every interaction they send: the bot answers them privately in it,
and the page shows the slash commands as that language's Discord shows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# The Discord locales of the bot's four languages, with each language's own name.
LOCALES: Final[dict[str, str]] = {"en-US": "English", "zh-CN": "简体中文", "zh-TW": "繁體中文", "ru": "Русский"}
NAMES: Final = ("Ada", "Boris", "Chen", "Dana", "Emil", "Fang", "Greta", "Hugo", "Ines", "Jun")
MOST: Final = len(NAMES)  # people at one table
COLOURS: Final = ("#5865f2", "#3ba55c", "#faa61a", "#ed4245", "#eb459e", "#1abc9c", "#9b59b6", "#e67e22")


@dataclass
class Person:
    id: int
    name: str
    locale: str = "en-US"
    seen: int = 0  # the newest message id shown to them while they were at the page (for the unread badges)

    @property
    def colour(self) -> str:
        return COLOURS[NAMES.index(self.name) % len(COLOURS)] if self.name in NAMES else COLOURS[0]


def next_name(taken: list[Person]) -> str | None:
    """The first name of ``NAMES`` nobody at the table has yet (None: the table is full)."""
    names = {person.name for person in taken}
    return next((name for name in NAMES if name not in names), None)
