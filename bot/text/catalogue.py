"""Every user-facing English text, by key. Handlers never hold string literals; they call ``t(key, **params)``.

A value is a format string, or a (singular, plural) pair chosen by the ``count`` parameter. The translation issue
replaces this table with gettext catalogues keyed the same way.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, str | tuple[str, str]]] = {
    # games
    "game.carcassonne": "Carcassonne",
    "game.catan": "Catan",
    # lobby
    "lobby.title": "{game} lobby",
    "lobby.hosted_by": "Hosted by {host}",
    "lobby.players": "Players ({count}/{max})",
    "lobby.options": "Options",
    "lobby.needs": "Needs {min} to {max} players. The host starts the game.",
    "lobby.button.join": "Join",
    "lobby.button.leave": "Leave",
    "lobby.button.start": "Start",
    "lobby.button.cancel": "Cancel",
    "lobby.joined": "{name} joined.",
    "lobby.left": "{name} left.",
    "lobby.cancelled": "The {game} lobby was cancelled.",
    "lobby.started": "{game} begins! Seats: {seats}.",
    "option.on": "on",
    "option.off": "off",
    # host refusals (HostError keys)
    "error.no_such_game": "That game no longer exists.",
    "error.no_game_here": "There is no game in this channel. Start one with /carcassonne new or /catan new.",
    "error.not_started": "This game has not started yet.",
    "error.stale": "This button is out of date: the game has moved on. Use the latest message.",
    "error.bad_options": "Those options do not work: {reason}",
    "error.channel_busy": "This channel already has a game. Finish it, or ask the host to /game abandon it.",
    "error.not_a_lobby": "This lobby is closed.",
    "error.already_joined": "You are already in this game.",
    "error.lobby_full": "The lobby is full ({max} players).",
    "error.not_seated": "You are not playing in this game.",
    "error.host_cannot_leave": "The host cannot leave the lobby; cancel it instead.",
    "error.host_only": "Only the host (or someone with Manage Channels) can do that.",
    "error.player_count": (
        "This game needs {min} to {max} players; there is {count}.",
        "This game needs {min} to {max} players; there are {count}.",
    ),
    "error.not_active": "This game is not running.",
    "error.nothing_to_undo": "You have nothing to undo in this turn.",
    "error.undo_revealed": "That cannot be undone: it revealed something new ({action}).",
    "error.export_unfinished": "A game can be exported once it is over.",
    "error.not_your_turn": "It is not your turn.",
    "error.rule": "{reason}",
    "error.internal": "Something went wrong on our side; nothing was changed. Please try again.",
}


def t(key: str, /, **params: object) -> str:
    """The English text for ``key`` filled with ``params`` (plural chosen by ``count``)."""
    entry = MESSAGES[key]
    if isinstance(entry, tuple):
        entry = entry[0] if params.get("count") == 1 else entry[1]
    return entry.format(**params)
