"""Slash command localisation: a discord.py ``Translator`` that reads command names, descriptions, option names,
option descriptions and choices from the message catalogues.

Keys follow the command tree: ``slash.<qualified name with dots>.name`` and ``.description``, ``.<option>.name``
and ``.<option>.description`` under the command, and ``slash.choice.<command>.<option>.<value>`` for choices.
English is the source (the strings in the code) and is never translated; a key without a translation gives None,
so Discord shows the English text.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.text.catalogue import MESSAGES
from bot.text.i18n import LANGUAGES, resolve, text


def _command_path(command: object) -> str:
    qualified = getattr(command, "qualified_name", "")
    return "slash." + ".".join(str(qualified).split())


def key_for(string: app_commands.locale_str, context: app_commands.TranslationContext[Any, Any]) -> str | None:
    """The catalogue key a command string is translated by (None for strings the catalogue does not hold)."""
    location, data = context.location, context.data
    tcl = app_commands.TranslationContextLocation
    if location in (tcl.command_name, tcl.group_name):
        return _command_path(data) + ".name"
    if location in (tcl.command_description, tcl.group_description):
        return _command_path(data) + ".description"
    if location == tcl.parameter_name:
        return _command_path(data.command) + f".{data.name}.name"
    if location == tcl.parameter_description:
        return _command_path(data.command) + f".{data.name}.description"
    if location == tcl.choice_name:
        value = getattr(data, "value", string.message)
        return f"slash.choice.{string.extras.get('key', value)}"
    return None


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        lang = resolve(locale, default="")
        if lang not in LANGUAGES or lang == "en":
            return None
        key = key_for(string, context)
        if key is None or key not in MESSAGES:
            return None
        return text(key, lang)


def command_strings(tree: app_commands.CommandTree[Any]) -> dict[str, str]:
    """Every localisable command string of ``tree`` by catalogue key, with its English text."""
    found: dict[str, str] = {}
    for command in tree.walk_commands():
        path = _command_path(command)
        found[path + ".name"] = command.name
        found[path + ".description"] = str(command.description)
        if isinstance(command, app_commands.Command):
            for param in command.parameters:
                found[f"{path}.{param.name}.name"] = param.name
                found[f"{path}.{param.name}.description"] = str(param.description)
                for choice in param.choices:
                    named = choice._locale_name  # a choice may name its own key (``locale_str(..., key=...)``)
                    key = named.extras.get("key", choice.value) if named is not None else choice.value
                    found[f"slash.choice.{key}"] = str(choice.name)
    return found
