"""What a person does on the page, as the interaction Discord would send, after the checks Discord's client makes
before it sends anything: a required option left empty, a number out of its range, a value that is not one of the
option's choices, a select given more values than it takes, a form's required field left empty or too long. Those
never reach the bot; the page says what is wrong, in the person's language (``Refused``).

The slash commands are those registered with the loopback (``python -m bot sync``), shown and checked as their
registration says: names and descriptions in the person's Discord language, options typed by their declared type.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bot.local.loopback import FakeDiscord, Message, payloads

SUBCOMMAND, GROUP, TEXT, WHOLE, TRUTH, USER, NUMBER = 1, 2, 3, 4, 5, 6, 10
SELECT = payloads.SELECT


class Refused(Exception):
    """What the Discord client would not send: a ``try.*`` text of the catalogue and its parameters."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = {name: str(value) for name, value in params.items()}


def local(item: Mapping[str, Any], key: str, locale: str) -> str:
    """``item[key]`` as Discord shows it in ``locale`` (its ``<key>_localizations`` entry, else itself)."""
    return str((item.get(f"{key}_localizations") or {}).get(locale) or item.get(key) or "")


def registered(fake: FakeDiscord) -> list[dict[str, Any]]:
    """The slash commands people can use in the server: its own, then the global ones not shadowed."""
    found: dict[str, dict[str, Any]] = {}
    for scope in (fake.guild_id, None):
        for cmd in fake.commands.get(scope, []):
            if cmd.get("type", 1) == 1:
                found.setdefault(cmd["name"], cmd)
    return list(found.values())


def _leaves(cmd: dict[str, Any]) -> Iterator[tuple[list[dict[str, Any]], dict[str, Any]]]:
    """Each command a person can run: the chain of names (command, group, subcommand) and the last one's spec."""
    subs = [o for o in cmd.get("options") or [] if o["type"] in (SUBCOMMAND, GROUP)]
    if not subs:
        yield [cmd], cmd
    for sub in subs:
        if sub["type"] == SUBCOMMAND:
            yield [cmd, sub], sub
        else:
            for leaf in sub.get("options") or []:
                yield [cmd, sub, leaf], leaf


def option(spec: dict[str, Any], locale: str) -> dict[str, Any]:
    """An option as the page offers it."""
    return {
        "name": spec["name"],
        "label": local(spec, "name", locale),
        "description": local(spec, "description", locale),
        "type": spec["type"],
        "required": bool(spec.get("required")),
        "autocomplete": bool(spec.get("autocomplete")),
        "choices": [{"label": local(c, "name", locale), "value": c["value"]} for c in spec.get("choices") or []],
        **{k: spec[k] for k in ("min_value", "max_value", "min_length", "max_length") if k in spec},
    }


def menu(fake: FakeDiscord, locale: str) -> list[dict[str, Any]]:
    """Every slash command as a person whose Discord speaks ``locale`` sees it when they type ``/``."""
    entries = []
    for cmd in registered(fake):
        for chain, leaf in _leaves(cmd):
            entries.append(
                {
                    "path": [part["name"] for part in chain],
                    "label": "/" + " ".join(local(part, "name", locale) for part in chain),
                    "description": local(leaf, "description", locale),
                    "options": [option(o, locale) for o in leaf.get("options") or []],
                }
            )
    return sorted(entries, key=lambda entry: entry["label"])


def _spec(fake: FakeDiscord, path: Sequence[str]) -> dict[str, Any]:
    for cmd in registered(fake):
        for chain, leaf in _leaves(cmd):
            if [part["name"] for part in chain] == list(path):
                return leaf
    raise Refused("try.no_command")


def command_label(fake: FakeDiscord, data: Mapping[str, Any], locale: str) -> str:
    """``/game status`` from a command interaction's data, in ``locale``."""
    path = [str(data.get("name"))]
    node: Mapping[str, Any] = data
    while True:
        sub = next((o for o in node.get("options") or [] if o.get("type") in (SUBCOMMAND, GROUP)), None)
        if sub is None:
            break
        path.append(str(sub["name"]))
        node = sub
    for cmd in registered(fake):
        for chain, _ in _leaves(cmd):
            if [part["name"] for part in chain] == path:
                return "/" + " ".join(local(part, "name", locale) for part in chain)
    return "/" + " ".join(path)


