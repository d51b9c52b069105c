"""The game master's side effects over discord.py's REST client.

Every failure (403, unknown message, 429 after discord.py's own retries) is
logged and reported as a value, never raised into the game master.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.gm.msg import Msg
from bot.gm.publisher import DmResult, RetryLater
from cogs.render import edit_kwargs, send_kwargs

log = logging.getLogger(__name__)


class DiscordPublisher:
    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot

    def _channel(self, channel_id: int) -> Any:
        return self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(channel_id)

    async def send(self, channel_id: int, msg: Msg) -> int | None:
        try:
            message = await self._channel(channel_id).send(**send_kwargs(msg))
        except discord.HTTPException as exc:
            log.warning("send to channel %s failed: %s %s", channel_id, exc.status, exc.code)
            return None
        return message.id

    async def send_once(self, channel_id: int, msg: Msg, nonce: str) -> int | None:
        """``send`` with a nonce Discord enforces (``enforce_nonce``, which discord.py sets
        with any nonce): the outbox repeating a post after a restart gets the message
        already created with that nonce back instead of a duplicate (within Discord's
        window of a few minutes)."""
        try:
            message = await self._channel(channel_id).send(**send_kwargs(msg), nonce=nonce)
        except discord.HTTPException as exc:
            log.warning("send to channel %s failed: %s %s", channel_id, exc.status, exc.code)
            return None
        return message.id

    async def edit(self, channel_id: int, message_id: int, msg: Msg) -> bool:
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await partial.edit(**edit_kwargs(msg))
        except discord.NotFound:
            log.info("message %s in %s is gone; posting anew", message_id, channel_id)
            return False
        except discord.HTTPException as exc:
            log.warning("edit of %s failed: %s %s", message_id, exc.status, exc.code)
            if exc.status == 429 or exc.status >= 500:
                raise RetryLater from None  # busy: the outbox tries again later
        return True

    async def retire(self, channel_id: int, message_id: int) -> bool:
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await partial.edit(view=None)  # sends only ``components: []``
        except discord.NotFound:
            log.info("superseded message %s in %s is already gone", message_id, channel_id)
            return False
        except discord.HTTPException as exc:
            # 429 after discord.py's own retries, 5xx...: the old buttons stay, harmless.
            log.warning("could not retire %s: %s %s", message_id, exc.status, exc.code)
            return False
        return True

    async def dm(self, user_id: int, msg: Msg) -> DmResult:
        try:
            data = await self.bot.http.start_private_message(user_id)
            channel = self.bot.get_partial_messageable(
                int(data["id"]), type=discord.ChannelType.private
            )
            await channel.send(**send_kwargs(msg))
        except discord.Forbidden:
            log.info("user %s does not accept DMs", user_id)
            return DmResult.CLOSED
        except discord.HTTPException as exc:
            log.warning("DM to %s failed: %s %s", user_id, exc.status, exc.code)
            return DmResult.FAILED
        return DmResult.SENT

    async def create_thread(self, channel_id: int, name: str) -> int | None:
        try:
            data = await self.bot.http.start_thread_without_message(
                channel_id, name=name, auto_archive_duration=1440, type=11
            )
        except discord.Forbidden:
            log.info("may not create threads in %s; playing in the channel", channel_id)
            return None
        except discord.HTTPException as exc:
            log.warning("thread creation in %s failed: %s %s", channel_id, exc.status, exc.code)
            return None
        return int(data["id"])
