"""The page's own words (what Discord's client would say around the bot's messages), in each person's language.

They live in the message catalogue with the bot's texts (keys ``try.*``), so translators find them in the same
``.po`` files. The page fills the placeholders itself: each comes to it as ``{name}``.
"""

from __future__ import annotations

import string

from bot.text import MESSAGES, t
from bot.text.i18n import resolve, speaking

PREFIX = "try."


def keys() -> list[str]:
    return [key for key in MESSAGES if key.startswith(PREFIX)]


def _placeholders(key: str) -> list[str]:
    english = MESSAGES[key]
    assert isinstance(english, str), f"{key}: the page's words have no plural forms"
    return [field for _, field, _, _ in string.Formatter().parse(english) if field]


def words(locale: str) -> dict[str, str]:
    """Every ``try.*`` text in the language of ``locale`` (a Discord locale), its placeholders left as ``{name}``,
    keyed without the prefix."""
    with speaking(resolve(locale)):
        return {
            key.removeprefix(PREFIX): t(key, **{field: "{" + field + "}" for field in _placeholders(key)})
            for key in keys()
        }
