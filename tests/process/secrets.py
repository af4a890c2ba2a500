"""What the channel must never show: checked on every state of every message the bot posted or edited there.

- No line is a catalogue text meant for one player only (a bought card, the card stolen, a hand, a private offer's
  terms, a private reply), and no line of a direct message or ephemeral reply (a hand, a menu) shows up verbatim.
- Every turn image is the spectator's picture: the same picture (``same_picture``: size, mode and every pixel) as
  drawing the test's replay's spectator view at the version the image is named after (the render functions the
  README documents, in the game's language), and its alt text is the spectator's too: the words ``bot.alt`` gives
  that same picture. Alt texts are channel text like any other: no private line may show up in them.
- The timelapse after the end is the spectator's too: the same pictures for the same times as animating the
  spectator views of the test's replay, turn by turn; and so is the story of the game: the same picture as drawing
  the story of the test's replay (``engine.story``: only what a spectator saw).
- Catan's score line of each turn message gives the public points and card counts of that version: a victory
  point card stays hidden until the game is over.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable

from PIL import Image

from bot.local.loopback import FakeDiscord
from render.timelapse import turns
from tests.bot.fuzzing import Catalogue
from tests.process.people import Shown, Table, texts

PRIVATE_KEYS = frozenset(
    {
        "narrate.catan.stole",  # the resource a thief took: thief and victim only
        "narrate.catan.bought_card",  # the card bought: the buyer only
        "narrate.catan.offer_made",  # a private offer's terms: its maker and recipient
        "catan.offer.to_one",
    }
)
PRIVATE_PREFIXES = ("catan.private.", "catan.hand.")
IMAGE = re.compile(r"(?P<game>carcassonne|catan)-(?P<id>\d+)-(?P<version>\d+)\.png")
TIMELAPSE = re.compile(r"(?P<game>carcassonne|catan)-(?P<id>\d+)-timelapse\.(?:webp|gif)")
STORY = re.compile(r"(?P<game>carcassonne|catan)-(?P<id>\d+)-story\.png")
RATING_CHART = "ratings.png"  # /stats player: a player's rating chart
SENTENCE_END = re.compile(r"(?<=[.。!?！？])\s*")
SHORTEST_PRIVATE_LINE = 16  # shorter private lines ("Done.") say nothing secret and may well recur


def private_key(key: str | None) -> bool:
    return key is not None and (key in PRIVATE_KEYS or key.startswith(PRIVATE_PREFIXES))


def private_lines(fake: FakeDiscord) -> set[str]:
    """Every line of text the bot showed one person only: ephemeral answers and followups, direct messages."""
    found: set[str] = set()
    messages = [m for ms in (fake.messages[c] for c in fake.dm_channels) for m in ms]
    for inter in fake.interactions.values():
        messages += [m for m in [inter.original, *inter.followups] if m is not None and m.ephemeral]
    for message in messages:  # their texts: menus' choices (a robber's hexes) are the turn message's too
        found.update(
            line.strip() for line in message.content.splitlines() if len(line.strip()) >= SHORTEST_PRIVATE_LINE
        )
    return found


def leaks(states: Iterable[Shown], private: set[str], catalogue: Catalogue) -> list[str]:
    """Lines of the channel that are private catalogue texts or copies of private lines. An image's alt text is one
    paragraph: each of its sentences is such a line, and no private line may be part of it."""
    found: dict[str, None] = {}  # in order, each once (a message's states repeat most of its lines)
    for state in states:
        for text in texts(state):
            for line in text.splitlines():
                key = catalogue.key(line, set())
                if private_key(key):
                    found[f"message {state.message_id}: {key}: {line!r}"] = None
                elif line.strip() in private:
                    found[f"message {state.message_id}: a private line: {line!r}"] = None
        for alt in (a.description for a in state.attachments if a.description):
            for sentence in SENTENCE_END.split(alt):
                key = catalogue.key(sentence, set())
                if private_key(key):
                    found[f"message {state.message_id}: alt text: {key}: {sentence!r}"] = None
            for line in private:
                if line in alt:
                    found[f"message {state.message_id}: a private line in an alt text: {line!r}"] = None
    return list(found)


def same_picture(posted: bytes, expected: bytes) -> bool:
    """Whether two encoded pictures show the same: one format, size and mode, every pixel the same (an animation's
    every turn, for as long). Not the same bytes: a PNG of the same rows is not always the same deflate stream (a
    posted turn image once differed from the test's in 4 bytes of its second row band, pixels and checksum equal;
    seen in 1 of about 50 whole-games runs, never reproduced in one process)."""
    if posted == expected:
        return True
    shown, drawn = Image.open(io.BytesIO(posted)), Image.open(io.BytesIO(expected))
    if (shown.format, shown.size, shown.mode) != (drawn.format, drawn.size, drawn.mode):
        return False
    if getattr(shown, "n_frames", 1) > 1 or getattr(drawn, "n_frames", 1) > 1:
        return [(p.tobytes(), ms) for p, ms in turns(shown)] == [(p.tobytes(), ms) for p, ms in turns(drawn)]
    return shown.tobytes() == drawn.tobytes()


def images(states: Iterable[Shown], table: Table) -> dict[int, bytes]:
    """The turn images of the table's game in the channel, by the version their name carries."""
    found: dict[int, bytes] = {}
    for state in states:
        for attachment in state.attachments:
            if attachment.filename == f"{table.kind}-{table.game_id}.json":  # /game export of the finished game
                continue
            if attachment.filename == "board.png":  # /game board: checked on its own (``boards``)
                continue
            if TIMELAPSE.fullmatch(attachment.filename):  # the end's animation: checked on its own (``timelapses``)
                continue
            if STORY.fullmatch(attachment.filename) or attachment.filename == RATING_CHART:  # checked on their own
                continue
            match = IMAGE.fullmatch(attachment.filename)
            assert match is not None, f"an image named {attachment.filename!r} in the channel"
            if match["game"] == table.kind and int(match["id"]) == table.game_id:
                found[int(match["version"])] = attachment.data
    return found


