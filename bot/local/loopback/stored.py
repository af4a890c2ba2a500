"""What the loopback Discord keeps: messages with their history, interactions with their answers, uploads, and the
requests it refused."""

from __future__ import annotations

import io
import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from PIL import Image, UnidentifiedImageError

from bot.local.loopback import mentions
from render import png

EPHEMERAL = 64


@dataclass
class Violation:
    route: str
    body: dict[str, Any]
    detail: str


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None  # the alt text of an image

    @cached_property
    def dimensions(self) -> tuple[int, int] | None:
        """An image's width and height, which Discord's attachments carry (clients keep the room for the picture
        before it loads); None for other files. A PNG's are read from its header chunk (nearly every upload is one:
        opening it with Pillow cost the fake Discord as much CPU as half a request); any other picture's by Pillow,
        which reads only its header."""
        if (found := png.size(self.data)) is not None:
            return found
        try:
            with Image.open(io.BytesIO(self.data)) as image:
                return image.size
        except (UnidentifiedImageError, OSError, ValueError):
            return None

    def size_fields(self) -> dict[str, int]:
        """``width`` and ``height``, as Discord gives them in attachment and embed image objects (none: no image)."""
        return {} if self.dimensions is None else {"width": self.dimensions[0], "height": self.dimensions[1]}


@dataclass
class Version:
    """What a message showed at one point of its history."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[str]  # file names
    flags: int
    pings: mentions.Pings = field(default_factory=mentions.Pings)  # whom the content pings (its allowed_mentions)
    at: float = field(default_factory=time.monotonic)  # when it was shown: orders creations and edits together


@dataclass
class Message:
    id: int
    channel_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    interaction_id: int | None = None
    edits: int = 0
    author_id: int | None = None  # a person who wrote it in the channel; None: the bot
    nonce: str | None = None
    deleted: bool = False
    created_at: float = field(default_factory=time.monotonic)
    versions: list[Version] = field(default_factory=list)  # as created, then after each edit
    allowed_mentions: dict[str, Any] | None = None  # as last sent (None: none was, so the content pings)

    def __post_init__(self) -> None:
        self.record()

    def record(self) -> None:
        self.versions.append(
            Version(
                self.content,
                list(self.embeds),
                list(self.components),
                [a.filename for a in self.attachments],
                self.flags,
                mentions.pings(self.content, self.allowed_mentions),
            )
        )

    @property
    def pings(self) -> mentions.Pings:
        """Whom the message pinged when it was created (an edit notifies nobody on Discord)."""
        return self.versions[0].pings

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", []) if "custom_id" in c]


def by_id(messages: list[Message], snowflake: str) -> Message | None:
    """The message whose id a route names (``snowflake`` as it stands in the path), or None. Looked for from the
    newest: a channel keeps every message of its game, and what the bot edits is nearly always among the last."""
    if not (snowflake.isascii() and snowflake.isdigit()):  # "²" is a digit to isdigit, not to int
        return None
    wanted = int(snowflake)
    if str(wanted) != snowflake:  # a leading zero names no message, as when each id was compared as text
        return None
    return next((m for m in reversed(messages) if m.id == wanted), None)


@dataclass
class Interaction:
    id: int
    token: str
    kind: int
    user_id: int
    channel_id: int
    payload: dict[str, Any]
    sent_at: float
    answers: list[dict[str, Any]] = field(default_factory=list)  # callback bodies, in order
    answered_at: float | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)

    @property
    def modal(self) -> dict[str, Any] | None:
        return next((a["data"] for a in self.answers if a.get("type") == 9), None)

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return next((a["data"].get("choices", []) for a in self.answers if a.get("type") == 8), None)
