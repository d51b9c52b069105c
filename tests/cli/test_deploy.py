"""Deployment settings (issue 15): the database URL, the shards of a process, pruning."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.app import ShardedArenaBot
from bot.cli.config import DEFAULT_DB_PATH, DEFAULT_PRUNE_DAYS, read_config
from bot.cli.errors import CliError

TOKEN = {"DISCORD_TOKEN": "abc"}


def test_the_database_url_wins_over_the_old_path_setting() -> None:
    assert read_config(TOKEN).db_path == DEFAULT_DB_PATH
    assert read_config({**TOKEN, "ARENA_DB_PATH": "x.db"}).db_path == "x.db"
    url = "postgresql://arena@db/arena"
    cfg = read_config({**TOKEN, "ARENA_DB_PATH": "x.db", "ARENA_DATABASE_URL": url})
    assert cfg.db_path == url


def test_shards_of_a_process() -> None:
    cfg = read_config(TOKEN)
    assert (cfg.shard_count, cfg.shard_ids) == (None, None)
    cfg = read_config({**TOKEN, "SHARD_COUNT": "4", "SHARD_IDS": "2-3"})
    assert (cfg.shard_count, cfg.shard_ids) == (4, (2, 3))
    cfg = read_config({**TOKEN, "SHARD_COUNT": "4", "SHARD_IDS": "3, 0"})
    assert cfg.shard_ids == (0, 3)


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT"),
        ({"SHARD_IDS": "0"}, "needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "below SHARD_COUNT=2"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "distinct"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "a"}, "shard numbers"),
        ({"ARENA_PRUNE_DAYS": "-1"}, "ARENA_PRUNE_DAYS"),
    ],
)
def test_bad_deploy_settings_are_clear_messages(env: dict[str, str], says: str) -> None:
    with pytest.raises(CliError, match=says):
        read_config({**TOKEN, **env})


def test_prune_days() -> None:
    assert read_config(TOKEN).prune_days == DEFAULT_PRUNE_DAYS
    assert read_config({**TOKEN, "ARENA_PRUNE_DAYS": "0"}).prune_days == 0


async def test_the_deployed_bot_is_auto_sharded(tmp_path: Path) -> None:
    # Built, never started (nothing to close: the store opens in setup_hook).
    bot = ShardedArenaBot(tmp_path / "a.db", None, shard_count=4, shard_ids=[2, 3], prune_days=30)
    assert isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_count, bot.shard_ids, bot.prune_days) == (4, [2, 3], 30)
    assert type(bot).connect is discord.AutoShardedClient.connect
