"""Discord's limits as plain functions: each returns a list of problems ``(path, code, message)``, empty if fine.

The fake Discord answers a request with problems as Discord does (400, code 50035, "Invalid Form Body", the
problems nested by path under "errors"); tests that build components without the fake call the same functions.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Problem = tuple[str, str, str]  # ("components.0.components.1.label", code, message)

CONTENT = 2000
NONCE = 25
EMBEDS = 10
EMBED_TOTAL = 6000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
ROWS = 5
ROW_BUTTONS = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
MODAL_INPUTS = 5
MODAL_TITLE = 45
INPUT_LABEL = 45
INPUT_PLACEHOLDER = 100
INPUT_VALUE = 4000
CHOICES = 25
UPLOAD = 10 * 1024 * 1024
ATTACHMENT_DESCRIPTION = 1024  # an image's alt text
# The flags a new channel message may carry: SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS (a silent message, "@silent"),
# IS_VOICE_MESSAGE, IS_COMPONENTS_V2; any other is refused.
SUPPRESS_NOTIFICATIONS = 1 << 12
CREATE_FLAGS = (1 << 2) | SUPPRESS_NOTIFICATIONS | (1 << 13) | (1 << 15)
FILES = 10
COMMANDS = 100
COMMAND_NAME = 32
COMMAND_DESCRIPTION = 100
COMMAND_OPTIONS = 25
COMMAND_TOTAL = 4000  # characters of a command's names, descriptions and choice names/values (per locale)

# https://discord.com/developers/docs/reference#locales
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)

BUTTON, SELECT, TEXT_INPUT, ROW, LABEL, TEXT_DISPLAY = 2, 3, 4, 1, 18, 10
SELECTS = frozenset({3, 5, 6, 7, 8})


def _long(path: str, limit: int) -> Problem:
    return (path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _bad(path: str, code: str, message: str) -> Problem:
    return (path, code, message)


def _text(value: Any, path: str, limit: int, *, least: int = 0) -> list[Problem]:
    if value is None:
        return []
    if not isinstance(value, str):
        return [_bad(path, "BASE_TYPE_STRING", "Must be a string.")]
    if len(value) > limit:
        return [_long(path, limit)]
    if len(value) < least:
        return [_bad(path, "BASE_TYPE_MIN_LENGTH", f"Must be {least} or more in length.")]
    return []


def check_embeds(embeds: Sequence[Mapping[str, Any]] | None, path: str = "embeds") -> list[Problem]:
    if not embeds:
        return []
    problems: list[Problem] = []
    if len(embeds) > EMBEDS:
        problems.append(_long(path, EMBEDS))
    total = 0
    for i, embed in enumerate(embeds):
        p = f"{path}.{i}"
        for key, limit in (("title", EMBED_TITLE), ("description", EMBED_DESCRIPTION)):
            problems += _text(embed.get(key), f"{p}.{key}", limit)
            total += len(embed.get(key) or "")
        footer = (embed.get("footer") or {}).get("text")
        problems += _text(footer, f"{p}.footer.text", FOOTER)
        author = (embed.get("author") or {}).get("name")
        problems += _text(author, f"{p}.author.name", AUTHOR)
        total += len(footer or "") + len(author or "")
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            problems.append(_long(f"{p}.fields", EMBED_FIELDS))
        for j, field in enumerate(fields):
            problems += _text(field.get("name"), f"{p}.fields.{j}.name", FIELD_NAME, least=1)
            problems += _text(field.get("value"), f"{p}.fields.{j}.value", FIELD_VALUE, least=1)
            total += len(field.get("name") or "") + len(field.get("value") or "")
    if total > EMBED_TOTAL:
        problems.append(_bad(path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL}"))
    return problems


def _custom_id(component: Mapping[str, Any], path: str, seen: set[str]) -> list[Problem]:
    value = component.get("custom_id")
    if value is None:
        return [_bad(f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")]
    problems = _text(value, f"{path}.custom_id", CUSTOM_ID, least=1)
    if value in seen:
        problems.append(
            _bad(f"{path}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
        )
    seen.add(value)
    return problems


def _select(component: Mapping[str, Any], path: str, seen: set[str]) -> list[Problem]:
    problems = _custom_id(component, path, seen)
    problems += _text(component.get("placeholder"), f"{path}.placeholder", PLACEHOLDER)
    if component.get("type") == SELECT:
        options = component.get("options") or []
        if not 1 <= len(options) <= OPTIONS:
            problems.append(
                _bad(f"{path}.options", "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {OPTIONS} in length.")
            )
        values: set[str] = set()
        for k, opt in enumerate(options):
            problems += _text(opt.get("label"), f"{path}.options.{k}.label", OPTION_TEXT, least=1)
            problems += _text(opt.get("value"), f"{path}.options.{k}.value", OPTION_TEXT, least=1)
            problems += _text(opt.get("description"), f"{path}.options.{k}.description", OPTION_TEXT)
            if opt.get("value") in values:
                problems.append(
                    _bad(
                        f"{path}.options.{k}.value",
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Option values must be unique",
                    )
                )
            values.add(opt.get("value"))
        most = component.get("max_values", 1)
        if isinstance(most, int) and options and most > len(options):
            problems.append(
                _bad(
                    f"{path}.max_values", "BASE_TYPE_MAX", f"int value should be less than or equal to {len(options)}."
                )
            )
    return problems


def check_components(components: Sequence[Mapping[str, Any]] | None, path: str = "components") -> list[Problem]:
    """A message's components: action rows of buttons or a single select."""
    if not components:
        return []
    problems: list[Problem] = []
    if len(components) > ROWS:
        problems.append(_long(path, ROWS))
    seen: set[str] = set()
    for i, row in enumerate(components):
        p = f"{path}.{i}"
        if row.get("type") != ROW:
            problems.append(_bad(f"{p}.type", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Top-level components must be rows"))
            continue
        children = row.get("components") or []
        if not children:
            problems.append(_bad(f"{p}.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
        kinds = {c.get("type") for c in children}
        if kinds & SELECTS and len(children) > 1:
            problems.append(
                _bad(f"{p}.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select must be alone in its row")
            )
        if len(children) > ROW_BUTTONS:
            problems.append(_long(f"{p}.components", ROW_BUTTONS))
        for j, child in enumerate(children):
            q = f"{p}.components.{j}"
            if child.get("type") == BUTTON:
                problems += _text(child.get("label"), f"{q}.label", BUTTON_LABEL)
                if child.get("style") == 5:
                    if not child.get("url"):
                        problems.append(_bad(f"{q}.url", "BASE_TYPE_REQUIRED", "This field is required"))
                elif child.get("style") != 6:
                    problems += _custom_id(child, q, seen)
                if not child.get("label") and not child.get("emoji"):
                    problems.append(_bad(f"{q}.label", "BASE_TYPE_REQUIRED", "A button needs a label or an emoji"))
            elif child.get("type") in SELECTS:
                problems += _select(child, q, seen)
            else:
                problems.append(
                    _bad(
                        f"{q}.type",
                        "UNION_TYPE_CHOICES",
                        f"Value of type {child.get('type')} is not allowed in a message row",
                    )
                )
    return problems


def check_message(payload: Mapping[str, Any], files: Sequence[tuple[str, int]] = ()) -> list[Problem]:
    """A message to create or edit (``files``: (name, size in bytes) of its uploads)."""
    problems = _text(payload.get("content"), "content", CONTENT)
    if isinstance(payload.get("nonce"), str):
        problems += _text(payload["nonce"], "nonce", NONCE)
    problems += check_embeds(payload.get("embeds"))
    problems += check_components(payload.get("components"))
    for i, attachment in enumerate(payload.get("attachments") or []):
        problems += _text(attachment.get("description"), f"attachments.{i}.description", ATTACHMENT_DESCRIPTION)
    if len(files) > FILES:
        problems.append(_long("files", FILES))
    for i, (name, size) in enumerate(files):
        if size > UPLOAD:
            problems.append(_bad(f"files.{i}", "FILE_TOO_LARGE", f"{name}: {size} bytes, over {UPLOAD}"))
    return problems


def check_flags(flags: Any, allowed: int = CREATE_FLAGS) -> list[Problem]:
    """A new message's ``flags``: only the ones Discord lets a bot set."""
    value = int(flags or 0)
    if value & ~allowed:
        return [_bad("flags", "MESSAGE_FLAGS_INVALID", f"flags {value:#x} include some a message cannot be sent with")]
    return []


def check_modal(data: Mapping[str, Any]) -> list[Problem]:
    """The data of a modal answer (type 9)."""
    problems = _text(data.get("title"), "data.title", MODAL_TITLE, least=1)
    problems += _text(data.get("custom_id"), "data.custom_id", CUSTOM_ID, least=1)
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_INPUTS:
        problems.append(
            _bad("data.components", "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MODAL_INPUTS} in length.")
        )
    seen: set[str] = set()
    for i, top in enumerate(components):
        p = f"data.components.{i}"
        if top.get("type") == ROW:
            children = top.get("components") or []
            if len(children) != 1:
                problems.append(_bad(f"{p}.components", "BASE_TYPE_BAD_LENGTH", "A modal row holds one text input"))
            inner = [(f"{p}.components.{j}", c, c.get("label")) for j, c in enumerate(children)]
        elif top.get("type") == LABEL:
            problems += _text(top.get("label"), f"{p}.label", INPUT_LABEL, least=1)
            problems += _text(top.get("description"), f"{p}.description", OPTION_TEXT)
            inner = [(f"{p}.component", top.get("component") or {}, None)]
        elif top.get("type") == TEXT_DISPLAY:
            inner = []
        else:
            problems.append(
                _bad(f"{p}.type", "UNION_TYPE_CHOICES", f"Value of type {top.get('type')} is not allowed in a modal")
            )
            continue
        for q, child, label in inner:
            if child.get("type") == TEXT_INPUT:
                if top.get("type") == ROW:
                    problems += _text(label, f"{q}.label", INPUT_LABEL, least=1)
                problems += _custom_id(child, q, seen)
                problems += _text(child.get("placeholder"), f"{q}.placeholder", INPUT_PLACEHOLDER)
                problems += _text(child.get("value"), f"{q}.value", INPUT_VALUE)
            elif child.get("type") in SELECTS:
                problems += _select(child, q, seen)
            else:
                problems.append(_bad(f"{q}.type", "UNION_TYPE_CHOICES", "Not an input"))
    return problems


def check_choices(choices: Sequence[Mapping[str, Any]], path: str = "data.choices") -> list[Problem]:
    """An autocomplete answer's choices."""
    problems: list[Problem] = []
    if len(choices) > CHOICES:
        problems.append(_long(path, CHOICES))
    for i, choice in enumerate(choices):
        problems += _text(choice.get("name"), f"{path}.{i}.name", OPTION_TEXT, least=1)
        if isinstance(choice.get("value"), str):
            problems += _text(choice.get("value"), f"{path}.{i}.value", OPTION_TEXT)
    return problems


def _name_ok(name: Any) -> bool:
    """``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where a letter has a lowercase form."""
    if not isinstance(name, str) or not 1 <= len(name) <= COMMAND_NAME:
        return False
    for ch in name:
        category = unicodedata.category(ch)
        if not (ch in "-_" or category[0] in "LN" or category in ("Mn", "Mc")):
            return False
    return name == name.lower()


def _localised(item: Mapping[str, Any], path: str, key: str, *, least: int, limit: int, is_name: bool) -> list[Problem]:
    problems: list[Problem] = []
    values = [(f"{path}.{key}", item.get(key))]
    locs = item.get(f"{key}_localizations") or {}
    for locale, text in locs.items():
        if locale not in LOCALES:
            problems.append(
                _bad(f"{path}.{key}_localizations.{locale}", "LOCALE_INVALID", f"Invalid locale {locale!r}")
            )
        values.append((f"{path}.{key}_localizations.{locale}", text))
    for p, text in values:
        if is_name:
            if not _name_ok(text):
                problems.append(_bad(p, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {text!r}"))
        else:
            problems += _text(text, p, limit, least=least)
            if text is None:
                problems.append(_bad(p, "BASE_TYPE_REQUIRED", "This field is required"))
    return problems


def _length(item: Mapping[str, Any]) -> int:
    total = len(item.get("name") or "") + len(item.get("description") or "")
    for choice in item.get("choices") or []:
        total += len(choice.get("name") or "") + len(str(choice.get("value") or ""))
    return total + sum(_length(o) for o in item.get("options") or [])


def _check_options(options: Sequence[Mapping[str, Any]], path: str, depth: int) -> list[Problem]:
    problems: list[Problem] = []
    if len(options) > COMMAND_OPTIONS:
        problems.append(_long(path, COMMAND_OPTIONS))
    names: set[str] = set()
    optional = False
    for i, opt in enumerate(options):
        p = f"{path}.{i}"
        problems += _localised(opt, p, "name", least=1, limit=COMMAND_NAME, is_name=True)
        problems += _localised(opt, p, "description", least=1, limit=COMMAND_DESCRIPTION, is_name=False)
        if opt.get("name") in names:
            problems.append(
                _bad(f"{p}.name", "APPLICATION_COMMAND_OPTION_NAME_NOT_UNIQUE", "Option names must be unique")
            )
        names.add(str(opt.get("name")))
        if opt.get("type") in (1, 2):
            if depth >= 2 or (opt.get("type") == 2 and depth >= 1):
                problems.append(_bad(f"{p}.type", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Nested too deep"))
            problems += _check_options(opt.get("options") or [], f"{p}.options", depth + 1)
            continue
        if opt.get("required"):
            if optional:
                problems.append(
                    _bad(
                        f"{p}.required",
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            optional = True
        choices = opt.get("choices") or []
        if len(choices) > CHOICES:
            problems.append(_long(f"{p}.choices", CHOICES))
        for k, choice in enumerate(choices):
            problems += _localised(choice, f"{p}.choices.{k}", "name", least=1, limit=OPTION_TEXT, is_name=False)
            if isinstance(choice.get("value"), str):
                problems += _text(choice.get("value"), f"{p}.choices.{k}.value", OPTION_TEXT)
        if choices and opt.get("autocomplete"):
            problems.append(
                _bad(f"{p}.autocomplete", "AUTOCOMPLETE_AND_CHOICES", "Autocomplete and choices cannot both be set")
            )
    return problems


def check_commands(commands: Sequence[Mapping[str, Any]]) -> list[Problem]:
    """A bulk overwrite of application commands."""
    problems: list[Problem] = []
    if len(commands) > COMMANDS:
        problems.append(_long("", COMMANDS))
    names: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        p = str(i)
        kind = cmd.get("type", 1)
        if kind == 1:
            problems += _localised(cmd, p, "name", least=1, limit=COMMAND_NAME, is_name=True)
            problems += _localised(cmd, p, "description", least=1, limit=COMMAND_DESCRIPTION, is_name=False)
            problems += _check_options(cmd.get("options") or [], f"{p}.options", 0)
            if _length(cmd) > COMMAND_TOTAL:
                problems.append(
                    _bad(p, "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({COMMAND_TOTAL})")
                )
        elif not isinstance(cmd.get("name"), str) or not 1 <= len(cmd["name"]) <= COMMAND_NAME:
            problems.append(_bad(f"{p}.name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length."))
        key = (kind, str(cmd.get("name")))
        if key in names:
            problems.append(
                _bad(
                    f"{p}.name",
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique: {key[1]}",
                )
            )
        names.add(key)
    return problems


def error_body(problems: Iterable[Problem]) -> dict[str, Any]:
    """Discord's answer to an invalid request: problems nested by path under ``errors``."""
    errors: dict[str, Any] = {}
    for path, code, message in problems:
        node = errors
        for part in [p for p in path.split(".") if p]:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return {"code": 50035, "errors": errors, "message": "Invalid Form Body"}


_WORD = re.compile(r"\s+")


def describe(problems: Iterable[Problem]) -> str:
    return "; ".join(f"{path or '(body)'}: {code} {_WORD.sub(' ', message)}" for path, code, message in problems)
