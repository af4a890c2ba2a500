"""Languages: gettext catalogues (``bot/locale/<lang>/LC_MESSAGES/boardhost.po``) read with Babel, the current
language in a context variable, and plural forms from each catalogue's ``Plural-Forms`` header.

Every entry's ``msgctxt`` is the key of ``bot.text.catalogue.MESSAGES`` (English, the source of truth) and its
``msgid`` the English text; ``python -m bot.text.po`` rewrites the English catalogue from ``MESSAGES`` and adds new
keys to the others. ``en-XA`` is a pseudo-locale for tests: English wrapped in ``⟦ ⟧`` so any text that bypasses
the catalogue stands out.

Nothing here is a bot's setting: the default language, the readers' languages and the command mentions are each
bot's own (``bot.text.languages.Languages``, ``Host.languages``); this module keeps only what is per task.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Final, Literal

from babel import Locale
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from bot.text.catalogue import MESSAGES
from render.labels import set_lister, set_translator

LANGUAGES: Final[tuple[str, ...]] = ("en", "zh-CN", "zh-TW", "ru")
NATIVE_NAMES: Final[dict[str, str]] = {"en": "English", "zh-CN": "简体中文", "zh-TW": "繁體中文", "ru": "Русский"}
PSEUDO: Final = "en-XA"
OPEN, CLOSE = "⟦", "⟧"
BABEL_LOCALES: Final[dict[str, str]] = {"en": "en", "zh-CN": "zh_Hans_CN", "zh-TW": "zh_Hant_TW", "ru": "ru"}
DOMAIN: Final = "boardhost"
LOCALE_DIR: Final = Path(__file__).resolve().parent.parent / "locale"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("boardhost_language", default="en")
_guild: contextvars.ContextVar[int | None] = contextvars.ContextVar("boardhost_guild", default=None)

# Placeholders that stand for a whole slash-command mention: a text that tells a player to use a command names it
# as {back}, and the catalogue fills in Discord's clickable mention (``</game back:ID>``, shown in each reader's
# language) or, without the command's id, the readable ``/game back``. Translators never touch the syntax.
COMMAND_PLACEHOLDERS: Final[dict[str, str]] = {
    "back": "game back",
    "abandon": "game abandon",
    "hand": "hand",
    "carcassonne_new": "carcassonne new",
    "catan_new": "catan new",
    "replay": "game replay",
    "export": "game export",
    "mine": "game mine",
    "settings_notifications": "settings notifications",
    "settings_away": "settings away",
    "stats": "stats",
}
_COMMAND_FIELD = re.compile(r"\{(" + "|".join(COMMAND_PLACEHOLDERS) + r")\}")
Mentioner = Callable[[str, "int | None"], str]  # (qualified command name, guild id) -> how a text names the command
# How a text names a command belongs to the bot that speaks (the command ids synced for it: ``Languages.mentions``),
# yet texts are made deep inside narration, rules and replies that know only the language. So, like the language,
# it rides in the context of the task that speaks: the bot's ``Languages`` puts it there wherever it chooses the
# language (an interaction's parse, ``Languages.speaking``, a sweep's round). Two bots in one process each fill in
# their own; outside any bot (tests, tools, drawing processes) a command reads ``/game back``.
_mentions: contextvars.ContextVar[Mentioner | None] = contextvars.ContextVar("boardhost_mentions", default=None)


def po_path(language: str) -> Path:
    return LOCALE_DIR / language.replace("-", "_") / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalogue(language: str) -> Catalog:
    with po_path(language).open("rb") as f:
        return read_po(f, locale=language.replace("-", "_"), domain=DOMAIN)


Entry = str | tuple[str, ...]


class Translations:
    """One language's texts by key, with its plural rule (``n`` -> index into a plural entry)."""

    def __init__(self, language: str, texts: dict[str, Entry], plural: Callable[[int], int]) -> None:
        self.language = language
        self.texts = texts
        self.plural = plural

    def get(self, key: str) -> Entry | None:
        return self.texts.get(key)


@cache
def translations(language: str) -> Translations:
    if language == PSEUDO:
        return translations("en")
    catalogue = read_catalogue(language)
    texts: dict[str, Entry] = {}
    for message in catalogue:
        if not message.id or message.context is None or message.fuzzy:
            continue
        if isinstance(message.string, tuple | list):
            forms = tuple(message.string)
            if all(forms):
                texts[message.context] = forms
        elif message.string:
            texts[message.context] = message.string
    plural = gettext.c2py(catalogue.plural_expr)
    return Translations(language, texts, plural)


def language() -> str:
    """The language texts are produced in now."""
    return _current.get()


@contextlib.contextmanager
def speaking(lang: str | None, guild: int | None = None) -> Iterator[str]:
    """Produce texts in ``lang`` (a supported language, or anything ``resolve`` understands) inside the block; with
    ``guild``, for that server (command mentions use the ids synced there)."""
    token = _current.set(resolve(lang))
    place = _guild.set(guild) if guild is not None else None
    try:
        yield _current.get()
    finally:
        if place is not None:
            _guild.reset(place)
        _current.reset(token)


def set_language(lang: str | None) -> None:
    """Switch the current context's language (for a task or an interaction handler that owns its context)."""
    _current.set(resolve(lang))


def set_guild(guild_id: int | None) -> None:
    """The server the current context speaks in (its command mentions use the ids synced there, if any)."""
    _guild.set(guild_id)


def set_mentions(mentions: Mentioner | None) -> None:
    """How the current context's texts name commands: ``mentions(qualified name, guild id)`` (None: ``/name``)."""
    _mentions.set(mentions)


