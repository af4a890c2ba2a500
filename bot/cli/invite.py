"""``python -m bot invite``: the link that adds the bot to a server with exactly the permissions it uses.

The bot posts lobbies, turn messages with board images, reminders and exported replays in the channel (or thread)
where a game is played; everything else (answers to commands, buttons and selects, private menus) goes through
interactions, which need no channel permission. Nothing here reads messages, reacts, pins, manages threads or
mentions roles, so those permissions are not asked for.
"""

from __future__ import annotations

from urllib.parse import urlencode

import discord

# Each permission the bot asks for, by discord.py's name, and what it is used for (shown by `invite`).
PERMISSIONS: dict[str, str] = {
    "view_channel": "see the channel where a game is played",
    "send_messages": "post lobbies, turn messages, reminders and completed trades",
    "send_messages_in_threads": "do the same when the game is played in a thread",
    "embed_links": "show the lobby (an embed the bot brings up to date in the channel)",
    "attach_files": "attach the board image to each turn message",
}
SCOPES: tuple[str, ...] = ("bot", "applications.commands")
AUTHORIZE = "https://discord.com/oauth2/authorize"


def permissions() -> discord.Permissions:
    return discord.Permissions(**dict.fromkeys(PERMISSIONS, True))


def invite_url(application_id: int) -> str:
    """The OAuth2 URL that adds the bot (and its slash commands) with ``PERMISSIONS`` and nothing more."""
    query = {"client_id": str(application_id), "scope": " ".join(SCOPES), "permissions": str(permissions().value)}
    return f"{AUTHORIZE}?{urlencode(query)}"


def explain(application_id: int) -> str:
    lines = [invite_url(application_id), "", "Permissions it asks for:"]
    lines += [f"  {name.replace('_', ' ')}: {why}" for name, why in PERMISSIONS.items()]
    lines.append(f"Scopes: {', '.join(SCOPES)}. No privileged gateway intent is needed.")
    return "\n".join(lines)
