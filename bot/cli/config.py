"""Bot configuration from ``.env`` and the environment.

Read once at start-up so a missing or malformed value is reported as a clear
message before anything connects to Discord.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.cli.errors import CliError

DEFAULT_DB_PATH = "./data/arena.db"

MISSING_TOKEN = """\
DISCORD_TOKEN is not set, so the bot cannot log in to Discord.

To fix it:
  1. Copy the example configuration:   cp .env.example .env
  2. Create a bot at https://discord.com/developers/applications
     (New Application > Bot > Reset Token) and copy its token.
  3. Put it in .env:                   DISCORD_TOKEN=your-token-here
     (or export DISCORD_TOKEN in the environment), then run: python -m bot

No token is needed to try the games offline:
  python -m bot games
  python -m bot simulate --game mad --seed 42 --out sim-out

DISCORD_TOKEN n'est pas défini : copiez .env.example en .env et collez-y le
jeton de votre bot (Discord Developer Portal > Bot > Reset Token).
"""


DEFAULT_PRUNE_DAYS = 90


@dataclass(frozen=True)
class BotConfig:
    token: str
    db_path: str
    """``ARENA_DATABASE_URL`` (a SQLite file path or ``postgresql://...``), else the older
    ``ARENA_DB_PATH``, else ``./data/arena.db``."""
    dev_guild_id: int | None
    shard_count: int | None = None
    """``SHARD_COUNT``: shards of the whole bot (None: Discord's recommendation)."""
    shard_ids: tuple[int, ...] | None = None
    """``SHARD_IDS``: the shards this process runs (None: all of them)."""
    prune_days: int = DEFAULT_PRUNE_DAYS
    """``ARENA_PRUNE_DAYS``: ended matches older than this are deleted (0: never)."""
    discord_rate: int | None = None
    """``DISCORD_RATE_LIMIT``: requests per second Discord allows this bot in all, when
    Discord raised it for the bot (None: its usual limit, ``bot.gm.pacing.DISCORD_RATE``):
    what the pacing of channel calls shares out."""


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS`` ("0,1" or "0-3"), checked against each other."""
    raw_count = (env.get("SHARD_COUNT") or "").strip()
    raw_ids = (env.get("SHARD_IDS") or "").strip()
    count: int | None = None
    if raw_count:
        if not raw_count.isdigit() or int(raw_count) < 1:
            raise CliError(f"SHARD_COUNT must be a positive number of shards, not {raw_count!r}.")
        count = int(raw_count)
    if not raw_ids:
        return count, None
    if count is None:
        raise CliError(
            "SHARD_IDS needs SHARD_COUNT: every process must agree on the number of shards\n"
            "(e.g. SHARD_COUNT=4, then SHARD_IDS=0,1 in one process and SHARD_IDS=2,3 in another)."
        )
    ids: list[int] = []
    for part in raw_ids.split(","):
        lo, _, hi = part.strip().partition("-")
        if not lo.isdigit() or (hi and not hi.isdigit()):
            raise CliError(f"SHARD_IDS must list shard numbers like 0,1 or 0-3, not {raw_ids!r}.")
        ids.extend(range(int(lo), int(hi or lo) + 1))
    bad = [i for i in ids if i >= count]
    if bad or len(set(ids)) != len(ids) or not ids:
        raise CliError(
            f"SHARD_IDS={raw_ids!r} must name distinct shards below SHARD_COUNT={count} "
            f"(0 to {count - 1})."
        )
    return count, tuple(sorted(ids))


def load_dotenv_file(path: Path | None = None) -> None:
    """Load ``.env`` from the working directory; real environment variables win."""
    from dotenv import load_dotenv

    load_dotenv(path if path is not None else Path.cwd() / ".env", override=False)


def read_config(env: Mapping[str, str] | None = None) -> BotConfig:
    """Validate the settings; raise :class:`CliError` with a fix-it message."""
    env = os.environ if env is None else env
    token = (env.get("DISCORD_TOKEN") or "").strip()
    if not token:
        raise CliError(MISSING_TOKEN)
    db_path = (
        (env.get("ARENA_DATABASE_URL") or "").strip()
        or (env.get("ARENA_DB_PATH") or "").strip()
        or DEFAULT_DB_PATH
    )
    shard_count, shard_ids = _shards(env)
    raw_prune = (env.get("ARENA_PRUNE_DAYS") or "").strip()
    if raw_prune and not raw_prune.isdigit():
        raise CliError(f"ARENA_PRUNE_DAYS must be a number of days (0: never), not {raw_prune!r}.")
    prune_days = int(raw_prune) if raw_prune else DEFAULT_PRUNE_DAYS
    raw_rate = (env.get("DISCORD_RATE_LIMIT") or "").strip()
    if raw_rate and (not raw_rate.isdigit() or int(raw_rate) < 1):
        raise CliError(
            f"DISCORD_RATE_LIMIT must be the requests per second Discord allows this bot "
            f"(50 unless Discord raised it), not {raw_rate!r}."
        )
    discord_rate = int(raw_rate) if raw_rate else None
    raw_guild = (env.get("DEV_GUILD_ID") or "").strip()
    dev_guild_id: int | None = None
    if raw_guild:
        try:
            dev_guild_id = int(raw_guild)
        except ValueError:
            raise CliError(
                f"DEV_GUILD_ID must be a Discord server id (a number), not {raw_guild!r}.\n"
                "Enable Developer Mode in Discord, right-click your server > Copy Server ID,\n"
                "or leave DEV_GUILD_ID empty to register the slash commands globally."
            ) from None
        if dev_guild_id <= 0:
            raise CliError(f"DEV_GUILD_ID must be a positive server id, not {raw_guild!r}.")
    return BotConfig(
        token=token,
        db_path=db_path,
        dev_guild_id=dev_guild_id,
        shard_count=shard_count,
        shard_ids=shard_ids,
        prune_days=prune_days,
        discord_rate=discord_rate,
    )
