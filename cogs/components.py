"""Restart-proof buttons and selects: DynamicItems parsing ``am:<match>:<action>:<version>``.

Registered once in ``setup_hook`` (``bot.add_dynamic_items``), so a button
sent before a restart is answered by the new process: everything needed is in
its custom_id (:mod:`bot.gm.ids`).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.gm.ids import BUTTON_TEMPLATE, SELECT_TEMPLATE


class ArenaButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ArenaButton:
        return cls(item)  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("Arena")  # type: ignore[attr-defined]
        if cog is not None:
            await cog.on_component(interaction, self.custom_id, None)


class ArenaSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ArenaSelect:
        return cls(item)  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("Arena")  # type: ignore[attr-defined]
        if cog is not None:
            await cog.on_component(interaction, self.custom_id, list(self.item.values))
