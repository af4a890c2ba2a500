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
    # /game, /stats, /settings
    "cmd.status.title": "{game}: turn {turn}",
    "cmd.status.waiting": ("Waiting for {who}.", "Waiting for {who}."),
    "cmd.status.finished": "Finished. Winner: {winners}.",
    "cmd.status.score_line": "{name}: {score}",
    "cmd.board.caption": "{game}, turn {turn}.",
    "cmd.abandoned": "{name} abandoned the {game} game.",
    "cmd.left_game": "{name} left, so the {game} game ends here (abandoned).",
    "cmd.export.caption": "The replay of this {game} game (format: boardhost-replay).",
    "cmd.stats.title": "Games played in this server",
    "cmd.stats.none": "No finished games in this server yet.",
    "cmd.stats.total": ("{count} finished game", "{count} finished games"),
    "cmd.stats.per_game": "{game}: {count}",
    "cmd.stats.wins": ("<@{user}>: {count} win", "<@{user}>: {count} wins"),
    "cmd.settings.saved_on": "You will get a direct message when a turn of yours starts.",
    "cmd.settings.saved_off": "You will no longer get a direct message when a turn of yours starts.",
    "cmd.undo.done": "Taken back. The turn is posted again.",
    "notify.turn": "It is your turn in {game} in {channel} on {server}: {link}",
    "notify.turn_elsewhere": "It is your turn in {game} in {channel}: {link}",
    "reminder.turn": (
        "{who}, {game} is waiting for you (idle for {hours} hour).",
        "{who}, {game} is waiting for you (idle for {hours} hours).",
    ),
    "reminder.turn_limit": (
        "{who}, {game} is waiting for you (idle for {hours} hour; after {limit} the bot moves for you).",
        "{who}, {game} is waiting for you (idle for {hours} hours; after {limit} the bot moves for you).",
    ),
    "reminder.limit_hours": ("{count} hour", "{count} hours"),
    "rules.carcassonne": (
        "**Carcassonne.** On your turn draw a tile and place it so every touching edge matches (city to city, road "
        "to road, field to field). Then you may put one follower from your supply on a road, city, cloister or field "
        "of that tile, if nobody is on that feature yet. Finished roads score 1 per tile, cities 2 per tile and "
        "pennant, cloisters 9; followers come back. At the end, unfinished features score 1 per tile (+1 per "
        "pennant) and farms score 3 per finished city they supply. The River is laid first; The Tower lets you "
        "capture followers instead of placing one."
    ),
    "rules.catan": (
        "**Catan.** Roll the dice: every hex with that number pays its neighbours (settlement 1, city 2). On a 7, "
        "everyone with more than 7 cards discards half and you move the robber and steal a card. Then trade (with "
        "players or the bank 4:1, or 3:1 / 2:1 at harbours), build (road, settlement, city) and buy development "
        "cards. Longest road (5+) and largest army (3+ knights) are worth 2 points each. The first to 10 points on "
        "their own turn wins."
    ),
    # lobby
    "lobby.title": "{game} lobby",
    "lobby.hosted_by": "Hosted by {host}",
    "lobby.players": "Players ({count}/{max})",
    "lobby.options": "Options",
    "lobby.turn_limit": "Turn limit",
    "lobby.turn_limit_value": (
        "{count} hour: then the bot makes a minimal move for whoever keeps the game waiting.",
        "{count} hours: then the bot makes a minimal move for whoever keeps the game waiting.",
    ),
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
    # carcassonne turn flow (bot/cogs/carcassonne.py) and narration (bot/narrate.py)
    "carcassonne.begins": "Carcassonne begins with the start tile at (0, 0).",
    "carcassonne.turn_place": (
        "Turn {turn}: {mention}, place tile **{tile}** — {count} legal cell, numbered on the image.",
        "Turn {turn}: {mention}, place tile **{tile}** — {count} legal cells, numbered on the image.",
    ),
    "carcassonne.turn_follower": (
        "{mention}, put a follower on the tile at ({x}, {y}) (the spots are marked), or choose No follower."
    ),
    "carcassonne.turn_other": "Turn {turn}: waiting for {mention}.",
    "carcassonne.scores": "Scores: {scores} · tiles left: {left}",
    "carcassonne.over": "Game over! {winners} won. Final scores: {scores}.",
    "carcassonne.cell_option": "{number} · ({x}, {y})",
    "carcassonne.cell_placeholder": "Choose a cell ({first}–{last} of {count})",
    "carcassonne.page_prev": "◀ Cells {first}–{last}",
    "carcassonne.page_next": "Cells {first}–{last} ▶",
    "carcassonne.rotation": "{degrees}°",
    "carcassonne.choose_rotation": "Tile {tile} at cell {number} ({x}, {y}): choose a rotation (clockwise).",
    "carcassonne.no_follower": "No follower",
    "carcassonne.tower_placeholder": "Build on a tower",
    "carcassonne.tower_option": "Tower at ({x}, {y}) → height {height}",
    "carcassonne.tower_capture": "Tower at ({x}, {y}), capture {owner} on {on} at ({tx}, {ty})",
    "carcassonne.spot_placeholder": "Put a follower on…",
    "carcassonne.tower_top": "Follower on tower ({x}, {y})",
    "carcassonne.ransom": "Pay ransom to {name}",
    "carcassonne.done": "Done.",
    "carcassonne.not_carcassonne": "The game in this channel is not Carcassonne.",
    "carcassonne.no_cell": "That cell is not a legal place for the tile now.",
    "carcassonne.no_choice": "No legal cells now.",
    "narrate.and": " and ",
    "narrate.more": ("…and {count} more event.", "…and {count} more events."),
    "narrate.tiles": ("{count} tile", "{count} tiles"),
    "narrate.pennants": ("{count} pennant", "{count} pennants"),
    "narrate.feature.city": "city",
    "narrate.feature.road": "road",
    "narrate.feature.cloister": "cloister",
    "narrate.feature.field": "field",
    "narrate.role.knight": "knight",
    "narrate.role.thief": "thief",
    "narrate.role.monk": "monk",
    "narrate.role.farmer": "farmer",
    "narrate.role.follower": "follower",
    "narrate.tile_placed": "{name} placed tile {tile} at ({x}, {y}), turned {rotation}°.",
    "narrate.follower_placed": "{name} put a {role} on {on} at ({x}, {y}).",
    "narrate.follower_returned": "{name}'s follower on {on} at ({x}, {y}) went back to the supply.",
    "narrate.completed": "The {feature} at {where} was completed: {points} points to {who} ({why}).",
    "narrate.completed_unclaimed": "The {feature} at {where} was completed ({why}), but nobody had a follower on it.",
    "narrate.final_scored": "Unfinished {feature} at {where}: {points} points to {who} ({why}).",
    "narrate.final_unclaimed": "The unfinished {feature} at {where} scores nothing: no follower on it.",
    "narrate.farm_scored": "A farm supplying {cities} finished cities: {points} points to {who}.",
    "narrate.farm_unclaimed": "A farm supplying {cities} finished cities had no farmer.",
    "narrate.tower_built": "{name} raised the tower at ({x}, {y}) to height {height}.",
    "narrate.captured": "{name} captured {owner}'s follower on {on} at ({x}, {y}).",
    "narrate.prisoners_exchanged": "{who} exchanged prisoners.",
    "narrate.tower_closed": "{name} closed the tower at ({x}, {y}) with a follower on top.",
    "narrate.ransom_paid": "{name} paid {to} a ransom of {points} points.",
    "narrate.tile_discarded": "Tile {tile} fit nowhere for {name} and was discarded.",
    "narrate.tile_drawn": "{name} drew tile {tile} instead.",
    "narrate.prisoners_returned": (
        "{holder} returned {count} prisoner to {owner}.",
        "{holder} returned {count} prisoners to {owner}.",
    ),
    "narrate.game_over": "The game is over. Winner: {winners}. Scores: {scores}.",
    "narrate.undone": "{name} took back their last move.",
    "narrate.timed_out": "{name} ran out of time; the bot made a minimal move.",
}


def t(key: str, /, **params: object) -> str:
    """The English text for ``key`` filled with ``params`` (plural chosen by ``count``)."""
    entry = MESSAGES[key]
    if isinstance(entry, tuple):
        entry = entry[0] if params.get("count") == 1 else entry[1]
    return entry.format(**params)
