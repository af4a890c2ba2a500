"""Command mentions: the ids sync stores become </name:id>; without one, the readable /name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.core.command_mentions import CommandMentions, load_command_ids
from bot.storage.command_ids import CommandIds
from bot.storage.opening import open_database


class Tree:
    """A command tree whose fetch answers as Discord does (or fails)."""

    def __init__(self, ids: dict[str, int] | None) -> None:
        self.ids = ids
        self.fetched = 0

    async def fetch_commands(self, *, guild: Any = None) -> list[Any]:
        self.fetched += 1
        if self.ids is None:
            raise OSError("Discord out of reach")
        return [type("Command", (), {"name": n, "id": i})() for n, i in self.ids.items()] if guild is None else []


def test_a_known_command_becomes_a_clickable_mention_and_an_unknown_one_stays_readable() -> None:
    command_mention = CommandMentions({None: {"game": 111}, 5: {"game": 555}})

    assert command_mention("game back") == "</game back:111>"
    assert command_mention("game back", guild_id=5) == "</game back:555>"
    assert command_mention("catan new") == "/catan new"


def test_commands_synced_to_one_guild_only_are_mentioned_there() -> None:
    command_mention = CommandMentions({5: {"game": 555}})

    assert command_mention("game  back") == "</game back:555>"
    assert command_mention.registered_guilds() == [5]


async def test_stored_ids_are_replaced_per_scope_and_loaded_at_start(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "db.sqlite3")
    store = CommandIds(db)
    await store.replace(None, {"game": 1, "catan": 2})
    await store.replace(5, {"game": 3})
    await store.replace(None, {"game": 4})
    tree = Tree({"game": 999})

    command_mention = await load_command_ids(db, tree, None)  # type: ignore[arg-type]

    assert await store.load() == {None: {"game": 4}, 5: {"game": 3}}
    assert tree.fetched == 0
    assert command_mention("catan new") == "/catan new" and command_mention("game back") == "</game back:4>"
    await db.close()


async def test_without_stored_ids_the_bot_fetches_and_stores_them(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "db.sqlite3")

    command_mention = await load_command_ids(db, Tree({"game": 7}), None)  # type: ignore[arg-type]

    assert command_mention("game back") == "</game back:7>"
    assert await CommandIds(db).load() == {None: {"game": 7}}
    await db.close()


async def test_a_failed_fetch_leaves_the_readable_fallback(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "db.sqlite3")

    command_mention = await load_command_ids(db, Tree(None), None)  # type: ignore[arg-type]

    assert command_mention("game back") == "/game back"
    await db.close()
