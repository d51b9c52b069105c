"""The Discord application: :class:`ArenaBot` and :func:`run_bot` (``python -m bot``).

``setup_hook`` opens the store, wires the game master to Discord, registers
the restart-proof components, loads the cogs as extensions, syncs the
commands (to one guild when ``dev_guild_id`` is set, globally otherwise) and
resumes live matches and their timers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.gm import Clock, GameMaster, SystemClock
from bot.gm.base import tune_threads
from bot.store import Store

log = logging.getLogger(__name__)
# aiosqlite logs every SQL statement with its parameters at DEBUG, and the
# stored snapshots and decisions hold hands and secret picks; discord.py's HTTP
# and webhook layers log request payloads (private prompts with a player's
# hand) at DEBUG. "Secrets stay secret" (a log line) holds even when the bot
# runs at DEBUG.
SECRET_BEARING_LOGGERS = ("aiosqlite", "discord.http", "discord.webhook.async_")
for _name in SECRET_BEARING_LOGGERS:
    logging.getLogger(_name).setLevel(logging.INFO)

EXTENSIONS = ("cogs.arena",)
TICK_SECONDS = 5.0


class ArenaBot(commands.Bot):
    def __init__(
        self,
        db_path: str | Path,
        dev_guild_id: int | None = None,
        *,
        clock: Clock | None = None,
        tick_seconds: float | None = TICK_SECONDS,
        sync_commands: bool = True,
        **kwargs: Any,
    ) -> None:
        # No privileged intent: everything arrives as interactions.
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, **kwargs
        )
        self.db_path = Path(db_path)
        self.dev_guild_id = dev_guild_id
        self.clock = clock or SystemClock()
        self.tick_seconds = tick_seconds
        self.sync_commands = sync_commands
        self._ticker: asyncio.Task[None] | None = None
        self.store: Store
        self.gm: GameMaster

    async def setup_hook(self) -> None:
        tune_threads()  # the event loop gets the GIL back quickly while AI/images run
        from cogs.publisher import DiscordPublisher
        from cogs.translator import ArenaTranslator

        self.store = await Store.open(self.db_path)
        self.gm = GameMaster(self.store, DiscordPublisher(self), self.clock)
        await self.tree.set_translator(ArenaTranslator())
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        if self.sync_commands:
            await self.sync_tree()
        await self.gm.recover()
        if self.tick_seconds:
            self._ticker = asyncio.create_task(
                self._tick_loop(self.tick_seconds), name="arena-timers"
            )

    async def sync_tree(self) -> list[discord.app_commands.AppCommand]:
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            return await self.tree.sync(guild=guild)
        return await self.tree.sync()

    async def _tick_loop(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.gm.tick()
            except Exception:
                log.exception("timer tick failed")

    async def close(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        store = getattr(self, "store", None)
        await super().close()
        if store is not None:
            await store.close()


def run_bot(token: str, db_path: str, dev_guild_id: int | None) -> None:
    """Run until interrupted; logging is configured by the caller (never logs the token)."""
    # The bot never joins voice: don't warn operators about missing voice libraries.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    bot = ArenaBot(db_path, dev_guild_id)
    bot.run(token, log_handler=None)
