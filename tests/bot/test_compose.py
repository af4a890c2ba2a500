"""compose.yaml, the deployment people copy: PostgreSQL, the migration step before any bot, and bot processes whose
shard ranges cover every shard exactly once, each command line one the bot accepts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from bot.__main__ import parser, with_shards
from bot.core.config import Config

COMPOSE = Path(__file__).resolve().parents[2] / "compose.yaml"


def services() -> dict[str, Any]:
    return dict(yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))["services"])


def test_the_bots_start_after_the_migration_which_starts_after_postgresql() -> None:
    found = services()
    assert found["migrate"]["command"] == ["python", "-m", "bot", "migrate"]
    assert found["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    bots = [name for name in found if name.startswith("bot-")]
    assert len(bots) >= 2
    for name in bots:
        assert found[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        url = found[name]["environment"]["BOARDHOST_DATABASE"]
        assert url.startswith("postgresql://") and url == found["migrate"]["environment"]["BOARDHOST_DATABASE"]


def test_the_bots_shard_ranges_cover_every_shard_once() -> None:
    counts, covered = set(), []
    for name, service in services().items():
        if not name.startswith("bot-"):
            continue
        command = service["command"]
        assert command[:3] == ["python", "-m", "bot"]
        args = parser().parse_args(command[3:])
        config = with_shards(Config(), args.shard_ids, args.shard_count)
        assert config.shard_count is not None and config.shard_ids is not None
        counts.add(config.shard_count)
        covered += config.shard_ids
    assert len(counts) == 1, "every process must name the same shard count"
    assert sorted(covered) == list(range(counts.pop()))


def test_shard_options_make_an_auto_sharded_bot_for_those_shards() -> None:
    from discord.ext import commands

    from bot.app import BoardHost, make_bot

    args = parser().parse_args(["--shard-ids", "0-3", "--shard-count", "8"])
    bot = make_bot(with_shards(Config(), args.shard_ids, args.shard_count))
    assert isinstance(bot, commands.AutoShardedBot) and bot.shard_count == 8 and bot.shard_ids == [0, 1, 2, 3]
    single = make_bot(Config())
    assert type(single) is BoardHost and not isinstance(single, commands.AutoShardedBot)
