"""Who a message pings, by Discord's rules, for the fake to record with each message (and tests to assert on).

https://discord.com/developers/docs/resources/message#allowed-mentions-object

- Only the content pings (never an embed, a button or a name shown anywhere else): ``<@id>`` and ``<@!id>`` a
  user, ``<@&id>`` a role, ``@everyone`` and ``@here`` everybody in the channel.
- Without ``allowed_mentions`` every mention in the content pings. With it, only what it allows: ``parse`` lists the
  kinds parsed from the content (``users``, ``roles``, ``everyone``), ``users`` and ``roles`` list the ids that may
  be pinged (at most 100 each, and not together with the same kind in ``parse``); an empty object pings nobody.
- ``replied_user`` (default false) pings the author of the message replied to.

The fake does not model role mentionability or the Mention Everyone permission (the bot has it on a typical server):
what is allowed here is what would ping there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.local.loopback.payloads import Problem

USER = re.compile(r"<@!?(\d{1,20})>")
ROLE = re.compile(r"<@&(\d{1,20})>")
EVERYONE = re.compile(r"@(?:everyone|here)")
KINDS = frozenset({"users", "roles", "everyone"})
IDS = 100  # ids in allowed_mentions.users or .roles


@dataclass(frozen=True)
class Pings:
    """Whom one message pings."""

    users: frozenset[int] = frozenset()
    roles: frozenset[int] = frozenset()
    everyone: bool = False  # @everyone or @here

    def __bool__(self) -> bool:
        return bool(self.users or self.roles or self.everyone)


def check(allowed: Any) -> list[Problem]:
    """Problems Discord answers an ``allowed_mentions`` with (400, Invalid Form Body); empty if fine."""
    if allowed is None:
        return []
    if not isinstance(allowed, Mapping):
        return [("allowed_mentions", "MODEL_TYPE_CONVERT", "Must be an object.")]
    problems: list[Problem] = []
    parse = allowed.get("parse", [])
    if not isinstance(parse, list) or any(kind not in KINDS for kind in parse):
        problems.append(("allowed_mentions.parse", "ENUM_TYPE_COERCE", f"Not one of {sorted(KINDS)}."))
        parse = []
    for kind in ("users", "roles"):
        ids = allowed.get(kind, [])
        if not isinstance(ids, list) or not all(str(i).isdigit() for i in ids):
            problems.append((f"allowed_mentions.{kind}", "NUMBER_TYPE_COERCE", "Must be a list of snowflakes."))
        elif len(ids) > IDS:
            problems.append((f"allowed_mentions.{kind}", "BASE_TYPE_MAX_LENGTH", f"Must be {IDS} or fewer in length."))
        if kind in parse and kind in allowed:
            message = f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.'
            problems.append(("allowed_mentions", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", message))
    return problems


def pings(content: str | None, allowed: Mapping[str, Any] | None, *, replied_to: int | None = None) -> Pings:
    """Whom a message with ``content`` and ``allowed_mentions`` pings (``replied_to``: the author of the message it
    replies to, if any). ``allowed`` must pass ``check``."""
    text = content or ""
    users = {int(i) for i in USER.findall(text)}
    roles = {int(i) for i in ROLE.findall(text)}
    everyone = bool(EVERYONE.search(text))
    if allowed is None:  # everything in the content, and the author replied to
        return Pings(frozenset(users | ({replied_to} if replied_to is not None else set())), frozenset(roles), everyone)
    parse = set(allowed.get("parse", []))
    if "users" not in parse:
        users &= {int(i) for i in allowed.get("users", [])}
    if "roles" not in parse:
        roles &= {int(i) for i in allowed.get("roles", [])}
    if replied_to is not None and allowed.get("replied_user"):
        users.add(replied_to)
    return Pings(frozenset(users), frozenset(roles), everyone and "everyone" in parse)
