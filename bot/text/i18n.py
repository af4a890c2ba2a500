"""Languages: gettext catalogues (``bot/locale/<lang>/LC_MESSAGES/boardhost.po``) read with Babel, the current
language in a context variable, and plural forms from each catalogue's ``Plural-Forms`` header.

Every entry's ``msgctxt`` is the key of ``bot.text.catalogue.MESSAGES`` (English, the source of truth) and its
``msgid`` the English text; ``python -m bot.text.po`` rewrites the English catalogue from ``MESSAGES`` and adds new
keys to the others. ``en-XA`` is a pseudo-locale for tests: English wrapped in ``⟦ ⟧`` so any text that bypasses
the catalogue stands out.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import gettext
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.text.catalogue import MESSAGES
from render.labels import set_translator

LANGUAGES: Final[tuple[str, ...]] = ("en", "zh-CN", "zh-TW", "ru")
NATIVE_NAMES: Final[dict[str, str]] = {"en": "English", "zh-CN": "简体中文", "zh-TW": "繁體中文", "ru": "Русский"}
PSEUDO: Final = "en-XA"
OPEN, CLOSE = "⟦", "⟧"
DOMAIN: Final = "boardhost"
LOCALE_DIR: Final = Path(__file__).resolve().parent.parent / "locale"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("boardhost_language", default="en")


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
def speaking(lang: str | None) -> Iterator[str]:
    """Produce texts in ``lang`` (a supported language, or anything ``resolve`` understands) inside the block."""
    token = _current.set(resolve(lang))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def set_language(lang: str | None) -> None:
    """Switch the current context's language (for a task or an interaction handler that owns its context)."""
    _current.set(resolve(lang))


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


_default = ["en"]
READERS: Final = 10_000  # users whose last locale is remembered (the least recently seen are forgotten first)
_readers: collections.OrderedDict[int, str] = collections.OrderedDict()


def set_default_language(lang: str) -> None:
    """The configured language for games whose server has no supported preferred locale."""
    _default[0] = resolve(lang)


def default_language() -> str:
    return _default[0]


def game_language(stored: str | None, guild_locale: object = None) -> str:
    """A game's public language: the one stored for it, else the server's preferred locale, else the default."""
    if stored:
        return resolve(stored, default=_default[0])
    return resolve(guild_locale, default=_default[0]) if guild_locale is not None else _default[0]


def remember_locale(user_id: int, lang: str) -> None:
    """The language a user last interacted in (direct messages use it). At most ``READERS`` users are remembered:
    the one seen least recently is forgotten first (their DMs fall back to the game's language)."""
    _readers[user_id] = lang
    _readers.move_to_end(user_id)
    while len(_readers) > READERS:
        _readers.popitem(last=False)


def reader_language(user_id: int, fallback: str | None = None) -> str:
    """The language of direct messages to ``user_id``: their last interaction's locale, else ``fallback``."""
    known = _readers.get(user_id)
    if known is not None:
        _readers.move_to_end(user_id)
        return known
    return resolve(fallback, default=_default[0])


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
    result = entry.format(**params)
    return f"{OPEN}{result}{CLOSE}" if lang == PSEUDO else result


def t(key: str, /, **params: object) -> str:
    """The text for ``key`` in the current language (``speaking``) filled with ``params``; the plural form follows
    ``count`` by the language's rule."""
    return text(key, **params)


def _image_label(key: str, params: dict[str, object]) -> str | None:
    return text(f"image.{key}", **params) if f"image.{key}" in MESSAGES else None


def install_image_labels() -> None:
    """Make ``render`` draw its labels from these catalogues, in the language of the current context."""
    set_translator(_image_label)
