"""The game master's side effects over discord.py's REST client.

Every failure (403, unknown message, 429 after discord.py's own retries) is
logged and reported as a value, never raised into the game master.

Edits of a public message go, when they can, through the token of a recent click on
one of its buttons (:meth:`DiscordPublisher.clicked`): a component interaction
deferred without a new message has that message as its original response, which its
token may edit for 15 minutes, and Discord does not count interaction endpoints in a
bot's global rate limit (issue 16 item 4). Otherwise, and when Discord refuses the
token, the edit goes through the channel as before.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord

from bot.gm.msg import Msg
from bot.gm.publisher import DmResult, RetryLater
from cogs.deferral import answer_first
from cogs.hooks import Hook
from cogs.render import editing, sending

log = logging.getLogger(__name__)


TOKEN_LIFE = 15 * 60.0
"""Seconds an interaction's token may be used after the interaction (Discord: 15 min)."""
TOKEN_MARGIN = 60.0
"""Seconds of that life left unused: the token is tried only while it surely lives (the
interaction was created at Discord a little before it reached the bot)."""
HANDLES_KEPT = 5_000
"""Public messages whose latest click is remembered (the oldest are forgotten first)."""


class DiscordPublisher:
    def __init__(self, bot: discord.Client, clock: Callable[[], float] = time.monotonic) -> None:
        self.bot = bot
        self.clock = clock
        self._handles: OrderedDict[int, tuple[float, Hook]] = OrderedDict()
        """Public message id -> (when, the webhook of the latest click on it deferred
        without a message): two values, not the click's whole ``Interaction``."""

    # --- edits through a click's token -------------------------------------------------
    def clicked(self, interaction: discord.Interaction) -> None:
        """``interaction``, a click on a public message of the bot, was answered without
        a new message (deferred, or the message edited by the answer: its original
        response is that message): its token may edit the message for a while. Kept only
        in memory, never logged."""
        message = interaction.message
        if message is None or message.flags.ephemeral:
            return
        now = self.clock()
        self._handles[message.id] = (now, Hook.of(interaction))
        self._handles.move_to_end(message.id)
        # Oldest first: forget the clicks too old to use, and the oldest past the cap.
        while self._handles:
            when, _ = next(iter(self._handles.values()))
            if now - when <= TOKEN_LIFE - TOKEN_MARGIN and len(self._handles) <= HANDLES_KEPT:
                break
            self._handles.popitem(last=False)

    def has_token(self, message_id: int) -> bool:
        """Whether an edit of ``message_id`` would go through a click's token now."""
        return self._handle(message_id) is not None

    def _handle(self, message_id: int) -> Hook | None:
        entry = self._handles.get(message_id)
        if entry is None:
            return None
        when, hook = entry
        if self.clock() - when > TOKEN_LIFE - TOKEN_MARGIN:
            del self._handles[message_id]
            return None
        return hook

    def exempt(self, message_id: int) -> bool:
        """Whether an edit of ``message_id`` can go through a click's token now, which
        Discord counts neither in the bot's global rate limit nor in the channel's (the
        pacing gives such edits a budget of their own)."""
        return self._handle(message_id) is not None

    async def _edit_by_token(self, message_id: int, msg: Msg) -> bool | None:
        """The edit through a click's token: True done, False the message is gone, None
        no usable token (none, too old, or Discord refused it: it is forgotten)."""
        hook = self._handle(message_id)
        if hook is None:
            return None
        try:
            with editing(msg) as kwargs:
                await hook.edit(self.bot, None, **kwargs)
        except discord.HTTPException as exc:
            if exc.status == 404 and exc.code == 10008:  # the message itself is gone
                log.info("message %s is gone; posting anew", message_id)
                self._handles.pop(message_id, None)
                return False
            if exc.status == 429 or exc.status >= 500:
                log.warning("edit of %s failed: %s %s", message_id, exc.status, exc.code)
                raise RetryLater from None  # busy: the outbox tries again later
            # The token is dead (401 50027, 404 10015) or refused: the channel's route.
            log.info(
                "a click's token did not edit %s: %s %s; by the channel",
                message_id,
                exc.status,
                exc.code,
            )
            self._handles.pop(message_id, None)
            return None
        return True

    def _channel(self, channel_id: int) -> Any:
        return self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(channel_id)

    async def send(self, channel_id: int, msg: Msg) -> int | None:
        await answer_first()
        try:
            with sending(msg) as kwargs:
                message = await self._channel(channel_id).send(**kwargs)
        except discord.HTTPException as exc:
            log.warning("send to channel %s failed: %s %s", channel_id, exc.status, exc.code)
            return None
        return message.id

    async def send_once(self, channel_id: int, msg: Msg, nonce: str) -> int | None:
        """``send`` with a nonce Discord enforces (``enforce_nonce``, which discord.py sets
        with any nonce): the outbox repeating a post after a restart gets the message
        already created with that nonce back instead of a duplicate (within Discord's
        window of a few minutes)."""
        await answer_first()
        try:
            with sending(msg) as kwargs:
                message = await self._channel(channel_id).send(**kwargs, nonce=nonce)
        except discord.HTTPException as exc:
            log.warning("send to channel %s failed: %s %s", channel_id, exc.status, exc.code)
            return None
        return message.id

    async def edit(self, channel_id: int, message_id: int, msg: Msg) -> bool:
        await answer_first()
        by_token = await self._edit_by_token(message_id, msg)
        if by_token is not None:
            return by_token
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            with editing(msg) as kwargs:
                await partial.edit(**kwargs)
        except discord.NotFound:
            log.info("message %s in %s is gone; posting anew", message_id, channel_id)
            return False
        except discord.HTTPException as exc:
            log.warning("edit of %s failed: %s %s", message_id, exc.status, exc.code)
            if exc.status == 429 or exc.status >= 500:
                raise RetryLater from None  # busy: the outbox tries again later
        return True

    async def retire(self, channel_id: int, message_id: int) -> bool:
        await answer_first()
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
        await answer_first()
        try:
            data = await self.bot.http.start_private_message(user_id)
            channel = self.bot.get_partial_messageable(
                int(data["id"]), type=discord.ChannelType.private
            )
            with sending(msg) as kwargs:
                await channel.send(**kwargs)
        except discord.Forbidden:
            log.info("user %s does not accept DMs", user_id)
            return DmResult.CLOSED
        except discord.HTTPException as exc:
            log.warning("DM to %s failed: %s %s", user_id, exc.status, exc.code)
            return DmResult.FAILED
        return DmResult.SENT

    async def create_thread(self, channel_id: int, name: str) -> int | None:
        await answer_first()
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
