"""The Discord application: :class:`ArenaBot` and :func:`run_bot` (``python -m bot``).

``setup_hook`` opens the store, wires the game master to Discord, registers
the restart-proof components, loads the cogs as extensions, syncs the
commands (to one guild when ``dev_guild_id`` is set, globally otherwise) and
resumes live matches and their timers.

:func:`run_bot` runs :class:`ShardedArenaBot` (discord.py's ``AutoShardedBot``):
``SHARD_COUNT`` and ``SHARD_IDS`` split the shards between processes, which
share one PostgreSQL database (``ARENA_DATABASE_URL``); see ``docs/deploy.md``.
Every process answers the interactions of its shards (DMs arrive on shard 0,
for matches of any guild: the store is shared); the timers run in the one that
holds the timers lease (:mod:`bot.gm.lease`), which also prunes old matches.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot import event_loop
from bot.collector import QuietCollector
from bot.gm import Clock, GameMaster, SystemClock, drawing, thinking
from bot.gm.base import tune_threads
from bot.gm.pacing import DISCORD_RATE, PaceLimits, Pacer, channel_budget
from bot.store import Store
from bot.store.backend import is_postgres_url

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
PRUNE_EVERY = 3600.0
"""Seconds between two prunings of old finished matches (``ARENA_PRUNE_DAYS``)."""
DAY = 86400.0


class ArenaBot(commands.Bot):
    long_lived = False
    """Start-up settles a long-lived process for a calm event loop (issue 16 item 5): the AI
    worker processes and the drawing processes (:mod:`bot.gm.drawing`) are started before
    the first click (in a thread: starting one blocks), and, once ready, what start-up
    loaded (modules, game data, recovered matches) is moved out of the garbage collector's
    sight (``gc.freeze``), and garbage is collected between callbacks, in small steps that
    freeze what they kept, and fully only when nobody is playing, not inside clicks
    (:class:`bot.collector.QuietCollector`). The deployed bot
    (:class:`ShardedArenaBot`) and ``bench/bench_load.py`` set it; tests booting many bots
    in one process leave it off (frozen objects are never collected, and the worker
    processes would outlive each test)."""

    def __init__(
        self,
        db_path: str | Path,
        dev_guild_id: int | None = None,
        *,
        clock: Clock | None = None,
        tick_seconds: float | None = TICK_SECONDS,
        sync_commands: bool = True,
        prune_days: int = 0,
        channel_calls: int | None = None,
        **kwargs: Any,
    ) -> None:
        # No privileged intent: everything arrives as interactions.
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, **kwargs
        )
        self.db_path: str | Path = db_path if is_postgres_url(db_path) else Path(db_path)
        self.prune_days = prune_days
        self.channel_calls = channel_calls
        """Channel calls per second this process may make (:func:`bot.gm.pacing.channel_budget`);
        None: the pacing's default, one process with Discord's usual limit."""
        self._pruned_at = float("-inf")
        self.dev_guild_id = dev_guild_id
        self.clock = clock or SystemClock()
        self.tick_seconds = tick_seconds
        self.sync_commands = sync_commands
        self._ticker: asyncio.Task[None] | None = None
        self.collector: QuietCollector | None = None
        self.store: Store
        self.gm: GameMaster

    async def setup_hook(self) -> None:
        tune_threads()  # the event loop gets the GIL back quickly while AI/images run
        from cogs.publisher import DiscordPublisher
        from cogs.translator import ArenaTranslator

        self.store = await Store.open(self.db_path)
        self.gm = GameMaster(self.store, DiscordPublisher(self), self.clock)
        if self.channel_calls is not None and self.gm.pacer is not None:
            self.gm.pacer = Pacer(self.clock, PaceLimits(global_calls=self.channel_calls))
        await self.tree.set_translator(ArenaTranslator())
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        if self.sync_commands:
            await self.sync_tree()
        await self.gm.recover()
        if self.long_lived:
            await asyncio.to_thread(thinking.warm)
            await asyncio.to_thread(drawing.start)
            gc.collect()
            gc.freeze()
            self.collector = QuietCollector()
            self.collector.start()
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
                await self.prune()
            except Exception:
                log.exception("timer tick failed")

    async def prune(self) -> list[int]:
        """Delete ended matches older than ``prune_days`` (their log file was posted), at
        most once per ``PRUNE_EVERY`` and only where the timers run; the ids pruned."""
        now = self.clock.now()
        lease = self.gm.timer_lease
        if self.prune_days <= 0 or now - self._pruned_at < PRUNE_EVERY:
            return []
        if lease is not None and not lease.held:
            return []
        self._pruned_at = now
        pruned: list[int] = []
        while batch := await self.store.prune(now - self.prune_days * DAY):
            pruned += batch
        return pruned

    async def close(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        store = getattr(self, "store", None)
        gm = getattr(self, "gm", None)
        if gm is not None:
            gm.stop_pacing()  # held rows stay in the outbox for the next start
        await super().close()
        if gm is not None and gm.timer_lease is not None:
            with contextlib.suppress(Exception):  # it expires by itself anyway
                await gm.timer_lease.release()
        if store is not None:
            await store.close()
        if self.collector is not None:
            await self.collector.stop()
        if self.long_lived:
            await asyncio.to_thread(drawing.shutdown)
            await asyncio.to_thread(thinking.shutdown)  # started at setup: stopped here


class ShardedArenaBot(ArenaBot, commands.AutoShardedBot):
    """The bot as deployed: discord.py's ``AutoShardedBot`` (one gateway connection per
    shard in one process). ``shard_count``/``shard_ids`` None: Discord's recommended
    count, all shards here (one process); set both to split the shards between
    processes sharing a PostgreSQL database."""

    long_lived = True


def shard_share(shard_count: int | None, shard_ids: tuple[int, ...] | None) -> float:
    """This process's part of the bot's shards (all of them unless ``SHARD_IDS`` says)."""
    if shard_count is None or shard_ids is None:
        return 1.0
    return len(shard_ids) / shard_count


def run_bot(
    token: str,
    db_path: str,
    dev_guild_id: int | None,
    *,
    shard_count: int | None = None,
    shard_ids: tuple[int, ...] | None = None,
    prune_days: int = 0,
    discord_rate: int | None = None,
) -> None:
    """Run until interrupted; logging is configured by the caller (never logs the token).

    ``discord_rate``: Discord's global limit for this bot (None: its usual one), shared by
    the processes that run its shards: this one paces its channel calls to its part (its
    shards' share)."""
    # The bot never joins voice: don't warn operators about missing voice libraries.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    bot = ShardedArenaBot(
        db_path,
        dev_guild_id,
        prune_days=prune_days,
        channel_calls=channel_budget(
            discord_rate or DISCORD_RATE, shard_share(shard_count, shard_ids)
        ),
        shard_count=shard_count,
        shard_ids=list(shard_ids) if shard_ids is not None else None,
    )
    log.info("event loop: %s", event_loop.install())
    bot.run(token, log_handler=None)
