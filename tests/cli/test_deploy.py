"""Deployment settings (issue 15): the database URL, the shards of a process, pruning;
Discord's global limit and each process's part of it (issue 16)."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.app import ArenaBot, ShardedArenaBot, shard_share
from bot.cli.config import DEFAULT_DB_PATH, DEFAULT_PRUNE_DAYS, read_config
from bot.cli.errors import CliError
from bot.gm.pacing import DISCORD_RATE, channel_budget

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


def test_discord_rate_limit() -> None:
    """Discord's global limit for this bot, only when Discord raised it (the pacing
    assumes its usual 50 otherwise): read and checked."""
    assert read_config(TOKEN).discord_rate is None  # Discord's usual limit
    assert DISCORD_RATE == 50
    assert read_config({**TOKEN, "DISCORD_RATE_LIMIT": "200"}).discord_rate == 200
    for bad in ("0", "fast", "-5"):
        with pytest.raises(CliError, match="DISCORD_RATE_LIMIT"):
            read_config({**TOKEN, "DISCORD_RATE_LIMIT": bad})


def test_each_process_paces_its_part_of_the_discord_limit() -> None:
    """The limit is per bot token: a process running 2 of 4 shards gets half of the
    channel calls' part (80%) of it."""
    assert channel_budget(DISCORD_RATE, shard_share(None, None)) == 40
    assert channel_budget(DISCORD_RATE, shard_share(4, (2, 3))) == 20
    assert channel_budget(200, shard_share(4, (0,))) == 40
    assert channel_budget(1, 0.25) == 1  # never nothing at all


async def test_the_bot_paces_channel_calls_to_its_budget(tmp_path: Path) -> None:
    bot = ArenaBot(
        tmp_path / "a.db", None, channel_calls=12, sync_commands=False, tick_seconds=None
    )
    await bot.setup_hook()
    try:
        assert bot.gm.pacer is not None
        assert bot.gm.pacer.limits.global_calls == 12
    finally:
        await bot.store.close()
