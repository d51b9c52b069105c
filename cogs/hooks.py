"""A click's webhook kept as two values, not as the click's ``Interaction``.

Editing a message later through a click's token (a public table, a private prompt) needs
only the application's id and the token. Keeping the whole ``discord.Interaction`` for
that (up to 5,000 public messages, and every open private prompt) kept its parsed
message, member, user and components alive, with a cycle between the interaction and its
response: under load these survived young garbage collections by the hundred thousand
and made them the event loop's worst stalls (issue 16 item 5). The requests are the ones
``Interaction.edit_original_response`` and ``Webhook.send``/``edit_message`` make, and
Discord's answer is not parsed into a ``Message`` the bot would not read (issue 16: CPU
per click).

The token is a secret: a :class:`Hook` never shows it in its ``repr``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import discord
from discord.http import MultipartParameters
from discord.webhook.async_ import (
    async_context,
    handle_message_parameters,
    interaction_message_response_params,
)


@dataclass(frozen=True, slots=True)
class Hook:
    """The webhook of one interaction: its application's id and its token (15 minutes)."""

    application_id: int
    token: str = field(repr=False)

    @classmethod
    def of(cls, interaction: discord.Interaction) -> Hook:
        return cls(interaction.application_id, interaction.token)

    def _request(self, bot: discord.Client, params: MultipartParameters) -> dict[str, Any]:
        """The arguments every webhook request takes: the bot's own HTTP session and
        proxy (as discord.py gives an interaction's followup webhook), and the body."""
        hook = discord.Webhook.partial(self.application_id, self.token, client=bot)
        return {
            "session": hook.session,
            "proxy": hook.proxy,
            "proxy_auth": hook.proxy_auth,
            "payload": params.payload,
            "multipart": params.multipart,
            "files": params.files,
        }

    async def edit(self, bot: discord.Client, message_id: int | None, **kwargs: Any) -> None:
        """Edit the interaction's original response (``message_id`` None: for a click,
        the clicked message) or one of its follow-ups; ``kwargs`` as for
        ``Interaction.edit_original_response`` (:func:`cogs.render.editing`)."""
        with handle_message_parameters(
            previous_allowed_mentions=bot.allowed_mentions, **kwargs
        ) as params:
            adapter = async_context.get()
            request = self._request(bot, params)
            if message_id is None:
                await adapter.edit_original_interaction_response(
                    self.application_id, self.token, **request
                )
            else:
                await adapter.edit_webhook_message(
                    self.application_id,
                    self.token,
                    message_id,
                    with_components=bool(kwargs.get("view")),  # as Webhook.edit_message
                    **request,
                )

    async def _respond(
        self,
        bot: discord.Client,
        interaction: discord.Interaction,
        kind: discord.InteractionResponseType,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """Answer ``interaction`` (of this webhook) with a message callback of ``kind``,
        in one call; discord.py is told it was answered, as its own ``edit_message`` and
        ``send_message`` do. Discord's answer, not parsed into objects."""
        params = interaction_message_response_params(
            type=kind.value, previous_allowed_mentions=bot.allowed_mentions, **kwargs
        )
        http = bot.http
        data = await async_context.get().create_interaction_response(
            interaction.id,
            self.token,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            params=params,
        )
        interaction.response._response_type = kind
        return cast("dict[str, Any]", data)

    async def update_clicked(
        self, bot: discord.Client, interaction: discord.Interaction, **kwargs: Any
    ) -> None:
        """Acknowledge the click ``interaction`` by editing the clicked message, in the one
        call (an ``UPDATE_MESSAGE`` callback) where a deferral and an edit of the original
        response would be two; ``kwargs`` as for :meth:`edit`."""
        await self._respond(
            bot, interaction, discord.InteractionResponseType.message_update, **kwargs
        )

    async def answer_privately(
        self, bot: discord.Client, interaction: discord.Interaction, **kwargs: Any
    ) -> int:
        """Acknowledge ``interaction`` with a new private message (a
        ``CHANNEL_MESSAGE_WITH_SOURCE`` callback, ephemeral), in the one call where a
        deferral and a follow-up would be two; its message id (Discord's answer carries
        it). ``kwargs`` as for :meth:`send`."""
        flags = discord.MessageFlags._from_value(0)
        flags.ephemeral = True
        data = await self._respond(
            bot,
            interaction,
            discord.InteractionResponseType.channel_message,
            flags=flags,
            **kwargs,
        )
        return int(data["resource"]["message"]["id"])

    async def send(self, bot: discord.Client, *, ephemeral: bool, **kwargs: Any) -> int:
        """A follow-up of the interaction (private when ``ephemeral``); its message id.
        ``kwargs`` as for ``Webhook.send`` (:func:`cogs.render.sending`)."""
        flags = discord.MessageFlags._from_value(0)
        flags.ephemeral = ephemeral
        with handle_message_parameters(
            flags=flags, previous_allowed_mentions=bot.allowed_mentions, **kwargs
        ) as params:
            data = await async_context.get().execute_webhook(
                self.application_id,
                self.token,
                wait=True,
                with_components="view" in kwargs,  # as Webhook.send
                **self._request(bot, params),
            )
        # With ``wait`` Discord answers the message (discord.py types it optional).
        return int(cast("dict[str, Any]", data)["id"])
