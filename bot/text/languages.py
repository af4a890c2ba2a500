"""One bot's languages: its default language (``[bot] default_language``), the language each reader last used, and
how its texts name slash commands (the command ids synced for it).

The host owns one (``Host.languages``, built in ``bot.app``'s set-up) and the code that chooses a language asks it;
nothing here is process-wide, so two bots in one process (the tests' second shard process) never disturb each other.
The language being spoken stays per task in ``bot.text.i18n``'s context variables, like gettext's.
"""

from __future__ import annotations

import collections
import contextlib
from collections.abc import Iterator
from typing import Final

from bot.text.i18n import Mentioner, mentioning, resolve, set_guild, set_language, set_mentions, speaking

READERS: Final = 10_000  # users whose last locale is remembered (the least recently seen are forgotten first)


class Languages:
    """The language settings of one bot: ``default`` for games whose server has no supported preferred locale,
    ``mentions`` (qualified command name, guild id) -> the command's clickable mention (None: the readable ``/name``),
    and the last language of at most ``readers`` users (their direct messages use it)."""

    def __init__(self, default: str = "en", mentions: Mentioner | None = None, *, readers: int = READERS) -> None:
        self.default = resolve(default)
        self.mentions = mentions
        self.readers = readers
        self._seen: collections.OrderedDict[int, str] = collections.OrderedDict()

    def resolve(self, locale: object) -> str:
        """The supported language for a Discord locale or a language code; this bot's default for anything else."""
        return resolve(locale, default=self.default)

    def game_language(self, stored: str | None, guild_locale: object = None) -> str:
        """A game's public language: the one stored for it, else the server's preferred locale, else the default."""
        if stored:
            return self.resolve(stored)
        return self.resolve(guild_locale) if guild_locale is not None else self.default

    def remember(self, user_id: int, lang: str) -> None:
        """The language a user last interacted in (direct messages use it). At most ``readers`` users are
        remembered: the one seen least recently is forgotten first (their DMs fall back to the game's language)."""
        self._seen[user_id] = lang
        self._seen.move_to_end(user_id)
        while len(self._seen) > self.readers:
            self._seen.popitem(last=False)

    def reader_language(self, user_id: int, fallback: str | None = None) -> str:
        """The language of direct messages to ``user_id``: their last interaction's locale, else ``fallback``."""
        known = self._seen.get(user_id)
        if known is not None:
            self._seen.move_to_end(user_id)
            return known
        return self.resolve(fallback)

    def remembered(self) -> int:
        """How many readers' languages are remembered."""
        return len(self._seen)

    def hear(self, locale: object, user_id: int | None, guild_id: int | None) -> str:
        """An interaction arrives: the current context (its handler's own) speaks its reader's language, in its
        server, naming commands as this bot does; the reader's language is remembered for their DMs."""
        lang = self.resolve(locale)
        if user_id is not None:
            self.remember(user_id, lang)
        set_language(lang)
        set_guild(guild_id)
        set_mentions(self.mentions)
        return lang

    @contextlib.contextmanager
    def speaking(self, lang: str | None, guild: int | None = None) -> Iterator[str]:
        """Texts inside the block are in ``lang`` (``bot.text.i18n.speaking``) and name commands as this bot does
        (with ``guild``: the ids synced in that server)."""
        with mentioning(self.mentions), speaking(lang, guild) as spoken:
            yield spoken

    def of_game(self, stored: str | None, guild: int | None = None) -> contextlib.AbstractContextManager[str]:
        """Speak a game's public language (``game_language``) inside the block: for what its channel reads."""
        return self.speaking(self.game_language(stored), guild)

    def of_reader(self, user_id: int, fallback: str | None) -> contextlib.AbstractContextManager[str]:
        """Speak ``user_id``'s language (``reader_language``) inside the block: for a direct message to them."""
        return self.speaking(self.reader_language(user_id, fallback))

    @contextlib.contextmanager
    def mentioning(self) -> Iterator[None]:
        """Texts inside the block (a sweep's round) name commands as this bot does, in whatever language."""
        with mentioning(self.mentions):
            yield
