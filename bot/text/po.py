"""Keep the gettext catalogues in step with ``MESSAGES``: ``python -m bot.text.po``.

Writes ``bot/locale/en/LC_MESSAGES/boardhost.po`` from ``MESSAGES`` and, in every other language, adds new keys
(untranslated), marks fuzzy any whose English changed, and drops keys that are gone. Translators edit the ``.po``
files (msgctxt is the key; keep every ``{parameter}``).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Mapping
from datetime import UTC, datetime

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from bot.text.catalogue import MESSAGES
from bot.text.i18n import DOMAIN, LANGUAGES, Entry, po_path, read_catalogue

_FIXED = datetime(2025, 1, 1, tzinfo=UTC)  # stable headers: regenerating changes nothing unless a text does


def _msgid(english: Entry) -> str | tuple[str, str]:
    return english if isinstance(english, str) else (english[0], english[1])


def new_catalogue(language: str) -> Catalog:
    return Catalog(
        locale=language.replace("-", "_"),
        domain=DOMAIN,
        project="boardhost",
        version="1",
        copyright_holder="boardhost",
        msgid_bugs_address="",
        charset="utf-8",
        fuzzy=False,
        creation_date=_FIXED,
        revision_date=_FIXED,
    )


def build(language: str, translated: Mapping[str, Entry], fuzzy: set[str] | None = None) -> Catalog:
    """A catalogue holding every key of ``MESSAGES`` in order, with ``translated`` texts where given."""
    catalogue = new_catalogue(language)
    for key, english in MESSAGES.items():
        value = translated.get(key)
        if language == "en":
            value = english
        if isinstance(english, tuple):
            forms = catalogue.num_plurals
            string: str | tuple[str, ...] = tuple(value) if isinstance(value, tuple) else ("",) * forms
            if language == "en":
                string = (english[0], english[1])
        else:
            string = value if isinstance(value, str) else ""
        catalogue.add(_msgid(english), string, context=key, flags=("fuzzy",) if fuzzy and key in fuzzy else ())
    return catalogue


def save(language: str, catalogue: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalogue, width=120, omit_header=False, sort_output=False)
    path = po_path(language)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def existing(language: str) -> tuple[dict[str, Entry], set[str]]:
    """The translations a catalogue holds by key, and the keys whose English has changed since (now fuzzy)."""
    if not po_path(language).exists():
        return {}, set()
    texts: dict[str, Entry] = {}
    stale: set[str] = set()
    for message in read_catalogue(language):
        key = message.context
        if not message.id or key is None or key not in MESSAGES:
            continue
        texts[key] = tuple(message.string) if isinstance(message.string, tuple | list) else message.string or ""
        if message.fuzzy or message.id != _msgid(MESSAGES[key]):
            stale.add(key)
    return texts, stale


def sync() -> None:
    save("en", build("en", {}))
    for language in LANGUAGES[1:]:
        texts, stale = existing(language)
        save(language, build(language, texts, stale))


def main(argv: list[str] | None = None) -> int:
    import argparse

    argparse.ArgumentParser(
        prog="python -m bot.text.po",
        description="Bring the gettext catalogues (bot/locale/*/LC_MESSAGES/boardhost.po) in step with MESSAGES in "
        "bot/text/catalogue.py: rewrite the English one, and in every other language add new keys untranslated, "
        "mark fuzzy the keys whose English changed and drop the keys that are gone. Takes no arguments.",
    ).parse_args(argv)
    try:
        sync()
    except OSError as err:
        sys.stderr.write(f"cannot write the catalogues: {err}\n")
        return 2
    for language in LANGUAGES:
        print(po_path(language))
    return 0


if __name__ == "__main__":
    sys.exit(main())
