"""What one person's Discord client shows: the server's channels, their own ephemeral answers and direct messages
(never another person's), the forms the bot opened for them, and Discord's own notices (an application that did not
answer in time, a request of the bot's that Discord refused).

Everything is plain JSON for the page; ids are strings (JavaScript's numbers cannot hold a Discord id).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from bot.local.loopback import FakeDiscord, Interaction, Message, mentions
from bot.local.loopback.interaction_routes import ANSWER_WITHIN
from bot.local.table.asking import command_label
from bot.local.table.people import Person

SLASH, AUTOCOMPLETE = 2, 4  # kinds of interaction
DEFERRED = 5  # an interaction's answer: "thinking…", the message comes later


@dataclass
class Private:
    """What a person did with what only they see: ephemeral answers dismissed, forms submitted or closed."""

    dismissed: set[int] = field(default_factory=set)
    closed_forms: set[int] = field(default_factory=set)


def wall_clock(monotonic: float) -> float:
    """Seconds since the epoch of a ``time.monotonic()`` reading (the fake keeps those)."""
    return time.time() - (time.monotonic() - monotonic)


def file_url(attachment_id: int, filename: str) -> str:
    return f"/files/{attachment_id}/{quote(filename)}"


def _embeds(msg: Message) -> tuple[list[dict[str, Any]], set[str]]:
    """The message's embeds with ``attachment://`` images pointing at the page's copy; the files they show (Discord
    shows those only in the embed)."""
    files = {a.filename: a for a in msg.attachments}
    used: set[str] = set()
    shown = []
    for embed in msg.embeds:
        embed = dict(embed)
        for part in ("image", "thumbnail"):
            url = (embed.get(part) or {}).get("url", "")
            if url.startswith("attachment://") and url.removeprefix("attachment://") in files:
                found = files[url.removeprefix("attachment://")]
                embed[part] = {**embed[part], "url": file_url(found.id, found.filename), **found.size_fields()}
                used.add(found.filename)
        shown.append(embed)
    return shown, used


def _deferred(inter: Interaction | None) -> bool:
    return inter is not None and bool(inter.answers) and inter.answers[0].get("type") == DEFERRED


def _thinking(msg: Message, inter: Interaction | None) -> bool:
    """A deferred answer not filled in yet: Discord shows "boardhost is thinking…"."""
    return _deferred(inter) and not (msg.content or msg.embeds or msg.components or msg.attachments)


def pings(msg: Message, person: Person) -> bool:
    """Does the message's content ping ``person`` now (by its ``allowed_mentions``, as Discord reads them)?"""
    found = mentions.pings(msg.content, msg.allowed_mentions)
    return person.id in found.users or found.everyone


def message(fake: FakeDiscord, msg: Message, person: Person) -> dict[str, Any]:
    inter = fake.interactions.get(msg.interaction_id) if msg.interaction_id is not None else None
    embeds, in_embeds = _embeds(msg)
    author = fake.users.get(msg.author_id) if msg.author_id is not None else None
    used = None
    if inter is not None and inter.kind == SLASH:
        used = {"by": str(inter.user_id), "command": command_label(fake, inter.payload["data"], person.locale)}
    return {
        "id": str(msg.id),
        "channel": str(msg.channel_id),
        "author": str(msg.author_id) if author is not None else "bot",
        "content": msg.content,
        "embeds": embeds,
        "components": msg.components,
        "files": [
            {
                "url": file_url(a.id, a.filename),
                "name": a.filename,
                "alt": a.description or "",
                "image": a.filename.lower().endswith((".png", ".webp", ".gif", ".jpg", ".jpeg")),
                "size": len(a.data),
                **a.size_fields(),
            }
            for a in msg.attachments
            if a.filename not in in_embeds
        ],
        "edited": msg.edits > (1 if _deferred(inter) else 0),  # filling in a deferred answer is no edit
        "ephemeral": msg.ephemeral,
        "ping": pings(msg, person),
        "used": used,
        "thinking": _thinking(msg, inter),
        "at": wall_clock(msg.created_at),
    }


def _answers(fake: FakeDiscord, person: Person) -> Iterator[tuple[Interaction, Message]]:
    """The ephemeral messages that answered ``person``'s interactions."""
    for inter in fake.interactions.values():
        if inter.user_id != person.id:
            continue
        for msg in (inter.original, *inter.followups):
            if msg is not None and msg.ephemeral and not msg.deleted:
                yield inter, msg


