"""Every user-facing English text, by key. Handlers never hold string literals; they call ``t(key, **params)``.

A value is a format string, or a (singular, plural) pair chosen by the ``count`` parameter. A text that tells a
player to use a slash command names it by a placeholder of ``bot.text.i18n.COMMAND_PLACEHOLDERS`` (``{back}``,
``{hand}``, ...), which the catalogue fills with the command's clickable mention. This table is the
source of the English gettext catalogue; translations live in ``bot/locale/<lang>/LC_MESSAGES/boardhost.po`` keyed
the same way (msgctxt), and ``python -m bot.text.po`` brings them in step after a change here.
"""

from __future__ import annotations

from typing import Final

from render.labels import ENGLISH as IMAGE_ENGLISH

MESSAGES: Final[dict[str, str | tuple[str, str]]] = {
    # games
    "game.carcassonne": "Carcassonne",
    "game.catan": "Catan",
    # /game, /stats, /settings
    "cmd.status.title": "{game}: turn {turn}",
    "cmd.status.waiting": ("Waiting for {who}.", "Waiting for {who}."),
    "cmd.status.finished": "Finished. Winner: {winners}.",
    "cmd.status.score_line": "{name}: {score}",
    "cmd.status.storage": "⚠️ The bot's storage is in trouble: {problem}. Whoever runs the bot should look at its log.",
    "cmd.status.finished_title": "{game}: finished on turn {turn}",
    "cmd.status.abandoned_title": "{game}: abandoned on turn {turn}",
    "cmd.status.winner": "Winner: {winner}.",
    "cmd.status.winners_tie": "A tie: the winners are {winners}.",
    "cmd.status.look_back": "Look back at any turn with {replay}, or download the replay file with {export}.",
    "cmd.status.look_back_abandoned": "Look back at any turn with {replay}.",
    "outbox.missing_permissions": (
        "The {game} game in {channel} is waiting: I am missing the {permissions} permission there. Give it to me and "
        "the game goes on by itself.",
        "The {game} game in {channel} is waiting: I am missing the {permissions} permissions there. Give them to me "
        "and the game goes on by itself.",
    ),
    "outbox.channel_gone": (
        "The {game} game is waiting: its channel {channel} is gone. If the channel does not come back, the game is "
        "archived in a few days."
    ),
    "outbox.waiting": "The {game} game in {channel} is waiting: Discord refuses its messages for now.",
    "permission.view_channel": "View Channel",
    "permission.send_messages": "Send Messages",
    "permission.send_messages_in_threads": "Send Messages in Threads",
    "permission.embed_links": "Embed Links",
    "permission.attach_files": "Attach Files",
    "cmd.board.caption": "{game}, turn {turn}.",
    "cmd.abandoned": "{name} abandoned the {game} game.",
    "cmd.left_game": "{name} left, so the {game} game ends here (abandoned).",
    "cmd.left_for_computer": (
        "{name} left the game: a computer player ({level}) plays their seat from now on. "
        "({name} can take it back with {back}.)"
    ),
    "cmd.export.caption": "The replay of this {game} game (format: boardhost-replay).",
    "cmd.stats.title": "Games and ratings in this server",
    "cmd.stats.none": "No finished games in this server yet.",
    "cmd.stats.total": ("{count} finished game", "{count} finished games"),
    "cmd.stats.per_game": "{game}: {count}",
    "cmd.stats.explain": (
        "A rating is a cautious estimate of skill that grows surer with every game; every finished game counts, "
        "against people and computer players alike. One player's ratings: {stats} with a player."
    ),
    "cmd.stats.board": "{game}: the best players",
    "cmd.stats.row": "{place}. {player} — {rating} · {games} · {wins} · {streak}",
    "cmd.stats.games": ("{count} game", "{count} games"),
    "cmd.stats.wins": ("{count} win", "{count} wins"),
    "cmd.stats.streak": "winning streak {count}",
    "cmd.stats.more": ("… and {count} more player", "… and {count} more players"),
    "cmd.stats.computer": "Computer ({level})",
    "cmd.stats.card_title": "{name}: ratings in this server",
    "cmd.stats.card_game": "**{game}**: rating {rating}, place {place} of {players} · {games} · {wins} · {streak}",
    "cmd.stats.card_none": "{name} has no rated game in this server yet.",
    "cmd.stats.chart_title": "{name}: rating after each game",
    "cmd.undo.done": "Taken back. The turn is posted again.",
    # /game mine, /settings (quiet hours, time away), the away rule of a lobby
    "settings.dm_on": "Turn DMs: on. You get a direct message when a turn of yours starts.",
    "settings.dm_off": "Turn DMs: off.",
    "settings.time_zone": "Time zone: {zone} (it is {time} there now).",
    "settings.no_time_zone": "Time zone: not set yet. Quiet hours need one.",
    "settings.quiet": (
        "Quiet hours: {start} to {end}, your time. Pings then come silently, turn DMs and reminders wait until "
        "the hours end, and no turn limit runs for you."
    ),
    "settings.no_quiet": "Quiet hours: none.",
    "settings.away": "You are away until {until}.",
    "settings.quiet_off_choice": "No quiet hours",
    "away.set": (
        "You are away until {until}. The other players see it in your games; each game's turn limit waits for "
        "you, or a computer plays for you where the host chose so. Back earlier? Press I'm back (it is in "
        "{mine} too)."
    ),
    "away.set_utc": (
        "You are away until {until} (midnight UTC: you have no time zone set; {settings_notifications} sets "
        "one). The other players see it in your games; each game's turn limit waits for you, or a computer "
        "plays for you where the host chose so. Back earlier? Press I'm back (it is in {mine} too)."
    ),
    "away.button.back": "I'm back",
    "away.welcome_back": (
        "Welcome back! You play your games yourself again; any turn a computer was playing for you is posted again."
    ),
    "away.not_away": "You were not away: nothing to change.",
    "presence.away_wait": "💤 {name} is away until {until}: the game waits, and no turn limit runs meanwhile.",
    "presence.away_computer": "💤 {name} is away until {until}: a computer plays for them until then.",
    "computer.away": "{name} is away until {until}, so a computer player ({level}) plays for them until they are back.",
    "mine.title": "Your games",
    "mine.title_waiting": ("Your games: {count} waits for you", "Your games: {count} wait for you"),
    "mine.none": "You are not in any game right now. Open one with {carcassonne_new} or {catan_new}.",
    "mine.where": "**{game}** in {channel}",
    "mine.where_server": "**{game}** in {channel} on {server}",
    "mine.yours": "Your turn since {since}: {what}.",
    "mine.theirs": ("Waiting for {who} since {since}: {what}.", "Waiting for {who} since {since}: {what}."),
    "mine.lobby": "Still in the lobby: the host starts it.",
    "mine.lobby_host": "Still in the lobby: start it once everyone has joined.",
    "mine.jump": "[Go to the game]({link})",
    "mine.more": ("…and {count} more game.", "…and {count} more games."),
    "mine.away": "💤 You are away until {until}.",
    "mine.button": "My games",
    "carcassonne.waits.place": "place the drawn tile",
    "carcassonne.waits.follower": "put out a follower, or not",
    "catan.waits.setup_settlement": "place a settlement of the set-up",
    "catan.waits.setup_road": "place a road of the set-up",
    "catan.waits.roll_or_play": "roll the dice",
    "catan.waits.discard": ("discard {count} card", "discard {count} cards"),
    "catan.waits.robber": "move the robber",
    "catan.waits.main": "trade, build or end the turn",
    "catan.waits.trade_reply": "answer a trade offer",
    "lobby.away": "Players away",
    "lobby.away_computer": "A computer plays for a player who is away, until they are back.",
    "lobby.stand_in": "Computer stand-in",
    "rules.stand_in": "Computers standing in for players play at the {level} level.",
    "rules.turn_limit": (
        "Turn limit: {count} hour for each wait. Its clock stands still while the player the game waits for is "
        "in their quiet hours ({settings_notifications}) or away ({settings_away}).",
        "Turn limit: {count} hours for each wait. Its clock stands still while the player the game waits for is "
        "in their quiet hours ({settings_notifications}) or away ({settings_away}).",
    ),
    "rules.away.wait": (
        "A player who is away ({settings_away}): the game waits for them, and the others see until when."
    ),
    "rules.away.computer": "A player who is away ({settings_away}): a computer plays for them until they are back.",
    "rules.clock": (
        "**Turn limits** stand still while the player a game waits for is in their quiet hours "
        "({settings_notifications}) or away ({settings_away}); a game's host may have a computer play for those "
        "away instead, at the level the host chooses."
    ),
    "error.unknown_time_zone": (
        "There is no time zone called “{zone}”. Pick one from the list, such as Europe/Berlin or America/New_York."
    ),
    "error.bad_quiet_hours": (
        "Give quiet hours as two times of day, such as 23:00-07:00, or choose “No quiet hours” from the list."
    ),
    "error.quiet_too_long": (
        "Quiet hours may last at most {count} hour a day.",
        "Quiet hours may last at most {count} hours a day.",
    ),
    "error.quiet_needs_time_zone": "Quiet hours are in your own time: give your time zone as well.",
    "error.bad_date": "Give the day you are back as a date, such as 2025-07-01, or pick one from the list.",
    "error.date_past": "That day has already begun where you are: give a later one.",
    "error.date_too_far": ("You can be away for at most {count} day.", "You can be away for at most {count} days."),
    # /game replay, "since your last turn", the timelapse at the end
    "replay.turn": "Turn {turn}",
    "replay.setup": "Set-up placement {part}",
    "replay.header": "**{game}**, {turn}: {name} · {index}/{count}",
    "replay.in_progress": "This turn is still being played.",
    "replay.quiet": "Nothing to tell.",
    "replay.option": "{turn} · {name}",
    "replay.select": "Go to a turn ({first}–{last} of {count})",
    "replay.button.first": "⏮ First",
    "replay.button.back10": "−10",
    "replay.button.back": "◀ Back",
    "replay.button.next": "Next ▶",
    "replay.button.fwd10": "+10",
    "replay.button.last": "Last ⏭",
    "since.title": "Since your last turn",
    "since.title_start": "Since the game began",
    "since.turn_line": "**{turn}**, {name}: {story}",
    "story.caption": "{game}: the story of the game",
    "story.ratings": "Ratings after this game: {changes}.",
    "story.rating_change": "{name} {rating} ({change})",
    "story.catan.sevens": (
        "The dice were rolled {rolls} times; a 7 came up {count} time, where the odds say {expected}.",
        "The dice were rolled {rolls} times; a 7 came up {count} times, where the odds say {expected}.",
    ),
    "story.catan.most_rolled": (
        "The number rolled most often: {totals} ({count} time).",
        "The number rolled most often: {totals} ({count} times).",
    ),
    "story.catan.most_gained": "Most resource cards gained: {names} ({count}).",
    "story.catan.most_robbed": "Most cards lost to the robber: {names} ({count}).",
    "story.catan.most_traded": "Most cards traded away: {names} ({count}).",
    "story.catan.longest_road.never": "Nobody built the longest road.",
    "story.catan.longest_road.kept": "{name} took the longest road on turn {turn} and kept it to the end.",
    "story.catan.longest_road.ended": (
        "The longest road changed hands {count} time and ended with {name}.",
        "The longest road changed hands {count} times and ended with {name}.",
    ),
    "story.catan.longest_road.lost": (
        "The longest road changed hands {count} time; nobody held it at the end.",
        "The longest road changed hands {count} times; nobody held it at the end.",
    ),
    "story.catan.largest_army.never": "Nobody raised the largest army.",
    "story.catan.largest_army.kept": "{name} raised the largest army on turn {turn} and kept it to the end.",
    "story.catan.largest_army.ended": (
        "The largest army changed hands {count} time and ended with {name}.",
        "The largest army changed hands {count} times and ended with {name}.",
    ),
    "story.catan.largest_army.lost": (
        "The largest army changed hands {count} time; nobody held it at the end.",
        "The largest army changed hands {count} times; nobody held it at the end.",
    ),
    "story.carcassonne.ahead": (
        "{names} led after {count} of the {turns} turns.",
        "{names} led after {count} of the {turns} turns.",
    ),
    "story.carcassonne.lead_for_good": "{name} took the lead for good on turn {turn}.",
    "story.carcassonne.lead_at_the_end": "{name} only took the lead on the last turn, with the final scoring.",
    "story.carcassonne.biggest.city": (
        "The biggest scoring of the game: a city worth {count} point to {names}.",
        "The biggest scoring of the game: a city worth {count} points to {names}.",
    ),
    "story.carcassonne.biggest.road": (
        "The biggest scoring of the game: a road worth {count} point to {names}.",
        "The biggest scoring of the game: a road worth {count} points to {names}.",
    ),
    "story.carcassonne.biggest.cloister": (
        "The biggest scoring of the game: a cloister worth {count} point to {names}.",
        "The biggest scoring of the game: a cloister worth {count} points to {names}.",
    ),
    "story.carcassonne.biggest.farm": (
        "The biggest scoring of the game: a farm worth {count} point to {names}.",
        "The biggest scoring of the game: a farm worth {count} points to {names}.",
    ),
    "story.carcassonne.biggest_tie.city": (
        "The biggest scoring of the game: a city worth {count} point to each of {names}.",
        "The biggest scoring of the game: a city worth {count} points to each of {names}.",
    ),
    "story.carcassonne.biggest_tie.road": (
        "The biggest scoring of the game: a road worth {count} point to each of {names}.",
        "The biggest scoring of the game: a road worth {count} points to each of {names}.",
    ),
    "story.carcassonne.biggest_tie.cloister": (
        "The biggest scoring of the game: a cloister worth {count} point to each of {names}.",
        "The biggest scoring of the game: a cloister worth {count} points to each of {names}.",
    ),
    "story.carcassonne.biggest_tie.farm": (
        "The biggest scoring of the game: a farm worth {count} point to each of {names}.",
        "The biggest scoring of the game: a farm worth {count} points to each of {names}.",
    ),
    "timelapse.caption": (
        "The whole {game} game, turn by turn ({count} turn).",
        "The whole {game} game, turn by turn ({count} turns).",
    ),
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
    # /game rules in a channel with a game: its own options, one line each (bot/<game>/rules.py)
    "rules.carcassonne.turn": (
        "**Carcassonne.** On your turn draw a tile and place it so every touching edge matches (city to city, road "
        "to road, field to field). Then you may put one follower from your supply on a road, city, cloister or field "
        "of that tile, if nobody is on that feature yet."
    ),
    "rules.carcassonne.scoring": (
        "Finished roads score 1 per tile, cities 2 per tile and pennant, cloisters 9; followers come back."
    ),
    "rules.carcassonne.scoring_small_city": (
        "Finished roads score 1 per tile, cities 2 per tile and pennant (a city of just two tiles only 1 per tile and "
        "pennant: the small city rule), cloisters 9; followers come back."
    ),
    "rules.carcassonne.end": (
        "At the end, unfinished features score 1 per tile (+1 per pennant), and each farm scores 3 per finished city "
        "it supplies for whoever has the most farmers in it."
    ),
    "rules.carcassonne.end_first_edition": (
        "At the end, unfinished features score 1 per tile (+1 per pennant), and each finished city scores 4 for "
        "whoever has the most farmers in the fields that supply it (the first edition's farm rule)."
    ),
    "rules.carcassonne.river": (
        "The River: its tiles come first, from the spring to the lake, each one carrying the river on; then the other "
        "tiles."
    ),
    "rules.carcassonne.no_river": "Without The River: the game begins from the usual start tile.",
    "rules.carcassonne.tower": (
        "The Tower: instead of placing a follower you may put a tower piece on a tower foundation or a tower and "
        "capture a follower within its reach (in a straight line, as many tiles away as the tower is high), or close "
        "a tower with a follower on top. A prisoner goes home when its owner pays 3 points of ransom, or in an "
        "exchange of prisoners."
    ),
    "rules.carcassonne.tower_pieces": (
        "Each player has {count} tower piece.",
        "Each player has {count} tower pieces.",
    ),
    "rules.catan.turn": (
        "**Catan.** Roll the dice: every hex with that number pays its neighbours (settlement 1, city 2). On a 7, "
        "everyone with more than 7 cards discards half and you move the robber and steal a card."
    ),
    "rules.catan.phases": (
        "Then trade (with players or the bank 4:1, or 3:1 / 2:1 at harbours), build (road, settlement, city) and buy "
        "development cards, in any order."
    ),
    "rules.catan.strict_phases": (
        "Then trade first (with players or the bank 4:1, or 3:1 / 2:1 at harbours), then build (road, settlement, "
        "city) and buy development cards: once you build or buy, your trading is over for this turn (strict phases)."
    ),
    "rules.catan.goal": (
        "Longest road (5+) and largest army (3+ knights) are worth 2 points each. The first to {count} point on their "
        "own turn wins.",
        "Longest road (5+) and largest army (3+ knights) are worth 2 points each. The first to {count} points on their "
        "own turn wins.",
    ),
    "rules.catan.board.random": "Map: hexes and harbours shuffled, the numbers laid in the rulebook's spiral.",
    "rules.catan.board.random_numbers": (
        "Map: hexes, harbours and numbers all shuffled (no 6 or 8 next to another 6 or 8)."
    ),
    "rules.catan.board.beginner": "Map: the rulebook's beginner map.",
    "rules.catan.board.fixed": "Map: a fixed map set for this game.",
    "rules.catan.setup.snake": (
        "Set-up: everyone places a settlement and a road in seat order, then a second settlement and road in reverse "
        "order; the second settlement brings one card from each hex around it."
    ),
    "rules.catan.setup.beginner": (
        "Set-up: everyone starts from the rulebook's beginner positions, with two settlements and two roads, and one "
        "card from each hex around one of those settlements."
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
    "lobby.button.add_computer": "Add computer ({level})",
    "lobby.button.remove_computer": "Remove computer",
    "lobby.takeover": "Computer takeover",
    "lobby.takeover_value": "When a player's turn limit runs out, a computer plays for them until they return.",
    "computer.name": "Computer {number} ({level})",
    "computer.level.random": "random",
    "computer.level.standard": "standard",
    "computer.level.expert": "expert",
    "computer.button.back": "I'm back",
    "computer.takeover": (
        "{mention} ran out of time, so a computer player ({level}) plays for them until they return "
        "(the I'm back button or {back})."
    ),
    "computer.welcome_back": "Welcome back: you play your seat again. The turn is posted again.",
    "lobby.joined": "{name} joined.",
    "lobby.left": "{name} left.",
    "lobby.cancelled": "The {game} lobby was cancelled.",
    "lobby.started": "{game} begins! Seats: {seats}.",
    "option.on": "on",
    "option.off": "off",
    "option.line": "{name}: {value}",
    "option.river": "The River",
    "option.tower": "The Tower",
    "option.farm_scoring": "Farm scoring",
    "option.small_city": "Small city rule",
    "option.board": "Map",
    "option.setup": "Set-up",
    "option.points_to_win": "Points to win",
    "option.strict_phases": "Strict phases",
    "option.first_player": "First player",
    "option.deck": "Tile order",
    "option.hexes": "Hexes",
    "option.harbors": "Harbours",
    "option.value.current": "current rules",
    "option.value.first_edition": "first edition",
    "option.value.random": "random",
    "option.value.random_numbers": "random numbers",
    "option.value.beginner": "beginner",
    "option.value.snake": "snake draft",
    # host refusals (HostError keys)
    "error.no_such_game": "That game no longer exists.",
    "error.no_game_here": "There is no game in this channel. Start one with {carcassonne_new} or {catan_new}.",
    "error.replay_no_turn": "This game has no turn {turn}: its turns run from {first} to {last}.",
    "error.not_started": "This game has not started yet.",
    "error.stale": "This button is out of date: the game has moved on. Use the latest message.",
    "error.elsewhere": (
        "This button belongs to a game in another channel, so it does nothing here. Nothing was changed."
    ),
    "error.not_your_game": "This button belongs to a game you are not playing in. Nothing was changed.",
    "error.bad_options": "Those options do not work: {reason}",
    "error.channel_busy": "This channel already has a game. Finish it, or ask the host to end it with {abandon}.",
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
    "error.computer_unavailable": "There is no {level} computer player for this game yet.",
    "error.no_computer": "There is no computer player to remove.",
    "error.takeover_needs_limit": (
        "A computer can take over only when turns have a time limit: set the turn limit as well."
    ),
    "error.not_stood_in": "No computer is playing for you in this game.",
    "error.nothing_to_take_over": "Computer players already play every idle seat.",
    "error.nothing_to_undo": "You have nothing to undo in this turn.",
    "error.undo_revealed": "That cannot be undone: it revealed something new.",
    "error.export_unfinished": "A game can be exported once it is over.",
    "error.not_your_turn": "It is not your turn.",
    "error.rule": "{reason}",
    # rule refusals by engine code (bot/core/components.py::rule_reason); other codes use the engine's explanation
    "rule.not_your_turn": "It is not your turn.",
    "rule.roll_first": "Roll the dice first.",
    "rule.already_rolled": "The dice were already rolled this turn.",
    "rule.game_over": "The game is over.",
    "error.internal": "Something went wrong on our side; nothing was changed. Please try again.",
    "error.incident": "Something went wrong on our side; nothing was changed (incident {incident}). Please try again.",
    # carcassonne turn flow (bot/carcassonne/turn.py) and narration (bot/carcassonne/narration.py)
    # A cell in running text, named as the board image labels it (column numbers along the top, row numbers down
    # the left), never as a coordinate pair: ``{cell}`` is ``carcassonne.cell`` and ``{where}`` the columns and
    # rows a feature spans (``carcassonne.cells_*``). Each is written in the form it takes after "in" (Russian: the
    # prepositional, «в столбце 2, строке -7»). Menus and commands keep the compact (2, -7) that players type.
    "carcassonne.cell": "column {x}, row {y}",
    "carcassonne.cells_column": "column {x}, rows {rows}",
    "carcassonne.cells_row": "columns {columns}, row {y}",
    "carcassonne.cells_area": "columns {columns}, rows {rows}",
    # the numbers of several rows or columns: two side by side, or a run of more
    "carcassonne.numbers_two": "{first} and {last}",
    "carcassonne.numbers_run": "{first} to {last}",
    "carcassonne.begins": "Carcassonne begins: the start tile lies in column 0, row 0.",
    "carcassonne.turn_place": (
        "Turn {turn}: {mention}, place the drawn tile — it fits in {count} cell, numbered on the image.",
        "Turn {turn}: {mention}, place the drawn tile — it fits in {count} cells, numbered on the image.",
    ),
    "carcassonne.turn_follower": (
        "{mention}, put a follower on the tile you placed (the spots are marked), or choose No follower."
    ),
    "carcassonne.turn_other": "Turn {turn}: waiting for {mention}.",
    "carcassonne.scores": "Scores: {scores} · tiles left: {left}",
    "carcassonne.over": "Game over! {winners} won. Final scores: {scores}.",
    "carcassonne.over_tie": "Game over! {winners} tie for the win. Final scores: {scores}.",
    "carcassonne.score": "{name} {points}",
    "carcassonne.cell_option": "{number} · ({x}, {y})",
    "carcassonne.cell_placeholder": "Choose a cell ({first}–{last} of {count})",
    "carcassonne.cell_placeholder_only": "Choose the only cell",
    "carcassonne.page_prev": "◀ Cells {first}–{last}",
    "carcassonne.page_next": "Cells {first}–{last} ▶",
    "carcassonne.page_prev_one": "◀ Cell {number}",
    "carcassonne.page_next_one": "Cell {number} ▶",
    "carcassonne.rotation": "{degrees}°",
    "carcassonne.choose_rotation": "Cell {number}, in {cell}: choose a rotation (clockwise).",
    "carcassonne.no_follower": "No follower",
    "carcassonne.tower_placeholder": "Build on a tower",
    "carcassonne.tower_option": "Tower at ({x}, {y}) → height {height}",
    # menu options: the towers' and targets' cells come before the owner's name, which is shortened to fit
    "carcassonne.tower_capture.city": (
        "Tower at ({x}, {y}): capture {owner}'s knight on the city ({side}) at ({tx}, {ty})"
    ),
    "carcassonne.tower_capture.road": (
        "Tower at ({x}, {y}): capture {owner}'s thief on the road ({side}) at ({tx}, {ty})"
    ),
    "carcassonne.tower_capture.cloister": "Tower at ({x}, {y}): capture {owner}'s monk on the cloister at ({tx}, {ty})",
    "carcassonne.tower_capture.field": (
        "Tower at ({x}, {y}): capture {owner}'s farmer on the field ({side}) at ({tx}, {ty})"
    ),
    "carcassonne.tower_capture.tower": "Tower at ({x}, {y}): capture {owner}'s follower on the tower at ({tx}, {ty})",
    "carcassonne.tower_capture_own.city": (
        "Tower at ({x}, {y}): take back your own knight on the city ({side}) at ({tx}, {ty})"
    ),
    "carcassonne.tower_capture_own.road": (
        "Tower at ({x}, {y}): take back your own thief on the road ({side}) at ({tx}, {ty})"
    ),
    "carcassonne.tower_capture_own.cloister": (
        "Tower at ({x}, {y}): take back your own monk on the cloister at ({tx}, {ty})"
    ),
    "carcassonne.tower_capture_own.field": (
        "Tower at ({x}, {y}): take back your own farmer on the field ({side}) at ({tx}, {ty})"
    ),
    "carcassonne.tower_capture_own.tower": (
        "Tower at ({x}, {y}): take back your own follower on the tower at ({tx}, {ty})"
    ),
    "carcassonne.spot_placeholder": "Put a follower on…",
    "carcassonne.tower_top": "Follower on tower ({x}, {y})",
    "carcassonne.ransom": "Pay ransom to {name}",
    "carcassonne.done": "Done.",
    "carcassonne.rotation_chosen": "You placed the tile in {cell}, turned {degrees}°.",
    "carcassonne.not_carcassonne": "The game in this channel is not Carcassonne.",
    "carcassonne.no_cell": "That cell is not a legal place for the tile now.",
    "carcassonne.no_choice": "No legal cells now.",
    "narrate.more": ("…and {count} more event.", "…and {count} more events."),
    "narrate.tiles": ("{count} tile", "{count} tiles"),
    "narrate.pennants": ("{count} pennant", "{count} pennants"),
    "narrate.side_middle": "middle",
    "narrate.tile_placed": "{name} placed a tile in {cell}, turned {rotation}°.",
    # one sentence per feature: Russian needs each noun in its own case and gender
    "narrate.follower_placed.city": "{name} put a knight on the city ({side}) in {cell}.",
    "narrate.follower_placed.road": "{name} put a thief on the road ({side}) in {cell}.",
    "narrate.follower_placed.cloister": "{name} put a monk on the cloister in {cell}.",
    "narrate.follower_placed.field": "{name} put a farmer on the field ({side}) in {cell}.",
    "narrate.follower_returned.city": "{name}'s knight on the city ({side}) in {cell} went back to the supply.",
    "narrate.follower_returned.road": "{name}'s thief on the road ({side}) in {cell} went back to the supply.",
    "narrate.follower_returned.cloister": "{name}'s monk on the cloister in {cell} went back to the supply.",
    "narrate.follower_returned.field": "{name}'s farmer on the field ({side}) in {cell} went back to the supply.",
    "narrate.follower_returned.tower": "{name}'s follower on the tower in {cell} went back to the supply.",
    "narrate.completed.city": (
        "The city in {where} was completed: {count} point to {who} ({why}).",
        "The city in {where} was completed: {count} points to {who} ({why}).",
    ),
    "narrate.completed_tie.city": (
        "The city in {where} was completed: {count} point each to {who} ({why}).",
        "The city in {where} was completed: {count} points each to {who} ({why}).",
    ),
    "narrate.completed.road": (
        "The road in {where} was completed: {count} point to {who} ({why}).",
        "The road in {where} was completed: {count} points to {who} ({why}).",
    ),
    "narrate.completed_tie.road": (
        "The road in {where} was completed: {count} point each to {who} ({why}).",
        "The road in {where} was completed: {count} points each to {who} ({why}).",
    ),
    "narrate.completed.cloister": (
        "The cloister in {where} was completed: {count} point to {who} ({why}).",
        "The cloister in {where} was completed: {count} points to {who} ({why}).",
    ),
    "narrate.completed_tie.cloister": (
        "The cloister in {where} was completed: {count} point each to {who} ({why}).",
        "The cloister in {where} was completed: {count} points each to {who} ({why}).",
    ),
    "narrate.completed_unclaimed.city": "The city in {where} was completed ({why}), but nobody had a follower on it.",
    "narrate.completed_unclaimed.road": "The road in {where} was completed ({why}), but nobody had a follower on it.",
    "narrate.completed_unclaimed.cloister": (
        "The cloister in {where} was completed ({why}), but nobody had a follower on it."
    ),
    "narrate.final_scored.city": (
        "The unfinished city in {where} scores {count} point for {who} ({why}).",
        "The unfinished city in {where} scores {count} points for {who} ({why}).",
    ),
    "narrate.final_scored_tie.city": (
        "The unfinished city in {where} scores {count} point each for {who} ({why}).",
        "The unfinished city in {where} scores {count} points each for {who} ({why}).",
    ),
    "narrate.final_scored.road": (
        "The unfinished road in {where} scores {count} point for {who} ({why}).",
        "The unfinished road in {where} scores {count} points for {who} ({why}).",
    ),
    "narrate.final_scored_tie.road": (
        "The unfinished road in {where} scores {count} point each for {who} ({why}).",
        "The unfinished road in {where} scores {count} points each for {who} ({why}).",
    ),
    "narrate.final_scored.cloister": (
        "The unfinished cloister in {where} scores {count} point for {who} ({why}).",
        "The unfinished cloister in {where} scores {count} points for {who} ({why}).",
    ),
    "narrate.final_scored_tie.cloister": (
        "The unfinished cloister in {where} scores {count} point each for {who} ({why}).",
        "The unfinished cloister in {where} scores {count} points each for {who} ({why}).",
    ),
    "narrate.final_unclaimed.city": "The unfinished city in {where} scores nothing: no follower on it.",
    "narrate.final_unclaimed.road": "The unfinished road in {where} scores nothing: no follower on it.",
    "narrate.final_unclaimed.cloister": "The unfinished cloister in {where} scores nothing: no follower on it.",
    "narrate.cities": ("{count} finished city", "{count} finished cities"),
    "narrate.farm_scored": (
        "A farm supplying {cities}: {count} point to {who}.",
        "A farm supplying {cities}: {count} points to {who}.",
    ),
    "narrate.farm_scored_tie": (
        "A farm supplying {cities}: {count} point each to {who}.",
        "A farm supplying {cities}: {count} points each to {who}.",
    ),
    "narrate.farm_unclaimed": "A farm supplying {cities} had no farmer.",
    "narrate.final_nothing": (
        "{count} unfinished feature or farm without a follower scores nothing.",
        "{count} unfinished features and farms without followers score nothing.",
    ),
    "narrate.tower_built": "{name} raised the tower in {cell} to height {height}.",
    "narrate.captured.city": "{name} captured {owner}'s knight on the city ({side}) in {cell}.",
    "narrate.captured.road": "{name} captured {owner}'s thief on the road ({side}) in {cell}.",
    "narrate.captured.cloister": "{name} captured {owner}'s monk on the cloister in {cell}.",
    "narrate.captured.field": "{name} captured {owner}'s farmer on the field ({side}) in {cell}.",
    "narrate.captured.tower": "{name} captured {owner}'s follower on the tower in {cell}.",
    "narrate.captured_own.city": "{name} took their own knight back with a tower, from the city ({side}) in {cell}.",
    "narrate.captured_own.road": "{name} took their own thief back with a tower, from the road ({side}) in {cell}.",
    "narrate.captured_own.cloister": "{name} took their own monk back with a tower, from the cloister in {cell}.",
    "narrate.captured_own.field": "{name} took their own farmer back with a tower, from the field ({side}) in {cell}.",
    "narrate.captured_own.tower": "{name} took their own follower back with a tower, from the tower in {cell}.",
    "narrate.prisoners_exchanged": "{who} exchanged prisoners.",
    "narrate.tower_closed": "{name} closed the tower in {cell} with a follower on top.",
    "narrate.ransom_paid": (
        "{name} paid {to} a ransom of {count} point.",
        "{name} paid {to} a ransom of {count} points.",
    ),
    "narrate.tile_discarded": "The tile {name} drew fits nowhere, so it is discarded.",
    "narrate.tile_drawn": "{name} draws another tile.",
    "narrate.prisoners_returned": (
        "{holder} returned {count} prisoner to {owner}.",
        "{holder} returned {count} prisoners to {owner}.",
    ),
    "narrate.game_over": "The game is over. Winner: {winners}. Scores: {scores}.",
    "narrate.game_over_tie": "The game is over in a tie. Winners: {winners}. Scores: {scores}.",
    "narrate.undone": "{name} took back their last move.",
    # catan names (bot/catan/names.py)
    "catan.resource.brick": ("{count} brick", "{count} brick"),
    "catan.resource.lumber": ("{count} lumber", "{count} lumber"),
    "catan.resource.wool": ("{count} wool", "{count} wool"),
    "catan.resource.grain": ("{count} grain", "{count} grain"),
    "catan.resource.ore": ("{count} ore", "{count} ore"),
    # the same amounts as the object of a verb (Russian accusative: «сбрасывает 1 глину»)
    "catan.resource_acc.brick": ("{count} brick", "{count} brick"),
    "catan.resource_acc.lumber": ("{count} lumber", "{count} lumber"),
    "catan.resource_acc.wool": ("{count} wool", "{count} wool"),
    "catan.resource_acc.grain": ("{count} grain", "{count} grain"),
    "catan.resource_acc.ore": ("{count} ore", "{count} ore"),
    "catan.card.knight": "Knight",
    "catan.card.victory_point": "Victory Point",
    "catan.card.road_building": "Road Building",
    "catan.card.year_of_plenty": "Year of Plenty",
    "catan.card.monopoly": "Monopoly",
    "catan.award.longest_road": "Longest Road",
    "catan.award.largest_army": "Largest Army",
    "catan.terrain.hills": "hills",
    "catan.terrain.forest": "forest",
    "catan.terrain.pasture": "pasture",
    "catan.terrain.fields": "fields",
    "catan.terrain.mountains": "mountains",
    "catan.terrain.desert": "desert",
    "catan.hex": "{hex} · {terrain} {number}",
    "catan.hex_plain": "{hex} · {terrain}",
    "catan.intersection": "{number} · {name}",
    "catan.path": "{path} · {name}",
    # the same places in running text (narration, prompts, private replies): what the image prints, the number
    # or path and the hex's corner or side in brackets; the sentence names the noun (intersection, path, hex)
    "catan.intersection_inline": "{number} ({name})",
    "catan.path_inline": "{path} ({name})",
    "catan.hex_inline": "{hex} ({terrain} {number})",
    "catan.hex_inline_plain": "{hex} ({terrain})",
    # a resource named without an amount inside a sentence (lower case), and as the object of a verb
    "catan.word.brick": "brick",
    "catan.word.lumber": "lumber",
    "catan.word.wool": "wool",
    "catan.word.grain": "grain",
    "catan.word.ore": "ore",
    "catan.word_acc.brick": "brick",
    "catan.word_acc.lumber": "lumber",
    "catan.word_acc.wool": "wool",
    "catan.word_acc.grain": "grain",
    "catan.word_acc.ore": "ore",
    "catan.bundle_example": "2 brick, 1 ore",
    "catan.bundle_empty": "Name at least one card, for example: {example}.",
    "catan.bundle_bad": "I could not read “{text}”. Write amounts and resources, for example: {example}.",
    "catan.bundle_unknown": "“{word}” is not a resource. The resources are {resources}.",
    "catan.bundle_too_many": "At most {max} of one resource.",
    "catan.bundle_number": "“{text}” is not an amount: write amounts with the digits 0–9, for example: {example}.",
    # catan narration (bot/narrate.py)
    "narrate.catan.built.road": "{name} built a road on path {at}.",
    "narrate.catan.built.settlement": "{name} built a settlement at intersection {at}.",
    "narrate.catan.built.city": "{name} built a city at intersection {at}.",
    "narrate.catan.built_free.road": "{name} built a free road on path {at}.",
    "narrate.catan.start_resources": "{name} took starting resources: {cards}.",
    "narrate.catan.start_resources_none": "{name} took no starting resources.",
    "narrate.catan.rolled": "{name} rolled {a} + {b} = **{total}**.",
    "narrate.catan.gain": "{name} collected {cards}.",
    "narrate.catan.produced_none": "Nobody collected anything.",
    "narrate.catan.shortage": "The bank ran short, so nobody got {resources}.",
    "narrate.catan.owes": ("{name} ({count} card)", "{name} ({count} cards)"),
    "narrate.catan.must_discard": "Seven! Discarding: {who}.",
    "narrate.catan.discarded": "{name} discarded {cards}.",
    "narrate.catan.robber_moved": "{name} moved the robber to hex {hex}.",
    "narrate.catan.stole": "{name} stole {resource} from {victim}.",
    "narrate.catan.stole_hidden": "{name} stole a card from {victim}.",
    "narrate.catan.stole_nothing": "{name} could steal nothing from {victim}: no cards.",
    "narrate.catan.stole_nobody": "{name} had nobody to steal from.",
    "narrate.catan.bought": "{name} bought a development card.",
    "narrate.catan.bought_card": "{name} bought a development card: {card}.",
    "narrate.catan.played": "{name} played {card}.",
    "narrate.catan.monopoly.brick": (
        "{name} claimed every brick: {count} card taken.",
        "{name} claimed every brick: {count} cards taken.",
    ),
    "narrate.catan.monopoly.lumber": (
        "{name} claimed every lumber: {count} card taken.",
        "{name} claimed every lumber: {count} cards taken.",
    ),
    "narrate.catan.monopoly.wool": (
        "{name} claimed every wool: {count} card taken.",
        "{name} claimed every wool: {count} cards taken.",
    ),
    "narrate.catan.monopoly.grain": (
        "{name} claimed every grain: {count} card taken.",
        "{name} claimed every grain: {count} cards taken.",
    ),
    "narrate.catan.monopoly.ore": (
        "{name} claimed every ore: {count} card taken.",
        "{name} claimed every ore: {count} cards taken.",
    ),
    # a monopoly that finds nothing has its own sentence ("claimed every brick: 0 cards taken" reads as a glitch)
    "narrate.catan.monopoly_none.brick": "{name} claimed every brick, but nobody had any.",
    "narrate.catan.monopoly_none.lumber": "{name} claimed every lumber, but nobody had any.",
    "narrate.catan.monopoly_none.wool": "{name} claimed every wool, but nobody had any.",
    "narrate.catan.monopoly_none.grain": "{name} claimed every grain, but nobody had any.",
    "narrate.catan.monopoly_none.ore": "{name} claimed every ore, but nobody had any.",
    "narrate.catan.took": "{name} took {cards} from the bank.",
    "narrate.catan.bank_traded": "{name} traded {give} to the bank for {get}.",
    "narrate.catan.traded": "{name} traded {give} to {other} for {get}.",
    "narrate.catan.offer_made": "{name} offers {to} {give} for {get} (offer {offer}).",
    "narrate.catan.offer_made_all": "{name} offers {give} for {get} to everyone (offer {offer}).",
    "narrate.catan.offer_void": "Offer {offer} from {name} no longer stands.",
    "narrate.catan.offer_accepted": "{name} accepted offer {offer}.",
    "narrate.catan.offer_declined": "{name} declined offer {offer}.",
    "narrate.catan.offer_withdrawn": "{name} withdrew offer {offer}.",
    "narrate.catan.award.longest_road": (
        "{name} now holds the Longest Road ({count} road).",
        "{name} now holds the Longest Road ({count} roads).",
    ),
    "narrate.catan.award.largest_army": (
        "{name} now holds the Largest Army ({count} knight).",
        "{name} now holds the Largest Army ({count} knights).",
    ),
    "narrate.catan.award_lost.longest_road": "Nobody holds the Longest Road now.",
    "narrate.catan.award_lost.largest_army": "Nobody holds the Largest Army now.",
    "narrate.catan.game_over": (
        "{name} wins with {count} victory point!",
        "{name} wins with {count} victory points!",
    ),
    # catan turn flow (bot/catan, bot/cogs/catan.py)
    "catan.begins": "Catan begins! Set-up: each player places a settlement and a road, then again in reverse order.",
    "catan.over": "Game over! Final points: {scores}.",
    "catan.score": ("{name} {points} VP ({cards} card)", "{name} {points} VP ({cards} cards)"),
    "catan.turn.setup_settlement": "Set-up: {mention}, place a settlement on one of the numbered intersections.",
    "catan.turn.setup_road": ("Set-up: {mention}, place a road touching your new settlement at intersection {at}."),
    "catan.turn.roll": "Turn {turn}: {mention}, roll the dice (you may play a development card first).",
    "catan.turn.owes": ("{mention} ({count} card)", "{mention} ({count} cards)"),
    "catan.turn.discard": "Waiting for discards: {owing}. Press Discard to choose yours.",
    "catan.turn.robber": "{mention}, move the robber: choose a hex.",
    "catan.turn.main": "Turn {turn}: {mention}, build, trade, buy or play a card, then End turn.",
    "catan.button.roll": "Roll",
    "catan.button.play": "Play card",
    "catan.button.discard": "Discard",
    "catan.button.build_road": "Build road",
    "catan.button.build_settlement": "Build settlement",
    "catan.button.build_city": "Build city",
    "catan.button.buy": "Buy card",
    "catan.button.bank": "Bank trade",
    "catan.button.trade": "Trade",
    "catan.button.end": "End turn",
    "catan.button.hand": "My hand",
    "catan.button.accept": "Accept offer {offer}",
    "catan.button.decline": "Decline offer {offer}",
    "catan.button.counter": "Counter offer {offer}",
    "catan.button.withdraw": "Withdraw offer {offer}",
    "catan.button.confirm": "Trade with {name} (offer {offer})",
    "catan.button.offer_all": "Offer to everyone",
    "catan.button.offer_to": "Offer to {name}",
    "catan.name.brick": "Brick",
    "catan.name.lumber": "Lumber",
    "catan.name.wool": "Wool",
    "catan.name.grain": "Grain",
    "catan.name.ore": "Ore",
    "catan.cost.road": "A road",
    "catan.cost.settlement": "A settlement",
    "catan.cost.city": "A city",
    "catan.cost.card": "A development card",
    "catan.cannot_afford": "{what} costs {cost}; you have {have}.",
    "catan.cannot_afford_nothing": "{what} costs {cost}; you have no resource cards.",
    "catan.choose_spot": "Choose ({first}–{last} of {count})",
    "catan.choose_spot_only": "Choose the only option",
    "catan.page_prev": "◀ Previous",
    "catan.page_next": "Next ▶",
    "catan.build_prompt.road": (
        "Where do you build the road? {count} legal spot.",
        "Where do you build the road? {count} legal spots.",
    ),
    "catan.build_prompt.settlement": (
        "Where do you build the settlement? {count} legal spot.",
        "Where do you build the settlement? {count} legal spots.",
    ),
    "catan.build_prompt.city": (
        "Where do you build the city? {count} legal spot.",
        "Where do you build the city? {count} legal spots.",
    ),
    "catan.no_spot.road": "There is no legal place for a road now (or no road piece left).",
    "catan.no_spot.settlement": "There is no legal place for a settlement now (or no settlement piece left).",
    "catan.no_spot.city": "You have no settlement to upgrade (or no city piece left).",
    "catan.not_now": "Not now: roll the dice and settle a 7 first.",
    "catan.robber_placeholder": "Move the robber to…",
    "catan.robber_victims": "steal from {names}",
    "catan.robber_nobody": "nobody to steal from",
    "catan.robber_stays": "The robber must move to another hex.",
    "catan.choose_victim": "The robber is on hex {hex}: whom do you rob?",
    "catan.steal_from": "Steal from {name}",
    "catan.steal_nobody": "nobody",
    "catan.play_prompt": "Which development card do you play?",
    "catan.no_playable": (
        "You have no development card you can play now (one per turn, not one bought this turn; "
        "victory point cards are never played)."
    ),
    "catan.knight_prompt": "Knight: move the robber.",
    "catan.monopoly_prompt": "Monopoly: which resource do you claim from everyone?",
    "catan.yop_prompt": "Year of Plenty: take two resources from the bank.",
    "catan.yop_placeholder": "Take…",
    "catan.rb_prompt": "Road Building: choose the first of two free roads.",
    "catan.rb_first": "First road…",
    "catan.rb_second": "Second road…",
    "catan.rb_then": "First road: {path}. Now choose the second.",
    "catan.bank_prompt": "Trade with the bank (your harbour rates apply).",
    "catan.bank_placeholder": "Give… for…",
    "catan.bank_option": "{give} → {get}",
    "catan.no_bank_trade": (
        "You cannot trade with the bank now: it takes 4 of one resource (3 or 2 at your harbours), "
        "in your turn after the roll."
    ),
    "catan.trade_prompt": "Whom do you offer a trade?",
    "catan.trade_not_now": "Trades happen in the active player's turn, after the roll.",
    "catan.modal.offer_title": "Offer to {name}",
    "catan.modal.offer_all_title": "Offer to everyone",
    "catan.modal.counter_title": "Counter offer {offer} from {name}",
    "catan.modal.give": "You give",
    "catan.modal.get": "You get",
    "catan.modal.get_example": "1 wool",
    "catan.modal.discard_title": ("Discard {count} card", "Discard {count} cards"),
    "catan.modal.discard_field": "{resource} held: how many to discard?",
    "catan.discard_number": "“{text}” is not a number of cards: write how many with the digits 0–9, for example 2.",
    "catan.no_discard": "You owe no discard now.",
    "catan.offer_gone": "Offer {offer} is no longer open.",
    "catan.offer.to_all": "Offer {offer}: {name} gives {give} for {get}, to everyone.",
    "catan.offer.to_one": "Offer {offer}: {name} gives {to} {give} for {get}.",
    "catan.private.header": "Catan in {channel}:",
    "catan.private.bought": "You bought a development card: **{card}**.",
    "catan.private.stole": "You stole {resource} from {victim}.",
    "catan.private.robbed": "{thief} stole {resource} from you.",
    "catan.private.offer_accepted": "{name} accepted your offer {offer}: confirm the trade or withdraw it.",
    "catan.private.offer_declined": "{name} declined offer {offer}.",
    "catan.private.offer_withdrawn": "{name} withdrew offer {offer}.",
    "catan.dm_closed": (
        "{mention}, I could not send you a direct message (your DMs are closed). "
        "Use {hand} to see your cards and open offers."
    ),
    "catan.dm_failed": "{mention}, a direct message to you failed. Use {hand} to see your cards and open offers.",
    "catan.dm_instead": "{mention}, you have private news in this game: use {hand} to see it.",
    "catan.done": "Done.",
    "catan.not_catan": "The game in this channel is not Catan.",
    "catan.hand.resources": ("Resources ({count} card): {cards}", "Resources ({count} cards): {cards}"),
    "catan.hand.card": "{card} ×{count} (bought this turn: {new})",
    "catan.hand.no_resources": "Resources: no cards.",
    "catan.hand.development": "Development cards: {cards}",
    "catan.hand.no_development": "Development cards: none",
    "catan.hand.rate": "{resource} {rate}:1",
    "catan.hand.points": "Your victory points: {points}",
    "catan.hand.rates": "Your harbour rates: {rates}",
    "catan.hand.owes": ("You must discard {count} card.", "You must discard {count} cards."),
    "narrate.timed_out": "{name} ran out of time; the bot made a minimal move.",
    "narrate.returned": "{name} is back and plays again.",
    "narrate.left": "{name} left: a computer player plays their seat.",
    # languages (/game language)
    # one sentence per language chosen: Russian names a language in the case the sentence needs («на русском»)
    "cmd.language.set.en": "This game now speaks English: public messages in this channel use it.",
    "cmd.language.set.zh-CN": "This game now speaks Simplified Chinese: public messages in this channel use it.",
    "cmd.language.set.zh-TW": "This game now speaks Traditional Chinese: public messages in this channel use it.",
    "cmd.language.set.ru": "This game now speaks Russian: public messages in this channel use it.",
    # rule refusals by engine code in other languages (English shows the engine's own explanation for these)
    "rule.generic": "That move is not allowed by the rules ({code}).",
    "rule.place_first": "Place the drawn tile first.",
    "rule.already_placed": "You already placed a tile this turn.",
    "rule.edges_mismatch": "The tile's edges do not match its neighbours there.",
    "rule.not_adjacent": "A tile must touch a tile already on the table.",
    "rule.cell_occupied": "That cell already holds a tile.",
    "rule.feature_occupied": "Someone already has a follower on that feature.",
    "rule.no_followers": "You have no follower in your supply.",
    "rule.tile_fits": "The tile fits somewhere, so it cannot be discarded.",
    "rule.bad_rotation": "A rotation is 0, 90, 180 or 270 degrees.",
    "rule.river_must_continue": "A river tile must continue the river.",
    "rule.river_u_turn": "The river may not turn back on itself twice in a row.",
    "rule.no_tower": "This game is played without The Tower.",
    "rule.no_tower_pieces": "You have no tower pieces left.",
    "rule.tower_closed": "That tower is closed.",
    "rule.not_a_tower": "There is no tower foundation there.",
    "rule.out_of_reach": "That follower is out of the tower's reach.",
    "rule.ransom_used": "You already paid a ransom this turn.",
    "rule.ransom_unaffordable": "You do not have enough points to pay the ransom.",
    "rule.no_prisoner": "That player holds none of your followers.",
    "rule.resolve_seven_first": "Settle the 7 first: discards, then the robber.",
    "rule.discards_pending": "The robber moves once every discard is made.",
    "rule.distance_rule": "Too close: a settlement needs every neighbouring intersection empty.",
    "rule.not_connected": "That must connect to your own road, settlement or city.",
    "rule.occupied": "That spot is already taken.",
    "rule.no_pieces_left.road": "You have no road left in your supply.",
    "rule.no_pieces_left.settlement": "You have no settlement left in your supply.",
    "rule.no_pieces_left.city": "You have no city left in your supply.",
    "rule.cannot_afford": "You do not hold the cards for that.",
    "rule.deck_empty": "The development deck is empty.",
    "rule.bank_empty": "The bank holds no cards to take.",
    "rule.card_bought_this_turn": "A development card cannot be played in the turn it was bought.",
    "rule.one_card_per_turn": "Only one development card may be played per turn.",
    "rule.no_such_card": "You hold no such development card.",
    "rule.robber_must_move": "The robber must move to another hex.",
    "rule.victim_required": "Choose whom to rob.",
    "rule.victim_not_adjacent": "That player has no building next to the robber.",
    "rule.trade_rate": "The bank does not trade at that rate.",
    "rule.trade_not_allowed": "That trade is not allowed.",
    "rule.trading_after_building": "With strict phases, all trading comes before any building.",
    "rule.unknown_offer": "There is no such open offer.",
    "rule.not_offer_recipient": "That offer was not made to you.",
    "rule.not_your_offer": "That is not your offer.",
    "rule.not_accepted": "That offer has not been accepted by that player.",
    "rule.discard_wrong_count": "Discard exactly the number of cards you owe.",
    "rule.no_discard_owed": "You owe no discard now.",
    "rule.setup_expects_road": "Place the road for your new settlement first.",
    "rule.setup_expects_settlement": "Place a settlement first, then its road.",
    "rule.setup_road_must_touch": "The road must touch the settlement you just placed.",
    "rule.not_own_settlement": "Only your own settlement can become a city.",
    "rule.wrong_phase": "That is not possible at this point of the game.",
    "rule.like_for_like": "A trade cannot give and get the same resource.",
    "rule.year_of_plenty_count": "Year of Plenty takes exactly two resources.",
    "rule.road_building_count": "Road Building builds one or two roads.",
    "rule.unknown_intersection": (
        "“{intersection}” is not an intersection: use a number from 1 to 54 or a hex and corner such as J-NE."
    ),
    "rule.unknown_path": (
        "“{path}” is not a path: name it by its two neighbouring intersections (25-31) or a hex and side (J-E)."
    ),
    # slash commands (bot/text/translator.py): names are lowercase, at most 32 letters, digits, - or _
    "slash.carcassonne.name": "carcassonne",
    "slash.carcassonne.description": "Play Carcassonne in this channel",
    "slash.carcassonne.new.name": "new",
    "slash.carcassonne.new.description": "Open a Carcassonne lobby in this channel",
    "slash.carcassonne.new.river.name": "river",
    "slash.carcassonne.new.river.description": "Start with The River (default on)",
    "slash.carcassonne.new.tower.name": "tower",
    "slash.carcassonne.new.tower.description": "Add The Tower expansion",
    "slash.carcassonne.new.farm_scoring.name": "farm_scoring",
    "slash.carcassonne.new.farm_scoring.description": "Farm scoring rule",
    "slash.carcassonne.new.small_city.name": "small_city",
    "slash.carcassonne.new.small_city.description": "Old rule: a 2-tile city scores 2",
    "slash.carcassonne.new.turn_limit.name": "turn_limit",
    "slash.carcassonne.new.turn_limit.description": (
        "Hours a player may keep the game waiting before the bot makes a minimal move (default: no limit)"
    ),
    "slash.carcassonne.new.takeover.name": "takeover",
    "slash.carcassonne.new.takeover.description": (
        "When a turn limit runs out, a computer plays for that player until they return"
    ),
    "slash.carcassonne.new.away.name": "away",
    "slash.carcassonne.new.away.description": (
        "When a player is away: their turn limit waits (default), or a computer plays for them"
    ),
    "slash.carcassonne.new.stand_in.name": "stand_in",
    "slash.carcassonne.new.stand_in.description": (
        "The level of the computer playing for a player who times out or is away (default: the strongest)"
    ),
    "slash.catan.name": "catan",
    "slash.catan.description": "Play Catan in this channel",
    "slash.catan.new.name": "new",
    "slash.catan.new.description": "Open a Catan lobby in this channel",
    "slash.catan.new.board.name": "board",
    "slash.catan.new.board.description": "Map: random, random numbers, or the beginner map",
    "slash.catan.new.setup.name": "setup",
    "slash.catan.new.setup.description": "Set-up: snake draft or the beginner positions",
    "slash.catan.new.points_to_win.name": "points_to_win",
    "slash.catan.new.points_to_win.description": "Victory points needed (default 10)",
    "slash.catan.new.strict_phases.name": "strict_phases",
    "slash.catan.new.strict_phases.description": "All trading before any building",
    "slash.catan.new.turn_limit.name": "turn_limit",
    "slash.catan.new.turn_limit.description": (
        "Hours a player may keep the game waiting before the bot makes a minimal move (default: no limit)"
    ),
    "slash.catan.new.takeover.name": "takeover",
    "slash.catan.new.takeover.description": (
        "When a turn limit runs out, a computer plays for that player until they return"
    ),
    "slash.catan.new.away.name": "away",
    "slash.catan.new.away.description": (
        "When a player is away: their turn limit waits (default), or a computer plays for them"
    ),
    "slash.catan.new.stand_in.name": "stand_in",
    "slash.catan.new.stand_in.description": (
        "The level of the computer playing for a player who times out or is away (default: the strongest)"
    ),
    "slash.game.name": "game",
    "slash.game.description": "The game in this channel",
    "slash.game.status.name": "status",
    "slash.game.status.description": "Scores, turn and what the game is waiting for",
    "slash.game.board.name": "board",
    "slash.game.board.description": "Show the board of the game in this channel",
    "slash.game.rules.name": "rules",
    "slash.game.rules.description": "A short summary of the rules",
    "slash.game.abandon.name": "abandon",
    "slash.game.abandon.description": "End the game in this channel (host or Manage Channels)",
    "slash.game.leave.name": "leave",
    "slash.game.leave.description": "Leave the game in this channel",
    "slash.game.undo.name": "undo",
    "slash.game.undo.description": "Take back your last move of this turn, if it revealed nothing",
    "slash.game.language.name": "language",
    "slash.game.language.description": "The language of this game's public messages (host or Manage Channels)",
    "slash.game.language.language.name": "language",
    "slash.game.language.language.description": "The language",
    "slash.game.back.name": "back",
    "slash.game.back.description": "Play again yourself after a computer stood in for you",
    "slash.game.export.name": "export",
    "slash.game.export.description": "The replay file of the last finished game in this channel",
    "slash.game.mine.name": "mine",
    "slash.game.mine.description": "Every game of yours, where it waits for you first (only you see it)",
    "slash.game.replay.name": "replay",
    "slash.game.replay.description": "Look back at any turn of this channel's game",
    "slash.game.replay.turn.name": "turn",
    "slash.game.replay.turn.description": "The turn to show (default: the latest)",
    "slash.stats.name": "stats",
    "slash.stats.description": "Ratings and games played in this server",
    "slash.stats.player.name": "player",
    "slash.stats.player.description": "Show this player's ratings, with a chart of their rating over time",
    "slash.settings.name": "settings",
    "slash.settings.description": "Your boardhost settings",
    "slash.settings.notifications.name": "notifications",
    "slash.settings.notifications.description": "Turn DMs, your time zone and quiet hours (nothing given: see them)",
    "slash.settings.notifications.dm_on_turn.name": "dm_on_turn",
    "slash.settings.notifications.dm_on_turn.description": "Get a direct message when a turn of yours starts",
    "slash.settings.notifications.time_zone.name": "time_zone",
    "slash.settings.notifications.time_zone.description": "Your time zone, such as Europe/Berlin",
    "slash.settings.notifications.quiet_hours.name": "quiet_hours",
    "slash.settings.notifications.quiet_hours.description": (
        "When not to disturb you, your time, such as 23:00-07:00 (or off)"
    ),
    "slash.settings.away.name": "away",
    "slash.settings.away.description": "You are away until a day: your games wait, or a computer plays for you",
    "slash.settings.away.until.name": "until",
    "slash.settings.away.until.description": "The day you are back, such as 2025-07-01",
    "slash.place.name": "place",
    "slash.place.description": "Place the drawn Carcassonne tile",
    "slash.place.cell.name": "cell",
    "slash.place.cell.description": "Where: pick a numbered cell",
    "slash.place.rotation.name": "rotation",
    "slash.place.rotation.description": "Clockwise rotation in degrees",
    "slash.hand.name": "hand",
    "slash.hand.description": "Your Catan cards, points and open trade offers (only you see it)",
    "slash.build.name": "build",
    "slash.build.description": "Build a Catan road, settlement or city",
    "slash.build.what.name": "what",
    "slash.build.what.description": "What to build",
    "slash.build.where.name": "where",
    "slash.build.where.description": (
        "Intersection (25 or J-NE) for a settlement or city; path (25-31 or J-E) for a road"
    ),
    "slash.choice.current": "current",
    "slash.choice.first_edition": "first_edition",
    "slash.choice.random": "random",
    "slash.choice.random_numbers": "random_numbers",
    "slash.choice.beginner": "beginner",
    "slash.choice.snake": "snake",
    "slash.choice.road": "road",
    "slash.choice.settlement": "settlement",
    "slash.choice.city": "city",
    "slash.choice.wait": "wait",
    "slash.choice.computer": "computer",
    "slash.choice.level.random": "random",
    "slash.choice.level.standard": "standard",
    "slash.choice.level.expert": "expert",
    "slash.choice.en": "English",
    "slash.choice.zh-CN": "简体中文",
    "slash.choice.zh-TW": "繁體中文",
    "slash.choice.ru": "Русский",
    # alt text of the pictures (bot/alt): what a sighted player learns from each image, for screen readers
    "alt.seat": "{name} ({colour}, marked {mark})",
    "alt.colour.0": "orange",
    "alt.colour.1": "blue",
    "alt.colour.2": "green",
    "alt.colour.3": "yellow",
    "alt.colour.4": "pink",
    "alt.colour.5": "light blue",
    "alt.to_move": "It is {name}'s turn.",
    "alt.points": ("{count} point", "{count} points"),
    "alt.score": ("{name} {count} point", "{name} {count} points"),
    "alt.final_scores": "Final scores: {scores}.",
    "alt.end.chart": "{game}: the final scores as bars, one per player, split by what scored the points.",
    "alt.end.winner": "{names} won.",
    "alt.end.winners": "{names} tie for the win.",
    "alt.end.part": "{category} {count}",
    "alt.end.player": "{seat}: {points}.",
    "alt.end.player_parts": "{seat}: {points} ({parts}).",
    "alt.story.head": "{game}: the story of the game in charts.",
    "alt.story.catan.dice": (
        "The dice, {count} roll, against the odds: {totals}.",
        "The dice, {count} rolls, against the odds: {totals}.",
    ),
    "alt.story.catan.total": (
        "{total} rolled {count} time ({expected} expected)",
        "{total} rolled {count} times ({expected} expected)",
    ),
    "alt.story.catan.cards": (
        "Resource cards of {name}: {gained} gained, {robbed} lost to the robber, {traded} traded away."
    ),
    "alt.story.catan.held": "{name} from turn {turn}",
    "alt.story.catan.held_by_nobody": "nobody from turn {turn}",
    "alt.story.catan.longest_road": "The longest road: {holders}.",
    "alt.story.catan.largest_army": "The largest army: {holders}.",
    "alt.story.carcassonne.scores_at": "Scores after turn {turn}: {scores}.",
    "alt.story.carcassonne.features": "Points of {name} by feature: {parts}.",
    "alt.rating_chart": "A line chart: {title}.",
    "alt.rating_line": (
        "{game}: {count} game, the rating from {first} to {last}, at best {best}.",
        "{game}: {count} games, the rating from {first} to {last}, at best {best}.",
    ),
    "alt.rating_one": "{game}: one game, the rating {rating}.",
    "alt.timelapse": (
        "An animation of the whole {game} game, {count} turn: the board after each turn, from the first to the last.",
        "An animation of the whole {game} game, {count} turns: the board after each turn, from the first to the last.",
    ),
    "alt.carcassonne.board": "{game} board at turn {turn}.",
    "alt.carcassonne.stack": ("{count} tile is left in the stack.", "{count} tiles are left in the stack."),
    "alt.carcassonne.board_over": (
        "The final {game} board, after {count} turn.",
        "The final {game} board, after {count} turns.",
    ),
    "alt.carcassonne.side.N": "north",
    "alt.carcassonne.side.E": "east",
    "alt.carcassonne.side.S": "south",
    "alt.carcassonne.side.W": "west",
    "alt.carcassonne.tile.city": ("a city on the {sides} side", "a city on the {sides} sides"),
    "alt.carcassonne.tile.city_pennant": (
        "a city with a pennant on the {sides} side",
        "a city with a pennant on the {sides} sides",
    ),
    "alt.carcassonne.tile.road": ("a road to the {sides} side", "a road between the {sides} sides"),
    "alt.carcassonne.tile.river": ("the river to the {sides} side", "the river between the {sides} sides"),
    "alt.carcassonne.tile.cloister": "a cloister in the middle",
    "alt.carcassonne.tile.tower": "a tower foundation",
    "alt.carcassonne.tile.fields": "fields only",
    "alt.carcassonne.drawn": "The drawn tile, shown on the right, has {features}.",
    "alt.carcassonne.cell_only": "It fits in one cell only, framed in yellow and numbered 1, as in the menu below.",
    "alt.carcassonne.cells": (
        "It fits in {count} cell, framed in yellow and numbered 1 to {count}, as in the menu below.",
        "It fits in {count} cells, framed in yellow and numbered 1 to {count}, as in the menu below.",
    ),
    "alt.carcassonne.spots_head": "The tile {name} just placed at {cell}, enlarged among its neighbours.",
    "alt.carcassonne.tile_has": "It has {features}.",
    "alt.carcassonne.spots": (
        "Its {count} follower spot is labelled: {spots}.",
        "Its {count} follower spots are labelled: {spots}.",
    ),
    "alt.carcassonne.no_spot": "No follower can be placed on it.",
    "alt.carcassonne.player": "{seat}: {points}, {followers} in the supply.",
    "alt.carcassonne.player_tower": "{seat}: {points}, {followers} and {towers} in the supply.",
    "alt.carcassonne.followers": ("{count} follower", "{count} followers"),
    "alt.carcassonne.tower_pieces": ("{count} tower piece", "{count} tower pieces"),
    "alt.carcassonne.prisoners": (
        "{holder} holds {count} of {owner}'s followers prisoner.",
        "{holder} holds {count} of {owner}'s followers prisoner.",
    ),
    "alt.carcassonne.last_tile": "{name}'s at {cell}",
    "alt.carcassonne.last_placed": "A coloured frame marks the tile each player placed last: {tiles}.",
    "alt.carcassonne.axes": (
        "The numbers along the top and the left of the board are the columns and rows: a cell is written (column, row)."
    ),
    "alt.carcassonne.follower.knight": "a knight on a city at {cell}",
    "alt.carcassonne.follower.thief": "a thief on a road at {cell}",
    "alt.carcassonne.follower.monk": "a monk in a cloister at {cell}",
    "alt.carcassonne.follower.farmer": "a farmer on a field at {cell}",
    "alt.carcassonne.follower.tower": "a follower on top of the tower at {cell}",
    "alt.carcassonne.followers_of": "{name} has {places}.",
    "alt.carcassonne.tower": "height {height} at {cell}",
    "alt.carcassonne.towers": "Towers stand on the board: {towers}.",
    "alt.carcassonne.since": (
        "The {count} tile placed since your last turn is outlined in white: {cells}.",
        "The {count} tiles placed since your last turn are outlined in white: {cells}.",
    ),
    "alt.catan.board": "{game} board at turn {turn}.",
    "alt.catan.board_setup": "{game} board during the set-up.",
    "alt.catan.board_over": "The final {game} board, after turn {turn}.",
    "alt.catan.dice": "The dice show {a} and {b}: {total}.",
    "alt.catan.robber": "The robber stands on hex {hex} ({terrain}, number {number}).",
    "alt.catan.robber_plain": "The robber stands on hex {hex} ({terrain}).",
    "alt.catan.player": "{seat}: {points}, {cards}, {development}, {knights}.",
    "alt.catan.points": ("{count} victory point", "{count} victory points"),
    "alt.catan.cards": ("{count} resource card", "{count} resource cards"),
    "alt.catan.development": ("{count} development card", "{count} development cards"),
    "alt.catan.knights": ("{count} knight played", "{count} knights played"),
    "alt.catan.longest_road": "{name} holds the Longest Road, {count} long.",
    "alt.catan.largest_army": "{name} holds the Largest Army.",
    "alt.catan.discard": ("{name} must discard {count} card.", "{name} must discard {count} cards."),
    "alt.catan.count.settlement": ("{count} settlement", "{count} settlements"),
    "alt.catan.count.city": ("{count} city", "{count} cities"),
    "alt.catan.count.road": ("{count} road", "{count} roads"),
    "alt.catan.pieces": "{name} has {pieces} on the board.",
    "alt.catan.legend": (
        "Each hex shows its letter (A to S) and its number: when the dice show that number, the hex produces "
        "(a red 6 or 8 comes up most often). The small numbers at the corners are the intersections, numbered as in "
        "the menus."
    ),
    "alt.catan.since": (
        "What was built since your last turn is outlined in white: {pieces}.",
        "What was built since your last turn is outlined in white: {pieces}.",
    ),
    "alt.catan.since.settlement": "a settlement at intersection {number}",
    "alt.catan.since.city": "a city at intersection {number}",
    "alt.catan.since.road": "a road between intersections {a} and {b}",
    "alt.catan.preview_settlement": (
        "The free intersections where {name} may place a settlement are circled in yellow ({count}); their numbers "
        "are the ones in the menu below."
    ),
    "alt.catan.preview_road": "The paths where {name} may place a road are marked, as on the buttons below: {paths}.",
    # `python -m bot try`: the page that plays the part of Discord's client (bot/local/table)
    "try.server": "boardhost on this computer",
    "try.channels": "Text channels",
    "try.people": "At the table",
    "try.you": "you",
    "try.add_person": "Add a person",
    "try.language": "Discord's language",
    "try.dms": "Direct messages",
    "try.dms_none": "No direct messages from {bot} yet.",
    "try.composer": "Message #{channel}, or / for a command",
    "try.optional": "optional",
    "try.true": "True",
    "try.false": "False",
    "try.choose": "Make a selection",
    "try.send": "Send",
    "try.only_you": "Only you can see this",
    "try.dismiss": "Dismiss message",
    "try.used": "{name} used {command}",
    "try.thinking": "{bot} is thinking…",
    "try.no_answer": "The application did not respond",
    "try.failed": "This interaction failed",
    "try.edited": "(edited)",
    "try.app": "APP",
    "try.cancel": "Cancel",
    "try.submit": "Submit",
    "try.download": "Download",
    "try.loading": "Loading…",
    "try.no_choices": "Nothing to choose from.",
    "try.refused": "Discord refused a request from the bot: {route}: {detail}",
    "try.bot_starting": "The bot is starting…",
    "try.bot_stopped": "The bot stopped. The end of its log:",
    "try.offline": "The connection to the table is lost: is python -m bot try still running?",
    "try.hint": "To play two people at once, open this page in a second window and pick the other seat.",
    "try.no_command": "No command by that name.",
    "try.required": "{option}: this is required.",
    "try.not_whole": "{option}: a whole number, please.",
    "try.not_number": "{option}: a number, please.",
    "try.out_of_range": "{option}: from {low} to {high}.",
    "try.not_a_choice": "{option}: pick one of the choices.",
    "try.too_long": "{option}: at most {most} characters.",
    "try.too_short": "{option}: at least {least} characters.",
    "try.field_length": "{option}: from {least} to {most} characters.",
    "try.gone": "That is no longer there.",
    "try.message_too_long": "A message holds at most 2000 characters.",
    # text inside images (render/labels.py)
    **{f"image.{key}": value for key, value in IMAGE_ENGLISH.items()},
}
