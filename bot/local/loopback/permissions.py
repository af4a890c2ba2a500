"""The bot's permissions in a channel, as a test takes them away and gives them back.

Discord answers 403 code 50001 "Missing Access" when the bot cannot see the channel, and 403 code 50013 "Missing
Permissions" when it sees it but lacks what the request needs. The channel's payload carries a member overwrite for
the bot with the denied bits, so that discord.py's ``channel.permissions_for(guild.me)`` agrees.
"""

from __future__ import annotations

ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16

EVERYTHING = (1 << 50) - 1
BOT = EVERYTHING & ~ADMINISTRATOR  # the bot's role: everything but administrator (which would ignore overwrites)

NAMES = {
    "view_channel": VIEW_CHANNEL,
    "send_messages": SEND_MESSAGES,
    "embed_links": EMBED_LINKS,
    "attach_files": ATTACH_FILES,
    "read_message_history": READ_MESSAGE_HISTORY,
}

MISSING_ACCESS = (403, 50001, "Missing Access")
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")


def bits(names: tuple[str, ...]) -> int:
    unknown = [n for n in names if n not in NAMES]
    if unknown:
        raise ValueError(f"unknown permissions {unknown}; one of {sorted(NAMES)}")
    value = 0
    for name in names:
        value |= NAMES[name]
    return value


def effective(denied: int) -> int:
    """The bot's permissions in a channel where ``denied`` is taken away (none at all without VIEW_CHANNEL)."""
    value = BOT & ~denied
    return value if value & VIEW_CHANNEL else 0


def needed(method: str, *, posting: bool, embeds: bool = False, files: bool = False) -> int:
    """What a request in a channel's messages needs: reading needs the history, posting needs to send (and to embed
    links, to attach files when it does); editing or deleting the bot's own message only needs to see the channel."""
    if method == "GET":
        return VIEW_CHANNEL | READ_MESSAGE_HISTORY
    if posting:
        return VIEW_CHANNEL | SEND_MESSAGES | (EMBED_LINKS if embeds else 0) | (ATTACH_FILES if files else 0)
    return VIEW_CHANNEL


def refusal(denied: int, wanted: int) -> tuple[int, int, str] | None:
    """Discord's answer (status, code, message) when ``wanted`` is not all granted, else None."""
    granted = effective(denied)
    if not granted & VIEW_CHANNEL:
        return MISSING_ACCESS
    if wanted & ~granted:
        return MISSING_PERMISSIONS
    return None


def overwrites(bot_id: str, denied: int) -> list[dict[str, object]]:
    """The channel's ``permission_overwrites``: a member overwrite for the bot when something is denied."""
    return [{"id": bot_id, "type": 1, "allow": "0", "deny": str(denied)}] if denied else []
