"""The start-up report's lines that the process tests do not reach: many servers, shards, missing drawing
processes, a PostgreSQL password, and which differences between registered and coded commands count."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

from bot.core.ready_report import command_shape, database_line, differences, drawing_line, servers_line, shards_line


def test_many_servers_are_counted_and_a_few_named() -> None:
    guilds: Any = [SimpleNamespace(id=i, name=f"server {i}") for i in range(8, 0, -1)]
    assert servers_line(guilds) == (
        logging.INFO,
        "servers: 8 (server 1, server 2, server 3, server 4, server 5 and 3 more)",
    )
    level, line = servers_line([])
    assert level == logging.WARNING and "python -m bot invite" in line


def test_shards_drawing_processes_and_the_database_are_told_plainly() -> None:
    assert shards_line(8, [0, 1, 2, 3])[1] == "shards: 0, 1, 2, 3 of 8 in this process"
    assert shards_line(2, None)[1] == "shards: 0, 1 of 2 in this process"
    assert drawing_line(2, [41]) == (logging.WARNING, "drawing processes: 1 of 2 ready (pid 41)")
    assert drawing_line(2, [41, 42]) == (logging.INFO, "drawing processes: 2 ready (pids 41, 42)")
    assert database_line("postgresql://bot:secret@db:5432/boardhost")[1] == (
        "database: PostgreSQL postgresql://bot:***@db:5432/boardhost"
    )


def test_only_what_breaks_answering_counts_as_a_difference() -> None:
    coded = {"type": 1, "name": "game", "options": [{"type": 1, "name": "status", "description": "Scores"}]}
    as_discord_returns = {**coded, "id": "1", "version": "2", "description": "Other words", "options": [
        {"type": 1, "name": "status", "description": "Other words", "required": False}]}  # fmt: skip
    renamed = {**coded, "options": [{"type": 1, "name": "state", "description": "Scores"}]}
    code = {"game": command_shape(coded)}

    assert differences(code, {"game": command_shape(as_discord_returns)}) == []
    assert differences(code, {"game": command_shape(renamed)}) == ["changed since: game"]
    assert differences(code, {}) == ["not registered: game"]
