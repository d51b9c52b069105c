"""``python -m bot``: check the configuration, then hand over to the Discord app.

``bot.app`` (and discord.py) are imported only here, lazily, so every other
command works offline and a missing piece is reported as a message.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.cli.config import load_dotenv_file, read_config
from bot.cli.errors import CliError
from bot.cli.logsetup import configure_logging


def run(dotenv_path: Path | None = None) -> int:
    load_dotenv_file(dotenv_path)
    config = read_config()
    configure_logging(config.token)
    try:
        from bot.app import run_bot
    except ImportError as exc:
        raise CliError(
            f"The Discord layer could not be loaded ({exc}).\n"
            "Reinstall the project with: pip install -e .\n"
            "The offline commands still work: python -m bot games | simulate | verify"
        ) from None
    from bot import event_loop

    try:
        event_loop.chosen()
    except (ValueError, ImportError) as exc:
        raise CliError(f"{exc}.") from None
    login_failure, intents_required, unreachable = _discord_errors()
    try:
        run_bot(
            config.token,
            config.db_path,
            config.dev_guild_id,
            shard_count=config.shard_count,
            shard_ids=config.shard_ids,
            prune_days=config.prune_days,
            discord_rate=config.discord_rate,
        )
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
        return 0
    except login_failure:
        raise CliError(
            "Discord refused DISCORD_TOKEN (improper token).\n"
            "Open https://discord.com/developers/applications > your app > Bot > Reset Token,\n"
            "and put the new token in .env as DISCORD_TOKEN=..."
        ) from None
    except intents_required:
        raise CliError(
            "Discord refused a privileged intent the bot asked for.\n"
            "Open https://discord.com/developers/applications > your app > Bot and enable\n"
            "the intents listed under 'Privileged Gateway Intents'."
        ) from None
    except unreachable as exc:
        raise CliError(
            f"Could not reach Discord ({type(exc).__name__}: {exc}).\n"
            "Check this machine's network and DNS, then start the bot again.\n"
            "The offline commands still work: python -m bot games | simulate | verify"
        ) from None
    return 0


def _discord_errors() -> tuple[
    type[BaseException], type[BaseException], tuple[type[BaseException], ...]
]:
    """discord.py's login errors and the network failures that mean "Discord is out of reach".

    Never-raised placeholders stand in if discord.py is absent.
    """
    try:
        import discord
    except ImportError:
        return _Never, _Never, (_Never,)
    network = (
        OSError,  # DNS, refused or reset connections (aiohttp's connection errors are OSErrors)
        TimeoutError,
        discord.GatewayNotFound,
        discord.ConnectionClosed,
        discord.DiscordServerError,
    )
    return discord.LoginFailure, discord.PrivilegedIntentsRequired, network


class _Never(Exception):
    """Stands for an exception type that cannot occur."""
