"""Discord's limits on the text the bot sends, in one place, and the one way a text is made to fit them.

The rule for everything a player clicks or reads at a glance (buttons, options, placeholders, form titles and
labels): a label is a whole catalogue template; when the players' names in it would take it over its limit, the
names are shortened with an ellipsis ("Жанна Ивано…") and the rest of the label stays as written. The rest is what
tells two choices apart (the target cell of a capture, the number of an offer), so it is never cut: ``fitted``
builds such labels. ``clip`` (a tail cut short) is only the last guard for a text with nothing left to shorten;
``tests/bot/test_discord_limits.py`` measures every label the bot builds with the longest names in every script
and every language, and fails on any cut.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from bot.text.i18n import ListStyle, listing, t

log = logging.getLogger("boardhost.text")

# Characters (Unicode code points, as Discord counts them) in...
CONTENT: Final = 2000  # a message
BUTTON_LABEL: Final = 80  # a button's label
LABEL: Final = 100  # a select option's label, value or description; a custom id; an autocomplete choice
PLACEHOLDER: Final = 150  # a select's placeholder
MODAL_TITLE: Final = 45  # a form's title
INPUT_LABEL: Final = 45  # a form field's label
INPUT_PLACEHOLDER: Final = 100  # a form field's placeholder
EMBED_TITLE: Final = 256  # an embed's title (and a field's name)
EMBED_DESCRIPTION: Final = 4096  # an embed's description
ATTACHMENT_DESCRIPTION: Final = 1024  # an attachment's description: the alt text of an image
NAME: Final = 32  # a Discord display name: the longest name a label must make room for

ELLIPSIS: Final = "…"
_ZWJ: Final = "\u200d"


class Name(str):
    """A player's name given to ``fitted``: the part of a label that gives way when the label is too long."""


@dataclass(frozen=True)
class Names:
    """Players' names listed in a label (the language's list format in ``style``), shortened alike when needed."""

    names: tuple[str, ...]
    style: ListStyle = "standard"


def _joins(text: str, i: int) -> bool:
    """Whether ``text[i]`` belongs to the character before it (a mark, a selector, a skin tone, a ZWJ sequence or the
    second half of a flag): a cut before it would break what a reader sees as one character."""
    ch, before = text[i], text[i - 1]
    point = ord(ch)
    if unicodedata.category(ch) in ("Mn", "Mc", "Me") or ch == _ZWJ or before == _ZWJ:
        return True
    if 0xFE00 <= point <= 0xFE0F or 0x1F3FB <= point <= 0x1F3FF or 0xE0020 <= point <= 0xE007F:
        return True
    if 0x1F1E6 <= point <= 0x1F1FF:  # a regional indicator: the second of a pair completes a flag
        run = 0
        while i - run - 1 >= 0 and 0x1F1E6 <= ord(text[i - run - 1]) <= 0x1F1FF:
            run += 1
        return run % 2 == 1
    return False


def shorten(name: str, length: int) -> str:
    """``name`` in at most ``length`` characters: whole if it fits, else its beginning and an ellipsis, cut between
    characters as a reader sees them (never inside an emoji sequence, never before a combining mark)."""
    if len(name) <= length:
        return name
    end = max(length - len(ELLIPSIS), 0)
    while 0 < end < len(name) and _joins(name, end):
        end -= 1
    return name[:end].rstrip() + ELLIPSIS


def clip(text: str, limit: int = LABEL) -> str:
    """The last guard: ``text`` cut to ``limit`` characters with an ellipsis. Labels with names use ``fitted``."""
    return text if len(text) <= limit else text[: limit - len(ELLIPSIS)] + ELLIPSIS


def _names(value: object) -> Iterator[str]:
    if isinstance(value, Name):
        yield value
    elif isinstance(value, Names):
        yield from value.names


def _shown(value: object, length: int | None) -> object:
    if isinstance(value, Name):
        return value if length is None else shorten(value, length)
    if isinstance(value, Names):
        return listing((n if length is None else shorten(n, length) for n in value.names), style=value.style)
    return value


def fitted(limit: int, key: str, /, **params: object) -> str:
    """``t(key, **params)`` in at most ``limit`` characters. Parameters given as ``Name`` or ``Names`` are the
    players' names: when the text is too long they are shortened, all to the same greatest length that fits, and
    nothing else in the text changes. Only if even one-letter names do not fit is the text clipped (and logged)."""

    def text(length: int | None) -> str:
        return t(key, **{k: _shown(v, length) for k, v in params.items()})

    whole = text(None)
    if len(whole) <= limit:
        return whole
    low, high = 1, max((len(n) for v in params.values() for n in _names(v)), default=0) - 1
    best: str | None = None
    while low <= high:  # the longest length that fits: a shorter length never makes the text longer
        middle = (low + high) // 2
        candidate = text(middle)
        if len(candidate) <= limit:
            best, low = candidate, middle + 1
        else:
            high = middle - 1
    if best is None:
        log.warning("%s does not fit in %d characters even with the names shortened: %r", key, limit, whole)
        return clip(text(1), limit)
    return best