def _failed(fake: FakeDiscord, person: Person, now: float) -> Iterator[dict[str, Any]]:
    """Discord's notice for each of ``person``'s interactions the bot did not answer within the time allowed."""
    for inter in fake.interactions.values():
        if inter.user_id != person.id or inter.kind == AUTOCOMPLETE or inter.answers:
            continue
        if now - inter.sent_at > ANSWER_WITHIN:
            yield {
                "id": f"n{inter.id}",
                "channel": str(inter.channel_id),
                "author": "bot",
                "notice": "no_answer" if inter.kind == SLASH else "failed",
                "ephemeral": True,
                "at": wall_clock(inter.sent_at),
            }


def dm_channel(fake: FakeDiscord, person: Person) -> int | None:
    return next((channel for channel, user in fake.dm_channels.items() if user == person.id), None)


Item = Message | dict[str, Any]  # a message, or a notice of Discord's (already JSON)


def visible(fake: FakeDiscord, person: Person, private: Private) -> dict[str, Item]:
    """Every message ``person`` sees, by id: the server's channels, their ephemeral answers, their direct messages,
    Discord's notices."""
    shown: dict[str, Item] = {}
    for channel in fake.channels:
        for msg in fake.messages.get(channel, []):
            shown[str(msg.id)] = msg
    for _, msg in _answers(fake, person):
        if msg.id not in private.dismissed:
            shown[str(msg.id)] = msg
    dm = dm_channel(fake, person)
    if dm is not None:
        for msg in fake.messages.get(dm, []):
            shown[str(msg.id)] = msg
    for notice in _failed(fake, person, time.monotonic()):
        if int(notice["id"][1:]) not in private.dismissed:
            shown[notice["id"]] = notice
    return shown


def state(fake: FakeDiscord, item: Item) -> object:
    """What the page's copy of ``item`` depends on (for one person): it is sent again only when this changes."""
    if isinstance(item, dict):
        return item["id"]
    inter = fake.interactions.get(item.interaction_id) if item.interaction_id is not None else None
    return (len(item.versions), item.deleted, len(inter.answers) if inter is not None else 0)


def shown(fake: FakeDiscord, item: Item, person: Person) -> dict[str, Any]:
    return item if isinstance(item, dict) else message(fake, item, person)


def forms(fake: FakeDiscord, person: Person, private: Private) -> list[dict[str, Any]]:
    """The forms (modals) the bot opened for ``person`` that they have not submitted or closed, oldest first."""
    return [
        {"interaction": str(inter.id), **modal}
        for inter in fake.interactions.values()
        if inter.user_id == person.id and inter.id not in private.closed_forms and (modal := inter.modal) is not None
    ]


def unread(fake: FakeDiscord, person: Person) -> int:
    """Messages for ``person`` since they last looked: pings in the channels, and direct messages."""
    new = [msg for channel in fake.channels for msg in fake.messages.get(channel, []) if msg.id > person.seen]
    count = sum(1 for msg in new if pings(msg, person))
    dm = dm_channel(fake, person)
    if dm is not None:
        count += sum(1 for msg in fake.messages.get(dm, []) if msg.id > person.seen)
    return count


def newest(fake: FakeDiscord, person: Person) -> int:
    """The newest message id ``person`` can see now (what they have seen once the page shows it)."""
    ids = [msg.id for channel in fake.channels for msg in fake.messages.get(channel, [])]
    dm = dm_channel(fake, person)
    if dm is not None:
        ids += [msg.id for msg in fake.messages.get(dm, [])]
    return max(ids, default=0)


def table(fake: FakeDiscord, people: Sequence[Person], person: Person, private: Private) -> dict[str, Any]:
    """Everything but the messages: the people, the channels, the bot, Discord's refusals, the open forms."""
    return {
        "me": str(person.id),
        "server": fake.guild_name,
        "bot": {"id": str(fake.application_id), "name": fake.bot_user["username"]},
        "people": [
            {
                "id": str(p.id),
                "name": p.name,
                "colour": p.colour,
                "locale": p.locale,
                "unread": unread(fake, p) if p is not person else 0,
            }
            for p in people
        ],
        "users": {str(uid): user.get("global_name") or user["username"] for uid, user in fake.users.items()},
        "channels": [{"id": str(cid), "name": c["name"]} for cid, c in fake.channels.items()],
        "dm": str(dm_channel(fake, person) or ""),
        "refused": [{"route": v.route, "detail": v.detail} for v in fake.violations],
        "forms": forms(fake, person, private),
    }