def _typed(spec: dict[str, Any], raw: Any, label: str, users: Mapping[int, Any]) -> Any:
    """One option's value as its type says, or ``Refused`` with what the client would say."""
    kind = spec["type"]
    low, high = spec.get("min_value"), spec.get("max_value")
    value: Any
    if kind in (WHOLE, NUMBER):
        text = str(raw).strip()
        try:
            value = int(text) if kind == WHOLE else float(text)
        except ValueError:
            raise Refused("try.not_whole" if kind == WHOLE else "try.not_number", option=label) from None
        if (low is not None and value < low) or (high is not None and value > high):
            raise Refused("try.out_of_range", option=label, low=low if low is not None else "…", high=high or "…")
    elif kind == TRUTH:
        if str(raw).lower() not in ("true", "false"):
            raise Refused("try.not_a_choice", option=label)
        value = str(raw).lower() == "true"
    elif kind == USER:
        if not str(raw).isdigit() or int(str(raw)) not in users:
            raise Refused("try.not_a_choice", option=label)
        value = int(str(raw))
    elif kind == TEXT:
        value = str(raw)
        least, most = spec.get("min_length", 0), spec.get("max_length", 6000)
        if len(value) > most:
            raise Refused("try.too_long", option=label, most=most)
        if len(value) < least:
            raise Refused("try.too_short", option=label, least=least)
    else:
        raise Refused("try.not_a_choice", option=label)
    choices = [c["value"] for c in spec.get("choices") or []]
    if choices and value not in choices:
        raise Refused("try.not_a_choice", option=label)
    return value


def options(
    fake: FakeDiscord, path: Sequence[str], raw: Mapping[str, Any], locale: str, *, focused: str | None = None
) -> dict[str, Any]:
    """The options of the command at ``path`` typed as registered, from what the person filled in (``raw``: option
    name -> text). With ``focused`` (autocomplete), that option goes as typed and the others only when valid, as
    Discord sends them while a person types."""
    spec = _spec(fake, path)
    declared = {o["name"]: o for o in spec.get("options") or []}
    unknown = [name for name in raw if name not in declared]
    if unknown:
        raise Refused("try.no_command")
    typed: dict[str, Any] = {}
    for name, item in declared.items():
        value = raw.get(name)
        label = local(item, "name", locale)
        if name == focused:
            typed[name] = "" if value is None else str(value)
            continue
        if value is None or (isinstance(value, str) and not value.strip()):
            if item.get("required") and focused is None:
                raise Refused("try.required", option=label)
            continue
        try:
            typed[name] = _typed(item, value, label, fake.users)
        except Refused:
            if focused is None:
                raise
    return typed


def choices(answer: Mapping[str, Any] | None, locale: str) -> list[dict[str, Any]]:
    """An autocomplete answer's choices as the person sees them (their language's names)."""
    data = (answer or {}).get("data") or {}
    return [{"label": local(c, "name", locale), "value": c["value"]} for c in data.get("choices") or []]


def _components(msg: Message) -> Iterator[dict[str, Any]]:
    for row in msg.components:
        yield from row.get("components", [])


def component(msg: Message, custom_id: str) -> dict[str, Any]:
    """The enabled component ``custom_id`` of ``msg`` (a disabled one cannot be used on Discord)."""
    found = next((c for c in _components(msg) if c.get("custom_id") == custom_id), None)
    if found is None or found.get("disabled"):
        raise Refused("try.gone")
    return found


def picked(select: Mapping[str, Any], values: Sequence[str]) -> list[str]:
    """The values picked in a select: offered, distinct, as many as it takes."""
    if select.get("type") != SELECT:
        raise Refused("try.gone")
    offered = {o["value"] for o in select.get("options") or []}
    least, most = select.get("min_values", 1), select.get("max_values", 1)
    if len(set(values)) != len(values) or not set(values) <= offered or not least <= len(values) <= most:
        raise Refused("try.gone")
    return list(values)


def _inputs(modal: Mapping[str, Any]) -> Iterator[tuple[dict[str, Any], str]]:
    """Each text input of a form with its label."""
    for top in modal.get("components") or []:
        if top.get("type") == payloads.ROW:
            for child in top.get("components") or []:
                yield child, str(child.get("label") or "")
        elif top.get("type") == payloads.LABEL:
            yield top.get("component") or {}, str(top.get("label") or "")


def filled(modal: Mapping[str, Any], values: Mapping[str, str]) -> dict[str, str]:
    """A form's values as typed, after the client's checks of each field (required, its length)."""
    out: dict[str, str] = {}
    for field, label in _inputs(modal):
        value = str(values.get(field["custom_id"], ""))
        least, most = field.get("min_length") or 0, field.get("max_length") or payloads.INPUT_VALUE
        if not value and field.get("required", True):
            raise Refused("try.required", option=label)
        if value and not least <= len(value) <= most:
            raise Refused("try.field_length", option=label, least=least, most=most)
        out[field["custom_id"]] = value
    return out