@contextlib.contextmanager
def mentioning(mentions: Mentioner | None) -> Iterator[None]:
    """Texts inside the block name commands with ``mentions`` (None: the readable ``/name``)."""
    token = _mentions.set(mentions)
    try:
        yield
    finally:
        _mentions.reset(token)


def command_text(qualified_name: str) -> str:
    """How a text names the slash command ``qualified_name``: its mention in the current server, else ``/name``."""
    mentions = _mentions.get()
    if mentions is not None:
        return mentions(qualified_name, _guild.get())
    return "/" + qualified_name


def resolve(locale: object, default: str = "en") -> str:
    """The supported language for a Discord locale (``discord.Locale`` or its value) or a language code."""
    if locale is None:
        return default
    value = str(getattr(locale, "value", locale))
    if value in LANGUAGES or value == PSEUDO:
        return value
    lowered = value.lower().replace("_", "-")
    if lowered in ("zh-tw", "zh-hk", "zh-hant", "zh-mo"):
        return "zh-TW"
    if lowered.startswith("zh"):
        return "zh-CN"
    if lowered.startswith("ru"):
        return "ru"
    if lowered.startswith("en"):
        return "en"
    return default


def supported(lang: str) -> bool:
    return lang in LANGUAGES or lang == PSEUDO


def text(key: str, lang: str | None = None, /, **params: object) -> str:
    """``key`` in ``lang`` (default: the current language) filled with ``params``; the plural form follows ``count``.

    A key missing from a translation falls back to English (the parity test keeps that from happening)."""
    lang = lang or _current.get()
    entry: Entry | None = translations(lang).get(key) if lang != "en" else None
    plural = translations(lang).plural if entry is not None else translations("en").plural
    if entry is None:
        entry = MESSAGES[key]
    if isinstance(entry, tuple):
        count = params.get("count")
        index = plural(int(count)) if isinstance(count, int | float) else len(entry) - 1
        entry = entry[min(index, len(entry) - 1)]
    for field in _command_fields(entry):
        params.setdefault(field, command_text(COMMAND_PLACEHOLDERS[field]))
    result = entry.format(**params)
    return f"{OPEN}{result}{CLOSE}" if lang == PSEUDO else result


@functools.lru_cache(maxsize=4096)
def _command_fields(entry: str) -> tuple[str, ...]:
    """The command mentions (``{back}``, ...) a text has: found once per text, not at every use."""
    return tuple(match[1] for match in _COMMAND_FIELD.finditer(entry))


ListStyle = Literal["standard", "or", "enumeration"]


_MARK = re.compile("\x00(\\d+)\x01")


def listing(items: Iterable[object], style: ListStyle = "standard", lang: str | None = None) -> str:
    """``items`` as a list in ``lang``'s own way (Babel's ``format_list``): "A, B, and C", 「A、B和C」, "А, Б и В".

    ``style`` is one of Babel's list styles ("standard" joins with "and", "or" with "or"), or "enumeration": the
    language's list separator alone, without a conjunction ("A, B, C", 「A、B、C」), for lists that are not prose
    (scores). Never glue a list with a fixed comma or a translated "and": the separators
    and the conjunction are the language's."""
    lang = lang or _current.get()
    words = [str(item) for item in items]
    if not words:
        return ""
    joints = _joints(BABEL_LOCALES.get(lang, "en"), style, len(words))
    joined = "".join(joint + word for joint, word in zip(joints, [*words, ""], strict=True))
    return f"{OPEN}{joined}{CLOSE}" if lang == PSEUDO and len(words) > 1 else joined


@functools.lru_cache(maxsize=256)
def _joints(locale: str, style: ListStyle, count: int) -> tuple[str, ...]:
    """What goes before the first of ``count`` words, between each two and after the last: the list formatted once
    with marks for words (Babel takes a tenth of a millisecond a list; every message and alt text has several)."""
    marks = [f"\x00{i}\x01" for i in range(count)]
    if style == "enumeration":
        middle = Locale.parse(locale).list_patterns["standard"]["middle"]
        pattern = functools.reduce(lambda a, b: middle.format(a, b), marks)
    else:
        pattern = format_list(marks, style=style, locale=locale)
    return tuple(_MARK.split(pattern)[::2])


def decimal(value: float, places: int = 1, lang: str | None = None) -> str:
    """``value`` with ``places`` decimals as ``lang`` (default: the current language) writes it: "12.5", «12,5»; a
    negative one with a true minus sign ("−0.4"), as ``signed`` writes changes."""
    lang = lang or _current.get()
    pattern = "0." + "0" * places if places else "0"
    locale = BABEL_LOCALES.get(lang, "en")
    shown = format_decimal(abs(value), format=pattern, locale=locale)
    return "−" + shown if value < 0 and shown != format_decimal(0, format=pattern, locale=locale) else shown


def signed(value: float, places: int = 1) -> str:
    """A change with its sign: "+1.5", "−0.3" (a true minus sign), "±0.0" for none at that precision."""
    shown = decimal(abs(value), places)
    if shown == decimal(0, places):
        return "±" + shown
    return ("+" if value > 0 else "−") + shown


def t(key: str, /, **params: object) -> str:
    """The text for ``key`` in the current language (``speaking``) filled with ``params``; the plural form follows
    ``count`` by the language's rule."""
    return text(key, **params)


def _image_label(key: str, params: dict[str, object]) -> str | None:
    return text(f"image.{key}", **params) if f"image.{key}" in MESSAGES else None


def install_image_labels() -> None:
    """Make ``render`` draw its labels from these catalogues and its lists of names in the list format, in the
    language of the current context."""
    set_translator(_image_label)
    set_lister(listing)
