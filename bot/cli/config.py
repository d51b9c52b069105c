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


@dataclass(frozen=True)
class BotConfig:
    token: str
    db_path: str
    dev_guild_id: int | None


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
    db_path = (env.get("ARENA_DB_PATH") or "").strip() or DEFAULT_DB_PATH
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
    return BotConfig(token=token, db_path=db_path, dev_guild_id=dev_guild_id)