def alt_texts(states: Iterable[Shown], table: Table) -> dict[int, str | None]:
    """The alt text of each turn image of the table's game in the channel, by the version its name carries."""
    found: dict[int, str | None] = {}
    for state in states:
        for attachment in state.attachments:
            match = IMAGE.fullmatch(attachment.filename)
            if match is not None and match["game"] == table.kind and int(match["id"]) == table.game_id:
                found[int(match["version"])] = attachment.description
    return found


def timelapses(states: Iterable[Shown], table: Table) -> list[bytes]:
    """The timelapse the bot posted after the table's game ended (none if it had not arrived yet)."""
    return [
        a.data
        for state in states
        for a in state.attachments
        if (m := TIMELAPSE.fullmatch(a.filename)) is not None and int(m["id"]) == table.game_id
    ]


def stories(states: Iterable[Shown], table: Table) -> list[Shown]:
    """The states of the message telling the story of the table's game (one message, posted once)."""
    name = f"{table.kind}-{table.game_id}-story.png"
    return [state for state in states if any(a.filename == name for a in state.attachments)]


def boards(states: Iterable[Shown], table: Table) -> list[tuple[int, bytes]]:
    """The pictures ``/game board`` posted, with the version each showed."""
    return [
        (table.boards[state.message_id], a.data)
        for state in states
        for a in state.attachments
        if a.filename == "board.png" and state.message_id in table.boards
    ]


def catan_scores(states: Iterable[Shown], table: Table) -> list[str]:
    """Turn messages whose score line is not the spectator's (public points, card counts) at their version."""
    from bot.catan.turn import scores_line

    wrong = []
    for state in states:
        versions = [
            int(m["version"])
            for a in state.attachments
            if (m := IMAGE.fullmatch(a.filename)) is not None and int(m["id"]) == table.game_id
        ]
        if not versions or versions[0] not in table.views:
            continue
        view = table.views[versions[0]]
        expected = scores_line(view)  # the spectator's, as the bot writes it
        last = state.content.splitlines()[-1]
        if expected not in last:
            wrong.append(f"version {versions[0]}: {last!r}, the spectator's: {expected!r}")
    return wrong
